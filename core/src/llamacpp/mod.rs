//! llama.cpp's KV cache as its recent builds size it and print it at startup, before the model
//! loads: the cells of each stream (one per slot with `-np N`, one for all with `--kv-unified`),
//! the full-attention cache and, for a sliding-window model, the smaller SWA cache beside it, at
//! the bytes of each cache type. Knows nothing of the page.
//!
//! Modelled: builds from b6975 (`16bcc1259`, November 2025), which pad the context to 256 cells
//! whatever the flash-attention setting and print `llama_kv_cache: size = … (N cells, L layers,
//! a/b seqs)` (`src/llama-context.cpp`, `src/llama-kv-cache.cpp`, `src/llama-kv-cache-iswa.cpp`;
//! the `%2u/%u seqs` form from b6073, the `llama_kv_cache` prefix from b6235). Refused by name:
//! MLA caches, recurrent and hybrid models' state, layers sharing a cache, and a quantized cache
//! beside a sliding-window one (its type there changed with the build).

use crate::error::{KvError, Result};
use crate::model::{Attention, ModelSpec, SharedKv};

/// A KV cache type (`-ctk`, `-ctv`): its name and its bytes per block of elements (ggml's type
/// traits, `ggml/src/ggml.c`: q8_0 holds 32 elements in 34 B, q4_0 in 18 B, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheType {
    /// As `-ctk` takes it and the log prints it.
    pub name: &'static str,
    /// Bytes of one block.
    pub block_bytes: u64,
    /// Elements in one block.
    pub block_elems: u64,
}

/// The cache types llama.cpp accepts for `-ctk` / `-ctv` (`common/arg.cpp`, `kv_cache_types`).
pub const CACHE_TYPES: [CacheType; 9] = [
    CacheType {
        name: "f32",
        block_bytes: 4,
        block_elems: 1,
    },
    CacheType {
        name: "f16",
        block_bytes: 2,
        block_elems: 1,
    },
    CacheType {
        name: "bf16",
        block_bytes: 2,
        block_elems: 1,
    },
    CacheType {
        name: "q8_0",
        block_bytes: 34,
        block_elems: 32,
    },
    CacheType {
        name: "q4_0",
        block_bytes: 18,
        block_elems: 32,
    },
    CacheType {
        name: "q4_1",
        block_bytes: 20,
        block_elems: 32,
    },
    CacheType {
        name: "iq4_nl",
        block_bytes: 18,
        block_elems: 32,
    },
    CacheType {
        name: "q5_0",
        block_bytes: 22,
        block_elems: 32,
    },
    CacheType {
        name: "q5_1",
        block_bytes: 24,
        block_elems: 32,
    },
];

impl CacheType {
    /// The type `-ctk` / `-ctv` names.
    pub fn parse(name: &str) -> Result<CacheType> {
        let n = name.trim().to_ascii_lowercase();
        CACHE_TYPES
            .iter()
            .copied()
            .find(|t| t.name == n)
            .ok_or_else(|| {
                let known: Vec<&str> = CACHE_TYPES.iter().map(|t| t.name).collect();
                KvError::Invalid {
                    field: "cache-type",
                    message: format!(
                        "unknown KV cache type {name:?}; llama.cpp takes {}",
                        known.join(", ")
                    ),
                }
            })
    }
    /// Bytes of a row of `elems` elements (`ggml_row_size`): whole blocks.
    pub fn row_bytes(self, elems: u64) -> Result<u64> {
        if elems % self.block_elems != 0 {
            return Err(KvError::Invalid {
                field: "cache-type",
                message: format!(
                    "{} stores blocks of {} elements; a row of {elems} is not whole blocks",
                    self.name, self.block_elems
                ),
            });
        }
        Ok(elems / self.block_elems * self.block_bytes)
    }
    /// Whether it is quantized (V then needs flash attention).
    pub fn quantized(self) -> bool {
        self.block_elems > 1
    }
}

/// `-fa on|off|auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlashAttn {
    /// Flash attention on.
    On,
    /// Off.
    Off,
    /// llama.cpp decides once the model is loaded (on where the backend supports it).
    Auto,
}

/// The layers that keep a KV cache, as the GGUF's metadata gives them (`print_info:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Layers with a full-attention cache.
    pub full_layers: u64,
    /// Layers with a sliding-window cache.
    pub swa_layers: u64,
    /// `n_swa`: the window in tokens (0 without sliding layers).
    pub n_swa: u64,
    /// `n_embd_k_gqa`: K elements per token per layer (KV heads × K head size).
    pub n_embd_k_gqa: u64,
    /// `n_embd_v_gqa`.
    pub n_embd_v_gqa: u64,
}

impl Geometry {
    /// A model's cache layers in llama.cpp, or why kvbudget does not size them there.
    pub fn of(m: &ModelSpec) -> Result<Geometry> {
        let refuse = |what: &str| {
            Err(KvError::Unsupported(format!(
                "{} has {what}; kvbudget does not size llama.cpp's cache for it yet",
                m.id
            )))
        };
        if m.state.is_some_and(|s| s.layers > 0) {
            return refuse("recurrent layers (llama.cpp's llama_memory_recurrent)");
        }
        let per_layer = m.kv_heads * m.head_dim;
        let (full_layers, swa_layers, n_swa) = match m.attention {
            Attention::Full => (m.layers, 0, 0),
            Attention::SlidingWindow {
                window,
                sliding_layers,
                full: None,
                shared: SharedKv::NONE,
            } => (m.layers - sliding_layers, sliding_layers, window),
            Attention::SlidingWindow { .. } => {
                return refuse("layers of two shapes or sharing a cache (Gemma 4)")
            }
            Attention::Mla { .. } => return refuse("multi-head latent attention"),
            Attention::ChunkedLocal { .. } => return refuse("chunked local attention"),
        };
        Ok(Geometry {
            full_layers,
            swa_layers,
            n_swa,
            n_embd_k_gqa: per_layer,
            n_embd_v_gqa: per_layer,
        })
    }
}

/// How the server is started: the flags that size the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `-c`: the context of all slots together (0: the model's `n_ctx_train`).
    pub ctx: u64,
    /// `-np`: slots (sequences served at once).
    pub parallel: u64,
    /// One cache stream for all slots (`--kv-unified`); else one per slot.
    pub kv_unified: bool,
    /// `-fa`.
    pub flash_attn: FlashAttn,
    /// `-ctk`, `-ctv`.
    pub type_k: CacheType,
    /// `-ctv`.
    pub type_v: CacheType,
    /// `-ub`.
    pub ubatch: u64,
    /// `--swa-full`: the SWA cache as large as the full one.
    pub swa_full: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ctx: 4096,
            parallel: 1,
            kv_unified: false,
            flash_attn: FlashAttn::Auto,
            type_k: CACHE_TYPES[1],
            type_v: CACHE_TYPES[1],
            ubatch: 512,
            swa_full: false,
        }
    }
}

/// One of the caches llama.cpp creates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    /// Whether it is the sliding-window cache.
    pub swa: bool,
    /// Cells of each stream.
    pub cells: u64,
    /// Streams (slots without `--kv-unified`, else 1).
    pub streams: u64,
    /// Layers it holds.
    pub layers: u64,
    /// Bytes of K and of V over every stream and layer.
    pub k_bytes: u64,
    /// Bytes of V.
    pub v_bytes: u64,
}

/// The caches and the lines llama.cpp prints for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kv {
    /// Full attention first, then SWA.
    pub caches: Vec<Cache>,
    /// The startup lines.
    pub lines: Vec<String>,
}

impl Kv {
    /// Bytes of every cache.
    pub fn total_bytes(&self) -> u64 {
        self.caches.iter().map(|c| c.k_bytes + c.v_bytes).sum()
    }
}

/// The cells a cache is padded to (`GGML_PAD(…, 256)`, b6975 on).
const PAD: u64 = 256;

/// `n` rounded up to a multiple of `to` (`GGML_PAD`).
fn pad(n: u64, to: u64) -> u64 {
    n.div_ceil(to) * to
}

/// MiB as llama.cpp prints a cache's size, K and V: `(float)bytes / (1024.0f * 1024.0f)`, the
/// bytes rounded to a 32-bit float first (which shows from about 64 GiB), then `%7.2f`.
pub fn mib(bytes: u64) -> f64 {
    (bytes as f32 / (1024.0f32 * 1024.0f32)) as f64
}

/// The KV cache llama.cpp creates for `g` started with `s`, and its lines.
pub fn kv(g: &Geometry, s: &Settings, n_ctx_train: u64) -> Result<Kv> {
    if s.parallel == 0 || s.ubatch == 0 {
        return Err(KvError::Invalid {
            field: "parallel",
            message: "--parallel and --ubatch-size must be at least 1".into(),
        });
    }
    if s.type_v.quantized() && s.flash_attn == FlashAttn::Off {
        return Err(KvError::Unsupported(format!(
            "llama.cpp refuses a quantized V cache ({}) without flash attention: \
             V cache quantization requires flash_attn",
            s.type_v.name
        )));
    }
    // From llama.cpp PR #21277 (April 2026) a sliding-window cache stays f16 whatever -ctk and
    // -ctv say; before it, it took their type. Which one a log shows depends on its build.
    if g.swa_layers > 0 && (s.type_k.quantized() || s.type_v.quantized()) {
        return Err(KvError::Unsupported(
            "a quantized KV cache beside a sliding-window cache: the SWA cache's type depends on              the llama.cpp build (kept f16 since PR #21277, April 2026), which kvbudget does not              take yet"
                .into(),
        ));
    }
    // `llama_context`: n_ctx padded to 256; without a unified cache each slot's stream its share,
    // padded again.
    let n_ctx = pad(if s.ctx == 0 { n_ctx_train } else { s.ctx }, PAD);
    let streams = if s.kv_unified { 1 } else { s.parallel };
    let base = pad(n_ctx / streams, PAD);
    let row_k = s.type_k.row_bytes(g.n_embd_k_gqa)?;
    let row_v = s.type_v.row_bytes(g.n_embd_v_gqa)?;
    let cache = |swa: bool, cells: u64, layers: u64| Cache {
        swa,
        cells,
        streams,
        layers,
        k_bytes: streams * cells * layers * row_k,
        v_bytes: streams * cells * layers * row_v,
    };
    let mut caches = vec![cache(false, base, g.full_layers)];
    if g.swa_layers > 0 {
        let per_stream = if s.kv_unified { s.parallel } else { 1 };
        let cells = if s.swa_full {
            base
        } else {
            pad((g.n_swa * per_stream + s.ubatch).min(base), PAD)
        };
        caches.push(cache(true, cells, g.swa_layers));
    }
    let mut lines = Vec::new();
    for c in &caches {
        if g.swa_layers > 0 {
            lines.push(format!(
                "llama_kv_cache_iswa: creating {} KV cache, size = {} cells",
                if c.swa { "    SWA" } else { "non-SWA" },
                c.cells
            ));
        }
        lines.push(format!(
            "llama_kv_cache: size = {:7.2} MiB ({:6} cells, {:3} layers, {:2}/{} seqs), K ({}): {:7.2} MiB, V ({}): {:7.2} MiB",
            mib(c.k_bytes + c.v_bytes),
            c.cells,
            c.layers,
            s.parallel,
            streams,
            s.type_k.name,
            mib(c.k_bytes),
            s.type_v.name,
            mib(c.v_bytes)
        ));
    }
    Ok(Kv { caches, lines })
}
