//! The `vllm serve` knobs as flags of `kvbudget vllm` and `kvbudget plan`.

use clap::Args;
use kvbudget_core::presets::Arch;
use kvbudget_core::units::Bytes;
use kvbudget_core::vllm::version::{V0_REMOVED, V1_DEFAULT};
use kvbudget_core::vllm::{Engine, Knobs, Lora, Speculative, Version};

#[derive(Args, Debug, Clone, Default)]
pub(crate) struct KnobArgs {
    /// No CUDA graphs: none are estimated or (from 0.20) subtracted.
    #[arg(long)]
    enforce_eager: bool,
    /// Bytes for the KV cache: vLLM (0.11+) skips the budget and uses exactly these.
    #[arg(long)]
    kv_cache_memory: Option<u64>,
    /// GiB of weights per GPU kept in CPU memory.
    #[arg(long)]
    cpu_offload_gb: Option<f64>,
    /// V0 only: chunked prefill on (the profile batch is then max_num_batched_tokens, not max_model_len).
    #[arg(long)]
    enable_chunked_prefill: bool,
    /// Speculative decoding: tokens proposed per step.
    #[arg(long)]
    num_speculative_tokens: Option<u64>,
    /// Speculative decoding: the draft's weights in GiB (an EAGLE head, MTP layers or a draft model).
    #[arg(long)]
    draft_weights_gib: Option<f64>,
    /// Speculative decoding: attention layers the draft adds to the KV cache (EAGLE: 1).
    #[arg(long)]
    draft_layers: Option<u64>,
    /// LoRA adapters on the GPU.
    #[arg(long)]
    enable_lora: bool,
    /// LoRA slots on the GPU.
    #[arg(long, default_value_t = 1)]
    max_loras: u64,
    /// Largest LoRA rank.
    #[arg(long, default_value_t = 16)]
    max_lora_rank: u64,
    /// Prefix caching (on a Mamba / Gated DeltaNet hybrid it keeps more state blocks per request; otherwise no memory change; only whole blocks of a shared prefix are reused; on for hybrids from vLLM 0.28).
    #[arg(long)]
    enable_prefix_caching: bool,
    /// No prefix caching, even for a hybrid on vLLM 0.28+ (where it is on by default).
    #[arg(long, conflicts_with = "enable_prefix_caching")]
    no_enable_prefix_caching: bool,
    /// Decode context parallelism: a request's tokens spread over this many ranks (vLLM 0.10.2+).
    #[arg(long, default_value_t = 1)]
    decode_context_parallel_size: u64,
    /// The dtype the model runs in: auto (its checkpoint's) or half (float16; a GPU without
    /// bfloat16, such as a T4, needs it for a bfloat16 model before vLLM 0.9.0).
    #[arg(long)]
    dtype: Option<String>,
}

impl KnobArgs {
    /// The knobs, checked.
    pub(crate) fn knobs(&self) -> Result<Knobs, String> {
        let gib = |name: &str, g: f64| {
            Bytes::from_gib_f64(g).ok_or_else(|| {
                format!("--{name} must be a finite number of GiB, 0 or more (got {g})")
            })
        };
        let cpu_offload_gb = match self.cpu_offload_gb {
            Some(g) if !(g.is_finite() && g >= 0.0) => {
                return Err(format!("--cpu-offload-gb must be 0 or more (got {g})"))
            }
            Some(g) => g,
            None => 0.0,
        };
        let speculative = match (
            self.num_speculative_tokens,
            self.draft_weights_gib,
            self.draft_layers,
        ) {
            (None, None, None) => None,
            (n, w, l) => Some(Speculative {
                num_tokens: n.unwrap_or(1),
                draft_weights: gib("draft-weights-gib", w.unwrap_or(0.0))?,
                draft_layers: l.unwrap_or(1),
            }),
        };
        if !(1..=64).contains(&self.decode_context_parallel_size) {
            return Err("--decode-context-parallel-size: a whole number from 1 to 64".into());
        }
        if self.enable_lora && (self.max_loras == 0 || self.max_lora_rank == 0) {
            return Err("--max-loras and --max-lora-rank must be 1 or more".into());
        }
        Ok(Knobs {
            enforce_eager: self.enforce_eager,
            kv_cache_memory: self.kv_cache_memory.map(Bytes),
            cpu_offload_gb,
            chunked_prefill: self.enable_chunked_prefill.then_some(true),
            speculative,
            lora: self.enable_lora.then_some(Lora {
                max_loras: self.max_loras,
                max_rank: self.max_lora_rank,
            }),
            prefix_caching: self.enable_prefix_caching,
            no_prefix_caching: self.no_enable_prefix_caching,
            dcp: self.decode_context_parallel_size,
            dtype_half: match self.dtype.as_deref() {
                None | Some("auto") => false,
                Some("half" | "float16") => true,
                Some(d) => {
                    return Err(format!(
                        "--dtype: auto, half or float16 (the model's own 16-bit dtype, or float16), got {d}"
                    ))
                }
            },
        })
    }
}

/// `--engine v0|v1` (none: the one vLLM runs on that GPU), refused where vLLM has no such engine.
pub(crate) fn engine(flag: Option<&str>, version: Version, arch: Arch) -> Result<Engine, String> {
    Ok(match flag {
        None => version.engine_on(arch),
        Some("v0") | Some("V0") => {
            if version >= V0_REMOVED && version.engine_on(arch) != Engine::V0 {
                return Err(format!(
                    "--engine v0 exists only up to vLLM 0.9 (got {version})"
                ));
            }
            Engine::V0
        }
        Some("v1") | Some("V1") => {
            if version < V1_DEFAULT {
                return Err(format!("--engine v1 exists from vLLM 0.8 (got {version})"));
            }
            // (VLLM_USE_V1=1 on a T4 raises "VLLM_USE_V1=1 is not supported with Compute
            // Capability < 8.0." up to 0.10.1: `_raise_or_fallback`, vllm/engine/arg_utils.py.)
            if version.engine_on(arch) == Engine::V0 {
                return Err(format!(
                    "--engine v1: vLLM {version} runs V0 on a GPU below compute capability 8.0 (the T4) and refuses V1 there"
                ));
            }
            Engine::V1
        }
        Some(e) => return Err(format!("--engine {e:?}: use v0 or v1")),
    })
}
