//! Model geometry: what decides the bytes of KV cache one token costs.

use crate::error::{check_range, truncate, KvError, Result};
use crate::units::Bytes;
use std::borrow::Cow;

/// The dtype a checkpoint runs in; `--kv-cache-dtype auto` stores KV in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelDtype {
    /// bfloat16 (2 bytes).
    Bf16,
    /// float16 (2 bytes); AWQ/GPTQ checkpoints run activations and KV in it.
    F16,
    /// float32 (4 bytes).
    F32,
}

impl ModelDtype {
    /// Bytes of one element.
    pub const fn bytes(self) -> u64 {
        match self {
            ModelDtype::Bf16 | ModelDtype::F16 => 2,
            ModelDtype::F32 => 4,
        }
    }
    /// The name as in a config.json `torch_dtype`.
    pub const fn name(self) -> &'static str {
        match self {
            ModelDtype::Bf16 => "bfloat16",
            ModelDtype::F16 => "float16",
            ModelDtype::F32 => "float32",
        }
    }
    /// Parses a dtype name as configs and vLLM's `--dtype` spell it (case-insensitive):
    /// `bfloat16`/`bf16`, `float16`/`fp16`/`half`, `float32`/`fp32`/`float`.
    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "bfloat16" | "bf16" => ModelDtype::Bf16,
            "float16" | "fp16" | "half" => ModelDtype::F16,
            "float32" | "fp32" | "float" => ModelDtype::F32,
            _ => {
                return Err(KvError::Invalid {
                    field: "model dtype",
                    message: format!(
                        "{:?} is not a dtype kvbudget knows; use bfloat16, float16 or float32",
                        truncate(s, 24)
                    ),
                })
            }
        })
    }
    /// The short name people use: BF16, FP16, FP32.
    pub const fn short(self) -> &'static str {
        match self {
            ModelDtype::Bf16 => "BF16",
            ModelDtype::F16 => "FP16",
            ModelDtype::F32 => "FP32",
        }
    }
}

/// `--kv-cache-dtype`: the element type of the KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KvDtype {
    /// The model's own dtype.
    Auto,
    /// bfloat16, 2 bytes.
    Bfloat16,
    /// float16, 2 bytes.
    Float16,
    /// float32, 4 bytes.
    Float32,
    /// FP8 (e4m3 on CUDA), 1 byte.
    Fp8,
    /// FP8 e4m3, 1 byte.
    Fp8E4m3,
    /// FP8 e5m2, 1 byte.
    Fp8E5m2,
}

impl KvDtype {
    /// Every value, in the order a picker lists them.
    pub const ALL: [KvDtype; 7] = [
        KvDtype::Auto,
        KvDtype::Bfloat16,
        KvDtype::Float16,
        KvDtype::Float32,
        KvDtype::Fp8,
        KvDtype::Fp8E4m3,
        KvDtype::Fp8E5m2,
    ];

    /// Parses vLLM's spelling (case-insensitive; `bf16`, `fp16`, `fp32` accepted too).
    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "auto" => KvDtype::Auto,
            "bfloat16" | "bf16" => KvDtype::Bfloat16,
            "float16" | "fp16" | "half" => KvDtype::Float16,
            "float32" | "fp32" | "float" => KvDtype::Float32,
            "fp8" => KvDtype::Fp8,
            "fp8_e4m3" => KvDtype::Fp8E4m3,
            "fp8_e5m2" => KvDtype::Fp8E5m2,
            _ => {
                return Err(KvError::Invalid {
                    field: "kv_cache_dtype",
                    message: format!(
                        "unknown value {:?}; use one of auto, bfloat16, float16, float32, fp8, fp8_e4m3, fp8_e5m2",
                        truncate(s, 40)
                    ),
                })
            }
        })
    }

    /// vLLM's spelling.
    pub const fn name(self) -> &'static str {
        match self {
            KvDtype::Auto => "auto",
            KvDtype::Bfloat16 => "bfloat16",
            KvDtype::Float16 => "float16",
            KvDtype::Float32 => "float32",
            KvDtype::Fp8 => "fp8",
            KvDtype::Fp8E4m3 => "fp8_e4m3",
            KvDtype::Fp8E5m2 => "fp8_e5m2",
        }
    }

    /// Bytes per element: `auto` follows the model; 2 for 16-bit; 1 for every FP8 kind; 4 for float32.
    pub const fn bytes(self, model: ModelDtype) -> u64 {
        match self {
            KvDtype::Auto => model.bytes(),
            KvDtype::Bfloat16 | KvDtype::Float16 => 2,
            KvDtype::Float32 => 4,
            KvDtype::Fp8 | KvDtype::Fp8E4m3 | KvDtype::Fp8E5m2 => 1,
        }
    }

    /// The dtype for people: `auto` says what it resolves to (`BF16 (auto)`).
    pub fn label(self, model: ModelDtype) -> String {
        match self {
            KvDtype::Auto => format!("{} (auto)", model.short()),
            KvDtype::Bfloat16 => "BF16".into(),
            KvDtype::Float16 => "FP16".into(),
            KvDtype::Float32 => "FP32".into(),
            KvDtype::Fp8 => "FP8".into(),
            KvDtype::Fp8E4m3 => "FP8 e4m3".into(),
            KvDtype::Fp8E5m2 => "FP8 e5m2".into(),
        }
    }
}

/// How the layers attend, which decides what one token stores per layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attention {
    /// Every layer keeps K and V for every token.
    Full,
    /// `sliding_layers` of the layers keep only the last `window` tokens; the rest are full.
    SlidingWindow {
        /// Window in tokens.
        window: u64,
        /// How many layers slide (the others attend fully).
        sliding_layers: u64,
    },
    /// Multi-head latent attention (DeepSeek-V2/V3): one latent of `kv_lora_rank + qk_rope_head_dim`
    /// elements per token per layer, no K/V doubling, replicated on every tensor-parallel rank.
    Mla {
        /// `kv_lora_rank + qk_rope_head_dim` (DeepSeek: 512 + 64 = 576).
        latent: u64,
    },
}

/// Everything about a model that KV sizing needs.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSpec {
    /// Hugging Face id or a user's name (borrowed for presets, owned for models a user brings).
    pub id: Cow<'static, str>,
    /// Transformer layers (`num_hidden_layers`).
    pub layers: u64,
    /// Query heads (`num_attention_heads`).
    pub attention_heads: u64,
    /// KV heads (`num_key_value_heads`; equals `attention_heads` for plain MHA).
    pub kv_heads: u64,
    /// Head dimension (the config's `head_dim`, else `hidden_size / num_attention_heads`).
    pub head_dim: u64,
    /// Attention kind.
    pub attention: Attention,
    /// The checkpoint's dtype (what `auto` KV uses).
    pub dtype: ModelDtype,
    /// `max_position_embeddings`: vLLM's default `max_model_len`.
    pub max_position: u64,
    /// Vocabulary size (drives the sampler's activation peak).
    pub vocab: u64,
    /// Weight bytes as vLLM counts them ("Model loading took"), else the checkpoint bytes.
    pub weights: Bytes,
    /// Sizes that drive the activation peak (0 where unknown).
    pub extras: Extras,
}

/// The parts of a config that size vLLM's profile run rather than its KV cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// `hidden_size`.
    pub hidden: u64,
    /// `intermediate_size` of a dense MLP (0 for a pure MoE).
    pub intermediate: u64,
    /// Experts each token is routed to (`num_experts_per_tok`; 0 for a dense model).
    pub experts_per_token: u64,
    /// `moe_intermediate_size` (each expert's MLP width).
    pub moe_intermediate: u64,
    /// A vision or audio encoder that vLLM profiles too.
    pub multimodal: bool,
}

/// The largest layer count, head count or head_dim accepted (far above any real model).
pub const MAX_DIM: u64 = 1 << 20;

impl ModelSpec {
    /// A full-attention model from the four numbers of the seed formula (bf16, no weights).
    pub fn from_geometry(id: &str, layers: u64, kv_heads: u64, head_dim: u64) -> Self {
        ModelSpec {
            id: Cow::Owned(id.to_string()),
            layers,
            attention_heads: kv_heads,
            kv_heads,
            head_dim,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 0,
            vocab: 0,
            weights: Bytes(0),
            extras: Extras::default(),
        }
    }

    /// Checks every field's range; the message names the field and what it accepts.
    pub fn validate(&self) -> Result<()> {
        check_range(
            "layers",
            self.layers,
            1,
            MAX_DIM,
            "a whole number from 1 to 1,048,576",
        )?;
        check_range(
            "attention heads",
            self.attention_heads,
            1,
            MAX_DIM,
            "a whole number from 1 to 1,048,576",
        )?;
        check_range(
            "KV heads",
            self.kv_heads,
            1,
            MAX_DIM,
            "a whole number from 1 to 1,048,576",
        )?;
        check_range(
            "head_dim",
            self.head_dim,
            1,
            MAX_DIM,
            "a whole number from 1 to 1,048,576",
        )?;
        if self.kv_heads > self.attention_heads {
            return Err(KvError::Invalid {
                field: "KV heads",
                message: format!(
                    "must not exceed the attention heads ({} > {})",
                    self.kv_heads, self.attention_heads
                ),
            });
        }
        match self.attention {
            Attention::Full => {}
            Attention::SlidingWindow {
                window,
                sliding_layers,
            } => {
                check_range(
                    "sliding window",
                    window,
                    1,
                    1 << 40,
                    "a whole number of tokens from 1 to 2^40",
                )?;
                if sliding_layers > self.layers {
                    return Err(KvError::Invalid {
                        field: "sliding layers",
                        message: format!(
                            "must be at most the number of layers ({}), got {sliding_layers}",
                            self.layers
                        ),
                    });
                }
            }
            Attention::Mla { latent } => {
                check_range(
                    "MLA latent width",
                    latent,
                    1,
                    MAX_DIM,
                    "a whole number from 1 to 1,048,576",
                )?;
            }
        }
        Ok(())
    }

    /// Layers that attend fully (all of them unless some slide).
    pub fn full_layers(&self) -> u64 {
        match self.attention {
            Attention::SlidingWindow { sliding_layers, .. } => {
                self.layers - sliding_layers.min(self.layers)
            }
            _ => self.layers,
        }
    }

    /// Layers with a sliding window.
    pub fn sliding_layers(&self) -> u64 {
        self.layers - self.full_layers()
    }
}

/// Refuses models whose KV state is not a per-token cache (Mamba / linear-attention hybrids).
pub fn refuse_hybrid_state(model_type: &str) -> Result<()> {
    let t = model_type.to_ascii_lowercase();
    let recurrent = [
        "mamba",
        "jamba",
        "nemotron_h",
        "qwen3_next",
        "falcon_h1",
        "zamba",
        "bamba",
        "granitemoehybrid",
        "minimax",
        "lfm2",
        "rwkv",
        "recurrent_gemma",
    ];
    if recurrent.iter().any(|r| t.contains(r)) {
        Err(KvError::Unsupported(format!(
            "{model_type} keeps a fixed Mamba / linear-attention state per request beside its KV cache; \
             vLLM inflates the attention block size for it, and kvbudget does not model that: not supported"
        )))
    } else {
        Ok(())
    }
}
