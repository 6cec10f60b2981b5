//! The engines behind the page: each turns the page's scenario into its own and answers with the
//! figures the page shows (its headline, lines, derivation and charts' data). vLLM's answer is
//! computed on the page (`calc`, `explain`, `chart_data::build`); SGLang's in [`sglang`], run by
//! the worker. This module also holds the two side by side on the same GPU.
//!
//! [`crate::vllm`] and [`crate::sglang`] know nothing of the page; these modules are the seam.

pub mod sglang;

pub use sglang::{
    adopt_sglang_log, default_mfs, gpu_mib, sglang_command, sglang_outcome, sglang_scenario,
    SglangOutcome,
};

use crate::calc::Outcome;
use crate::sglang::Memory;
use crate::units::{fixed2, thousands, GIB};

/// One engine's row of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `vLLM` or `SGLang`.
    pub engine: &'static str,
    /// Tokens in the KV cache (None when the engine refuses to start).
    pub tokens: Option<u64>,
    /// Sequences at the context, capped by the engine's limit.
    pub sequences: u64,
    /// How the pool is sized, with the scenario's figures.
    pub pool: String,
}

/// The same GPU under both engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// vLLM, then SGLang.
    pub rows: [Row; 2],
    /// Why they differ, in one sentence.
    pub why: String,
}

fn gib(b: f64) -> String {
    format!("{} GiB", fixed2(b))
}

/// A fraction for prose, to six decimals without trailing zeros: SGLang's default 0.79325
/// computes as 0.7932499999999999, which its own line prints and the sentence need not.
pub(crate) fn fraction(x: f64) -> String {
    let t = crate::floatfmt::fixed(x, 6);
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// vLLM's and SGLang's pools for the page's scenario side by side.
pub fn compare(vllm: &Outcome, sg: &SglangOutcome) -> Comparison {
    let v = &vllm.chosen.report;
    let vllm_pool = match (v.budget, v.available_kv_bytes) {
        (Some(b), Some(avail)) => crate::i18n::fill(
            // The weights and overhead may take it all: then there are no blocks to count.
            if avail > 0 {
                crate::t!(EN_VLLM_POOL)
            } else {
                crate::t!(EN_VLLM_POOL_NONE)
            },
            &[
                &gib(b.requested as f64 / GIB as f64),
                &gib(b.weights_per_gpu.as_gib()),
                &gib(b.overhead.as_gib()),
                &gib(avail as f64 / GIB as f64),
                &v.block_size,
            ],
        ),
        (_, Some(avail)) => crate::tf!(EN_VLLM_GIVEN, gib(avail as f64 / GIB as f64), v.block_size),
        _ => crate::t!(EN_NO_KV).into(),
    };
    let r = &sg.report;
    // A hybrid sliding-window pool divides its rest by a full-pool token's price, not the cell.
    let cell = r
        .swa_price
        .map_or(r.cell_size_bytes, |(price, _)| price.round() as u64);
    let sg_pool = match (r.pre_load_free_gib, r.post_load_free_gib, r.rest_gib) {
        (Some(pre), Some(after), Some(rest)) => crate::i18n::fill(
            if rest > 0.0 {
                crate::t!(EN_SG_POOL)
            } else {
                crate::t!(EN_SG_POOL_NONE)
            },
            &[
                &gib(after),
                &gib(pre),
                &fraction(r.mem_fraction_static),
                &gib(rest),
                &thousands(cell),
                &r.page_size,
            ],
        ),
        _ => crate::tf!(EN_SG_CELL, thousands(cell)),
    };
    let why = crate::tf!(
        EN_WHY,
        gib(v.budget.map_or(0.0, |b| b.requested as f64 / GIB as f64)),
        v.block_size,
        thousands(v.bytes_per_token.0),
        match r.memory {
            Memory::Predicted => crate::t!(EN_PREDICTED),
            Memory::HalfPredicted => crate::t!(EN_HALF_PREDICTED),
            _ => crate::t!(EN_AS_GIVEN),
        },
        fraction(r.mem_fraction_static),
        if r.mfs_default.is_some() {
            crate::t!(EN_MFS_DEFAULT)
        } else {
            ""
        },
        thousands(cell),
        r.page_size,
    );
    Comparison {
        rows: [
            Row {
                engine: "vLLM",
                tokens: v.gpu_kv_cache_tokens.filter(|_| v.error.is_none()),
                sequences: vllm.chosen.capped,
                pool: vllm_pool,
            },
            Row {
                engine: "SGLang",
                tokens: r.max_total_num_tokens,
                sequences: sg.sequences,
                pool: sg_pool,
            },
        ],
        why,
    }
}
