//! The page's scenario under SGLang: the SGLang scenario behind it, SGLang's report, sequences and
//! serve command, and a log's numbers taken back into the page. What the page shows of it is
//! [`super::sglang_view`].

use crate::error::Result;
use crate::model::KvDtype;
use crate::scenario::{Engine, GpuChoice, PageScenario};
use crate::sglang::{self, cards};
use crate::units::MIB;

/// The page's scenario under SGLang.
#[derive(Clone, Debug, PartialEq)]
pub struct SglangOutcome {
    /// What SGLang would compute and print (lines, tokens, `mem_fraction_static`, refusal).
    pub report: sglang::Report,
    /// The GPU's capacity as `nvidia-smi` reports it, MiB (what SGLang's defaults read).
    pub gpu_mib: u64,
    /// Whether `gpu_mib` is `nvidia-smi`'s figure for the card (else the page's total in MiB).
    pub gpu_mib_known: bool,
    /// Tokens each sequence holds.
    pub context: u64,
    /// Tokens one sequence takes in the pool: the context rounded up to whole pages.
    pub tokens_per_sequence: u64,
    /// Whole sequences the pool holds at the context, before the cap.
    pub fit: u64,
    /// `fit` capped by `max_running_requests` (0 when SGLang refuses).
    pub sequences: u64,
    /// `python -m sglang.launch_server …`.
    pub command: String,
}

/// SGLang's `--kv-cache-dtype` for the page's: plain FP8 is `fp8_e4m3` on CUDA.
fn kv_dtype(kv: KvDtype) -> KvDtype {
    match kv {
        KvDtype::Fp8 => KvDtype::Fp8E4m3,
        other => other,
    }
}

/// The GPU's capacity as `nvidia-smi` reports it, MiB, and whether that is the card's own figure.
pub fn gpu_mib(gpu: &GpuChoice) -> (u64, bool) {
    match gpu {
        GpuChoice::Preset(g) => match cards::nvidia_smi_mib(g.slug) {
            Some(m) => (m, true),
            None => (g.total.0 / MIB, false),
        },
        GpuChoice::Custom { total, .. } => (total.0 / MIB, false),
    }
}

/// The SGLang scenario behind the page's: its model (with measured weights), GPU, KV dtype,
/// parallelism, `--context-length` (the page's `max_model_len`) and SGLang's own knobs. The free
/// memory is predicted from the GPU and the weights.
pub fn sglang_scenario(s: &PageScenario) -> sglang::Scenario {
    let mut sg = sglang::Scenario::new(s.model_spec(), s.sglang.version(), Some(gpu_mib(&s.gpu).0));
    sg.kv_dtype = kv_dtype(s.kv);
    sg.tp = s.tp.max(1);
    sg.pp = s.pp.max(1);
    sg.context_length = Some(s.ctx);
    sg.mem_fraction_static = s.sglang.mem_fraction_static;
    sg.page_size = s.sglang.page_size;
    sg.chunked_prefill_size = s.sglang.chunked_prefill_size;
    sg.num_tokens = s.sglang.num_tokens;
    sg
}

/// The scenario with an SGLang log's numbers: SGLang as the engine, the log's model (when a
/// preset), TP, PP, KV dtype, page size, chunked prefill, `mem_fraction_static`, context length,
/// and its pool's size in tokens taken as given, so the page prints the log's lines. Returns what
/// changed and what could not be taken.
pub fn adopt_sglang_log(
    current: &PageScenario,
    log: &sglang::logparse::ParsedLog,
) -> (PageScenario, Vec<String>) {
    let mut s = current.clone();
    let mut notes = Vec::new();
    s.engine = Engine::Sglang;
    notes.extend(s.take_logged_model(log.model.as_deref()));
    if let Some(t) = log
        .tp_size
        .filter(|t| (1..=crate::fields::MAX_TP).contains(t))
    {
        s.tp = t;
    }
    if let Some(p) = log
        .pp_size
        .filter(|p| (1..=crate::fields::MAX_PP).contains(p))
    {
        s.pp = p;
    }
    if let Some(k) = log
        .kv_cache_dtype
        .as_deref()
        .and_then(|k| crate::model::KvDtype::parse(k).ok())
    {
        s.kv = k;
    }
    if let Some(c) = log.context_len {
        s.ctx = c.clamp(crate::fields::MIN_CTX, crate::fields::MAX_CTX);
        s.prompt = None;
        s.trace = None;
    }
    s.sglang.mem_fraction_static = log.mem_fraction_static.filter(|f| *f > 0.0 && *f <= 1.0);
    // (Only what the page's fields take: a figure past them is left as the page has it.)
    s.sglang.page_size = log.page_size.filter(|p| (1..=4096).contains(p));
    s.sglang.chunked_prefill_size = log
        .chunked_prefill_size
        .filter(|&c| c == -1 || (1..=1 << 20).contains(&c));
    s.sglang.num_tokens = log.total_tokens();
    if s.sglang.num_tokens.is_none() {
        notes.push(crate::t!(SA_NO_POOL).into());
    }
    let mut changed = Vec::new();
    if current.engine != Engine::Sglang {
        changed.push(crate::tf!(
            VF_CHANGE,
            crate::t!(SA_ENGINE),
            "vLLM",
            "SGLang"
        ));
    }
    if current.model.name() != s.model.name() {
        changed.push(crate::tf!(
            VF_CHANGE,
            crate::t!(F_MODEL),
            current.model.name(),
            s.model.name()
        ));
    }
    if current.ctx != s.ctx {
        changed.push(crate::tf!(
            VF_CHANGE,
            crate::t!(SA_CONTEXT),
            current.ctx,
            s.ctx
        ));
    }
    if let Some(n) = s.sglang.num_tokens {
        changed.push(crate::tf!(SA_POOL_LINE, n));
    }
    changed.extend(notes);
    (s, changed)
}

/// The page's scenario under SGLang. `Err` is a setting SGLang does not accept (a KV dtype it
/// lacks, a page size before 0.4.4); SGLang's own refusals are in the report's `error`.
pub fn sglang_outcome(s: &PageScenario) -> Result<SglangOutcome> {
    let sg = sglang_scenario(s);
    let report = sglang::report(&sg)?;
    let (gpu_mib, gpu_mib_known) = gpu_mib(&s.gpu);
    let context = s.context().max(1);
    let page = report.page_size.max(1);
    let tokens_per_sequence = context.div_ceil(page) * page;
    let fit = report.max_total_num_tokens.unwrap_or(0) / tokens_per_sequence;
    let sequences = match report.max_running_requests {
        Some(cap) => fit.min(cap),
        None => 0,
    };
    Ok(SglangOutcome {
        command: sglang::launch_command(&sg),
        report,
        gpu_mib,
        gpu_mib_known,
        context,
        tokens_per_sequence,
        fit,
        sequences,
    })
}

/// `python -m sglang.launch_server …` for the page's scenario (also when SGLang would refuse it).
pub fn sglang_command(s: &PageScenario) -> String {
    sglang::launch_command(&sglang_scenario(s))
}

/// SGLang's default `mem_fraction_static` for the page's GPU and settings (the knob's placeholder).
pub fn default_mfs(s: &PageScenario) -> f64 {
    let mut sg = sglang_scenario(s);
    sg.mem_fraction_static = None;
    sglang::default_fraction(&sg)
}
