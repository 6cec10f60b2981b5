//! SGLang: everything that is the engine's own, beside [`crate::vllm`]. Its releases and the
//! rules that change with them ([`version`]), the GPU and checkpoint facts it reads ([`cards`]),
//! its GPU-dependent defaults and `mem_fraction_static` ([`defaults`]), the pool arithmetic
//! ([`pool`]), the profile from a scenario ([`profile`]), its startup lines ([`lines`]), the
//! report ([`report`]) and its logs ([`logparse`]). Nothing here depends on the page.

pub mod cards;
pub mod defaults;
pub mod lines;
pub mod logparse;
pub mod pool;
pub mod profile;
pub mod report;
pub mod version;

pub use defaults::{SpecAlgorithm, Vit};
pub use report::{
    default_fraction, launch_command, report, Mamba, Memory, ModelExtras, Range, Report, Scenario,
};
pub use version::{Version, NEWEST, OLDEST};
