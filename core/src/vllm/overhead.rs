//! An estimate of vLLM's non-KV memory from what drives it, per version family, instead of one
//! fixed figure. Each rule follows vLLM's own profiling (file and release named beside it); the
//! constants the source leaves open are in [`Fitted`] (`overhead/fitted.rs`), with what they
//! were fitted on.
//!
//! What vLLM subtracts from `total × util` besides the weights:
//!
//! - **activation peak** of the profile run: one dummy batch through the model, then the
//!   sampler on its last tokens.
//!   - V1 (`profile_run` → `_dummy_run(self.max_num_tokens)`, v1/worker/gpu_model_runner.py
//!     0.19.0; `max_num_tokens = max_num_batched_tokens`): `batch = max_num_batched_tokens`,
//!     spread over `min(max_num_seqs, batch)` requests, whose last tokens the sampler sees
//!     (`_dummy_sampler_run(last_hidden_states)`).
//!   - V0 (`profile_run` → `_dummy_run(max_num_batched_tokens, max_num_seqs)`,
//!     worker/model_runner.py 0.8.5): `max_num_seqs` sequences sharing `max_num_batched_tokens`;
//!     without chunked prefill `max_num_batched_tokens ≥ max_model_len` (SchedulerConfig), so
//!     the batch grows with the context.
//!   - parts: `base + max(sampler, dense MLP) + MoE workspace + encoder + LoRA`, where
//!     sampler = rows × vocab × [`Fitted::sampler_v1`] or [`Fitted::sampler_v0`];
//!     base = batch × [`Fitted::base_per_token`]; dense = batch × (3 × intermediate / tp +
//!     3 × hidden) × activation bytes (gate-up output, activation output, hidden buffers);
//!     MoE = batch × experts per token × (3 × moe_intermediate / tp + hidden) × bytes;
//!     LoRA = batch × rank × 3 slices × 4 B (punica's float32 shrink buffer).
//! - **non-torch memory**:
//!   - V0 ≤ 0.6 and V1 0.8–0.9.0 subtract *all* non-torch memory on the card
//!     (`non_torch_allocations = total_allocated − torch_allocated`, worker/worker.py 0.6.4.post1
//!     and v1/worker/gpu_worker.py 0.8.5 and 0.9.0): the CUDA context and anything else resident,
//!     [`Fitted::non_torch_absolute_gib`];
//!   - V0 0.6.5–0.9 and V1 0.9.1+ subtract only its growth during startup (`memory_profiling`,
//!     worker/worker.py 0.8.5, v1/worker/gpu_worker.py 0.9.1 and 0.10.1.1): [`Fitted::non_torch_tp1_gib`]
//!     (V1) or [`Fitted::non_torch_v0_gib`] (V0) at TP 1, 0.1 GiB for pipeline stages without TP; at TP ≥ 2 NCCL's buffers:
//!     [`Fitted::non_torch_nvswitch_gib`] (+ 0.04 GiB per rank beyond 2) on Hopper from 0.10,
//!     [`Fitted::non_torch_pcie_gib`] elsewhere.
//! - **CUDA graphs**: [`Fitted::graphs_gib`] + [`Fitted::graphs_mib_per_layer`] per layer on the
//!   GPU (vLLM's own estimate captures two graphs per mode and extrapolates,
//!   `profile_cudagraph_memory`, v1/worker/gpu_model_runner.py 0.19.0). Subtracted from 0.20
//!   (`cudagraph_memory_estimate_applied`, v1/worker/gpu_worker.py 0.20.0), never with
//!   `--enforce-eager`; before 0.20 they sit outside `util × total`.
//!
//! The spread (the ± around the subtracted total) adds each part's uncertainty and 1 % of the
//! request for boot-to-boot variation (two boots of one configuration differ by up to 0.3 GiB
//! on a small card), times [`Fitted::spread_factor`]. It is absolute, so a small pool gets a
//! wide relative range.

use super::version::{Engine, Version};
use super::version::{
    CUDA_GRAPHS_IN_BUDGET, NVSWITCH_BUFFERS, SAMPLER_SORTS, SAMPLER_TRITON, V0_NON_TORCH_GROWTH,
    V1_DEFAULT, V1_NON_TORCH_GROWTH,
};
use crate::model::ModelSpec;
use crate::presets::Arch;
use crate::units::{Bytes, GIB, MIB};

mod fitted;
pub use fitted::Fitted;

/// What the estimate needs besides the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Tensor-parallel size.
    pub tp: u64,
    /// Pipeline-parallel size.
    pub pp: u64,
    /// vLLM release.
    pub version: Version,
    /// Engine.
    pub engine: Engine,
    /// `max_model_len`.
    pub max_model_len: u64,
    /// `max_num_seqs` in force.
    pub max_num_seqs: u64,
    /// `max_num_batched_tokens` in force.
    pub max_num_batched_tokens: u64,
    /// Bytes requested (`total × util`), for the boot-to-boot share of the spread.
    pub requested: u64,
    /// Chunked prefill on (V1 always; V0 only when asked).
    pub chunked_prefill: bool,
    /// `--enforce-eager`: no CUDA graphs.
    pub enforce_eager: bool,
    /// GPU family.
    pub arch: Arch,
    /// GPU total as vLLM sees it (0 when unknown).
    pub gpu_total: Bytes,
    /// LoRA: (`--max-loras`, `--max-lora-rank`) when `--enable-lora`.
    pub lora: Option<(u64, u64)>,
    /// Speculative tokens per step (0 without speculative decoding).
    pub spec_tokens: u64,
}

/// The estimate, part by part, with its uncertainty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Tokens in the profile run's forward pass.
    pub batch_tokens: u64,
    /// Sampler rows.
    pub sampler_rows: u64,
    /// Sampler logits and their copies.
    pub sampler: Bytes,
    /// Forward-pass buffers of hidden size.
    pub base: Bytes,
    /// Dense MLP intermediates (only the larger of this and the sampler counts).
    pub dense: Bytes,
    /// Fused-MoE workspace.
    pub moe: Bytes,
    /// Multimodal encoder profiling.
    pub encoder: Bytes,
    /// `base + max(sampler, dense) + moe + encoder`.
    pub activation: Bytes,
    /// CUDA context growth, NCCL buffers.
    pub non_torch: Bytes,
    /// CUDA graph memory.
    pub cuda_graphs: Bytes,
    /// Whether vLLM subtracts the CUDA graphs from the budget (0.20+).
    pub graphs_counted: bool,
    /// ± around the subtracted total: the parts' uncertainty plus 1 % of the request for
    /// boot-to-boot variation.
    pub spread: Bytes,
}

impl Estimate {
    /// What vLLM subtracts besides the weights.
    pub fn subtracted(&self) -> Bytes {
        let graphs = if self.graphs_counted {
            self.cuda_graphs.0
        } else {
            0
        };
        Bytes(
            self.activation
                .0
                .saturating_add(self.non_torch.0)
                .saturating_add(graphs),
        )
    }
    /// The lowest plausible overhead.
    pub fn low(&self) -> Bytes {
        Bytes(self.subtracted().0.saturating_sub(self.spread.0))
    }
    /// The highest plausible overhead.
    pub fn high(&self) -> Bytes {
        Bytes(self.subtracted().0.saturating_add(self.spread.0))
    }
}

/// The vocabulary assumed when a model's is unknown (Llama 3's), with ±0.5 GiB more spread.
pub const FALLBACK_VOCAB: u64 = 128_256;

fn gib_f(x: f64) -> u64 {
    (x * GIB as f64) as u64
}

/// Estimates vLLM's non-KV memory (besides the weights) on the GPU that sets the cache size.
pub fn estimate(model: &ModelSpec, s: &Settings) -> Estimate {
    estimate_with(model, s, &Fitted::default())
}

/// [`estimate`] with other constants (for fitting and cross-validation).
pub fn estimate_with(model: &ModelSpec, s: &Settings, f: &Fitted) -> Estimate {
    let tp = s.tp.max(1);
    let pp = s.pp.max(1);
    let v0 = s.engine == Engine::V0 || s.version < V1_DEFAULT;
    // vLLM subtracts all non-torch memory up to V0 0.6 and in V1 0.8–0.9.0 (see the module doc).
    let absolute = if v0 {
        s.version < V0_NON_TORCH_GROWTH
    } else {
        s.version < V1_NON_TORCH_GROWTH
    };
    let mnbt = s.max_num_batched_tokens.max(1);
    let batch = if v0 && !s.chunked_prefill {
        s.max_model_len.max(mnbt)
    } else {
        mnbt
    };
    let rows = s.max_num_seqs.min(batch).max(1);
    let act = model.dtype.bytes();
    let e = model.extras;
    let mut uncertain = 0u64;
    let vocab = if model.vocab > 0 {
        model.vocab
    } else {
        uncertain += gib_f(0.5);
        FALLBACK_VOCAB
    };
    let hidden = if e.hidden > 0 {
        e.hidden
    } else {
        model.attention_heads * model.head_dim
    };
    let intermediate = if e.intermediate > 0 || e.experts_per_token > 0 {
        e.intermediate
    } else {
        hidden * 7 / 2
    };
    // Which top-k/top-p implementation the sampler warm-up runs (see `Fitted::sampler_sort`).
    let sorts = v0 || (s.version >= SAMPLER_SORTS && s.version < SAMPLER_TRITON) || rows < 8;
    let per_entry = if sorts {
        f.sampler_sort
    } else {
        f.sampler_light
    };
    // With speculative decoding the warm-up also runs the rejection sampler on random float32
    // logits for one draft token per request (`_dummy_sampler_run`, gpu_model_runner.py 0.19.0).
    let rejection = if s.spec_tokens > 0 { 2 * 4 } else { 0 };
    let sampler = (rows.saturating_mul(vocab) as f64 * (per_entry + rejection as f64)) as u64;
    let base = (batch as f64 * f.base_per_token) as u64 * act / 2;
    let dense = batch
        .saturating_mul(3 * intermediate / tp + 3 * hidden)
        .saturating_mul(act);
    // The fused MoE kernel's intermediates: the up (and gate) projection's output and the
    // activation's, `3 × moe_intermediate` for gated experts, `2 ×` for ungated ones (relu²).
    let widths = if e.ungated_experts { 2 } else { 3 };
    let moe = batch
        .saturating_mul(e.experts_per_token)
        .saturating_mul(widths * e.moe_intermediate / tp + hidden)
        .saturating_mul(act);
    let encoder = if e.multimodal {
        gib_f(f.encoder_gib)
    } else {
        0
    };
    let lora = s
        .lora
        .map(|(_, rank)| batch.saturating_mul(rank).saturating_mul(3 * 4))
        .unwrap_or(0);
    // (Saturating: a custom model's extreme geometry must not overflow; its weights refuse first.)
    let activation = [sampler.max(dense), moe, encoder, lora]
        .into_iter()
        .fold(base, u64::saturating_add);
    let nvswitch = s.arch == Arch::Hopper && s.version >= NVSWITCH_BUFFERS;
    let non_torch = match (tp, pp) {
        _ if absolute => {
            gib_f(f.non_torch_absolute_gib)
                + if tp > 1 {
                    gib_f(f.non_torch_pcie_gib)
                } else {
                    0
                }
        }
        (1, 1) if v0 => gib_f(f.non_torch_v0_gib),
        (1, 1) => gib_f(f.non_torch_tp1_gib),
        (1, _) => gib_f(0.1),
        (t, _) if nvswitch => gib_f(f.non_torch_nvswitch_gib) + (t - 2) * gib_f(0.04),
        _ => gib_f(f.non_torch_pcie_gib),
    };
    let layers_here = model.layers.div_ceil(pp);
    let cuda_graphs = if s.enforce_eager {
        0
    } else {
        gib_f(f.graphs_gib)
            .saturating_add((layers_here as f64 * f.graphs_mib_per_layer * MIB as f64) as u64)
    };
    let graphs_counted = !v0 && s.version >= CUDA_GRAPHS_IN_BUDGET && !s.enforce_eager;

    // Uncertainty: activation ±max(0.1 GiB, 10 %), non-torch ±0.1 GiB (growth at TP 1),
    // ±0.25 GiB (all of it: the CUDA context varies by driver), ±0.15 / ±0.3 GiB at TP ≥ 2
    // (NVSwitch / elsewhere), graphs ±0.35 GiB when counted, an encoder ±0.3 GiB, and 1 % of
    // the request; all times the fitted spread factor.
    uncertain += (activation / 10).max(gib_f(0.1));
    if !v0 && s.version < SAMPLER_SORTS {
        // Without FlashInfer installed, V1 up to 0.11.0 sorts instead: up to twice the sampler.
        uncertain += sampler / 2;
    }
    uncertain += match (absolute, tp) {
        (true, _) => gib_f(0.25),
        (false, 1) => gib_f(0.1),
        _ if nvswitch => gib_f(0.15),
        _ => gib_f(0.3),
    };
    if graphs_counted {
        uncertain += gib_f(0.35);
    }
    if e.multimodal {
        uncertain += gib_f(0.3);
    }
    uncertain += s.requested / 100;
    let spread = (uncertain as f64 * f.spread_factor.max(1.0)) as u64;
    Estimate {
        batch_tokens: batch,
        sampler_rows: rows,
        sampler: Bytes(sampler),
        base: Bytes(base),
        dense: Bytes(dense),
        moe: Bytes(moe),
        encoder: Bytes(encoder),
        activation: Bytes(activation),
        non_torch: Bytes(non_torch),
        cuda_graphs: Bytes(cuda_graphs),
        graphs_counted,
        spread: Bytes(spread),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn settings(v: (u32, u32), seqs: u64, mnbt: u64) -> Settings {
        Settings {
            tp: 1,
            pp: 1,
            version: Version::new(v.0, v.1),
            engine: Engine::V1,
            max_model_len: 8192,
            max_num_seqs: seqs,
            max_num_batched_tokens: mnbt,
            requested: 0,
            chunked_prefill: true,
            enforce_eager: false,
            arch: Arch::Hopper,
            gpu_total: Bytes::gib(80),
            lora: None,
            spec_tokens: 0,
        }
    }

    #[test]
    fn llama_on_h100_defaults() {
        // 0.19, 1,024 rows ≥ 8: the Triton sampler, 14 B per entry:
        // sampler 1,024 × 128,256 × 14 B = 1,838,678,016 B; base 8,192 × 35,661 B = 292,134,912 B;
        // dense 8,192 × (3 × 14,336 + 3 × 4,096) × 2 B = 905,969,664 B < sampler.
        // activation = 2,130,812,928 B = 1.98 GiB (vLLM 0.19 logged 1.89 GiB).
        let m = presets::model("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap()
            .spec();
        let e = estimate(&m, &settings((0, 19), 1024, 8192));
        assert_eq!(e.sampler.0, 1_838_678_016);
        assert_eq!(e.base.0, 292_134_912);
        assert_eq!(e.dense.0, 905_969_664);
        assert_eq!(e.activation.0, 2_130_812_928);
        assert!(!e.graphs_counted);
        // 0.19: activation + non-torch 0.1445 GiB (⌊0.1445 × 2³⁰⌋ = 155,155,693 B); graphs outside.
        assert_eq!(e.subtracted().0, 2_130_812_928 + 155_155_693);
        // 0.20: graphs ⌊0.3095 × 2³⁰⌋ + ⌊32 × 17.21 MiB⌋ = 332,323,094 + 577,471,774 B are subtracted too.
        let e = estimate(&m, &settings((0, 20), 1024, 8192));
        assert_eq!(e.cuda_graphs.0, 332_323_094 + 577_471_774);
        assert!(e.graphs_counted);
        // --enforce-eager: no graphs at all.
        let mut s = settings((0, 20), 1024, 8192);
        s.enforce_eager = true;
        let e = estimate(&m, &s);
        assert_eq!(e.cuda_graphs.0, 0);
        assert!(!e.graphs_counted);
    }

    #[test]
    fn the_sampler_sorts_in_v0_and_in_0_12_to_0_16() {
        // 256 rows × 128,256 vocab = 32,833,536 entries: 14 B each where top-k/top-p do not sort
        // (459,669,504 B: FlashInfer by default up to 0.11.0, Triton for ≥ 8 rows from 0.17.0),
        // 34.73 B each where the PyTorch sort is the default, 0.11.1–0.16 (1,140,308,705 B).
        let m = presets::model("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap()
            .spec();
        let sampler = |v: (u32, u32)| estimate(&m, &settings(v, 256, 2048)).sampler.0;
        for v in [(0, 11), (0, 17), (0, 18), (0, 19)] {
            assert_eq!(sampler(v), 459_669_504, "{v:?}");
        }
        for v in [(0, 12), (0, 15), (0, 16)] {
            assert_eq!(sampler(v), 1_140_308_705, "{v:?}");
        }
    }

    #[test]
    fn v0_grows_with_the_context() {
        // V0 without chunked prefill profiles max(max_model_len, max_num_batched_tokens) tokens:
        // 32,768 at a 32k context, 4,096 at 4k; the dense MLP part grows eightfold.
        let m = presets::model("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap()
            .spec();
        let mut s = settings((0, 6), 256, 2048);
        s.engine = Engine::V0;
        s.chunked_prefill = false;
        s.max_model_len = 32_768;
        let long = estimate(&m, &s);
        s.max_model_len = 4096;
        let short = estimate(&m, &s);
        assert!(long.activation > short.activation);
        assert_eq!(long.batch_tokens, 32_768);
        assert_eq!(short.batch_tokens, 4096);
        assert_eq!(long.dense.0, 8 * short.dense.0);
    }

    #[test]
    fn moe_workspace() {
        // Qwen3-30B-A3B: 8,192 × 8 experts × (3 × 768 + 2,048) × 2 B = 570,425,344 B.
        let m = presets::model("Qwen/Qwen3-30B-A3B").unwrap().spec();
        let e = estimate(&m, &settings((0, 19), 1024, 8192));
        assert_eq!(e.moe.0, 570_425_344);
    }
}
