//! The inverse question: "I need N sequences of C tokens" → the settings that give it, with
//! the estimate's range: the lowest `--gpu-memory-utilization`, the `--kv-cache-memory` bytes
//! for exactly N × C in whole blocks, the longest `max_model_len` for N, the smallest TP.

use super::report::{
    report, whole_sequences, KvMemory, Margin, Overhead, RefusalKind, Report, Scenario,
};
use super::version::{Version, NULL_BLOCK_RESERVED};
use crate::error::{KvError, Result};
use crate::units::{thousands, Bytes};

/// What is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// Sequences at once.
    pub sequences: u64,
    /// Tokens per sequence (prompt and output): the `max_model_len` to serve them.
    pub context: u64,
}

/// A value at the estimate's point and at both ends of its range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranged<T> {
    /// With the estimate's overhead.
    pub point: T,
    /// With the smallest plausible overhead (the most optimistic).
    pub optimistic: T,
    /// With the largest plausible overhead: the value to use so that a boot gives it.
    pub safe: T,
}

/// The answer for one version.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The release.
    pub version: Version,
    /// The lowest utilization (in steps of 0.01) giving N × C, or why none does.
    pub util: std::result::Result<Ranged<f64>, String>,
    /// `--kv-cache-memory` bytes for exactly N requests of C tokens in whole blocks
    /// (`N × blocks per request [+ the null block from 0.29] × block bytes`).
    pub kv_cache_memory: u64,
    /// Blocks those bytes give.
    pub kv_cache_blocks: u64,
    /// When those bytes do not fit the GPU beside the weights and the estimate's overhead:
    /// (bytes needed, the GPU's total). vLLM skips its budget for `--kv-cache-memory` and
    /// allocates what it is told, so such a figure runs out of memory instead.
    pub kv_cache_memory_over: Option<(u64, u64)>,
    /// The longest `max_model_len` for N sequences at the scenario's utilization (0: none).
    pub longest_context: Ranged<u64>,
    /// The smallest tensor-parallel size (1, 2, 4, 8) that gives N × C at the scenario's
    /// utilization with the safe end of the range, if any.
    pub smallest_tp: Option<u64>,
    /// `max_num_seqs` in force when it is below N: vLLM then runs at most that many sequences at
    /// once, whatever the memory holds (the figures above are the memory's).
    pub capped_at: Option<u64>,
}

fn with_overhead(s: &Scenario, m: Margin) -> Scenario {
    let mut t = s.clone();
    if let KvMemory::Budget {
        gpu_total,
        util,
        weights,
        overhead: Overhead::Estimated(_),
    } = s.memory
    {
        t.memory = KvMemory::Budget {
            gpu_total,
            util,
            weights,
            overhead: Overhead::Estimated(m),
        };
    }
    t
}

fn sequences(s: &Scenario) -> u64 {
    whole_sequences(s)
}

fn set_util(s: &Scenario, u: f64) -> Scenario {
    let mut t = s.clone();
    if let KvMemory::Budget { ref mut util, .. } = t.memory {
        *util = u;
    }
    t
}

/// The lowest utilization in 0.01 steps at which `s` (at margin `m`) holds `need`.
fn lowest_util(s: &Scenario, m: Margin, need: Need) -> Option<f64> {
    let s = with_overhead(s, m);
    (1..=100)
        .map(|i| i as f64 / 100.0)
        .find(|&u| sequences(&set_util(&s, u)) >= need.sequences)
}

/// The longest `max_model_len` for `n` sequences at `s`'s settings (0 when not even one token).
fn longest(s: &Scenario, m: Margin, n: u64, limit: u64) -> u64 {
    let s = with_overhead(s, m);
    let fits = |len: u64| {
        let mut t = s.clone();
        t.max_model_len = Some(len);
        sequences(&t) >= n
    };
    let (mut lo, mut hi) = (0u64, limit);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Plans `need` for the scenario `base` (its model, GPU, version, knobs and utilization; its
/// `max_model_len` is replaced by the context asked for).
pub fn plan(base: &Scenario, need: Need) -> Result<Plan> {
    if need.sequences == 0 || need.context == 0 {
        return Err(KvError::Invalid {
            field: "plan",
            message: crate::t!(ERR_PLAN_EMPTY).into(),
        });
    }
    let mut s = base.clone();
    s.max_model_len = Some(need.context);
    s.knobs.kv_cache_memory = None;
    let r: Report = report(&s)?;
    // Refusals no memory changes (the model's limit, the scheduler's or TP's checks, bfloat16 on a
    // GPU without it, float16 for a model vLLM will not run in it): the plan says them instead of
    // searching.
    if let (Some(kind), Some(e)) = (r.refusal.map(|x| x.kind), r.error.as_ref()) {
        if matches!(
            kind,
            RefusalKind::ModelLimit
                | RefusalKind::BatchedTokens
                | RefusalKind::InvalidTp
                | RefusalKind::NoBfloat16
                | RefusalKind::NoFloat16
        ) {
            return Err(KvError::Invalid {
                field: "plan",
                message: e.clone(),
            });
        }
    }
    // --kv-cache-memory: whole blocks for N requests, and the null block the fit check
    // reserves from 0.29.
    let null = u64::from(s.version >= NULL_BLOCK_RESERVED);
    let blocks = need
        .sequences
        .saturating_mul(r.blocks_per_request)
        .saturating_add(null);
    let kv_cache_memory = blocks.saturating_mul(r.block_bytes);
    let kv_cache_memory_over = match (s.memory, r.budget) {
        (KvMemory::Budget { gpu_total, .. }, Some(b)) => {
            let needed = b
                .weights_per_gpu
                .0
                .saturating_add(b.overhead.0)
                .saturating_add(kv_cache_memory);
            (needed > gpu_total.0).then_some((needed, gpu_total.0))
        }
        _ => None,
    };
    let util = match s.memory {
        KvMemory::Budget { .. } => {
            match (
                lowest_util(&s, Margin::Point, need),
                lowest_util(&s, Margin::Low, need),
                lowest_util(&s, Margin::High, need),
            ) {
                (Some(point), Some(optimistic), Some(safe)) => Ok(Ranged {
                    point,
                    optimistic,
                    safe,
                }),
                (p, o, _) => Err(why_not(&s, need, p.is_some() || o.is_some())),
            }
        }
        _ => Err("the scenario starts from a fixed KV memory, not from the GPU's budget".into()),
    };
    let limit = if s.model.max_position > 0 {
        s.model.max_position
    } else {
        need.context.saturating_mul(64)
    };
    let longest_context = Ranged {
        point: longest(&s, Margin::Point, need.sequences, limit),
        optimistic: longest(&s, Margin::Low, need.sequences, limit),
        safe: longest(&s, Margin::High, need.sequences, limit),
    };
    let smallest_tp = [1u64, 2, 4, 8].into_iter().find(|&tp| {
        let mut t = with_overhead(&s, Margin::High);
        t.tp = tp;
        sequences(&t) >= need.sequences
    });
    Ok(Plan {
        version: s.version,
        util,
        kv_cache_memory,
        kv_cache_blocks: blocks,
        kv_cache_memory_over,
        longest_context,
        smallest_tp,
        capped_at: (r.max_num_seqs < need.sequences).then_some(r.max_num_seqs),
    })
}

/// Why no utilization gives `need`.
fn why_not(s: &Scenario, need: Need, maybe: bool) -> String {
    let full = sequences(&with_overhead(&set_util(s, 1.0), Margin::Point));
    let (weights, total) = match s.memory {
        KvMemory::Budget {
            weights, gpu_total, ..
        } => (weights, gpu_total),
        _ => (Bytes(0), Bytes(0)),
    };
    if maybe {
        format!(
            "only at the optimistic end of the range: even at --gpu-memory-utilization 1.0 a boot may refuse; \
             at 1.0 the estimate holds {} of the {} sequences",
            thousands(full),
            thousands(need.sequences)
        )
    } else if weights.0 / s.tp.max(1) / s.pp.max(1) >= total.0 {
        "the weights alone exceed the GPU: add GPUs (tensor or pipeline parallel), quantize, or offload".into()
    } else {
        format!(
            "no utilization gives {} sequences of {} tokens: at 1.0 the estimate holds {}; \
             shorten the context, use an fp8 KV cache, or add GPUs",
            thousands(need.sequences),
            thousands(need.context),
            thousands(full)
        )
    }
}
