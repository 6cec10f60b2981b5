//! SGLang's figures for the page, computed in the worker: the page's first load carries no SGLang
//! emulation. The worker sends this view to the page as data (`handoff::Answer::Sglang`).

use crate::calc::evaluate;
use crate::chart_data::ChartData;
use crate::engines::{compare, sglang_command, sglang_outcome, SglangOutcome};
use crate::scenario::PageScenario;
use crate::t;
use crate::units::thousands;
use serde::{Deserialize, Serialize};

/// One figure of a panel: its label, its `data-testid`, its exact `data-value`, the figure as
/// shown and the line under it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// What it is.
    pub label: String,
    /// `data-testid`.
    pub testid: String,
    /// The exact value for automation (`data-value`).
    pub value: String,
    /// The figure as shown.
    pub text: String,
    /// The line under it.
    pub sub: String,
}

/// One engine's row of the same GPU under both engines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineRow {
    /// `vLLM` or `SGLang`.
    pub engine: String,
    /// Tokens in the KV cache (None when the engine refuses to start).
    pub tokens: Option<u64>,
    /// Sequences at the context.
    pub sequences: u64,
    /// How the pool is sized.
    pub pool: String,
}

/// The page's scenario under SGLang, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SglangView {
    /// The answer in one line, and whether SGLang refuses to start.
    pub answer: String,
    /// Whether SGLang refuses (or does not accept the settings).
    pub refused: bool,
    /// What SGLang would print, or why it does not accept the settings.
    pub lines: String,
    /// `python -m sglang.launch_server …`.
    pub command: String,
    /// Sequences, tokens, `mem_fraction_static` (none when the settings are not accepted).
    pub stats: Vec<Stat>,
    /// The comparison's caption (the scenario's model, GPU and context).
    pub caption: String,
    /// vLLM, then SGLang.
    pub rows: Vec<EngineRow>,
    /// Why the two pools differ.
    pub why: String,
    /// SGLang's notes.
    pub notes: Vec<String>,
    /// SGLang's default `mem_fraction_static` here (the knob's placeholder).
    pub default_mfs: String,
    /// SGLang's default `--chunked-prefill-size` here (empty when the settings are not accepted).
    pub default_chunked: String,
    /// How SGLang sizes the pool and its sequences: (term, value) in the envelope's language.
    pub derivation: Vec<(String, String)>,
    /// The three charts' data under SGLang (none when the settings are not accepted).
    pub charts: Option<Box<ChartData>>,
    /// The course's repertoire under SGLang.
    pub repertoire: Option<crate::repertoire::RepertoireView>,
}

/// SGLang's headline, under the same `data-testid`s as vLLM's: sequences at the context, the KV
/// per token (its cell), the pool as allocated, tokens in it; then `mem_fraction_static`.
pub fn sglang_stats(o: &SglangOutcome) -> Vec<Stat> {
    let r = &o.report;
    let tokens = r.max_total_num_tokens.unwrap_or(0);
    let range = r
        .range
        .map(|g| {
            t!(rs_range(
                &thousands(g.low_tokens.max(0) as u64),
                &thousands(g.high_tokens.max(0) as u64)
            ))
        })
        .unwrap_or_default();
    vec![
        Stat {
            label: t!(RS_SG_STAT_SEQS).into(),
            testid: "max-seqs".into(),
            value: o.sequences.to_string(),
            text: thousands(o.sequences),
            sub: if r.error.is_some() {
                t!(RS_SGLANG_WONT_START).into()
            } else if o.fit == 0 {
                // (Why 0: one sequence takes more tokens than the pool holds.)
                t!(rs_sg_seqs_none(
                    &thousands(o.tokens_per_sequence),
                    &thousands(tokens)
                ))
            } else {
                t!(rs_sg_seqs_sub(
                    &thousands(o.context),
                    &thousands(r.max_running_requests.unwrap_or(0))
                ))
            },
        },
        Stat {
            label: t!(RS_STAT_BPT).into(),
            testid: "bytes-per-token".into(),
            value: r.cell_size_bytes.to_string(),
            text: format!("{} B", thousands(r.cell_size_bytes)),
            sub: t!(RS_SG_CELL_SUB).into(),
        },
        Stat {
            label: t!(RS_STAT_POOL).into(),
            testid: "kv-pool-bytes".into(),
            value: r.kv_bytes.to_string(),
            text: crate::units::Bytes(r.kv_bytes).to_string(),
            sub: t!(rs_sg_pool_sub(&thousands(r.kv_bytes))),
        },
        Stat {
            label: t!(RS_SG_STAT_KV).into(),
            testid: "kv-tokens".into(),
            value: tokens.to_string(),
            text: t!(rs_tokens(&thousands(tokens))),
            sub: match r.swa_price {
                // The count is the full layers' pool; a token of it costs the full layers' bytes
                // and `r` of a token in every sliding layer (gpt-oss: 44,236.8 B, not 49,152).
                Some((price, ratio)) => t!(rs_sg_tokens_sub_swa(
                    &thousands(price.round() as u64),
                    &crate::floatfmt::display(ratio),
                    &range
                )),
                None => t!(rs_sg_tokens_sub(&thousands(r.cell_size_bytes), &range)),
            },
        },
        Stat {
            label: "mem_fraction_static".into(),
            testid: "sglang-mfs".into(),
            value: r.mem_fraction_static_text.clone(),
            // SGLang's `repr` stays the value; the figure is read by a person (0.72 × 0.95 is
            // 0.6839999999999999 in a float, 0.684 here).
            text: crate::engines::fraction(r.mem_fraction_static),
            sub: match &r.mfs_default {
                Some(d) => match d.reserved_mib {
                    Some(m) => t!(rs_sg_default_reserved(
                        &r.version.to_string(),
                        &thousands(m.round() as u64),
                        &thousands(o.gpu_mib)
                    )),
                    None => t!(rs_sg_default(&r.version.to_string())),
                },
                None => t!(RS_AS_GIVEN).into(),
            },
        },
    ]
}

/// What SGLang would print, with its refusal as the exception it raises.
pub fn sglang_lines(o: &SglangOutcome) -> String {
    let r = &o.report;
    let error = r.error_line();
    r.lines
        .iter()
        .cloned()
        .chain(error)
        .collect::<Vec<_>>()
        .join("\n")
}

/// SGLang's figures for the page's scenario.
pub fn sglang_view(s: &PageScenario) -> SglangView {
    let mut v = SglangView {
        command: sglang_command(s),
        // (To six places: 0.66595, not the float's 0.6659499999999999.)
        default_mfs: crate::engines::fraction(crate::engines::default_mfs(s)),
        caption: compare_caption(s),
        repertoire: Some(crate::engines::sglang::sglang_repertoire(s)),
        ..SglangView::default()
    };
    match sglang_outcome(s) {
        Ok(sg) => {
            v.refused = sg.report.error.is_some();
            let fit = if v.refused {
                t!(RS_SGLANG_WONT_START).to_string()
            } else {
                t!(rs_fit(
                    &thousands(sg.sequences),
                    sg.sequences,
                    &thousands(sg.context)
                ))
            };
            let rest = format!("{} · {} KV · {}", s.model.name(), s.kv.name(), s.gpu.name());
            v.answer = t!(rs_under_sglang(
                &fit,
                v.refused,
                &sg.report.version.to_string(),
                &rest
            ));
            v.lines = sglang_lines(&sg);
            v.stats = sglang_stats(&sg);
            v.derivation = crate::engines::sglang::sglang_derivation(&sg);
            v.charts = Some(Box::new(crate::engines::sglang::sglang_charts(s, &sg)));
            v.notes = sg.report.notes.clone();
            // Out of memory while loading: no exception line (PyTorch's names the allocation that
            // failed), kvbudget's reckoning instead, said as kvbudget's.
            if let (true, Some(e)) = (sg.report.error_reckoned, &sg.report.error) {
                v.notes.insert(0, e.clone());
            }
            v.default_chunked = sg.report.defaults.chunked_prefill_size.to_string();
            if let Ok(o) = evaluate(s) {
                let c = compare(&o, &sg);
                v.why = c.why;
                v.rows = c
                    .rows
                    .into_iter()
                    .map(|r| EngineRow {
                        engine: r.engine.into(),
                        tokens: r.tokens,
                        sequences: r.sequences,
                        pool: r.pool,
                    })
                    .collect();
            }
        }
        Err(e) => {
            v.refused = true;
            v.answer = format!("SGLang: {e}");
            // Said in kvbudget's words, never in SGLang's lines: SGLang prints none of it (a layout
            // the emulation does not derive is kvbudget's limit, not SGLang's).
            v.notes = vec![match e {
                crate::error::KvError::Unsupported(m) => m,
                e => t!(rs_sg_not_accepted(&e.to_string())),
            }];
        }
    }
    v
}

/// The comparison's caption.
fn compare_caption(s: &PageScenario) -> String {
    if s.context() == 1 {
        crate::tf!(RS_COMPARE_CAPTION_ONE, s.model.name(), s.gpu.name())
    } else {
        t!(rs_compare_caption(
            &s.model.name(),
            &s.gpu.name(),
            &thousands(s.context())
        ))
    }
}
