//! 简体中文 texts: the twins of `en/`, name for name. Terms follow the course's Chinese glossary
//! (KV 缓存, 显存, 张量并行, 块, 并发…).
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
