//! Model geometry: what decides the bytes of KV cache one token costs.

use crate::error::{check_range, KvError, Result};
pub use crate::float16::NoFloat16;
use crate::units::Bytes;
use std::borrow::Cow;

mod state;
pub use state::{StateFamily, StateKind, StateLayers};

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
                    message: crate::tf!(ERR_MODEL_DTYPE, crate::error::quoted(s, 24)),
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
                    message: crate::tf!(ERR_KV_DTYPE, crate::error::quoted(s, 40)),
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
        /// The full-attention layers' KV heads and head dimension where they differ from the
        /// sliding layers' (the spec's `kv_heads` and `head_dim`): Gemma 4.
        full: Option<HeadShape>,
        /// Layers that keep no cache of their own (Gemma 4's KV sharing).
        shared: SharedKv,
    },
    /// Multi-head latent attention (DeepSeek-V2/V3): one latent of `kv_lora_rank + qk_rope_head_dim`
    /// elements per token per layer, no K/V doubling, replicated on every tensor-parallel rank.
    Mla {
        /// `kv_lora_rank + qk_rope_head_dim` (DeepSeek: 512 + 64 = 576).
        latent: u64,
        /// `index_head_dim` of DeepSeek-V3.2's sparse-attention indexer (0: no indexer). Each layer
        /// then also caches one FP8 key of this width and a 4-byte scale per 128 elements per token
        /// (`DeepseekV32IndexerCache`, model_executor/models/deepseek_v2.py, vLLM 0.11+).
        indexer: u64,
    },
    /// Llama 4's chunked local attention: `local_layers` attend only within chunks of `chunk`
    /// tokens; the rest attend fully.
    ChunkedLocal {
        /// `attention_chunk_size` in tokens.
        chunk: u64,
        /// How many layers are local.
        local_layers: u64,
    },
}

impl Attention {
    /// Sliding-window layers beside full ones of the same shape, every layer with its own cache.
    pub const fn sliding(window: u64, sliding_layers: u64) -> Attention {
        Attention::SlidingWindow {
            window,
            sliding_layers,
            full: None,
            shared: SharedKv::NONE,
        }
    }

    /// What Gemma 4's layers add to a window's description: `; full layers 2 KV heads × 512`,
    /// `; 20 layers share a cache` (empty for any other attention).
    pub fn split_text(&self) -> String {
        let Attention::SlidingWindow { full, shared, .. } = *self else {
            return String::new();
        };
        let mut t = full.map_or(String::new(), |f| {
            crate::tf!(MK_FULL_SHAPE, f.kv_heads, f.head_dim)
        });
        if shared.total() > 0 {
            t.push_str(&crate::tf!(MK_SHARED, shared.total()));
        }
        t
    }
}

/// The KV heads and head dimension of one kind of attention layer. Gemma 4's full-attention
/// layers have their own (`gemma4.py`, vLLM 0.19–0.34: `global_head_dim`, and
/// `num_global_key_value_heads` when `attention_k_eq_v`; K and V are both cached even then, V
/// normed and K roped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadShape {
    /// KV heads of the layer (before tensor parallelism).
    pub kv_heads: u64,
    /// Head dimension.
    pub head_dim: u64,
}

/// Layers that read the cache of the last earlier layer of their kind and keep none of their
/// own: the last `num_kv_shared_layers` layers of Gemma 3n and Gemma 4, counted by kind (vLLM
/// gives them no cache spec: `kv_sharing_target_layer_name`, `gpu_model_runner.py` 0.19–0.34).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedKv {
    /// Sliding-window layers without a cache of their own.
    pub sliding: u64,
    /// Full-attention layers without a cache of their own.
    pub full: u64,
}

impl SharedKv {
    /// No layer shares another's cache.
    pub const NONE: SharedKv = SharedKv {
        sliding: 0,
        full: 0,
    };

    /// Layers that share, of both kinds.
    pub const fn total(self) -> u64 {
        self.sliding + self.full
    }
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
    /// A hybrid's recurrent layers (Mamba2 / Gated DeltaNet), counted in `layers`; the other
    /// layers attend.
    pub state: Option<StateLayers>,
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
    /// Routed experts per MoE layer (`num_experts`, `n_routed_experts`; 0 for a dense model).
    pub experts: u64,
    /// The bytes of `weights` a decode step need not read in full: the routed experts of every
    /// MoE layer, of which it reads those its tokens pick (`capacity::decode_weights`). A preset
    /// whose logged weights also hold parts no step reads in full (an MTP layer, a vision
    /// encoder, vLLM's padding of the experts) counts them here too (`presets::models::all_but`).
    pub routed: Bytes,
    /// A vision or audio encoder that vLLM profiles too.
    pub multimodal: bool,
    /// Experts with one up projection and no gate (Nemotron-H's relu²): the fused MoE kernel's
    /// intermediate is `moe_intermediate` wide, not twice that.
    pub ungated_experts: bool,
    /// Where vLLM builds the input embedding and the lm_head over pipeline stages.
    pub embeddings: Embeddings,
    /// A vision encoder's attention heads (`vision_config`; 0 for none or unknown): vLLM builds
    /// the encoder first and splits its heads over TP.
    pub vision_heads: u64,
    /// The vision encoder's and projector's bytes in `weights`, where known (0: none, or not
    /// known): every pipeline stage holds them up to vLLM 0.32 (`capacity::stage_weights_per_gpu`).
    pub encoder: Bytes,
    /// A model type vLLM will not run in float16 (`_FLOAT16_NOT_SUPPORTED_MODELS`), which decides
    /// what it runs in on a GPU without bfloat16.
    pub no_float16: NoFloat16,
    /// Whether the checkpoint's config names float32 for such a type (`dtype` then holds the 16
    /// bits vLLM 0.9.1+ runs it in; earlier releases chose otherwise: `vllm::auto_dtype`).
    pub f32_checkpoint: bool,
    /// The tokens of the largest multimodal item of a model whose vision tokens attend both ways
    /// (a prefix LM: Gemma 4 26B-A4B and 31B, `use_bidirectional_attention: "vision"`), which
    /// vLLM must schedule in one step: it raises the default `max_num_batched_tokens` to it
    /// (0: none). Gemma 4's video item: 32 frames × (70 soft tokens + 8) = 2,496
    /// (`gemma4_mm.py`, `engine/arg_utils.py`).
    pub mm_item_tokens: u64,
}

impl Extras {
    /// A dense text model's: no sizes known, no experts, no encoder, untied embeddings.
    pub const DENSE: Extras = Extras {
        hidden: 0,
        intermediate: 0,
        experts_per_token: 0,
        moe_intermediate: 0,
        experts: 0,
        routed: Bytes(0),
        multimodal: false,
        ungated_experts: false,
        embeddings: Embeddings::Untied,
        vision_heads: 0,
        encoder: Bytes(0),
        no_float16: NoFloat16::None,
        f32_checkpoint: false,
        mm_item_tokens: 0,
    };
}

/// How a model's input embedding and lm_head sit over vLLM's pipeline stages (they weigh
/// `vocab × hidden × 2 B` each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Embeddings {
    /// Two matrices: the embedding on the first stage, the lm_head on the last (models/llama.py,
    /// qwen2.py: `embed_tokens` on the first rank, `lm_head` on the last, 0.19).
    #[default]
    Untied,
    /// One matrix in the checkpoint (`tie_word_embeddings`), built on the first stage and, as
    /// the lm_head, on the last.
    Tied,
    /// One matrix, built on every stage (Gemma: gemma.py, gemma2.py, gemma3.py build
    /// `embed_tokens` with no rank check, 0.19).
    EveryStage,
}

impl Embeddings {
    /// The URL's `tied` value (none for the default, untied).
    pub fn key(self) -> Option<&'static str> {
        match self {
            Embeddings::Untied => None,
            Embeddings::Tied => Some("1"),
            Embeddings::EveryStage => Some("every"),
        }
    }
    /// Reads the URL's `tied`: 0 or false, 1 or true, every.
    pub fn parse(v: &str) -> Result<Self> {
        match v.trim() {
            "0" | "false" => Ok(Embeddings::Untied),
            "1" | "true" => Ok(Embeddings::Tied),
            "every" => Ok(Embeddings::EveryStage),
            _ => Err(KvError::Invalid {
                field: "tied",
                message: crate::t!(ERR_TIED).into(),
            }),
        }
    }
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
            state: None,
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
        if matches!(self.attention, Attention::Mla { .. }) {
            // MLA caches one latent, whatever its KV heads.
            if self.kv_heads > self.attention_heads {
                return Err(KvError::Invalid {
                    field: "KV heads",
                    message: crate::tf!(ERR_KV_HEADS, self.kv_heads, self.attention_heads),
                });
            }
        } else {
            self.check_heads("KV heads", "head_dim", self.shape())?;
        }
        match self.attention {
            Attention::Full => {}
            Attention::SlidingWindow {
                window,
                sliding_layers,
                full,
                shared,
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
                        message: crate::tf!(ERR_AT_MOST_LAYERS, self.layers, sliding_layers),
                    });
                }
                if let Some(f) = full {
                    self.check_heads("full-attention KV heads", "full-attention head_dim", f)?;
                }
                let full_layers = self.layers - sliding_layers;
                if shared.sliding > sliding_layers || shared.full > full_layers {
                    return Err(KvError::Invalid {
                        field: "KV-shared layers",
                        message: crate::tf!(
                            ERR_AT_MOST_LAYERS,
                            self.layers,
                            shared.sliding.max(shared.full)
                        ),
                    });
                }
            }
            Attention::Mla { latent, indexer } => {
                check_range(
                    "MLA latent width",
                    latent,
                    1,
                    MAX_DIM,
                    "a whole number from 1 to 1,048,576",
                )?;
                check_range(
                    "MLA indexer width",
                    indexer,
                    0,
                    MAX_DIM,
                    "a whole number from 0 (no indexer) to 1,048,576",
                )?;
            }
            Attention::ChunkedLocal {
                chunk,
                local_layers,
            } => {
                check_range(
                    "attention chunk",
                    chunk,
                    1,
                    1 << 40,
                    "a whole number of tokens from 1 to 2^40",
                )?;
                if local_layers > self.layers {
                    return Err(KvError::Invalid {
                        field: "local layers",
                        message: crate::tf!(ERR_AT_MOST_LAYERS, self.layers, local_layers),
                    });
                }
            }
        }
        if let Some(st) = &self.state {
            st.validate(self.layers)?;
            if self.windowed_layers() > self.attention_layers() {
                return Err(KvError::Invalid {
                    field: "state layers",
                    message: crate::tf!(
                        ERR_FEW_ATTENTION,
                        self.attention_layers(),
                        self.windowed_layers()
                    ),
                });
            }
        }
        Ok(())
    }

    /// A layer shape's KV heads and head dimension: each in range, and each KV head serving the
    /// same number of query heads (grouped-query attention).
    fn check_heads(&self, heads: &'static str, dim: &'static str, s: HeadShape) -> Result<()> {
        check_range(
            heads,
            s.kv_heads,
            1,
            MAX_DIM,
            "a whole number from 1 to 1,048,576",
        )?;
        check_range(
            dim,
            s.head_dim,
            1,
            MAX_DIM,
            "a whole number from 1 to 1,048,576",
        )?;
        if s.kv_heads > self.attention_heads {
            return Err(KvError::Invalid {
                field: heads,
                message: crate::tf!(ERR_KV_HEADS, s.kv_heads, self.attention_heads),
            });
        }
        if self.attention_heads % s.kv_heads != 0 {
            return Err(KvError::Invalid {
                field: heads,
                message: crate::tf!(ERR_KV_UNEVEN, self.attention_heads, s.kv_heads),
            });
        }
        Ok(())
    }

    /// The KV heads and head dimension of the (sliding, or only) attention layers.
    pub const fn shape(&self) -> HeadShape {
        HeadShape {
            kv_heads: self.kv_heads,
            head_dim: self.head_dim,
        }
    }

    /// The KV heads and head dimension of the full-attention layers.
    pub fn full_shape(&self) -> HeadShape {
        match self.attention {
            Attention::SlidingWindow { full: Some(f), .. } => f,
            _ => self.shape(),
        }
    }

    /// Layers that keep no cache of their own, by kind.
    pub fn kv_shared(&self) -> SharedKv {
        match self.attention {
            Attention::SlidingWindow { shared, .. } => shared,
            _ => SharedKv::NONE,
        }
    }

    /// Whether the layers differ from one shape of KV head over every layer, each with its own
    /// cache (Gemma 4): what only vLLM's hybrid allocator (0.19+) sizes here.
    pub fn split_kv(&self) -> bool {
        matches!(
            self.attention,
            Attention::SlidingWindow { full: Some(_), .. }
        ) || self.kv_shared().total() > 0
    }

    /// The model as vLLM release `(major, minor)` allocates it: a hybrid's state in that
    /// release's dtypes ([`StateLayers::resolved`]).
    pub fn for_release(&self, release: (u32, u32)) -> ModelSpec {
        ModelSpec {
            state: self.state.map(|st| st.resolved(release)),
            ..self.clone()
        }
    }

    /// Layers that attend (all but a hybrid's recurrent layers): the `L` of `B_tok`.
    pub fn attention_layers(&self) -> u64 {
        self.layers - self.state_layers().min(self.layers)
    }

    /// A hybrid's recurrent layers (0 for a transformer).
    pub fn state_layers(&self) -> u64 {
        self.state.map_or(0, |s| s.layers)
    }

    /// Attention layers that see only a window or a chunk of the context.
    fn windowed_layers(&self) -> u64 {
        match self.attention {
            Attention::SlidingWindow { sliding_layers, .. } => sliding_layers,
            Attention::ChunkedLocal { local_layers, .. } => local_layers,
            _ => 0,
        }
    }

    /// Layers that attend fully (all attention layers unless some slide or attend locally).
    pub fn full_layers(&self) -> u64 {
        self.attention_layers() - self.windowed_layers().min(self.attention_layers())
    }

    /// Layers with a sliding window.
    pub fn sliding_layers(&self) -> u64 {
        match self.attention {
            Attention::SlidingWindow { .. } => self.attention_layers() - self.full_layers(),
            _ => 0,
        }
    }

    /// The layer kinds in a few words: `8 KV heads × 128`, `…, window 1,024 on 52 layers`,
    /// `MLA latent 576, indexer 128`, `…, chunks of 8,192 on 36 layers`, with a hybrid's
    /// `; 24 Gated DeltaNet layers`.
    pub fn kinds_text(&self) -> String {
        use crate::tf;
        use crate::units::thousands;
        let heads = tf!(MK_HEADS, self.kv_heads, self.head_dim);
        let mut t = match self.attention {
            Attention::Full => heads,
            Attention::SlidingWindow { window, .. } => {
                tf!(MK_WINDOW, heads, thousands(window), self.sliding_layers())
                    + &self.attention.split_text()
            }
            Attention::Mla { latent, indexer } => crate::t!(in_mla(latent, indexer)),
            Attention::ChunkedLocal { chunk, .. } => {
                tf!(MK_CHUNKS, heads, thousands(chunk), self.local_layers())
            }
        };
        if let Some(st) = self.state {
            t.push_str(&tf!(MK_STATE, st.layers, st.kind.name()));
        }
        t
    }

    /// Layers with chunked local attention.
    pub fn local_layers(&self) -> u64 {
        match self.attention {
            Attention::ChunkedLocal { .. } => self.attention_layers() - self.full_layers(),
            _ => 0,
        }
    }
}
