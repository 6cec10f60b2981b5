//! kvbudget: the web page (wasm32) and the `kvbudget` command line (native) over one core.

pub use kvbudget_core as core;

pub mod charts;
pub mod page;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
