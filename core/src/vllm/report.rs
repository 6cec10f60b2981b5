//! What vLLM prints at startup about its KV cache, per version (VLLM-ACCOUNTING §0–§4): the
//! block layout of the layers, the memory left for the cache, the blocks, and the lines.

use super::dtype::{auto_dtype, bfloat16_refusal, float16_refusal, runs_float32, to_float32};
use super::knobs::Knobs;
use super::layout::{resolve, Layout, Resolved};
pub use super::mamba::{MambaAlign, MambaMode};
use super::overhead::{self, Estimate};
pub use super::printed::{gib_text, printed_tokens};
pub use super::refusal::{Refusal, RefusalKind};
use super::tp::tp_refusal;
use super::version::{requested_bytes, Engine, Family, Version};
use super::version::{
    DCP_MESSAGE_SPACE, DCP_TOKEN_LINE, DECODE_CONTEXT_PARALLEL, KV_CACHE_MEMORY_FLAG,
    MODELS_TYPO_FIXED, NULL_BLOCK_RESERVED,
};
use crate::capacity;
use crate::error::Result;
use crate::model::{KvDtype, ModelSpec};
use crate::presets::Arch;
use crate::units::{fixed2, gib_figure, py_float_repr, thousands, Bytes, GIB};

/// The non-KV memory besides the weights: one figure (the seed lab's assumption), or kvbudget's
/// estimate from its parts ([`super::overhead`]), at its point value or either end of its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overhead {
    /// One figure for activations, CUDA context and everything else.
    Fixed(Bytes),
    /// The estimate from the model and the settings.
    Estimated(Margin),
}

/// Which value of the estimate's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Margin {
    /// The estimate itself.
    Point,
    /// The smallest plausible overhead (the most KV memory).
    Low,
    /// The largest plausible overhead (the least KV memory).
    High,
}

impl Overhead {
    /// The seed lab's assumption: 1 GiB.
    pub const SEED: Overhead = Overhead::Fixed(Bytes::gib(1));
    /// kvbudget's estimate.
    pub const ESTIMATE: Overhead = Overhead::Estimated(Margin::Point);
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
    /// The other flags (`Knobs::default()`: none of them).
    pub knobs: Knobs,
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
    /// Groups of chunked local-attention layers.
    pub local_groups: u64,
    /// Groups of state (Mamba / GDN) layers.
    pub state_groups: u64,
    /// Layer slots added so the groups come out equal.
    pub padding_layers: u64,
    /// The padding as a share of the layers of the padded kinds, in percent (what vLLM warns).
    pub padding_waste_pct: f64,
}

impl Groups {
    /// Groups per kind: full, sliding, chunked local, state.
    pub fn counts(&self) -> [u64; 4] {
        [
            self.full_groups,
            self.sliding_groups,
            self.local_groups,
            self.state_groups,
        ]
    }
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
    /// How many times `block_size` tokens one block holds on the full and on the sliding layers
    /// (2 on the kind with the smaller page of Gemma 4, whose pages vLLM unifies; else 1).
    pub block_scale: [u64; 2],
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
    pub overhead: Option<Estimate>,
    /// How the KV memory was derived, when it came from the budget.
    pub budget: Option<Budget>,
    /// Bytes of one block over the layers that share it (`page_bytes × layers per group`):
    /// the divisor of the KV memory.
    pub block_bytes: u64,
    /// KV cache groups (1 without the hybrid allocator's grouping).
    pub num_groups: u64,
    /// Why vLLM would not start (with `error` as its message).
    pub refusal: Option<Refusal>,
    /// A hybrid's state page and the block-size raise, when the model has state layers.
    pub mamba: Option<MambaAlign>,
    /// How state layers count toward a request's blocks.
    pub mamba_mode: MambaMode,
    /// Blocks one state layer holds per request (whatever the context).
    pub state_blocks: u64,
    /// Built for its counts only ([`whole_sequences`]): no lines, empty error texts and no
    /// `estimated_max_len`.
    quiet: bool,
}

/// The budget's terms on the GPU that sets the cache size: `requested − weights − overhead`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// `total × util` as the version rounds it.
    pub requested: u64,
    /// The weights this GPU holds (split over tensor and pipeline parallelism).
    pub weights_per_gpu: Bytes,
    /// What is subtracted besides the weights (the fixed figure or the estimate's value).
    pub overhead: Bytes,
}

impl Report {
    /// Records a refusal and its message (not written when quiet).
    fn refuse(
        &mut self,
        kind: RefusalKind,
        exception: &'static str,
        message: impl FnOnce() -> String,
    ) {
        self.refusal = Some(Refusal { kind, exception });
        self.error = Some(if self.quiet { String::new() } else { message() });
    }

    /// Adds a printed line (not written when quiet).
    fn line(&mut self, text: impl FnOnce() -> String) {
        if !self.quiet {
            self.lines.push(text());
        }
    }

    /// The refusal as Python prints it: `ValueError: …` (None where the engine's message is not
    /// known: [`RefusalKind::printed`]).
    pub fn error_line(&self) -> Option<String> {
        let e = self.error.as_ref()?;
        if self.refusal.is_some_and(|r| !r.kind.printed()) {
            return None;
        }
        let exception = self.refusal.map(|r| r.exception).unwrap_or("ValueError");
        // A bare `assert` prints its exception alone.
        Some(if e.is_empty() {
            exception.to_string()
        } else {
            format!("{exception}: {e}")
        })
    }

    /// The block size the token line multiplies by up to 0.20.0: the smallest over the groups.
    /// A state group's block is `max_model_len` when it keeps only the running state
    /// (`mamba_block_size`, model_executor/models/config.py 0.19), so a length below the raised
    /// attention block sets it.
    pub fn token_block(&self) -> u64 {
        match self.mamba {
            Some(_) if self.mamba_mode == MambaMode::None => {
                self.block_size.min(self.max_model_len)
            }
            _ => self.block_size,
        }
    }

    /// Whole max-length requests the blocks hold at once, before any `max_num_seqs` cap
    /// (0 when vLLM would not start).
    pub fn whole_sequences(&self) -> u64 {
        if self.error.is_some() {
            0
        } else {
            self.num_gpu_blocks.unwrap_or(0) / self.blocks_per_request.max(1)
        }
    }
}

/// What CUDA and PyTorch hold before the weights load (context, allocator): the weights must fit
/// in the rest. An assumption (0.5 GiB; published startups show 0.3–0.6 GiB in use before loading).
pub const LOAD_RESERVE: Bytes = Bytes(GIB / 2);

const NO_MEMORY: &str = "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.";

/// The KV memory on the GPU that sets the cache size: the budget's terms and the estimate
/// when the budget is used, the bytes when given, nothing when started from blocks.
fn kv_memory(
    s: &Scenario,
    r: &Resolved,
) -> Result<(Option<i128>, Option<Budget>, Option<Estimate>)> {
    let kv_flag = s
        .knobs
        .kv_cache_memory
        .filter(|_| s.version >= KV_CACHE_MEMORY_FLAG);
    if let (Some(b), KvMemory::Budget { .. }) = (kv_flag, s.memory) {
        // --kv-cache-memory: vLLM skips the budget (0.11+, v1/worker/gpu_worker.py 0.19.0).
        return Ok((Some(b.0 as i128), None, None));
    }
    Ok(match s.memory {
        KvMemory::Budget {
            gpu_total,
            util,
            weights,
            overhead,
        } => {
            let requested = requested_bytes(gpu_total, util, s.version.rounding())?;
            let (overhead, estimate) = match overhead {
                Overhead::Fixed(b) => (b, None),
                Overhead::Estimated(margin) => {
                    let e = overhead::estimate(
                        &s.model,
                        &overhead::Settings {
                            tp: s.tp,
                            pp: s.pp,
                            version: s.version,
                            engine: s.engine,
                            max_model_len: r.max_model_len,
                            max_num_seqs: r.max_num_seqs,
                            max_num_batched_tokens: r.max_num_batched_tokens,
                            requested,
                            chunked_prefill: s.engine == Engine::V1
                                || s.knobs.chunked_prefill == Some(true),
                            enforce_eager: s.knobs.enforce_eager,
                            arch: s.arch,
                            gpu_total,
                            lora: s.knobs.lora.map(|l| (l.max_loras, l.max_rank)),
                            spec_tokens: s.knobs.speculative.map(|x| x.num_tokens).unwrap_or(0),
                        },
                    );
                    let b = match margin {
                        Margin::Point => e.subtracted(),
                        Margin::Low => e.low(),
                        Margin::High => e.high(),
                    };
                    (b, Some(e))
                }
            };
            let budget = Budget {
                requested,
                weights_per_gpu: s
                    .knobs
                    .weights_on_gpu(&s.model, weights, (s.tp, s.pp), s.version),
                overhead,
            };
            (
                Some(capacity::pool(
                    requested,
                    budget.weights_per_gpu,
                    budget.overhead,
                )),
                Some(budget),
                estimate,
            )
        }
        KvMemory::Available(b) => (Some(b.0 as i128), None, None),
        KvMemory::Blocks(_) => (None, None, None),
    })
}

/// Computes what vLLM would print for `s`.
pub fn report(s: &Scenario) -> Result<Report> {
    build(s, false)
}

/// Whole max-length requests the blocks hold at once for `s` (0 when vLLM would not start):
/// `report(s)`'s [`Report::whole_sequences`] without writing its lines (the charts' curves ask
/// this at about fifty lengths per dtype on every edit).
pub fn whole_sequences(s: &Scenario) -> u64 {
    build(s, true).map(|r| r.whole_sequences()).unwrap_or(0)
}

fn build(s: &Scenario, quiet: bool) -> Result<Report> {
    // The model as vLLM builds it: a draft's attention layers (EAGLE/MTP heads, a draft model)
    // share the KV cache; a hybrid's state in the dtypes this release gives it; float32 where
    // vLLM runs it so on this GPU, its weights (taken from the model) at twice the bytes.
    let draft = s.knobs.speculative.map_or(0, |x| x.draft_layers);
    let float32 = runs_float32(&s.model, s.arch, s.knobs.dtype_half, s.version);
    let built;
    let s = if draft > 0 || s.model.state.is_some() || float32 {
        let mut t = s.clone();
        t.model.layers = t.model.layers.saturating_add(draft);
        t.model.state = t
            .model
            .state
            .map(|st| st.resolved((s.version.major, s.version.minor)));
        if float32 {
            to_float32(&mut t.model);
            if let KvMemory::Budget { weights, .. } = &mut t.memory {
                weights.0 = weights.0.saturating_mul(2);
            }
        }
        built = t;
        &built
    } else {
        s
    };
    let r = resolve(s)?;
    let layout = Layout::of(s, &r)?;
    let (available, budget, estimate) = kv_memory(s, &r)?;
    let block_bytes = layout.block_bytes();
    let num_blocks: u64 = match (s.memory, available) {
        (KvMemory::Blocks(n), _) => n,
        (_, Some(a)) if a > 0 => ((a as u128) / block_bytes).min(u64::MAX as u128) as u64,
        _ => 0,
    };
    let mut out = Report {
        available_kv_bytes: available,
        block_size: r.block_size,
        page_bytes: layout.page_bytes,
        block_scale: layout.scale,
        bytes_per_token: layout.bytes_per_token,
        stage_layers: layout.stage_layers,
        groups: layout.groups,
        max_model_len: r.max_model_len,
        max_num_seqs: r.max_num_seqs,
        max_num_batched_tokens: r.max_num_batched_tokens,
        blocks_per_request: layout.blocks_per_request,
        num_gpu_blocks: None,
        gpu_kv_cache_tokens: None,
        max_concurrency: None,
        max_seqs_capped: None,
        lines: Vec::new(),
        error: None,
        estimated_max_len: None,
        overhead: estimate,
        budget,
        block_bytes: block_bytes.min(u64::MAX as u128) as u64,
        num_groups: layout.num_groups,
        refusal: None,
        mamba: r.mamba,
        mamba_mode: r.mamba_mode,
        state_blocks: if s.model.state.is_some() {
            layout.state_blocks
        } else {
            0
        },
        quiet,
    };

    // The model's config is made with its dtype first, then its length.
    if let Some(message) = float16_refusal(s.model.extras.no_float16, s.knobs.dtype_half, s.version)
    {
        out.refuse(RefusalKind::NoFloat16, "ValueError", || message);
        return Ok(out);
    }
    let max_model_len = r.max_model_len;
    if s.model.max_position > 0 && max_model_len > s.model.max_position {
        out.refuse(RefusalKind::ModelLimit, "ValueError", || format!(
            "User-specified max_model_len ({max_model_len}) is greater than the derived max_model_len \
             (max_position_embeddings={} or model_max_length=None in model's config.json). To allow overriding \
             this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.",
            py_float_repr(s.model.max_position as f64)
        ));
        return Ok(out);
    }
    // Every running sequence takes at least one token of a step's batch: the scheduler's config
    // refuses fewer batched tokens than sequences (`SchedulerConfig._verify_args`, vllm/config.py
    // 0.4–0.9; `verify_max_model_len`, vllm/config/scheduler.py from 0.10). Checked where both
    // are given on V1: a default max_num_seqs is capped at the tokens (`layout::resolve`), and V0
    // without chunked prefill refuses a batch shorter than max_model_len first (not modelled).
    let (batched, seqs) = (r.max_num_batched_tokens, r.max_num_seqs);
    let both_given = s.max_num_seqs.is_some() && s.max_num_batched_tokens.is_some();
    if both_given && r.family != Family::V0 && batched < seqs {
        out.refuse(RefusalKind::BatchedTokens, "ValueError", || {
            format!(
                "max_num_batched_tokens ({batched}) must be greater than or equal to max_num_seqs ({seqs})."
            )
        });
        return Ok(out);
    }
    // Decode context parallelism splits a TP group (`ParallelConfig`, config/parallel.py 0.16+;
    // before 0.26 the message lacks its space): checked as the config is made, before the model's
    // own checks of TP.
    let dcp = s.knobs.dcp.max(1);
    if dcp > 1 && s.version >= DECODE_CONTEXT_PARALLEL && s.tp % dcp != 0 {
        let by = if s.version >= DCP_MESSAGE_SPACE {
            "by "
        } else {
            "by"
        };
        out.refuse(RefusalKind::InvalidTp, "ValueError", || {
            format!("tp_size={} must be divisible {by}dcp_size={dcp}.", s.tp)
        });
        return Ok(out);
    }
    if let Some((exception, message)) = tp_refusal(&s.model, s.tp, s.version) {
        out.refuse(RefusalKind::InvalidTp, exception, || message);
        return Ok(out);
    }
    if let Some(message) = bfloat16_refusal(
        s.arch,
        auto_dtype(&s.model, s.version),
        s.knobs.dtype_half,
        s.version,
    ) {
        out.refuse(RefusalKind::NoBfloat16, "ValueError", || message);
        return Ok(out);
    }
    if let (KvMemory::Budget { gpu_total, .. }, Some(b)) = (s.memory, budget) {
        if b.weights_per_gpu.0.saturating_add(LOAD_RESERVE.0) > gpu_total.0 {
            out.refuse(
                RefusalKind::WeightsDoNotFit,
                "torch.OutOfMemoryError",
                // (Not vLLM's text, which PyTorch's names: kvbudget's reckoning, said as such.)
                || {
                    let need = Bytes(b.weights_per_gpu.0.saturating_add(LOAD_RESERVE.0));
                    crate::tf!(
                        RS_LOAD_NEED,
                        gib_figure(b.weights_per_gpu),
                        gib_figure(LOAD_RESERVE),
                        gib_figure(need),
                        gib_figure(gpu_total)
                    )
                },
            );
            return Ok(out);
        }
    }
    if r.family == Family::V0 {
        v0_report(&mut out, num_blocks);
    } else {
        v1_report(&mut out, s, &r, &layout, num_blocks);
    }
    Ok(out)
}

/// V0: `# GPU blocks` with the CPU blocks of a 4 GiB swap space, and the concurrency line.
fn v0_report(out: &mut Report, num_blocks: u64) {
    let (block_size, max_model_len) = (out.block_size, out.max_model_len);
    let tokens = num_blocks.saturating_mul(block_size);
    let cpu_blocks = (4 * GIB as u128 / out.block_bytes.max(1) as u128) as u64; // --swap-space 4 GiB
    let conc = tokens as f64 / max_model_len as f64;
    out.line(|| format!("# GPU blocks: {num_blocks}, # CPU blocks: {cpu_blocks}"));
    out.line(|| {
        format!(
            "Maximum concurrency for {max_model_len} tokens per request: {}x",
            fixed2(conc)
        )
    });
    out.num_gpu_blocks = Some(num_blocks);
    out.gpu_kv_cache_tokens = Some(tokens);
    out.max_concurrency = Some(conc);
    out.max_seqs_capped = Some((tokens / max_model_len).min(out.max_num_seqs));
    if num_blocks == 0 {
        out.refuse(RefusalKind::NoKvMemory, "ValueError", || NO_MEMORY.into());
    } else if tokens < max_model_len {
        out.refuse(RefusalKind::MaxModelLen, "ValueError", || format!(
            "The model's max seq len ({max_model_len}) is larger than the maximum number of tokens that can be \
             stored in KV cache ({tokens}). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` \
             when initializing the engine."
        ));
    }
}

/// V1: the worker prints the available memory, then the fit check runs, then the report.
fn v1_report(out: &mut Report, s: &Scenario, r: &Resolved, layout: &Layout, num_blocks: u64) {
    let v = s.version;
    let (block_size, max_model_len) = (r.block_size, r.max_model_len);
    if let Some(m) = r.mamba {
        if let Some(b) = m.raised_to {
            out.line(|| format!(
                "Setting attention block size to {b} tokens to ensure that attention page size is >= mamba page size."
            ));
        }
        if let Some(p) = m.padding_pct {
            out.line(|| format!(
                "Padding mamba page size by {}% to ensure that mamba page size and attention page size are exactly equal.",
                fixed2(p)
            ));
        }
    }
    if let Some(a) = out.available_kv_bytes {
        out.line(|| format!("Available KV cache memory: {} GiB", gib_text(a, v)));
    }
    if matches!(out.available_kv_bytes, Some(a) if a <= 0) {
        out.refuse(RefusalKind::NoKvMemory, "ValueError", || NO_MEMORY.into());
        return;
    }
    let avail_bytes: u128 = match s.memory {
        KvMemory::Blocks(n) => n as u128 * layout.block_bytes(),
        _ => out
            .available_kv_bytes
            .map(|a| a.max(0) as u128)
            .unwrap_or(0),
    };
    // From 0.29 the fit check also reserves the null block.
    let null_block = if v >= NULL_BLOCK_RESERVED {
        layout.block_bytes()
    } else {
        0
    };
    let fits = |len: u64| layout.needed_by(len, block_size, v) + null_block <= avail_bytes;
    if !fits(max_model_len) {
        let message = if out.quiet {
            String::new()
        } else {
            too_long_error(out, v, layout, avail_bytes, fits)
        };
        out.refuse(RefusalKind::MaxModelLen, "ValueError", || message);
        return;
    }
    if let Some(g) = layout.groups.filter(|g| g.padding_layers > 0) {
        out.line(|| {
            format!(
                "Add {} padding layers, may waste at most {}% KV cache memory",
                g.padding_layers,
                fixed2(g.padding_waste_pct)
            )
        });
    }
    let (tokens, conc) = printed_tokens(
        r.family,
        num_blocks,
        layout.blocks_per_request,
        layout.num_groups,
        out.token_block(),
        max_model_len,
    );
    // 0.11–0.20.0 multiply the token line by the decode-context-parallel size.
    let tokens = if r.family == Family::V1Mid && v >= DCP_TOKEN_LINE {
        tokens.saturating_mul(layout.dcp)
    } else {
        tokens
    };
    if !out.quiet {
        let size = format!("GPU KV cache size: {} tokens", thousands(tokens));
        let concurrency = format!(
            "Maximum concurrency for {} tokens per request: {}x",
            thousands(max_model_len),
            fixed2(conc)
        );
        if r.family == Family::V1OneLine {
            out.lines.push(format!("{size}, {concurrency}"));
        } else {
            out.lines.push(size);
            out.lines.push(concurrency);
        }
    }
    out.num_gpu_blocks = Some(num_blocks);
    out.gpu_kv_cache_tokens = Some(tokens);
    out.max_concurrency = Some(conc);
    out.max_seqs_capped = Some((num_blocks / layout.blocks_per_request.max(1)).min(r.max_num_seqs));
}

/// vLLM's "does not fit" error, with its binary search for the longest `max_model_len` that
/// would fit (`estimate_max_model_len`), which it also records in `out`.
fn too_long_error(
    out: &mut Report,
    v: Version,
    layout: &Layout,
    avail_bytes: u128,
    fits: impl Fn(u64) -> bool,
) -> String {
    let max_model_len = out.max_model_len;
    let (mut lo, mut hi) = (0u64, max_model_len);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    out.estimated_max_len = Some(lo);
    let typo = if v < MODELS_TYPO_FIXED {
        "models's"
    } else {
        "model's"
    };
    let estimate = if lo > 0 {
        format!(" Based on the available memory, the estimated maximum model length is {lo}.")
    } else {
        String::new()
    };
    format!(
        "To serve at least one request with the {typo} max seq len ({max_model_len}), ({} GiB KV cache is needed, \
         which is larger than the available KV cache memory ({} GiB).{estimate} Try increasing \
         `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
        fixed2(layout.needed_by(max_model_len, out.block_size, v) as f64 / GIB as f64),
        fixed2(avail_bytes as f64 / GIB as f64),
    )
}
