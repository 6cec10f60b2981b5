//! 简体中文 texts: the twins of `en/`, name for name. Terms follow the course's Chinese glossary
//! (KV 缓存, 显存, 张量并行, 块, 并发…).
#![allow(missing_docs)]

mod charts;
mod config;
mod errors;
mod explain;
mod inputs;
mod page;
mod panels;
mod results;
pub use charts::*;
pub use config::*;
pub use errors::*;
pub use explain::*;
pub use inputs::*;
pub use page::*;
pub use panels::*;
pub use results::*;

/// Every text: (name, text).
pub fn all() -> Vec<(&'static str, &'static str)> {
    page::ALL
        .iter()
        .chain(inputs::ALL)
        .chain(results::ALL)
        .chain(panels::ALL)
        .chain(charts::ALL)
        .chain(explain::ALL)
        .chain(errors::ALL)
        .chain(config::ALL)
        .copied()
        .collect()
}
