//! English texts. Each has a twin of the same name and type in `zh/`.
#![allow(missing_docs)]

mod page;
pub use page::*;
mod inputs;
pub use inputs::*;
mod results;
pub use results::*;
mod panels;
pub use panels::*;
mod charts;
pub use charts::*;
