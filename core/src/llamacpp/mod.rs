//! llama.cpp's KV cache as its recent builds size it and print it at startup, before the model
//! loads: the cells of each stream (one per slot with `-np N`, one for all with `--kv-unified`),
//! the full-attention cache and, for a sliding-window model, the smaller SWA cache beside it, at
//! the bytes of each cache type. Knows nothing of the page.
//!
//! Modelled: builds b4409 (January 2025) to b10309, each line in the form its build prints
//! (`kv_size = …` and `KV self size` to b5428, then `size = … (N cells, L layers, a/b seqs)`,
//! `llama_kv_cache_unified:` before b6235; `lines.rs`) and each rule from the build that brought
//! it (`src/llama-context.cpp`, `src/llama-kv-cache.cpp`,
//! `src/llama-kv-cache-iswa.cpp`, `src/llama-memory-recurrent.cpp`, `src/llama-model.cpp`): the
//! cells' padding, each slot's share, the full and sliding-window caches, MLA's K-only cache
//! (b7832 on), a hybrid's recurrent state. Refused by name: a sparse-attention indexer's cache,
//! layers sharing a cache.

mod lines;
pub mod logparse;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// `n_layer`: every layer (the recurrent state's line prints it).
    pub n_layer: u64,
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
    /// Multi-head latent attention: K holds the latent (`kv_lora_rank + n_rot`) and, from b7832,
    /// no V is allocated.
    pub mla: bool,
    /// `arch = deepseek2`: its cache could not shift before b5137.
    pub deepseek2: bool,
    /// Layers with a recurrent state (Mamba2, Gated DeltaNet).
    pub recurrent_layers: u64,
    /// `n_embd_r`: f32 values of one layer's convolution state, `(d_conv − 1) × (d_inner + 2 ×
    /// n_group × d_state)`.
    pub r_elems: u64,
    /// `n_embd_s`: f32 values of one layer's recurrent state, `d_state × d_inner`.
    pub s_elems: u64,
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
        let per_layer = m.kv_heads * m.head_dim;
        let attention = m.attention_layers();
        let mut g = Geometry {
            n_layer: m.layers,
            full_layers: attention,
            n_embd_k_gqa: per_layer,
            n_embd_v_gqa: per_layer,
            ..Geometry::default()
        };
        match m.attention {
            Attention::Full => {}
            Attention::SlidingWindow {
                window,
                sliding_layers,
                full: None,
                shared: SharedKv::NONE,
            } => {
                g.full_layers = attention - sliding_layers;
                g.swa_layers = sliding_layers;
                g.n_swa = window;
            }
            Attention::SlidingWindow { .. } => {
                return refuse("layers of two shapes or sharing a cache (Gemma 4)")
            }
            // One latent per token and layer in K; V, from b7832, none.
            Attention::Mla { latent, indexer: 0 } => {
                g.mla = true;
                g.deepseek2 = true;
                g.n_embd_k_gqa = latent;
                g.n_embd_v_gqa = 0;
            }
            Attention::Mla { .. } => return refuse("a sparse-attention indexer cache"),
            Attention::ChunkedLocal { .. } => return refuse("chunked local attention"),
        }
        if let Some(st) = m.state.filter(|st| st.layers > 0) {
            g.recurrent_layers = st.layers;
            g.r_elems = st.conv_kernel.saturating_sub(1) * st.conv_channels(1);
            g.s_elems = st.heads * st.head_dim * st.state_dim;
        }
        Ok(g)
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
    /// `-b` (the SWA cache kept room for it before b5554).
    pub batch: u64,
    /// `--swa-full`: the SWA cache as large as the full one.
    pub swa_full: bool,
    /// The build (`bNNNN`), from [`FIRST_BUILD`].
    pub build: u64,
}

/// The first build modelled: b4409 adds `can_shift` to the `kv_size = …` line (`0bf2d10c5`
/// brought the line at b4357).
pub const FIRST_BUILD: u64 = 4409;
/// The sliding-window layers get a cache of their own (`e298d2fbd`, "kv-cache : add SWA
/// support"); before it every attention layer holds the whole context.
pub(super) const ISWA: u64 = 5429;
/// The SWA cache keeps room for the micro-batch (`-ub`), not the batch (`3600cc288`).
const SWA_UBATCH: u64 = 5554;
/// A stream per slot without `--kv-unified` (`225e7a143`, "high-throughput mode"); until b6071
/// only with `LLAMA_SET_ROWS=1`, else one stream.
pub(super) const STREAMS: u64 = 5913;
const STREAMS_BY_DEFAULT: u64 = 6071;
/// No padding of the cells (`85a7d8677`, "remove KV cache size padding"); before it, 256 with
/// flash attention (or `auto`) and 32 without.
const NO_PADDING: u64 = 6868;
/// Each slot's share of the context rounded down, not up (b6927).
const FLOORED_SHARE: u64 = 6927;
/// The context padded to 256, then each slot's share padded again, whatever flash attention
/// (`16bcc1259`).
const PADDED_256: u64 = 6975;
/// A hybrid's attention cache takes a stream per slot (`11a381116`); before it, one.
const HYBRID_STREAMS: u64 = 6079;
/// The sliding-window cache kept f16 whatever `-ctk` / `-ctv` say (`17193cce3`, reverted at
/// b8644).
const SWA_F16: std::ops::RangeInclusive<u64> = 8634..=8643;
/// The newest build whose sources the rules here were read from (b10309).
pub const NEWEST_BUILD: u64 = 10309;
/// MLA caches allocate no V (`d9c6ce46f`, "kv-cache : support V-less cache").
const V_LESS_MLA: u64 = 7832;
/// Hybrid models' caches no longer take `-np` times their size without a unified cache
/// (allocated so from b6079 to b8024).
const HYBRID_SLOTS_FIXED: u64 = 8025;

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
            batch: 2048,
            swa_full: false,
            build: NEWEST_BUILD,
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

/// A hybrid's recurrent state (`llama_memory_recurrent`): a cell per slot, f32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recurrent {
    /// Cells: one per slot.
    pub cells: u64,
    /// Bytes of the convolution states (R) over every recurrent layer.
    pub r_bytes: u64,
    /// Bytes of the recurrent states (S).
    pub s_bytes: u64,
}

/// The caches and the lines llama.cpp prints for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kv {
    /// Full attention first, then SWA.
    pub caches: Vec<Cache>,
    /// A hybrid's recurrent state.
    pub recurrent: Option<Recurrent>,
    /// The startup lines.
    pub lines: Vec<String>,
}

impl Kv {
    /// Bytes of every cache (KV and recurrent state).
    pub fn total_bytes(&self) -> u64 {
        let kv: u64 = self.caches.iter().map(|c| c.k_bytes + c.v_bytes).sum();
        kv + self.recurrent.map_or(0, |r| r.r_bytes + r.s_bytes)
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
    if !(FIRST_BUILD..=NEWEST_BUILD).contains(&s.build) {
        return Err(KvError::Invalid {
            field: "build",
            message: format!(
                "kvbudget models llama.cpp builds b{FIRST_BUILD} to b{NEWEST_BUILD} (got b{})",
                s.build
            ),
        });
    }
    if g.mla && s.build < V_LESS_MLA {
        return Err(KvError::Unsupported(format!(
            "before b{V_LESS_MLA} an MLA cache also allocates V (kv_lora_rank wide), which kvbudget \
             does not size"
        )));
    }
    if g.recurrent_layers > 0 && s.build < HYBRID_STREAMS {
        return Err(KvError::Unsupported(format!(
            "before b{HYBRID_STREAMS} a hybrid model's attention cache is sized differently, \
             which kvbudget does not model"
        )));
    }
    if g.recurrent_layers > 0 && s.build < HYBRID_SLOTS_FIXED && !s.kv_unified && s.parallel > 1 {
        return Err(KvError::Unsupported(format!(
            "before b{HYBRID_SLOTS_FIXED} a hybrid model's caches without --kv-unified took -np \
             times their size, which kvbudget does not size"
        )));
    }
    if (STREAMS..STREAMS_BY_DEFAULT).contains(&s.build) && !s.kv_unified && s.parallel > 1 {
        return Err(KvError::Unsupported(format!(
            "b{STREAMS}–b{} give each slot a stream only with LLAMA_SET_ROWS=1, which kvbudget \
             does not take; --kv-unified sizes them",
            STREAMS_BY_DEFAULT - 1
        )));
    }
    if s.type_v.quantized() && s.flash_attn == FlashAttn::Off {
        return Err(KvError::Unsupported(format!(
            "llama.cpp refuses a quantized V cache ({}) without flash attention: \
             V cache quantization requires flash_attn",
            s.type_v.name
        )));
    }
    // The cells of each stream, and how the SWA cache's are padded, by build.
    let n_ctx = if s.ctx == 0 { n_ctx_train } else { s.ctx };
    let one_stream = s.kv_unified || s.build < STREAMS;
    let streams = if one_stream { 1 } else { s.parallel };
    let share = |n: u64| {
        if one_stream {
            n
        } else {
            n.div_ceil(s.parallel)
        }
    };
    let fa_pad = if s.flash_attn == FlashAttn::Off {
        32
    } else {
        256
    };
    let (base, swa_pad) = match s.build {
        // `llama_context`: n_ctx padded to 256; each slot's share padded again.
        b if b >= PADDED_256 => (pad(pad(n_ctx, PAD) / streams, PAD), PAD),
        b if b >= FLOORED_SHARE => (
            if one_stream {
                n_ctx
            } else {
                n_ctx / s.parallel
            },
            1,
        ),
        b if b >= NO_PADDING => (share(n_ctx), 1),
        _ => (pad(share(n_ctx), fa_pad), fa_pad),
    };
    // (b8634–b8643 kept the SWA cache f16.)
    let f16 = CACHE_TYPES[1];
    let types = |swa: bool| match swa && SWA_F16.contains(&s.build) {
        true => (f16, f16),
        false => (s.type_k, s.type_v),
    };
    let cache = |swa: bool, cells: u64, layers: u64| -> Result<Cache> {
        let (tk, tv) = types(swa);
        let (row_k, row_v) = (tk.row_bytes(g.n_embd_k_gqa)?, tv.row_bytes(g.n_embd_v_gqa)?);
        Ok(Cache {
            swa,
            cells,
            streams,
            layers,
            k_bytes: streams * cells * layers * row_k,
            v_bytes: streams * cells * layers * row_v,
        })
    };
    // Before b5429 the sliding layers keep the whole context with the rest.
    let split = g.swa_layers > 0 && s.build >= ISWA;
    let full_layers = if split {
        g.full_layers
    } else {
        g.full_layers + g.swa_layers
    };
    let mut caches = vec![cache(false, base, full_layers)?];
    if split {
        let per_stream = if one_stream { s.parallel } else { 1 };
        let room = if s.build >= SWA_UBATCH {
            s.ubatch
        } else {
            s.batch
        };
        let wanted = g.n_swa * per_stream + room;
        let cells = match (s.swa_full, s.build >= PADDED_256) {
            (true, _) => base,
            (false, true) => pad(wanted.min(base), swa_pad),
            (false, false) => pad(wanted, swa_pad).min(base),
        };
        caches.push(cache(true, cells, g.swa_layers)?);
    }
    let mut lines = Vec::new();
    for c in &caches {
        let (tk, tv) = types(c.swa);
        lines.extend(lines::cache(g, s, c, (tk.name, tv.name), split, fa_pad));
    }
    let recurrent = (g.recurrent_layers > 0).then(|| {
        let cells = s.parallel.max(1);
        Recurrent {
            cells,
            r_bytes: cells * g.recurrent_layers * g.r_elems * 4,
            s_bytes: cells * g.recurrent_layers * g.s_elems * 4,
        }
    });
    lines.extend(recurrent.map(|r| lines::recurrent(g, s, &r)));
    Ok(Kv {
        caches,
        recurrent,
        lines,
    })
}
