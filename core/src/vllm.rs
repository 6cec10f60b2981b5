//! What vLLM prints at startup about its KV cache, per version (VLLM-ACCOUNTING §0–§4).

use crate::capacity::{self, Margin, Overhead, Rounding};
use crate::error::{KvError, Result};
use crate::model::{Attention, KvDtype, ModelSpec};
use crate::presets::Arch;
use crate::units::{fixed2, py_float_repr, py_round, thousands, Bytes, GIB};

/// A vLLM release, `major.minor` (the patch level does not change the accounting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major (0 for every release so far).
    pub major: u32,
    /// Minor.
    pub minor: u32,
}

/// The oldest release kvbudget describes (its V0 engine).
pub const OLDEST: Version = Version { major: 0, minor: 4 };
/// The newest release whose accounting is known.
pub const NEWEST: Version = Version {
    major: 0,
    minor: 33,
};

impl Version {
    /// `0.Y`.
    pub const fn new(major: u32, minor: u32) -> Self {
        Version { major, minor }
    }

    /// Parses `0.11`, `0.11.2`, `v0.19.0`, `0.8.5.post1` between 0.4 and 0.33.
    pub fn parse(s: &str) -> Result<Self> {
        let bad = || KvError::Invalid {
            field: "vLLM version",
            message: format!(
                "{:?} is not a version kvbudget knows; give X.Y from 0.4 to {}",
                crate::model::truncate(s, 20),
                NEWEST
            ),
        };
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let mut parts = t.split('.');
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let v = Version { major, minor };
        if v < OLDEST || v > NEWEST {
            return Err(bad());
        }
        Ok(v)
    }

    /// Which engine runs by default: V1 from 0.8.
    pub fn default_engine(self) -> Engine {
        if self < Version::new(0, 8) {
            Engine::V0
        } else {
            Engine::V1
        }
    }

    /// The default `--gpu-memory-utilization`: 0.90, and 0.92 from 0.20.
    pub fn default_util(self) -> f64 {
        if self >= Version::new(0, 20) {
            0.92
        } else {
            0.90
        }
    }

    /// `total × util`: a float up to 0.13, ceil from 0.14.
    pub fn rounding(self) -> Rounding {
        if self >= Version::new(0, 14) {
            Rounding::Ceil
        } else {
            Rounding::Float
        }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// vLLM's engine generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The old engine (default before 0.8, selectable with `VLLM_USE_V1=0` up to 0.9).
    V0,
    /// The V1 engine.
    V1,
}

/// The families whose printed report differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `# GPU blocks: N, # CPU blocks: M` and a concurrency line.
    V0,
    /// 0.8–0.9: tokens = blocks × block size; concurrency = tokens / max_model_len; no hybrid groups.
    V1Early,
    /// 0.10–0.20: tokens = (blocks // groups) × block size.
    V1Mid,
    /// 0.21–0.27: tokens = int(concurrency × max_model_len).
    V1Late,
    /// 0.28+: the same numbers on one line.
    V1OneLine,
}

/// The family for a version and engine (V0 only exists up to 0.9).
pub fn family(v: Version, engine: Engine) -> Family {
    if engine == Engine::V0 || v < Version::new(0, 8) {
        Family::V0
    } else if v < Version::new(0, 10) {
        Family::V1Early
    } else if v < Version::new(0, 21) {
        Family::V1Mid
    } else if v < Version::new(0, 28) {
        Family::V1Late
    } else {
        Family::V1OneLine
    }
}

/// Where the bytes for the KV cache come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KvMemory {
    /// `total × util − weights − overhead`.
    Budget {
        /// GPU total as vLLM sees it.
        gpu_total: Bytes,
        /// `--gpu-memory-utilization`.
        util: f64,
        /// Weights as vLLM counts them.
        weights: Bytes,
        /// Everything else.
        overhead: Overhead,
    },
    /// A printed `Available KV cache memory` (bytes = ⌊G × 2³⁰⌋).
    Available(Bytes),
    /// A known block count (e.g. from a V0 `# GPU blocks` line).
    Blocks(u64),
}

/// A `vllm serve` scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The model.
    pub model: ModelSpec,
    /// `--kv-cache-dtype`.
    pub kv_dtype: KvDtype,
    /// `--tensor-parallel-size`.
    pub tp: u64,
    /// `--pipeline-parallel-size`.
    pub pp: u64,
    /// `--block-size` (None: 16, or the MLA backend's size).
    pub block_size: Option<u64>,
    /// `--max-model-len` (None: the model's `max_position_embeddings`).
    pub max_model_len: Option<u64>,
    /// `--max-num-seqs` (None: vLLM's default for the GPU).
    pub max_num_seqs: Option<u64>,
    /// `--max-num-batched-tokens` (None: vLLM's default for the GPU).
    pub max_num_batched_tokens: Option<u64>,
    /// The release.
    pub version: Version,
    /// The engine (V0 only up to 0.9).
    pub engine: Engine,
    /// Where the KV bytes come from.
    pub memory: KvMemory,
    /// GPU family (MLA block size, defaults).
    pub arch: Arch,
    /// GPU total, when known (for the ≥ 70 GiB defaults).
    pub gpu_total: Option<Bytes>,
}

/// One group of layers sharing a block table (the hybrid allocator, 0.10+).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Groups {
    /// Layers per group (every group the same size).
    pub group_size: u64,
    /// Groups of full-attention layers.
    pub full_groups: u64,
    /// Groups of sliding-window layers.
    pub sliding_groups: u64,
    /// Layer slots added so the groups come out equal.
    pub padding_layers: u64,
    /// The padding as a share of the layers of the padded kinds, in percent (what vLLM warns).
    pub padding_waste_pct: f64,
}

/// Everything vLLM would compute and print.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Bytes available for KV on one GPU (negative: the budget is exhausted). None when started from blocks.
    pub available_kv_bytes: Option<i128>,
    /// Tokens per block.
    pub block_size: u64,
    /// Bytes of one block on one layer (vLLM's `page_size_bytes`).
    pub page_bytes: u64,
    /// KV bytes per token on one GPU over the largest stage's layers.
    pub bytes_per_token: Bytes,
    /// Layers on the largest pipeline stage.
    pub stage_layers: u64,
    /// Hybrid groups, when layers of both kinds are grouped.
    pub groups: Option<Groups>,
    /// `max_model_len` in force.
    pub max_model_len: u64,
    /// `max_num_seqs` in force.
    pub max_num_seqs: u64,
    /// `max_num_batched_tokens` in force.
    pub max_num_batched_tokens: u64,
    /// Blocks one max-length request needs (over all groups).
    pub blocks_per_request: u64,
    /// `num_gpu_blocks` (None when vLLM stopped before computing it).
    pub num_gpu_blocks: Option<u64>,
    /// The token count vLLM prints (V0: blocks × block size).
    pub gpu_kv_cache_tokens: Option<u64>,
    /// The concurrency vLLM prints (unrounded).
    pub max_concurrency: Option<f64>,
    /// Whole max-length requests that fit at once, capped by `max_num_seqs`.
    pub max_seqs_capped: Option<u64>,
    /// The log lines, in order, without the logger prefix.
    pub lines: Vec<String>,
    /// vLLM's error text when it refuses to start.
    pub error: Option<String>,
    /// When one request does not fit: the longest `max_model_len` that would (vLLM's estimate).
    pub estimated_max_len: Option<u64>,
    /// The overhead estimate, when the budget used one.
    pub overhead: Option<crate::overhead::Estimate>,
}

const NO_MEMORY: &str = "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.";

/// The text vLLM prints for a byte count in GiB: `%.2f` up to 0.29, `round(x, 2)` from 0.30.
pub fn gib_text(bytes: i128, v: Version) -> String {
    let g = bytes as f64 / GIB as f64;
    if v >= Version::new(0, 30) {
        py_float_repr(py_round(g, 2))
    } else {
        fixed2(g)
    }
}

fn ceil_div(a: u64, b: u64) -> u64 {
    a.div_ceil(b.max(1))
}

/// vLLM's defaults for `vllm serve`: 1024 sequences / 8192 batched tokens on GPUs with
/// ≥ 70 GiB that are not A100s, else 256 / 2048 (VLLM-ACCOUNTING §4).
pub fn serve_defaults(arch: Arch, gpu_total: Option<Bytes>) -> (u64, u64) {
    match gpu_total {
        Some(t) if t.0 >= 70 * GIB && arch != Arch::A100 => (1024, 8192),
        _ => (256, 2048),
    }
}

/// Computes what vLLM would print for `s`.
pub fn report(s: &Scenario) -> Result<Report> {
    s.model.validate()?;
    crate::error::check_range(
        "tensor-parallel size",
        s.tp,
        1,
        1024,
        "a whole number from 1 to 1,024",
    )?;
    crate::error::check_range(
        "pipeline-parallel size",
        s.pp,
        1,
        1024,
        "a whole number from 1 to 1,024",
    )?;
    if s.pp > s.model.layers {
        return Err(KvError::Invalid {
            field: "pipeline-parallel size",
            message: format!("must not exceed the number of layers ({})", s.model.layers),
        });
    }
    let v = s.version;
    let fam = family(v, s.engine);
    let is_mla = matches!(s.model.attention, Attention::Mla { .. });
    let block_size = match s.block_size {
        Some(b) => crate::error::check_range(
            "block size",
            b,
            1,
            1 << 20,
            "a whole number of tokens from 1 to 1,048,576",
        )?,
        None if is_mla && s.arch == Arch::Hopper && fam != Family::V0 => 64,
        None => 16,
    };
    let max_model_len = match s.max_model_len {
        Some(l) => crate::error::check_range(
            "max_model_len",
            l,
            1,
            1 << 40,
            "a whole number of tokens from 1 to 2^40",
        )?,
        None if s.model.max_position > 0 => s.model.max_position,
        None => {
            return Err(KvError::Invalid {
                field: "max_model_len",
                message: "is required when the model has no max_position_embeddings".into(),
            })
        }
    };
    let (def_seqs, def_mnbt) = serve_defaults(s.arch, s.gpu_total);
    let max_num_seqs = match s.max_num_seqs {
        Some(n) => crate::error::check_range(
            "max_num_seqs",
            n,
            1,
            1 << 32,
            "a whole number from 1 to 2^32",
        )?,
        None => def_seqs,
    };
    let mnbt = match s.max_num_batched_tokens {
        Some(n) => crate::error::check_range(
            "max_num_batched_tokens",
            n,
            1,
            1 << 40,
            "a whole number from 1 to 2^40",
        )?,
        None => def_mnbt,
    };

    let per_layer_token = capacity::bytes_per_token_per_layer(&s.model, s.kv_dtype, s.tp)?;
    let page_bytes = per_layer_token
        .checked_mul(block_size)
        .ok_or(KvError::Overflow("block size in bytes"))?;
    let stage_layers = capacity::max_stage_layers(s.model.layers, s.pp);
    let bytes_per_token = capacity::bytes_per_token(&s.model, s.kv_dtype, s.tp, s.pp)?;

    // Layer kinds on the largest stage. V0 and V1 before 0.10 turn a mix of sliding and full
    // layers into full attention (no hybrid allocator); a model that only slides keeps its window.
    let (mut full, mut sliding, window) = match s.model.attention {
        Attention::SlidingWindow {
            window,
            sliding_layers,
        } => {
            let sl = (sliding_layers as u128 * stage_layers as u128)
                .div_ceil(s.model.layers as u128) as u64;
            let sl = sl.min(stage_layers);
            (stage_layers - sl, sl, window)
        }
        _ => (stage_layers, 0, 0),
    };
    let hybrid_allocator = !matches!(fam, Family::V0 | Family::V1Early);
    if sliding > 0 && full > 0 && !hybrid_allocator {
        full += sliding;
        sliding = 0;
    }
    if fam == Family::V0 {
        // V0 sizes every layer for the whole context.
        full += sliding;
        sliding = 0;
    }
    // Scheduled tokens a sliding layer must keep beyond its window: max_num_batched_tokens,
    // doubled from 0.26 (async scheduling keeps one step ahead).
    let lookahead = if v >= Version::new(0, 26) {
        mnbt.saturating_mul(2)
    } else {
        mnbt
    };
    let sliding_blocks = ceil_div(
        window
            .saturating_sub(1)
            .saturating_add(lookahead)
            .min(max_model_len),
        block_size,
    ) + 1;
    let full_blocks = ceil_div(max_model_len, block_size);

    let groups = if full > 0 && sliding > 0 {
        let g = full.min(sliding);
        let fg = ceil_div(full, g);
        let sg = ceil_div(sliding, g);
        let pad_full = fg * g - full;
        let pad_sliding = sg * g - sliding;
        let padded_kinds =
            (if pad_full > 0 { full } else { 0 }) + (if pad_sliding > 0 { sliding } else { 0 });
        let padding = pad_full + pad_sliding;
        Some(Groups {
            group_size: g,
            full_groups: fg,
            sliding_groups: sg,
            padding_layers: padding,
            padding_waste_pct: if padded_kinds > 0 {
                padding as f64 / padded_kinds as f64 * 100.0
            } else {
                0.0
            },
        })
    } else {
        None
    };
    // Layers that share one block (the divisor of the pool) and blocks per max-length request.
    let (slots_per_block, num_groups, blocks_per_request) = match groups {
        Some(g) => (
            g.group_size,
            g.full_groups + g.sliding_groups,
            g.full_groups * full_blocks + g.sliding_groups * sliding_blocks,
        ),
        None if sliding > 0 => (stage_layers, 1, sliding_blocks),
        None => (stage_layers, 1, full_blocks),
    };
    // KV bytes one max-length request needs, as the fit check sums them over real layers.
    let needed_for = |len: u64| -> u128 {
        let fb = ceil_div(len, block_size) as u128;
        let sb = (ceil_div(
            window.saturating_sub(1).saturating_add(lookahead).min(len),
            block_size,
        ) + 1) as u128;
        page_bytes as u128 * (full as u128 * fb + sliding as u128 * sb)
    };
    // From 0.29 the fit check also reserves the null block.
    let null_block = if v >= Version::new(0, 29) {
        page_bytes as u128 * slots_per_block as u128
    } else {
        0
    };

    let mut estimate = None;
    let available: Option<i128> = match s.memory {
        KvMemory::Budget {
            gpu_total,
            util,
            weights,
            overhead,
        } => {
            let req = capacity::requested_bytes(gpu_total, util, v.rounding())?;
            // Each GPU holds its share of the weights: split by tensor and pipeline parallelism.
            let gpus = s.tp * s.pp;
            let overhead = match overhead {
                Overhead::Fixed(b) => b,
                Overhead::Estimated(margin) => {
                    let e = crate::overhead::estimate(
                        &s.model,
                        &crate::overhead::Settings {
                            tp: s.tp,
                            pp: s.pp,
                            version: v,
                            engine: s.engine,
                            max_model_len,
                            max_num_seqs,
                            max_num_batched_tokens: mnbt,
                            requested: req,
                        },
                    );
                    estimate = Some(e);
                    match margin {
                        Margin::Point => e.subtracted(),
                        Margin::Low => e.low(),
                        Margin::High => e.high(),
                    }
                }
            };
            Some(capacity::pool(
                req,
                Bytes(weights.0.div_ceil(gpus)),
                overhead,
            ))
        }
        KvMemory::Available(b) => Some(b.0 as i128),
        KvMemory::Blocks(_) => None,
    };
    let block_bytes = page_bytes as u128 * slots_per_block as u128;
    let num_blocks: u64 = match (s.memory, available) {
        (KvMemory::Blocks(n), _) => n,
        (_, Some(a)) if a > 0 => ((a as u128) / block_bytes).min(u64::MAX as u128) as u64,
        _ => 0,
    };

    let mut lines = Vec::new();
    let mut out = Report {
        available_kv_bytes: available,
        block_size,
        page_bytes,
        bytes_per_token,
        stage_layers,
        groups,
        max_model_len,
        max_num_seqs,
        max_num_batched_tokens: mnbt,
        blocks_per_request,
        num_gpu_blocks: None,
        gpu_kv_cache_tokens: None,
        max_concurrency: None,
        max_seqs_capped: None,
        lines: Vec::new(),
        error: None,
        estimated_max_len: None,
        overhead: estimate,
    };

    if s.model.max_position > 0 && max_model_len > s.model.max_position {
        out.error = Some(format!(
            "User-specified max_model_len ({max_model_len}) is greater than the derived max_model_len \
             (max_position_embeddings={} or model_max_length=None in model's config.json). To allow overriding \
             this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.",
            py_float_repr(s.model.max_position as f64)
        ));
        return Ok(out);
    }

    if fam == Family::V0 {
        let tokens = num_blocks.saturating_mul(block_size);
        let cpu_blocks = (4 * GIB as u128 / block_bytes) as u64; // --swap-space 4 GiB
        let conc = tokens as f64 / max_model_len as f64;
        lines.push(format!(
            "# GPU blocks: {num_blocks}, # CPU blocks: {cpu_blocks}"
        ));
        lines.push(format!(
            "Maximum concurrency for {max_model_len} tokens per request: {}x",
            fixed2(conc)
        ));
        out.num_gpu_blocks = Some(num_blocks);
        out.gpu_kv_cache_tokens = Some(tokens);
        out.max_concurrency = Some(conc);
        out.max_seqs_capped = Some((tokens / max_model_len).min(max_num_seqs));
        if num_blocks == 0 {
            out.error = Some(NO_MEMORY.into());
        } else if tokens < max_model_len {
            out.error = Some(format!(
                "The model's max seq len ({max_model_len}) is larger than the maximum number of tokens that can be \
                 stored in KV cache ({tokens}). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` \
                 when initializing the engine."
            ));
        }
        out.lines = lines;
        return Ok(out);
    }

    // V1: the worker prints the available memory, then the fit check, then the report.
    if let Some(a) = available {
        lines.push(format!("Available KV cache memory: {} GiB", gib_text(a, v)));
    }
    let fits = |bytes: u128, len: u64| needed_for(len) + null_block <= bytes;
    let avail_bytes: Option<u128> = match s.memory {
        KvMemory::Blocks(n) => Some(n as u128 * block_bytes),
        _ => available.map(|a| a.max(0) as u128),
    };
    if matches!(available, Some(a) if a <= 0) {
        out.error = Some(NO_MEMORY.into());
        out.lines = lines;
        return Ok(out);
    }
    let avail_bytes = avail_bytes.unwrap_or(0);
    if !fits(avail_bytes, max_model_len) {
        // Binary search for the longest max_model_len that would fit (vLLM's estimate_max_model_len).
        let (mut lo, mut hi) = (0u64, max_model_len);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if fits(avail_bytes, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        out.estimated_max_len = Some(lo);
        let typo = if v <= Version::new(0, 22) {
            "models's"
        } else {
            "model's"
        };
        let estimate = if lo > 0 {
            format!(" Based on the available memory, the estimated maximum model length is {lo}.")
        } else {
            String::new()
        };
        out.error = Some(format!(
            "To serve at least one request with the {typo} max seq len ({max_model_len}), ({} GiB KV cache is needed, \
             which is larger than the available KV cache memory ({} GiB).{estimate} Try increasing \
             `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
            fixed2(needed_for(max_model_len) as f64 / GIB as f64),
            fixed2(avail_bytes as f64 / GIB as f64),
        ));
        out.lines = lines;
        return Ok(out);
    }

    if let Some(g) = groups {
        if g.padding_layers > 0 {
            lines.push(format!(
                "Add {} padding layers, may waste at most {}% KV cache memory",
                g.padding_layers,
                fixed2(g.padding_waste_pct)
            ));
        }
    }
    let (tokens, conc) = printed_tokens(
        fam,
        num_blocks,
        blocks_per_request,
        num_groups,
        block_size,
        max_model_len,
    );
    let size = format!("GPU KV cache size: {} tokens", thousands(tokens));
    let concurrency = format!(
        "Maximum concurrency for {} tokens per request: {}x",
        thousands(max_model_len),
        fixed2(conc)
    );
    if fam == Family::V1OneLine {
        lines.push(format!("{size}, {concurrency}"));
    } else {
        lines.push(size);
        lines.push(concurrency);
    }
    out.num_gpu_blocks = Some(num_blocks);
    out.gpu_kv_cache_tokens = Some(tokens);
    out.max_concurrency = Some(conc);
    out.max_seqs_capped = Some((num_blocks / blocks_per_request.max(1)).min(max_num_seqs));
    out.lines = lines;
    Ok(out)
}

/// The token count and concurrency a V1 family prints for `num_blocks`:
/// 0.8–0.9 `blocks × block_size` and `tokens / max_model_len`;
/// 0.10–0.20 `(blocks // groups) × block_size` and `blocks / blocks_per_request`;
/// 0.21+ `int(concurrency × max_model_len)`, a truncated float product that can be one lower.
pub fn printed_tokens(
    fam: Family,
    num_blocks: u64,
    blocks_per_request: u64,
    num_groups: u64,
    block_size: u64,
    max_model_len: u64,
) -> (u64, f64) {
    match fam {
        Family::V0 | Family::V1Early => {
            let t = num_blocks.saturating_mul(block_size);
            (t, t as f64 / max_model_len.max(1) as f64)
        }
        Family::V1Mid => {
            let c = num_blocks as f64 / blocks_per_request.max(1) as f64;
            (
                (num_blocks / num_groups.max(1)).saturating_mul(block_size),
                c,
            )
        }
        Family::V1Late | Family::V1OneLine => {
            let c = num_blocks as f64 / blocks_per_request.max(1) as f64;
            // Python's int(float): truncation of the float product.
            ((c * max_model_len as f64) as u64, c)
        }
    }
}
