//! English texts. Each has a twin of the same name and type in `zh/`.
#![allow(missing_docs)]

crate::text_modules!(page, inputs, results, panels, charts, explain, errors, config);
