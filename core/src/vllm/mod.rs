//! vLLM: everything that is the engine's own. Its releases and defaults ([`version`]), its
//! startup report ([`report`]), its non-KV memory ([`overhead`]) and its logs ([`logparse`]).
//! Nothing here depends on the page; an emulation of another engine lands as a sibling folder.

mod dtype;
pub mod knobs;
pub mod layout;
pub mod logparse;
pub mod mamba;
pub mod overhead;
pub mod plan;
pub mod printed;
pub mod refusal;
pub mod report;
pub mod tp;
pub mod version;

pub use dtype::{runs_float32, runs_in, to_float32};
pub use knobs::{reusable_prefix_tokens, Knobs, Lora, Speculative};
pub use layout::{blocks_per_request, longest_context};
pub use report::{
    gib_text, printed_tokens, report, whole_sequences, Budget, Groups, KvMemory, MambaAlign,
    MambaMode, Margin, Overhead, Refusal, RefusalKind, Report, Scenario, LOAD_RESERVE,
};
pub use tp::tp_refusal;
pub use version::{
    default_max_num_seqs, family, requested_bytes, serve_defaults, Engine, Family, Rounding,
    Version, BF16_FALLBACK, FLOAT16_UNSTABLE, NEWEST, OLDEST, V1_BELOW_AMPERE,
};
