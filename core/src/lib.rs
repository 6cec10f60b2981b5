//! kvbudget's core: exact KV-cache arithmetic for serving an LLM with vLLM on one GPU.
//!
//! Bytes are integers. Everything here is plain Rust with no browser dependency, so the CLI,
//! the web page and the tests share one implementation.

#![warn(missing_docs)]

pub mod calc;
pub mod capacity;
pub mod config;
pub mod error;
pub mod logparse;
pub mod model;
pub mod overhead;
pub mod presets;
pub mod pyjson;
pub mod query;
pub mod repertoire;
pub mod report_json;
pub mod seed;
pub mod units;
pub mod verify;
pub mod vllm;

pub use error::{KvError, Result};
pub use model::{Attention, KvDtype, ModelDtype, ModelSpec};
pub use units::Bytes;
