//! The page's scenario under either engine: SGLang's report, sequences and serve command for the
//! page's model, GPU and settings, and the two engines side by side on the same GPU.
//!
//! [`crate::sglang`] knows nothing of the page; this module is the seam that turns the page's
//! scenario into an SGLang scenario and its report into the figures the page shows.

use crate::calc::Outcome;
use crate::error::Result;
use crate::model::KvDtype;
use crate::scenario::{Engine, GpuChoice, PageScenario};
use crate::sglang::{self, cards, Memory};
use crate::units::{fixed2, thousands, GIB, MIB};

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

/// One engine's row of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `vLLM` or `SGLang`.
    pub engine: &'static str,
    /// Tokens in the KV cache (None when the engine refuses to start).
    pub tokens: Option<u64>,
    /// Sequences at the context, capped by the engine's limit.
    pub sequences: u64,
    /// How the pool is sized, with the scenario's figures.
    pub pool: String,
}

/// The same GPU under both engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// vLLM, then SGLang.
    pub rows: [Row; 2],
    /// Why they differ, in one sentence.
    pub why: String,
}

fn gib(b: f64) -> String {
    format!("{} GiB", fixed2(b))
}

/// A fraction for prose, to six decimals without trailing zeros: SGLang's default 0.79325
/// computes as 0.7932499999999999, which its own line prints and the sentence need not.
pub(crate) fn fraction(x: f64) -> String {
    let t = crate::floatfmt::fixed(x, 6);
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// vLLM's and SGLang's pools for the page's scenario side by side.
pub fn compare(vllm: &Outcome, sg: &SglangOutcome) -> Comparison {
    let v = &vllm.chosen.report;
    let vllm_pool = match (v.budget, v.available_kv_bytes) {
        (Some(b), Some(avail)) => crate::i18n::fill(
            // The weights and overhead may take it all: then there are no blocks to count.
            if avail > 0 {
                crate::t!(EN_VLLM_POOL)
            } else {
                crate::t!(EN_VLLM_POOL_NONE)
            },
            &[
                &gib(b.requested as f64 / GIB as f64),
                &gib(b.weights_per_gpu.as_gib()),
                &gib(b.overhead.as_gib()),
                &gib(avail as f64 / GIB as f64),
                &v.block_size,
            ],
        ),
        (_, Some(avail)) => crate::tf!(EN_VLLM_GIVEN, gib(avail as f64 / GIB as f64), v.block_size),
        _ => crate::t!(EN_NO_KV).into(),
    };
    let r = &sg.report;
    // A hybrid sliding-window pool divides its rest by a full-pool token's price, not the cell.
    let cell = r
        .swa_price
        .map_or(r.cell_size_bytes, |(price, _)| price.round() as u64);
    let sg_pool = match (r.pre_load_free_gib, r.post_load_free_gib, r.rest_gib) {
        (Some(pre), Some(after), Some(rest)) => crate::i18n::fill(
            if rest > 0.0 {
                crate::t!(EN_SG_POOL)
            } else {
                crate::t!(EN_SG_POOL_NONE)
            },
            &[
                &gib(after),
                &gib(pre),
                &fraction(r.mem_fraction_static),
                &gib(rest),
                &thousands(cell),
                &r.page_size,
            ],
        ),
        _ => crate::tf!(EN_SG_CELL, thousands(cell)),
    };
    let why = crate::tf!(
        EN_WHY,
        gib(v.budget.map_or(0.0, |b| b.requested as f64 / GIB as f64)),
        v.block_size,
        thousands(v.bytes_per_token.0),
        match r.memory {
            Memory::Predicted => crate::t!(EN_PREDICTED),
            Memory::HalfPredicted => crate::t!(EN_HALF_PREDICTED),
            _ => crate::t!(EN_AS_GIVEN),
        },
        fraction(r.mem_fraction_static),
        if r.mfs_default.is_some() {
            crate::t!(EN_MFS_DEFAULT)
        } else {
            ""
        },
        thousands(cell),
        r.page_size,
    );
    Comparison {
        rows: [
            Row {
                engine: "vLLM",
                tokens: v.gpu_kv_cache_tokens.filter(|_| v.error.is_none()),
                sequences: vllm.chosen.capped,
                pool: vllm_pool,
            },
            Row {
                engine: "SGLang",
                tokens: r.max_total_num_tokens,
                sequences: sg.sequences,
                pool: sg_pool,
            },
        ],
        why,
    }
}
