//! The current model and context on every GPU preset: what fits, what vLLM would refuse, and the
//! decode ceiling, computed exactly as the results are.

use crate::calc::evaluate;
use crate::presets::GpuPreset;
use crate::scenario::{GpuChoice, PageScenario};
use crate::vllm::RefusalKind;

/// One GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuRow {
    /// The preset.
    pub gpu: &'static GpuPreset,
    /// Sequences that fit at the context, after the `max_num_seqs` cap (0 when refused).
    pub capped: u64,
    /// vLLM's printed token count.
    pub tokens: u64,
    /// All sequences that fit, decoding together, tokens/s (0 when none).
    pub aggregate: f64,
    /// Why vLLM would not start there.
    pub refusal: Option<RefusalKind>,
}

/// Every GPU preset with the scenario's model and settings (its KV memory from a log belongs to
/// its own GPU, so each row uses its budget), smallest memory first.
pub fn compare(s: &PageScenario) -> Vec<GpuRow> {
    crate::presets::gpus_smallest_first()
        .into_iter()
        .filter_map(|g| {
            let mut t = s.clone();
            t.gpu = GpuChoice::Preset(g);
            t.kv_memory = None;
            let o = evaluate(&t).ok()?;
            let r = &o.chosen.report;
            Some(GpuRow {
                gpu: g,
                capped: o.chosen.capped,
                tokens: r.gpu_kv_cache_tokens.unwrap_or(0),
                aggregate: if o.chosen.capped > 0 {
                    o.decode.aggregate
                } else {
                    0.0
                },
                refusal: r.refusal.map(|x| x.kind),
            })
        })
        .collect()
}
