//! 简体中文 texts: the twins of `en/`, name for name. Terms follow the course's Chinese glossary
//! (KV 缓存, 显存, 张量并行, 块, 并发…).
#![allow(missing_docs)]

crate::text_modules!(page, inputs, results, panels, charts, explain, errors, config);
