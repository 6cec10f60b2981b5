//! English texts. Each has a twin of the same name and type in `zh/`.
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
