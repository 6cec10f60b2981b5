//! The `vllm serve` flags people turn besides the budget's own, and what each changes in the
//! KV arithmetic: `--enforce-eager`, `--kv-cache-memory`, `--cpu-offload-gb`, chunked prefill
//! (V0), speculative decoding, LoRA and prefix caching.

use crate::model::ModelSpec;
use crate::units::Bytes;

/// The knobs of a [`super::Scenario`]; `Knobs::default()` is `vllm serve` without any of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Knobs {
    /// `--enforce-eager`: no CUDA graphs, so none are estimated or subtracted (from 0.20).
    pub enforce_eager: bool,
    /// `--kv-cache-memory BYTES` (0.11+): vLLM skips the budget and sizes the cache from these
    /// bytes exactly (`determine_available_memory` returns `kv_cache_memory_bytes`,
    /// v1/worker/gpu_worker.py 0.19.0).
    pub kv_cache_memory: Option<Bytes>,
    /// `--cpu-offload-gb` (per GPU, in units of 2³⁰ bytes): that much of the weights stays in
    /// CPU memory.
    pub cpu_offload_gb: f64,
    /// `--enable-chunked-prefill` for V0 (None: off in V0, always on in V1). Without it V0's
    /// profile batch is at least `max_model_len`.
    pub chunked_prefill: Option<bool>,
    /// Speculative decoding.
    pub speculative: Option<Speculative>,
    /// `--enable-lora --max-loras N --max-lora-rank R`.
    pub lora: Option<Lora>,
    /// `--enable-prefix-caching`: no memory change for a transformer (a hybrid keeps more state
    /// blocks, [`super::mamba`]); only whole blocks are reused (see
    /// [`reusable_prefix_tokens`]).
    pub prefix_caching: bool,
    /// `--no-enable-prefix-caching`: off even where vLLM turns it on by default (hybrids from
    /// 0.28).
    pub no_prefix_caching: bool,
    /// `--decode-context-parallel-size` (0 or 1: none): each of that many ranks keeps every
    /// `dcp`-th token of a request, so a request takes `⌈⌈len / dcp⌉ / block⌉` full-attention
    /// blocks per rank (0.10.2+, v1/kv_cache_interface.py), and up to 0.20.0 the token line is
    /// multiplied by it (v1/core/kv_cache_utils.py).
    pub dcp: u64,
    /// `--dtype half`: a bfloat16 model runs in float16 (the same bytes per weight and per KV
    /// element). vLLM before 0.9.0 refuses bfloat16 on a GPU without it (a T4) unless this is set.
    pub dtype_half: bool,
}

/// Speculative decoding: a draft model or EAGLE/MTP heads run beside the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speculative {
    /// `num_speculative_tokens`.
    pub num_tokens: u64,
    /// The draft's weights (all GPUs together; split over TP like the target's).
    pub draft_weights: Bytes,
    /// Attention layers the draft adds to the KV cache: 1 for an EAGLE head, the MTP layers,
    /// or a draft model's layers (counted with the target's KV geometry, which EAGLE and MTP
    /// heads share; a separate draft model with other heads is approximated).
    pub draft_layers: u64,
}

/// LoRA adapters resident on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lora {
    /// `--max-loras`: adapter slots on the GPU.
    pub max_loras: u64,
    /// `--max-lora-rank`.
    pub max_rank: u64,
}

impl Lora {
    /// The stacked adapter buffers vLLM allocates at load (counted in "Model loading took"):
    /// `max_loras × layers × rank × Σ(in + out) × 2 B` over q, k, v, o, gate, up and down,
    /// split over TP. Llama-3.1-8B, 1 slot of rank 16: 32 × 16 × 81,920 × 2 B = 83,886,080 B.
    pub fn weight_bytes(&self, m: &ModelSpec, tp: u64) -> Bytes {
        let hidden = if m.extras.hidden > 0 {
            m.extras.hidden
        } else {
            m.attention_heads * m.head_dim
        };
        let q = m.attention_heads * m.head_dim;
        let kv = m.kv_heads * m.head_dim;
        let inter = if m.extras.intermediate > 0 {
            m.extras.intermediate
        } else {
            hidden * 7 / 2
        };
        let dims = (hidden + q) + 2 * (hidden + kv) + (q + hidden) + 3 * (hidden + inter);
        Bytes(
            self.max_loras
                .saturating_mul(m.layers)
                .saturating_mul(self.max_rank)
                .saturating_mul(dims)
                .saturating_mul(2)
                / tp.max(1),
        )
    }
}

impl Knobs {
    /// `--cpu-offload-gb` in bytes: "the space in GiB to offload to CPU, per GPU"
    /// (config/offload.py 0.19.0), so the flag counts units of 2³⁰ bytes.
    pub fn cpu_offload_bytes(&self) -> u64 {
        if self.cpu_offload_gb.is_finite() && self.cpu_offload_gb > 0.0 {
            (self.cpu_offload_gb * (1u64 << 30) as f64) as u64
        } else {
            0
        }
    }

    /// What the knobs add to the weights on one GPU: LoRA buffers and the draft's weights.
    pub fn extra_weights(&self, m: &ModelSpec, tp: u64, pp: u64) -> u64 {
        let lora = self.lora.map(|l| l.weight_bytes(m, tp).0).unwrap_or(0);
        let draft = self
            .speculative
            .map(|s| s.draft_weights.0 / tp.max(1))
            .unwrap_or(0);
        // The draft runs on the last pipeline stage; the stage that sets the cache is
        // approximated as holding it too when pp = 1.
        lora.saturating_add(if pp <= 1 { draft } else { 0 })
    }

    /// The weights on the GPU that sets the cache, as the budget counts them: the heaviest
    /// pipeline stage's share of `weights` ([`crate::capacity::stage_weights_per_gpu`]), the
    /// knobs' LoRA buffers and draft added, `--cpu-offload-gb` kept in CPU memory.
    pub fn weights_on_gpu(
        &self,
        m: &ModelSpec,
        weights: Bytes,
        (tp, pp): (u64, u64),
        v: super::Version,
    ) -> Bytes {
        let every = v.encoder_every_stage();
        Bytes(
            crate::capacity::stage_weights_per_gpu(m, weights, tp, pp, every)
                .0
                .saturating_add(self.extra_weights(m, tp, pp))
                .saturating_sub(self.cpu_offload_bytes()),
        )
    }
}

/// Prefix caching reuses whole blocks only: of a shared prefix of `prefix_tokens`, the first
/// `⌊prefix_tokens / block_size⌋ × block_size` tokens hit the cache; a prefix shorter than one
/// block is never reused. Qwen3-8B with 16-token blocks: a 40-token system prompt reuses 32
/// tokens, a 15-token one none.
pub fn reusable_prefix_tokens(prefix_tokens: u64, block_size: u64) -> u64 {
    let b = block_size.max(1);
    prefix_tokens / b * b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    #[test]
    fn whole_blocks_only() {
        // 40 tokens over 16-token blocks: 2 whole blocks = 32 tokens; 15 tokens: none; 48: all.
        assert_eq!(reusable_prefix_tokens(40, 16), 32);
        assert_eq!(reusable_prefix_tokens(15, 16), 0);
        assert_eq!(reusable_prefix_tokens(48, 16), 48);
        assert_eq!(reusable_prefix_tokens(100, 64), 64);
    }

    #[test]
    fn lora_buffers() {
        // Llama-3.1-8B: hidden 4,096, q 4,096, kv 1,024, intermediate 14,336.
        // Σ(in + out) per layer: q: 4,096 + 4,096 = 8,192; k, v: 2 × (4,096 + 1,024) = 10,240; o: 8,192;
        // gate, up, down: 3 × (4,096 + 14,336) = 55,296; total 81,920.
        // 1 slot × 32 layers × rank 16 × 81,920 × 2 B = 83,886,080 B (80 MiB).
        let m = presets::model("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap()
            .spec();
        let l = Lora {
            max_loras: 1,
            max_rank: 16,
        };
        assert_eq!(l.weight_bytes(&m, 1).0, 83_886_080);
        // Split over TP 2.
        assert_eq!(l.weight_bytes(&m, 2).0, 41_943_040);
    }

    #[test]
    fn cpu_offload_in_gib() {
        // vLLM: cpu_offload_gb × 2³⁰ bytes; 4 → 4,294,967,296 B.
        let k = Knobs {
            cpu_offload_gb: 4.0,
            ..Knobs::default()
        };
        assert_eq!(k.cpu_offload_bytes(), 4_294_967_296);
        assert_eq!(Knobs::default().cpu_offload_bytes(), 0);
    }
}
