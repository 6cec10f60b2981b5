//! The page's scenario under SGLang: the SGLang scenario behind it, SGLang's report, sequences and
//! serve command, a log's numbers taken back into the page, and SGLang's headline, derivation and
//! charts' data as the page shows them.

use crate::chart_data::{Bar, ChartData, EngineFit};
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

/// The scenario at another KV dtype and context (no prompt or trace: each sequence holds `ctx`).
fn at(s: &PageScenario, kv: KvDtype, ctx: u64) -> PageScenario {
    PageScenario {
        kv,
        ctx,
        prompt: None,
        trace: None,
        ..s.clone()
    }
}

/// Whole sequences of `ctx` tokens SGLang's pool holds at `kv`, uncapped: 0 where it refuses.
fn whole_sequences(s: &PageScenario, kv: KvDtype, ctx: u64) -> u64 {
    match sglang_outcome(&at(s, kv, ctx)) {
        Ok(o) if o.report.error.is_none() => o.fit,
        _ => 0,
    }
}

/// GiB as SGLang's floats hold them, in whole bytes.
fn gib_bytes(gib: f64) -> u64 {
    (gib.max(0.0) * crate::units::GIB as f64).round() as u64
}

/// One KV dtype's bar of the memory split as SGLang sizes its pool: what the GPU holds before
/// loading (CUDA context and other processes), the weights as loaded, the share it keeps free,
/// its sequences and the KV left over. With the pool's size taken from a log, the weights, the
/// pool and the rest of the GPU.
fn memory_bar(s: &PageScenario, kv: KvDtype, o: &SglangOutcome, total: u64) -> Bar {
    use crate::chart_data::{Segment, SegmentKind};
    let r = &o.report;
    let seg = |label: &str, bytes: u64, kind| Segment {
        label: label.to_string(),
        bytes,
        kind,
    };
    let per_sequence = o.tokens_per_sequence as u128 * r.cell_size_bytes as u128;
    let used = (o.sequences as u128 * per_sequence).min(r.kv_bytes as u128) as u64;
    // What the pool takes: its K and V buffers, and a hybrid's recurrent state, which SGLang
    // sizes from the same rest (what the rest leaves beside the buffers).
    let rest = r.rest_gib.map(gib_bytes);
    let state = match (rest, r.mamba_slots) {
        (Some(rest), Some(_)) => rest.saturating_sub(r.kv_bytes),
        _ => 0,
    };
    let mut segments = Vec::new();
    match (r.pre_load_free_gib, r.post_load_free_gib, rest) {
        (Some(pre), Some(post), Some(_)) => {
            let (pre, post) = (gib_bytes(pre), gib_bytes(post));
            segments.push(seg(
                crate::t!(CH_SEG_CONTEXT),
                total.saturating_sub(pre),
                SegmentKind::Context,
            ));
            segments.push(seg(
                crate::t!(CH_SEG_WEIGHTS),
                pre.saturating_sub(post),
                SegmentKind::Weights,
            ));
            // What stays free once the pool is allocated (its cells round the rest down to
            // whole pages and add a padding page: the rest to within a few pages).
            segments.push(seg(
                crate::t!(CH_SEG_RESERVED),
                post.saturating_sub(r.kv_bytes + state),
                SegmentKind::Reserved,
            ));
        }
        _ => {
            let weights = crate::capacity::weights_per_gpu(s.model.spec().weights, s.tp, s.pp).0;
            segments.push(seg(
                crate::t!(CH_SEG_WEIGHTS),
                weights.min(total),
                SegmentKind::Weights,
            ));
        }
    };
    if o.sequences > 0 {
        segments.push(seg(
            &crate::t!(ch_seg_sequences(
                o.sequences,
                &crate::units::thousands(o.context)
            )),
            used,
            SegmentKind::Sequences { count: o.sequences },
        ));
    }
    segments.push(seg(
        crate::t!(CH_SEG_KV_FREE),
        r.kv_bytes.saturating_sub(used),
        SegmentKind::KvFree,
    ));
    if state > 0 {
        segments.push(seg(crate::t!(CH_SEG_STATE), state, SegmentKind::State));
    }
    // The rest of the GPU: with the memory predicted, what rounding leaves (none to speak of);
    // with the pool taken from a log, all that is not weights or KV cache.
    let drawn: u64 = segments.iter().map(|x| x.bytes).sum();
    if total > drawn && rest.is_none() {
        segments.push(seg(
            crate::t!(CH_SEG_REST),
            total - drawn,
            SegmentKind::Context,
        ));
    }
    Bar {
        label: kv.label(s.model_spec().dtype),
        segments,
    }
}

/// SGLang's charts' data for the page's scenario `s`, whose outcome under SGLang is `o`: its
/// memory split and its whole sequences per context for 16-bit and FP8 KV, capped by
/// `max_running_requests`, and the decode ceilings with its sequences.
pub fn sglang_charts(s: &PageScenario, o: &SglangOutcome) -> ChartData {
    let model = s.model_spec();
    let kvs = [crate::calc::sixteen_bit(&model), KvDtype::Fp8];
    let total = o.gpu_mib * MIB;
    let memory = kvs
        .iter()
        .map(|&kv| {
            let bar = |x: &SglangOutcome| memory_bar(s, kv, x, total);
            match kv == s.kv {
                true => bar(o),
                false => sglang_outcome(&PageScenario { kv, ..s.clone() }).map_or_else(
                    |_| Bar {
                        label: kv.label(model.dtype),
                        segments: Vec::new(),
                    },
                    |x| bar(&x),
                ),
            }
        })
        .collect();
    let refused = o.report.error.is_some();
    crate::chart_data::charts(
        s,
        &model,
        o.context,
        EngineFit {
            total,
            memory,
            pool: o.report.kv_bytes as i64,
            kvs,
            fit: &|kv, x| whole_sequences(s, kv, x),
            cap: o.report.max_running_requests.unwrap_or(0),
            cap_flag: "max_running_requests",
            sequences: o.sequences,
            refusal: refused.then(|| crate::t!(CH_SG_REFUSES).to_string()),
            budget: None,
        },
    )
}

/// How SGLang sizes the scenario's pool and its sequences, term by term with the figures.
pub fn sglang_derivation(o: &SglangOutcome) -> Vec<(String, String)> {
    use crate::units::{fixed2, thousands};
    use crate::{t, tf};
    let r = &o.report;
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut row = |term: &str, value: String| rows.push((term.to_string(), value));
    row(
        t!(RS_STAT_BPT),
        tf!(DV_SG_CELL, thousands(r.cell_size_bytes)),
    );
    let tokens = r.max_total_num_tokens.unwrap_or(0);
    match (r.pre_load_free_gib, r.post_load_free_gib, r.rest_gib) {
        (Some(pre), Some(post), Some(rest)) => {
            row(
                t!(DV_SG_FREE),
                match r.memory {
                    sglang::Memory::Predicted | sglang::Memory::HalfPredicted => {
                        tf!(DV_SG_FREE_PREDICTED, fixed2(pre), thousands(o.gpu_mib))
                    }
                    _ => tf!(DV_SG_AS_GIVEN, fixed2(pre)),
                },
            );
            row(t!(DV_SG_AFTER), tf!(DV_SG_AFTER_VALUE, fixed2(post)));
            row(
                t!(DV_SG_POOL),
                tf!(
                    DV_SG_POOL_VALUE,
                    fixed2(post),
                    fixed2(pre),
                    super::fraction(r.mem_fraction_static),
                    fixed2(rest)
                ),
            );
            row(
                t!(DV_SG_TOKENS),
                tf!(
                    DV_SG_TOKENS_VALUE,
                    fixed2(rest),
                    thousands(r.cell_size_bytes),
                    r.page_size,
                    thousands(tokens)
                ),
            );
        }
        _ => row(t!(DV_SG_TOKENS), tf!(DV_SG_TOKENS_GIVEN, thousands(tokens))),
    }
    row(
        t!(DV_SG_PER_SEQ),
        tf!(
            DV_SG_PER_SEQ_VALUE,
            thousands(o.context),
            r.page_size,
            thousands(o.tokens_per_sequence)
        ),
    );
    row(
        t!(DV_SG_SEQS),
        tf!(
            DV_SG_SEQS_VALUE,
            thousands(tokens),
            thousands(o.tokens_per_sequence),
            thousands(o.fit)
        ),
    );
    if let Some(cap) = r.max_running_requests {
        row(
            t!(EX_TERM_CAP),
            tf!(
                DV_SG_CAP_VALUE,
                thousands(o.fit),
                thousands(cap),
                thousands(o.sequences)
            ),
        );
    }
    rows
}

/// The course's repertoire under SGLang with the page's GPU, release, knobs, parallelism and
/// context: each model in 16-bit and FP8 KV, its cell, a sequence's bytes and the sequences that
/// fit after `max_running_requests`. A pool taken from a log is that log's model's: the rows
/// predict their own.
pub fn sglang_repertoire(s: &PageScenario) -> crate::repertoire::RepertoireView {
    use crate::presets::{self, REPERTOIRE};
    use crate::repertoire::RepertoireRow;
    use crate::scenario::ModelChoice;
    use crate::t;
    use crate::units::{fixed2, thousands, GIB};
    let mut rows = Vec::new();
    for p in REPERTOIRE.iter().filter_map(|id| presets::model(id)) {
        for kv in [KvDtype::Auto, KvDtype::Fp8] {
            let mut t = s.clone();
            t.set_model(ModelChoice::Preset(p));
            t.kv = kv;
            t.sglang.num_tokens = None;
            let short = p.id().rsplit('/').next().unwrap_or_default();
            let label = kv.label(p.spec.dtype);
            let mut row = RepertoireRow {
                key: format!("{short}-{}", kv.name()),
                label: t!(rp_load(short, &label)),
                model: short.to_string(),
                model_id: p.id().to_string(),
                kv_name: kv.name().to_string(),
                kv: label,
                fits: "—".into(),
                ..RepertoireRow::default()
            };
            if let Ok(o) = sglang_outcome(&t) {
                let cell = o.report.cell_size_bytes;
                row.bytes_per_token = cell;
                row.kib_per_token = format!("{} KiB", thousands(cell / 1024));
                let per_sequence = o.tokens_per_sequence as f64 * cell as f64;
                row.gib_per_sequence = fixed2(per_sequence / GIB as f64);
                row.sequences = o.sequences;
                row.fits = match o.report.error {
                    Some(_) => t!(RS_SGLANG_WONT_START).into(),
                    None => thousands(o.sequences),
                };
            }
            rows.push(row);
        }
    }
    let from_log = if s.sglang.num_tokens.is_some() {
        t!(RS_EACH_MODEL_BUDGET)
    } else {
        ""
    };
    crate::repertoire::RepertoireView {
        caption: t!(rs_sg_repertoire_caption(
            &s.sglang.version().to_string(),
            &s.gpu.name(),
            &thousands(s.context()),
            from_log
        )),
        rows,
    }
}
