//! A vLLM startup log beside the scenario's prediction: what differs and why, and the scenario
//! that adopts the log's numbers.

use crate::calc::{vllm_scenario, Outcome};
use crate::error::truncate;
use crate::fields::{MAX_CTX, MAX_PP, MAX_TP, MIN_CTX};
use crate::i18n::{en, tr};
use crate::model::{KvDtype, ModelDtype};
use crate::presets;
use crate::scenario::{GpuChoice, PageScenario};
use crate::t;
use crate::units::{fixed2, thousands, Bytes, GIB};
use crate::vllm::logparse::{KvFigure, LogError, ParsedLog};
use crate::vllm::version::{CUDA_GRAPHS_IN_BUDGET, HYBRID_PREFIX_CACHING_ON};
use crate::vllm::{self, family, KvMemory, Version};

/// One line of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Stable key (for tests and automation).
    pub key: &'static str,
    /// What is compared.
    pub what: &'static str,
    /// The scenario's figure.
    pub predicted: String,
    /// The log's figure.
    pub printed: String,
    /// printed − predicted, when both are numbers.
    pub difference: Option<f64>,
    /// The difference in words with units.
    pub difference_text: String,
    /// What explains a difference: the settings the scenario and the log do not share, first.
    pub why: String,
}

/// What the log says happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// vLLM sized its cache and started.
    Started,
    /// vLLM refused to start (its error is in the log).
    Refused,
    /// No KV line and no refusal: the log stops before the cache (or is not a vLLM log).
    NoKvLine,
}

impl Verdict {
    /// Of a parsed log.
    pub fn of(log: &ParsedLog) -> Verdict {
        if log.error.is_some() {
            Verdict::Refused
        } else if log.kv.is_some() {
            Verdict::Started
        } else {
            Verdict::NoKvLine
        }
    }
    /// A stable key (`data-value` of the log check's status).
    pub const fn key(self) -> &'static str {
        match self {
            Verdict::Started => "started",
            Verdict::Refused => "refused",
            Verdict::NoKvLine => "no-kv-line",
        }
    }
}

/// A setting the log and the scenario do not share.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The setting.
    pub what: &'static str,
    /// The scenario's value.
    pub scenario: String,
    /// The log's value.
    pub log: String,
}

/// The settings that differ between the scenario and the log: version, utilization,
/// `max_model_len`, KV dtype, parallelism and model (the causes of a difference before any
/// boot-to-boot variation).
pub fn mismatches(s: &PageScenario, log: &ParsedLog) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let mut push = |what: &'static str, scenario: String, log: String| {
        if scenario != log {
            out.push(Mismatch {
                what,
                scenario,
                log,
            });
        }
    };
    if let Some(v) = log.version.as_deref().and_then(|v| Version::parse(v).ok()) {
        push(
            "vLLM version",
            s.version.to_string(),
            v.canonical().to_string(),
        );
    }
    if let Some(u) = log_util(log) {
        push(
            "gpu_memory_utilization",
            crate::floatfmt::display(s.util()),
            crate::floatfmt::display(u),
        );
    }
    if let Some(l) = log.max_model_len {
        push("max_model_len", thousands(s.ctx), thousands(l));
    }
    if let Some(k) = log
        .kv_cache_dtype
        .as_deref()
        .and_then(|k| KvDtype::parse(k).ok())
    {
        push(en::VF_KV_DTYPE_SETTING, s.kv.name().into(), k.name().into());
    }
    if let Some(t) = log.tensor_parallel_size {
        push("tensor-parallel size", s.tp.to_string(), t.to_string());
    }
    if let Some(d) = log.dtype {
        let ran = vllm::runs_in(&s.model_spec(), s.gpu.arch(), s.knobs.dtype_half, s.version);
        push("--dtype", ran.name().into(), d.name().into());
    }
    if let Some(n) = log.speculative_tokens {
        let here = s.knobs.speculative.map_or(0, |x| x.num_tokens);
        push(en::VF_SPECULATIVE, here.to_string(), n.to_string());
    }
    if let Some(on) = hybrid_prefix_caching(s, log) {
        let here = s.knobs.prefix_caching
            || (s.version >= HYBRID_PREFIX_CACHING_ON && !s.knobs.no_prefix_caching);
        let word = |b: bool| if b { t!(VF_ON) } else { t!(VF_OFF) }.to_string();
        push(en::VF_PREFIX_CACHING, word(here), word(on));
    }
    if let Some(m) = log.model.as_deref() {
        let same = s.model.name().eq_ignore_ascii_case(m)
            || presets::model(m).is_some_and(|p| s.model.name().eq_ignore_ascii_case(p.id()));
        if !same {
            push("model", s.model.name().into(), truncate(m, 80));
        }
    }
    out
}

/// The scenario with the log's settings (version, utilization, `max_model_len`, KV dtype,
/// parallelism, and its model when a preset), keeping the scenario's own memory arithmetic: the
/// comparison then shows what the estimate gets wrong, not what the settings change.
pub fn align(current: &PageScenario, log: &ParsedLog) -> PageScenario {
    let mut s = current.clone();
    settings_of(&mut s, log);
    s.kv_memory = None;
    s
}

/// The utilization the log ran with: printed, or (when its arguments line names the model but not
/// the utilization) its version's default.
fn log_util(log: &ParsedLog) -> Option<f64> {
    log.gpu_memory_utilization.or_else(|| {
        let v = log
            .version
            .as_deref()
            .and_then(|v| Version::parse(v).ok())?;
        log.model.as_ref().map(|_| v.default_util())
    })
}

/// Whether the log ran with prefix caching, for a hybrid (of a transformer it changes no memory:
/// vLLM 0.8–0.27 print it on for every one).
fn hybrid_prefix_caching(s: &PageScenario, log: &ParsedLog) -> Option<bool> {
    log.prefix_caching
        .filter(|_| s.model_spec().state.is_some())
}

/// Sets the log's settings; returns why its model was not taken, if it was not.
fn settings_of(s: &mut PageScenario, log: &ParsedLog) -> Option<String> {
    let note = s.take_logged_model(log.model.as_deref());
    if let Some(k) = log
        .kv_cache_dtype
        .as_deref()
        .and_then(|k| KvDtype::parse(k).ok())
    {
        s.kv = k;
    }
    if let Some(tp) = log
        .tensor_parallel_size
        .filter(|t| (1..=MAX_TP).contains(t))
    {
        s.tp = tp;
    }
    if let Some(pp) = log
        .pipeline_parallel_size
        .filter(|p| (1..=MAX_PP).contains(p))
    {
        s.pp = pp;
    }
    if let Some(v) = log.version.as_deref().and_then(|v| Version::parse(v).ok()) {
        s.version = v.canonical();
    }
    // Prefix caching as the log ran, for a hybrid (read once its release is set: hybrids have it
    // on by default from 0.28, `vllm::mamba`).
    if let Some(on) = hybrid_prefix_caching(s, log) {
        s.knobs.prefix_caching = on;
        s.knobs.no_prefix_caching = !on && s.version >= HYBRID_PREFIX_CACHING_ON;
    }
    let refused_len = match log.error {
        Some(LogError::RequestTooLong { max_model_len, .. })
        | Some(LogError::V0TooLong { max_model_len, .. }) => Some(max_model_len),
        _ => None,
    };
    if let Some(l) = log.max_model_len.or(refused_len) {
        s.ctx = l.clamp(MIN_CTX, MAX_CTX);
    }
    if let Some(u) = log_util(log).filter(|u| *u > 0.0 && *u <= 1.0) {
        s.util = Some(u);
    }
    if s.prompt.is_some() || s.trace.is_some() {
        s.prompt = None;
        s.trace = None;
    }
    // A model the log ran in float16 where `--dtype auto` would not have (a bfloat16 one on a GPU
    // that has bfloat16, or on a T4 before 0.9.0) ran with `--dtype half`. (Read once the log's
    // release is set: auto's choice depends on it.)
    match log.dtype {
        Some(ModelDtype::F16) => {
            let auto = vllm::runs_in(&s.model_spec(), s.gpu.arch(), false, s.version);
            s.knobs.dtype_half = auto != ModelDtype::F16 && auto != ModelDtype::F32;
        }
        Some(ModelDtype::Bf16 | ModelDtype::F32) => s.knobs.dtype_half = false,
        None => {}
    }
    note
}

fn gib(b: f64) -> String {
    format!("{} GiB", fixed2(b))
}

fn row(
    key: &'static str,
    what: &'static str,
    ours: Option<f64>,
    theirs: Option<f64>,
    unit: &str,
    why: String,
) -> Row {
    let fmt = |x: f64| {
        if unit == "GiB" {
            gib(x)
        } else if unit == "x" {
            format!("{}x", fixed2(x))
        } else {
            thousands(x.max(0.0) as u64)
        }
    };
    // The log prints concurrency with two decimals: compare like with like.
    let ours = if unit == "x" {
        ours.map(|x| fixed2(x).parse().unwrap_or(x))
    } else {
        ours
    };
    let difference = ours.zip(theirs).map(|(a, b)| b - a);
    // The magnitude as shown; a sign only when it is not zero as shown (never "−0.00").
    let signed = |shown: String| {
        if shown.trim_start_matches(['0', '.', ',']).is_empty() {
            shown
        } else if difference.is_some_and(|d| d < 0.0) {
            format!("−{shown}")
        } else {
            format!("+{shown}")
        }
    };
    let difference_text = match difference {
        Some(d) if unit == "GiB" => format!("{} GiB", signed(fixed2(d.abs()))),
        Some(d) if unit == "x" => signed(fixed2(d.abs())),
        Some(d) => signed(thousands(d.abs() as u64)),
        None => "—".into(),
    };
    Row {
        key,
        what,
        predicted: ours.map(fmt).unwrap_or_else(|| "—".into()),
        printed: theirs
            .map(fmt)
            .unwrap_or_else(|| crate::t!(VF_NOT_IN_LOG).into()),
        difference,
        difference_text,
        why,
    }
}

/// The comparison, row by row (memory in GiB, blocks and tokens as counts). Where the scenario's
/// settings differ from the log's, each memory row says so before anything else.
pub fn compare(s: &PageScenario, o: &Outcome, log: &ParsedLog) -> Vec<Row> {
    let differ = mismatches(s, log);
    let cause = |fallback: &str| -> String {
        if differ.is_empty() {
            fallback.to_string()
        } else {
            let list: Vec<String> = differ
                .iter()
                .map(|m| crate::tf!(VF_MISMATCH_ITEM, tr(m.what), m.scenario, m.log))
                .collect();
            crate::tf!(VF_SETTINGS_DIFFER, list.join(crate::t!(LIST_SEP)))
        }
    };
    let g = |b: u64| b as f64 / GIB as f64;
    let r = &o.chosen.report;
    let e = r.overhead;
    let weights = g(o.weights_per_gpu.0);
    let requested = Some(g(o.requested));
    let printed_requested = log.requested_gib.or_else(|| {
        log.total_gpu_gib
            .zip(log.gpu_memory_utilization)
            .map(|(t, u)| t * u)
    });
    let blocks_printed = match log.kv {
        Some(KvFigure::Blocks(b)) => Some(b as f64),
        Some(KvFigure::Tokens(t)) if r.groups.is_none() && r.block_size > 0 => {
            Some((t / r.block_size) as f64)
        }
        _ => None,
    };
    vec![
        row(
            "weights",
            en::CH_SEG_WEIGHTS,
            Some(weights),
            log.model_loading_gib.or(log.weights_gib),
            "GiB",
            t!(VF_WHY_WEIGHTS).into(),
        ),
        row(
            "budget",
            en::VF_BUDGET,
            requested,
            printed_requested,
            "GiB",
            cause(t!(VF_WHY_BUDGET)),
        ),
        row(
            "activation",
            en::EX_TERM_ACTIVATION,
            e.map(|e| g(e.activation.0)),
            log.activation_peak_gib,
            "GiB",
            cause(t!(VF_WHY_ACTIVATION)),
        ),
        row(
            "non-torch",
            en::VF_NON_TORCH,
            e.map(|e| g(e.non_torch.0)),
            log.non_torch_gib,
            "GiB",
            t!(VF_WHY_NON_TORCH).into(),
        ),
        row(
            "cuda-graphs",
            en::VF_GRAPHS,
            e.map(|e| g(e.cuda_graphs.0)),
            log.cudagraph_estimate_gib,
            "GiB",
            cause(t!(VF_WHY_GRAPHS)),
        ),
        row(
            "available",
            en::VF_AVAILABLE,
            r.available_kv_bytes.map(|b| b as f64 / GIB as f64),
            log.available_kv_gib.or(log.budget_kv_gib),
            "GiB",
            cause(t!(VF_WHY_AVAILABLE)),
        ),
        row(
            "blocks",
            en::VF_BLOCKS,
            r.num_gpu_blocks.map(|b| b as f64),
            blocks_printed,
            "count",
            cause(t!(VF_WHY_BLOCKS)),
        ),
        row(
            "tokens",
            en::VF_TOKENS,
            r.gpu_kv_cache_tokens.map(|t| t as f64),
            log.cached_tokens(r.block_size).map(|t| t as f64),
            "count",
            cause(t!(VF_WHY_TOKENS)),
        ),
        row(
            "concurrency",
            en::VF_CONCURRENCY,
            r.max_concurrency,
            log.max_concurrency.as_ref().map(|c| c.value),
            "x",
            cause(t!(VF_WHY_CONCURRENCY)),
        ),
    ]
}

/// The scenario with the log's numbers: its settings ([`align`]), the GPU total as vLLM saw it,
/// the weights it loaded (a preset stays the preset, with the log's weights), the overhead it
/// printed, and the KV memory that gives its exact block count (for a log that refused, the
/// available memory its error prints, so the page refuses as the log did). Returns what changed
/// and what could not be taken.
pub fn adopt(current: &PageScenario, log: &ParsedLog) -> (PageScenario, Vec<String>) {
    let mut s = current.clone();
    let mut notes: Vec<String> = settings_of(&mut s, log).into_iter().collect();
    if let Some(t) = log.total_gpu_gib.and_then(Bytes::from_gib_f64) {
        // A preset whose total is what the log printed stays; else a custom GPU of that size.
        if s.gpu.total().0.abs_diff(t.0) > GIB / 100 {
            s.gpu = GpuChoice::Custom {
                total: t,
                bw_gbs: current.gpu.bandwidth_gbs(),
                tflops: current.gpu.bf16_tflops().unwrap_or(0.0),
            };
        }
    }
    if let Some(w) = log
        .model_loading_gib
        .or(log.weights_gib)
        .and_then(Bytes::from_gib_f64)
    {
        // vLLM logs one GPU's share (rank 0's: the first pipeline stage, which also holds the
        // embedding); the scenario holds the whole model.
        let m = s.model.spec();
        let mut whole = crate::capacity::whole_weights(&m, w, s.tp, s.pp);
        // A float32 run's weights (a model vLLM will not run in float16, on a T4) are kept at the
        // 16 bits the page doubles again.
        if vllm::runs_float32(&s.model_spec(), s.gpu.arch(), s.knobs.dtype_half, s.version) {
            whole.0 /= 2;
        }
        match s.model.custom_mut() {
            Some(c) => c.weights = whole,
            None => s.weights = Some(whole),
        }
    }
    s.overhead = None;
    if let (Some(a), Some(n)) = (log.activation_peak_gib, log.non_torch_gib) {
        let graphs = if s.version >= CUDA_GRAPHS_IN_BUDGET {
            log.cudagraph_estimate_gib.unwrap_or(0.0)
        } else {
            0.0
        };
        s.overhead = Bytes::from_gib_f64(a + n + graphs);
    }
    // The KV memory that reproduces the printed count exactly, or the refusal's.
    // (A printed 0.00 GiB is below 0.005 GiB: at least 1 B, which the page takes, and with which
    // it refuses as the log did.)
    // A count that the printed memory cannot give for this model: the log is another model's,
    // and no KV memory is made up to reproduce it.
    let other_model = not_this_model(&s, log);
    s.kv_memory = match &log.error {
        Some(LogError::RequestTooLong { available_gib, .. }) => Bytes::from_gib_f64(*available_gib),
        // A log cut short after "Available KV cache memory": that memory.
        _ if log.kv.is_none() => log.available_kv_gib.and_then(Bytes::from_gib_f64),
        _ if other_model.is_some() => None,
        _ => kv_memory_for(&s, log),
    }
    .map(|b| Bytes(b.0.max(1)));
    if let Some(why) = other_model {
        notes.push(why);
    } else if s.kv_memory.is_none()
        && !matches!(
            log.error,
            Some(LogError::NoMemory) | Some(LogError::NoBfloat16)
        )
    {
        notes.push(t!(VF_NO_CAPACITY).into());
    }
    // KV memory that does not fit beside the weights on the scenario's GPU is not taken (a log
    // that does not print its GPU's memory leaves the page's GPU, which may be too small).
    if s.kv_memory.is_some() {
        let o = crate::calc::evaluate(&s).ok();
        if let Some((kv, weights, total)) = o.and_then(|o| crate::calc::over_gpu(&s, &o)) {
            s.kv_memory = None;
            notes.push(crate::tf!(VF_GPU_TOO_SMALL, kv, weights, total));
        }
    }
    notes.splice(0..0, changes(current, &s));
    (s, notes)
}

/// What adopting changed, one line each (`max_model_len 8,192 → 32,768`).
fn changes(before: &PageScenario, after: &PageScenario) -> Vec<String> {
    let mut out = Vec::new();
    let mut diff = |what: &'static str, a: String, b: String| {
        if a != b {
            out.push(crate::tf!(VF_CHANGE, tr(what), a, b));
        }
    };
    diff(
        "model",
        before.model.name().into(),
        after.model.name().into(),
    );
    diff(
        "vLLM",
        before.version.to_string(),
        after.version.to_string(),
    );
    diff("max_model_len", thousands(before.ctx), thousands(after.ctx));
    diff(
        en::VF_KV_DTYPE,
        before.kv.name().into(),
        after.kv.name().into(),
    );
    diff("TP", before.tp.to_string(), after.tp.to_string());
    diff("PP", before.pp.to_string(), after.pp.to_string());
    diff(
        en::VF_UTILIZATION,
        crate::floatfmt::display(before.util()),
        crate::floatfmt::display(after.util()),
    );
    let gib_of = |b: Bytes| format!("{} GiB", fixed2(b.as_gib()));
    diff(
        en::VF_GPU_TOTAL,
        gib_of(before.gpu.total()),
        gib_of(after.gpu.total()),
    );
    diff(
        "weights",
        gib_of(before.model_spec().weights),
        gib_of(after.model_spec().weights),
    );
    let overhead = |s: &PageScenario| s.overhead.map(gib_of).unwrap_or(t!(VF_THE_ESTIMATE).into());
    diff("overhead", overhead(before), overhead(after));
    let kv = |s: &PageScenario| {
        s.kv_memory
            .map(|b| crate::tf!(VF_FROM_LOG, gib_of(b), thousands(b.0)))
            .unwrap_or(t!(D_BUDGET).into())
    };
    diff(en::VF_KV_MEMORY, kv(before), kv(after));
    out
}

/// The blocks vLLM allocated for the log's block or token count under this scenario (for a token
/// count, the blocks that print it and the log's concurrency), with the bytes of one block and
/// the number of KV cache groups (a hybrid's layer kinds).
fn log_blocks(s: &PageScenario, log: &ParsedLog) -> Option<(u64, u128, u64)> {
    // The page's own vLLM scenario, probed with one block for its block size and groups.
    let mut probe = vllm_scenario(s, &s.model.spec(), s.kv, s.ctx);
    probe.memory = KvMemory::Blocks(1);
    let r = vllm::report(&probe).ok()?;
    let per_block = r.block_bytes as u128;
    let groups = r.num_groups;
    let fam = family(s.version, s.version.engine_on(s.gpu.arch()));
    let blocks = match log.kv? {
        KvFigure::Blocks(b) => b,
        KvFigure::Tokens(t) => {
            // The smallest block count that prints this token count.
            let guess = match fam {
                vllm::Family::V0 | vllm::Family::V1Early => t / r.block_size.max(1),
                vllm::Family::V1Mid => t / r.block_size.max(1) * groups,
                _ => (t as u128 * r.blocks_per_request as u128 / s.ctx.max(1) as u128) as u64,
            };
            let prints = |b: u64| {
                vllm::printed_tokens(fam, b, r.blocks_per_request, groups, r.block_size, s.ctx).0
            };
            // Several block counts may print one token count (a hybrid's moves by a block of
            // each group at a time): the one whose concurrency is the log's, else the one the
            // printed memory holds, else the smallest.
            let candidates: Vec<u64> = (guess.saturating_sub(groups + 2)..=guess + groups + 2)
                .filter(|&b| prints(b) == t)
                .collect();
            let concurrency = |b: u64| {
                let mut p = probe.clone();
                p.memory = KvMemory::Blocks(b);
                vllm::report(&p).ok()?.max_concurrency.map(fixed2)
            };
            let printed_concurrency = log.max_concurrency.as_ref().map(|c| fixed2(c.value));
            let held = log
                .available_kv_gib
                .and_then(Bytes::from_gib_f64)
                .map(|b| (b.0 as u128 / per_block.max(1)) as u64);
            let by_concurrency = printed_concurrency.and_then(|c| {
                candidates
                    .iter()
                    .copied()
                    .find(|&b| concurrency(b).as_ref() == Some(&c))
            });
            by_concurrency
                .or_else(|| held.filter(|b| candidates.contains(b)))
                .or_else(|| candidates.first().copied())
                .unwrap_or(guess)
        }
    };
    Some((blocks, per_block, groups))
}

/// Bytes of KV memory that make vLLM print the log's block or token count for this scenario.
fn kv_memory_for(s: &PageScenario, log: &ParsedLog) -> Option<Bytes> {
    let (blocks, per_block, _) = log_blocks(s, log)?;
    kv_memory_of(log, blocks, per_block)
}

/// Bytes of KV memory that give `blocks` of `per_block` bytes, as [`kv_memory_for`] takes them.
fn kv_memory_of(log: &ParsedLog, blocks: u64, per_block: u128) -> Option<Bytes> {
    // The log's own figure when it gives the same blocks (it prints GiB to two decimals), else
    // the fewest bytes that give them.
    if let Some(b) = log.available_kv_gib.and_then(Bytes::from_gib_f64) {
        if b.0 as u128 / per_block.max(1) == blocks as u128 {
            return Some(b);
        }
    }
    u64::try_from(blocks as u128 * per_block).ok().map(Bytes)
}

/// Why the log cannot come from the scenario's model (`s`, with the log's settings), if it cannot:
/// the KV memory that gives the log's count for this model ([`kv_memory_for`]: its whole blocks)
/// is not the memory the log printed, beyond the printed rounding (two decimals of GiB) and a
/// block per KV cache group (a hybrid's count moves by a block of each group at a time). A model
/// that lays its cache out otherwise (layers sharing KV, other head dimensions) gives its count
/// from other bytes.
pub fn not_this_model(s: &PageScenario, log: &ParsedLog) -> Option<String> {
    // Only where the log's count and memory are one GPU's of one known layout: one pipeline stage
    // (vLLM takes the smallest count of its ranks, and prints rank 0's memory), its tensor-parallel
    // size read, no decode context parallelism, no block override, no speculative decoding (a
    // draft adds layers the log does not size), no setting that differs (a run in another dtype,
    // `--dtype float32`, is said as such).
    let one_layout = log.tensor_parallel_size.is_some()
        && log.pipeline_parallel_size.unwrap_or(1) <= 1
        && log.decode_context_parallel_size.unwrap_or(1) <= 1
        && !log.blocks_overridden
        && log.speculative_tokens.unwrap_or(0) == 0
        && mismatches(s, log).iter().all(|m| m.what == "model");
    if !one_layout {
        return None;
    }
    let printed = log.available_kv_gib?;
    let (blocks, per_block, groups) = log_blocks(s, log)?;
    let implied = kv_memory_of(log, blocks, per_block)?.0 as f64 / GIB as f64;
    let slack = 0.005 + (groups + 1) as f64 * per_block as f64 / GIB as f64;
    if (implied - printed).abs() <= slack {
        return None;
    }
    let count = match log.kv? {
        KvFigure::Tokens(t) => crate::tf!(VF_TOKENS_OF, thousands(t)),
        KvFigure::Blocks(b) => crate::tf!(VF_BLOCKS_OF, thousands(b)),
    };
    Some(crate::tf!(
        VF_NOT_THIS_MODEL,
        count,
        fixed2(implied),
        fixed2(printed)
    ))
}
