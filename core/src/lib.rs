//! kvbudget's core: exact KV-cache arithmetic for serving an LLM, and the engines' own accounting.
//!
//! Bytes are integers. Everything here is plain Rust with no browser dependency, so the CLI,
//! the web page and the tests share one implementation. Data flows one way:
//! URL ([`query`]) → [`scenario`] → evaluation ([`calc`]) → [`explain`] and [`chart_data`] → views.
//! What is an engine's own (releases, startup report, overhead, logs) lives in [`vllm`] and
//! [`sglang`].

#![warn(missing_docs)]

pub mod calc;
pub mod capacity;
pub mod chart_data;
pub mod config;
pub mod engines;
pub mod error;
pub mod explain;
pub mod fields;
pub mod fixes;
pub mod float16;
pub mod floatfmt;
pub mod gpus;
pub mod handoff;
pub mod i18n;
pub mod llamacpp;
pub mod model;
pub mod presets;
pub mod pyjson;
pub mod query;
pub mod repertoire;
pub mod report_json;
pub mod scenario;
pub mod seed;
pub mod sglang;
pub mod units;
pub mod verify;
pub mod vllm;

pub use error::{KvError, Result};
pub use model::{Attention, KvDtype, ModelDtype, ModelSpec};
pub use units::Bytes;
