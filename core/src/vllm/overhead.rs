//! An estimate of vLLM's non-KV memory from what drives it, instead of one fixed figure.
//!
//! The parts and their rules come from VLLM-ACCOUNTING §2 and §5; the constants were fitted on
//! the shared vLLM 0.19 H100 logs (profile run with 1,024 sequences / 8,192 batched tokens) and
//! are rules over a model's sizes, not per-model numbers:
//!
//! - activation peak = base + max(sampler, dense MLP) + MoE workspace + encoder, where
//!   - sampler = rows × vocab × 14 B (about 3.5 float32 copies of the logits: logits,
//!     probabilities and the sorted copies top-k/top-p take), rows = min(max_num_seqs, batch);
//!     Llama-3.1 (128,256 vocab) logs 1.89 GiB and Qwen (152k) 2.21 GiB: 14 B per row × entry
//!     is their slope, 1,024 × (152,064 − 128,256) × 14 B = 0.32 GiB;
//!   - base = batch × 24 KiB (hidden-size buffers of the forward pass; 0.19 GiB at 8,192);
//!   - dense MLP = batch × (3 × intermediate / tp + 3 × hidden) × activation bytes;
//!   - MoE workspace = batch × experts per token × (3 × moe_intermediate / tp + hidden) × bytes;
//!   - encoder (multimodal) = 0.3 GiB;
//! - non-torch: 0.25 GiB at TP 1, 2.06 GiB + 0.04 GiB per rank beyond 2 at TP ≥ 2 (NCCL buffers),
//!   0.1 GiB for pipeline stages without TP;
//! - CUDA graphs: 0.25 GiB + 18 MiB per layer on the GPU, subtracted from the budget from 0.20
//!   (before, they sit outside util × total).
//!
//! Without chunked prefill (V0) the profile batch is max(max_model_len, max_num_batched_tokens),
//! so the peak grows with the context.

use super::version::{Engine, Version};
use crate::model::ModelSpec;
use crate::presets::Arch;
use crate::units::{Bytes, GIB, KIB, MIB};

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

/// The constants of the estimate that vLLM's source leaves open, fitted on logs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// Sampler bytes per row × vocab entry.
    pub sampler_bytes: f64,
    /// Forward-pass bytes per batch token (at 2-byte activations).
    pub base_bytes: f64,
    /// Non-torch GiB at TP 1.
    pub non_torch_tp1: f64,
    /// Non-torch GiB at TP 2.
    pub non_torch_tp2: f64,
    /// CUDA graphs: GiB fixed plus MiB per layer.
    pub graphs_gib: f64,
    /// CUDA graphs MiB per layer.
    pub graphs_mib_per_layer: f64,
}

impl Default for Fitted {
    fn default() -> Self {
        Fitted {
            sampler_bytes: 14.0,
            base_bytes: 24.0 * KIB as f64,
            non_torch_tp1: 0.25,
            non_torch_tp2: 2.06,
            graphs_gib: 0.25,
            graphs_mib_per_layer: 18.0,
        }
    }
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
        Bytes(self.activation.0 + self.non_torch.0 + graphs)
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
    let v0 = s.engine == Engine::V0 || s.version < Version::new(0, 8);
    let mnbt = s.max_num_batched_tokens.max(1);
    let batch = if v0 { s.max_model_len.max(mnbt) } else { mnbt };
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
    let sampler = (rows.saturating_mul(vocab) as f64 * f.sampler_bytes) as u64;
    let base = (batch as f64 * f.base_bytes) as u64 * act / 2;
    let dense = batch
        .saturating_mul(3 * intermediate / tp + 3 * hidden)
        .saturating_mul(act);
    let moe = batch
        .saturating_mul(e.experts_per_token)
        .saturating_mul(3 * e.moe_intermediate / tp + hidden)
        .saturating_mul(act);
    let encoder = if e.multimodal { gib_f(0.3) } else { 0 };
    let activation = base + sampler.max(dense) + moe + encoder;
    let non_torch = match (tp, pp) {
        (1, 1) => gib_f(f.non_torch_tp1),
        (1, _) => gib_f(0.1),
        (t, _) => gib_f(f.non_torch_tp2) + (t - 2) * gib_f(0.04),
    };
    let layers_here = model.layers.div_ceil(pp);
    let cuda_graphs =
        gib_f(f.graphs_gib) + (layers_here as f64 * f.graphs_mib_per_layer) as u64 * MIB;
    let graphs_counted = !v0 && s.version >= Version::new(0, 20);

    // Uncertainty: activation ±max(0.15 GiB, 10 %), non-torch ±0.1 / ±0.15 GiB, graphs ±0.35 GiB
    // when counted, an encoder ±0.3 GiB, older engines ±0.25 GiB, and 1 % of the request.
    uncertain += (activation / 10).max(gib_f(0.15));
    uncertain += if tp == 1 { gib_f(0.1) } else { gib_f(0.15) };
    if graphs_counted {
        uncertain += gib_f(0.35);
    }
    if e.multimodal {
        uncertain += gib_f(0.3);
    }
    if s.version < Version::new(0, 10) {
        uncertain += gib_f(0.25);
    }
    uncertain += s.requested / 100;
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
        spread: Bytes(uncertain),
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
        // sampler 1,024 × 128,256 × 14 B = 1,838,678,016 B; base 8,192 × 24 KiB = 201,326,592 B;
        // dense 8,192 × (3 × 14,336 + 3 × 4,096) × 2 B = 905,969,664 B < sampler.
        // activation = 2,040,004,608 B = 1.90 GiB (vLLM 0.19 logged 1.89 GiB).
        let m = presets::model("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap()
            .spec();
        let e = estimate(&m, &settings((0, 19), 1024, 8192));
        assert_eq!(e.sampler.0, 1_838_678_016);
        assert_eq!(e.base.0, 201_326_592);
        assert_eq!(e.dense.0, 905_969_664);
        assert_eq!(e.activation.0, 2_040_004_608);
        assert!(!e.graphs_counted);
        // 0.19: activation + non-torch 0.25 GiB; graphs not subtracted.
        assert_eq!(e.subtracted().0, 2_040_004_608 + 268_435_456);
        // 0.20: graphs 0.25 GiB + 32 × 18 MiB = 872,415,232 B are subtracted too.
        let e = estimate(&m, &settings((0, 20), 1024, 8192));
        assert_eq!(e.cuda_graphs.0, 268_435_456 + 32 * 18 * MIB);
        assert!(e.graphs_counted);
    }

    #[test]
    fn small_gpu_defaults_are_about_four_times_smaller() {
        // 256 sequences / 2,048 tokens: sampler 256 × 128,256 × 14 = 459,669,504 B; base 2,048 × 24 KiB.
        let m = presets::model("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap()
            .spec();
        let e = estimate(&m, &settings((0, 19), 256, 2048));
        assert_eq!(e.activation.0, 459_669_504 + 2048 * 24 * 1024);
    }

    #[test]
    fn v0_grows_with_the_context() {
        let m = presets::model("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap()
            .spec();
        let mut s = settings((0, 6), 256, 2048);
        s.engine = Engine::V0;
        s.max_model_len = 32_768;
        let long = estimate(&m, &s);
        s.max_model_len = 4096;
        let short = estimate(&m, &s);
        assert!(long.activation > short.activation);
        assert_eq!(long.batch_tokens, 32_768);
    }

    #[test]
    fn moe_workspace() {
        // Qwen3-30B-A3B: 8,192 × 8 experts × (3 × 768 + 2,048) × 2 B = 570,425,344 B.
        let m = presets::model("Qwen/Qwen3-30B-A3B").unwrap().spec();
        let e = estimate(&m, &settings((0, 19), 1024, 8192));
        assert_eq!(e.moe.0, 570_425_344);
    }
}
