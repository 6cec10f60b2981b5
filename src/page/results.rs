//! The texts of the results panel, the answer bar, the embedded headline and the repertoire.

use kvbudget_core::calc::{Outcome, Range};
use kvbudget_core::engines::EngineView;
use kvbudget_core::handoff::sglang::SglangView;
use kvbudget_core::scenario::PageScenario;
use kvbudget_core::t;
use kvbudget_core::units::{thousands, Bytes};
use kvbudget_core::vllm::{RefusalKind, Report};

/// The answer in one line, for the bar pinned to narrow screens.
pub fn answer(s: &PageScenario, o: &Outcome) -> String {
    let fit = if o.chosen.report.error.is_some() {
        t!(RS_VLLM_WONT_START).to_string()
    } else {
        t!(rs_fit(
            &thousands(o.chosen.capped),
            o.chosen.capped,
            &thousands(o.context)
        ))
    };
    format!(
        "{fit} · {} · {} KV · {}",
        s.model.name(),
        s.kv.name(),
        s.gpu.name()
    )
}

/// The results panel's heading.
pub fn results_title(s: &PageScenario, o: &Outcome) -> String {
    format!(
        "{} · {} KV · {}",
        s.model.name(),
        s.kv.label(o.model.dtype),
        s.gpu.name()
    )
}

/// The embedded view's one-line headline.
pub fn embed_headline(s: &PageScenario, o: &Outcome) -> String {
    // (A refusal is said as the full page says it, not as "0 sequences fit".)
    if let Some(r) = o.chosen.report.refusal {
        return t!(rs_embed_refused(
            &s.model.name(),
            &s.gpu.name(),
            s.kv.name(),
            refusal_short(r.kind)
        ));
    }
    t!(rs_embed_headline(
        &s.model.name(),
        &s.gpu.name(),
        s.kv.name(),
        o.chosen.capped,
        &thousands(o.context),
        &thousands(o.chosen.bytes_per_token.0)
    ))
}

/// What vLLM would print, with its refusal as the `ValueError` it raises.
pub fn log_lines(r: &Report) -> String {
    r.lines
        .iter()
        .cloned()
        .chain(r.error_line())
        .collect::<Vec<_>>()
        .join("\n")
}

/// One figure of a panel (the SGLang figures come from the worker in the same shape).
pub use kvbudget_core::engines::Stat;

/// The four figures of the results panel.
pub fn stats(s: &PageScenario, o: &Outcome) -> [Stat; 4] {
    let c = &o.chosen;
    let r = &c.report;
    let range = |f: &dyn Fn(&Range) -> String| o.range.as_ref().map(f).unwrap_or_default();
    let fits_head = if r.error.is_some() {
        t!(RS_VLLM_WONT_START).to_string()
    } else {
        t!(rs_of_tokens_each(&thousands(o.context)))
    };
    let range_pool = match &o.range {
        Some(g) => t!(rs_pool_range(
            &Bytes(g.pool.0.max(0) as u64).to_string(),
            &Bytes(g.pool.1.max(0) as u64).to_string()
        )),
        None if s.kv_memory.is_some() => t!(RS_FROM_LOG).into(),
        None => t!(RS_SEED_OVERHEAD).into(),
    };
    let tokens = r.gpu_kv_cache_tokens.unwrap_or(0);
    [
        Stat {
            label: t!(RS_STAT_SEQS).into(),
            testid: "max-seqs".into(),
            value: c.capped.to_string(),
            text: thousands(c.capped),
            sub: format!(
                "{fits_head}{}",
                range(&|g| t!(rs_range(&thousands(g.seqs.0), &thousands(g.seqs.1))))
            ),
        },
        Stat {
            label: t!(RS_STAT_BPT).into(),
            testid: "bytes-per-token".into(),
            value: c.bytes_per_token.0.to_string(),
            text: format!("{} B", thousands(c.bytes_per_token.0)),
            sub: t!(rs_as_mha(
                &c.bytes_per_token.to_string(),
                &o.mha_bytes_per_token.to_string()
            )),
        },
        Stat {
            label: t!(RS_STAT_POOL).into(),
            testid: "kv-pool-bytes".into(),
            value: c.pool.to_string(),
            text: if c.pool > 0 {
                Bytes(c.pool as u64).to_string()
            } else {
                t!(RS_NONE_LEFT).into()
            },
            sub: t!(rs_pool_sub(&thousands(c.pool.max(0) as u64), &range_pool)),
        },
        Stat {
            label: t!(RS_STAT_VLLM_KV).into(),
            testid: "kv-tokens".into(),
            value: tokens.to_string(),
            text: t!(rs_tokens(&thousands(tokens))),
            sub: t!(rs_blocks_of(
                &thousands(r.num_gpu_blocks.unwrap_or(0)),
                r.block_size,
                &range(&|g| t!(rs_range(&thousands(g.tokens.0), &thousands(g.tokens.1))))
            )),
        },
    ]
}

/// The repertoire table's caption.
pub fn repertoire_caption(s: &PageScenario) -> String {
    let from_log = if s.kv_memory.is_some() {
        t!(RS_EACH_MODEL_BUDGET)
    } else {
        ""
    };
    t!(rs_repertoire_caption(
        &s.gpu.name(),
        &thousands(s.context()),
        from_log
    ))
}

/// What a refusal means, in words, before vLLM's own message.
pub fn refusal_summary(kind: RefusalKind) -> &'static str {
    match kind {
        RefusalKind::WeightsDoNotFit => t!(RS_REFUSE_WEIGHTS),
        RefusalKind::NoKvMemory => t!(RS_REFUSE_NO_KV),
        RefusalKind::MaxModelLen => t!(RS_REFUSE_TOO_LONG),
        RefusalKind::ModelLimit => t!(RS_REFUSE_MODEL_LIMIT),
        RefusalKind::InvalidTp => t!(RS_REFUSE_TP),
        RefusalKind::BatchedTokens => t!(RS_REFUSE_BATCHED),
        RefusalKind::NoBfloat16 => t!(RS_REFUSE_BF16),
        RefusalKind::NoFloat16 => t!(RS_REFUSE_FP16),
    }
}

/// What a derivation's term means, shown on hover or focus.
pub fn definition(term: &str) -> Option<&'static str> {
    Some(match term {
        "KV per token" => t!(DEF_KV_PER_TOKEN),
        "as plain MHA" => t!(DEF_AS_MHA),
        "context per sequence" => t!(DEF_CONTEXT),
        "KV per sequence" => t!(DEF_KV_PER_SEQ),
        "KV pool" => t!(DEF_POOL),
        "sequences (formula)" => t!(DEF_FORMULA),
        "sequences (vLLM)" => t!(DEF_VLLM_SEQS),
        "after the cap" => t!(DEF_CAP),
        "longest context for max_num_seqs" => t!(DEF_LONGEST),
        "decode ceiling" => t!(DEF_DECODE),
        "overhead (estimate)" => t!(DEF_OVERHEAD),
        "prefix caching" => t!(DEF_PREFIX),
        "activation peak" => t!(DEF_ACTIVATION),
        _ => return None,
    })
}

/// The primer at the top of the results: what the page computes, in one minute.
pub fn primer() -> [&'static str; 4] {
    [
        t!(RS_PRIMER_1),
        t!(RS_PRIMER_2),
        t!(RS_PRIMER_3),
        t!(RS_PRIMER_4),
    ]
}

/// A refusal in a few words, for a table cell.
pub fn refusal_short(kind: RefusalKind) -> &'static str {
    match kind {
        RefusalKind::WeightsDoNotFit => t!(RS_WEIGHTS_NO_LOAD_SHORT),
        RefusalKind::NoKvMemory => t!(RS_NO_KV_SHORT),
        RefusalKind::MaxModelLen => t!(RS_TOO_LONG_SHORT),
        RefusalKind::ModelLimit => t!(RS_MODEL_LIMIT_SHORT),
        RefusalKind::InvalidTp => t!(RS_TP_INVALID_SHORT),
        RefusalKind::BatchedTokens => t!(RS_BATCHED_SHORT),
        RefusalKind::NoBfloat16 => t!(RS_NO_BF16_SHORT),
        RefusalKind::NoFloat16 => t!(RS_NO_FP16_SHORT),
    }
}

/// What the plan's figures mean.
pub fn plan_note() -> &'static str {
    t!(RS_PLAN_NOTE)
}

/// A refusal's fixes as the results show them: searched by the worker on first use.
#[derive(Clone, Debug, PartialEq)]
pub enum Fixes {
    /// The worker is checking them.
    Checking,
    /// The worker could not: why.
    Failed(String),
    /// The changes that make the engine start (none found: empty).
    Found(Vec<kvbudget_core::handoff::FixView>),
}

/// A refusal at the top of the results: its kind (`data-value`), what it means, the engine's
/// error line, and the fixes.
#[derive(Clone, Debug, PartialEq)]
pub struct RefusalView {
    pub key: &'static str,
    pub summary: &'static str,
    /// The exception as the engine prints it; empty where its text is not known.
    pub error: String,
    /// kvbudget's own reckoning where the engine's text is not known: what loading needs.
    pub note: String,
    pub fixes: Fixes,
}

/// SGLang's panel: its figures and both engines side by side, `stale` while the worker computes
/// those of a newer scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct SglangPanel {
    pub view: SglangView,
    pub stale: bool,
}

/// The results panel from its heading to the startup lines.
#[derive(Clone, Debug, PartialEq)]
pub struct TopView {
    pub title: String,
    /// The answer in one line, for screen readers.
    pub answer: String,
    pub refusal: Option<RefusalView>,
    pub stats: Vec<Stat>,
    /// The figures come with a range (the overhead is estimated).
    pub range_note: bool,
    pub warnings: Vec<String>,
    pub lines_heading: String,
    pub lines: String,
    /// The lines are an older scenario's (SGLang's worker computes the current ones).
    pub stale: bool,
    pub sglang: Option<SglangPanel>,
}

/// A derivation's row: the term, what it means (shown on hover and focus), its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Derivation {
    pub term: String,
    pub definition: Option<&'static str>,
    pub value: String,
}

/// The results panel after the primer: the derivations, the formula against the engine, the
/// serve command.
#[derive(Clone, Debug, PartialEq)]
pub struct BottomView {
    pub derivations: Vec<Derivation>,
    /// The engine would refuse: the command is said to be the refused one.
    pub refused: bool,
    pub serve: String,
}

/// The embedded card: the refusal (its kind and meaning), the four figures, vLLM's lines.
#[derive(Clone, Debug, PartialEq)]
pub struct CardView {
    pub refusal: Option<(&'static str, &'static str)>,
    pub stats: Vec<Stat>,
    pub lines: String,
}

/// The chosen engine's view as the results read it: `None` when vLLM is the engine (the page
/// computes its figures); else the engine's latest answer through the seam (`None` before the
/// first) and whether it is for the scenario shown.
pub type EngineNow<'a> = Option<(Option<&'a EngineView>, bool)>;

/// The results' top for `s` and its outcome `o`: `fixes` (the worker's search, for a refusal),
/// `sg` the chosen engine's view when it answers through the seam, `panel` SGLang's comparison.
pub fn top_view(
    s: &PageScenario,
    o: &Outcome,
    words: &kvbudget_core::explain::Explanation,
    fixes: Fixes,
    sg: EngineNow<'_>,
    panel: Option<SglangPanel>,
) -> TopView {
    use super::{engine_answer, lines_heading};
    let r = &o.chosen.report;
    let busy = sg.is_some_and(|(_, current)| !current);
    // The lines of an older scenario stay, dimmed, until SGLang's worker has the current ones.
    let lines = match sg {
        Some((Some(v), _)) => v.lines.clone(),
        Some((None, _)) => t!(RS_SGLANG_PENDING).to_string(),
        None => log_lines(r),
    };
    let current = sg.and_then(|(v, current)| v.filter(|_| current));
    // Under SGLang every figure is SGLang's (its latest answer, dimmed while a newer one is
    // computed); vLLM's refusal and range are vLLM's, and stay under vLLM.
    let vllm = sg.is_none();
    TopView {
        title: results_title(s, o),
        answer: engine_answer(s, o, current).0,
        refusal: r.refusal.filter(|_| vllm).map(|x| RefusalView {
            key: x.kind.key(),
            summary: refusal_summary(x.kind),
            error: r.error_line().unwrap_or_default(),
            note: r
                .error
                .clone()
                .filter(|_| !x.kind.printed())
                .unwrap_or_default(),
            fixes,
        }),
        stats: match sg {
            None => stats(s, o).into(),
            Some((v, _)) => v.map(|v| v.stats.clone()).unwrap_or_default(),
        },
        range_note: vllm && o.range.is_some(),
        // Under an engine answered through the seam, its notes (in kvbudget's words).
        warnings: match sg {
            None => words.warnings.clone(),
            Some((v, _)) => v.map(|v| v.notes.clone()).unwrap_or_default(),
        },
        lines_heading: lines_heading(s),
        lines,
        stale: busy,
        sglang: panel.filter(|p| !p.view.rows.is_empty()),
    }
}

/// The results after the primer: vLLM's derivation, or SGLang's while it is the engine (its
/// latest answer), and the serve command shown.
pub fn bottom_view(
    o: &Outcome,
    words: &kvbudget_core::explain::Explanation,
    sg: EngineNow<'_>,
) -> BottomView {
    let r = &o.chosen.report;
    let serve = serve_shown(words, sg);
    if let Some((v, _)) = sg {
        return BottomView {
            derivations: v
                .iter()
                .flat_map(|v| &v.derivation)
                .map(|(term, value)| Derivation {
                    term: term.clone(),
                    definition: None,
                    value: value.clone(),
                })
                .collect(),
            // (SGLang's own refusal; settings kvbudget cannot size under it are no refusal.)
            refused: v.is_some_and(|v| v.refused && !v.stats.is_empty()),
            serve,
        };
    }
    let mut derivations: Vec<Derivation> = words
        .derivations
        .iter()
        .map(|(k, v)| Derivation {
            term: kvbudget_core::i18n::tr(k).to_string(),
            definition: definition(k),
            value: v.clone(),
        })
        .collect();
    // The formula against vLLM's blocks; where vLLM refuses, its 0 is the refusal's.
    derivations.push(Derivation {
        term: t!(RS_FORMULA_VS_VLLM).to_string(),
        definition: None,
        value: if r.refusal.is_some() {
            kvbudget_core::tf!(RS_FORMULA_VS_REFUSAL, thousands(o.chosen.seed_max))
        } else {
            t!(rs_formula_vs_vllm(
                o.chosen.seed_max,
                r.block_size,
                o.chosen.vllm_max
            ))
        },
    });
    BottomView {
        derivations,
        refused: r.refusal.is_some(),
        serve,
    }
}

/// The serve command the results show: SGLang's once its worker has it for the scenario shown (a
/// pending line until then), else vLLM's.
pub fn serve_shown(words: &kvbudget_core::explain::Explanation, sg: EngineNow<'_>) -> String {
    match sg {
        None => words.serve_command.clone(),
        Some((Some(v), true)) => v.command.clone(),
        Some(_) => t!(RS_SGLANG_PENDING).to_string(),
    }
}

/// The embedded card for `s`: vLLM's figures and lines, or those of the engine answered through
/// the seam (`sg`, as for [`top_view`]; pending until it has answered).
pub fn card_view(s: &PageScenario, o: &Outcome, sg: EngineNow<'_>) -> CardView {
    let r = &o.chosen.report;
    if let Some((v, _)) = sg {
        return CardView {
            refusal: None,
            stats: v.map(|v| v.stats.clone()).unwrap_or_default(),
            lines: v.map_or_else(|| t!(RS_SGLANG_PENDING).to_string(), |v| v.lines.clone()),
        };
    }
    CardView {
        refusal: r.refusal.map(|x| (x.kind.key(), refusal_summary(x.kind))),
        stats: stats(s, o).into(),
        lines: log_lines(r),
    }
}
