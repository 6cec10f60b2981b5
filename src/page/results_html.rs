//! The results panel's static parts as HTML text: built here in one pass and set with
//! `inner_html`, instead of a view of a few hundred elements rebuilt node by node on every edit.
//! Every text that comes from the scenario or a user is escaped; the only interactive elements
//! are the fix buttons, which carry their index (`data-fix-index`) for the panel's click handler.

use super::{
    definition, engine_answer, html_escape as esc, lines_heading, primer, refusal_summary,
};
use super::{list_items_html, results_title, stats, tokens_cell, vllm_stats_heading, Stat};
use kvbudget_core::calc::Outcome;
use kvbudget_core::explain::Explanation;
use kvbudget_core::handoff::sglang::SglangView;
use kvbudget_core::handoff::FixView;
use kvbudget_core::i18n::tr;
use kvbudget_core::scenario::{Engine, PageScenario};
use kvbudget_core::t;
use std::fmt::Write;

/// One figure: its label, its value (with its exact `data-value`) and, when `sub`, the line under
/// it.
pub fn stat_html(out: &mut String, st: &Stat, sub: bool) {
    let _ = write!(
        out,
        r#"<div class="stat"><p class="stat__label">{}</p><p class="stat__value" data-testid="{}" data-value="{}">{}</p>"#,
        esc(&st.label),
        esc(&st.testid),
        esc(&st.value),
        esc(&st.text)
    );
    if sub {
        let _ = write!(out, r#"<p class="stat__sub">{}</p>"#, esc(&st.sub));
    }
    out.push_str("</div>");
}

/// A panel the worker wrote for an older scenario, shown dimmed and marked busy while it computes
/// the current one (rather than the panel blinking out and back on every keystroke).
pub fn dimmed(html: &str) -> String {
    format!(r#"<div class="stale" aria-busy="true">{html}</div>"#)
}

/// A refusal's fixes, each a button (`data-fix-index`: its place in the list), or why there is
/// none.
pub fn fixes_html(fixes: &[FixView]) -> String {
    let mut out = String::new();
    if fixes.is_empty() {
        let _ = write!(out, "<p>{}</p>", esc(t!(RS_NO_FIX)));
    }
    out.push_str(r#"<ul class="fixes">"#);
    for (i, f) in fixes.iter().enumerate() {
        let _ = write!(
            out,
            r#"<li><button type="button" class="fix" data-testid="fix" data-fix="{}" data-fix-index="{i}">{}</button></li>"#,
            esc(&f.key),
            esc(&f.label)
        );
    }
    out + "</ul>"
}

/// The panel from its heading to vLLM's (or SGLang's) lines: the title, the answer for screen
/// readers, the refusal with its fixes (`fixes`: HTML text, [`fixes_html`]), the four figures,
/// the range note, the warnings, the lines. `sg`: SGLang's figures when it is the engine; `busy`: they are for an older scenario.
pub fn results_top(
    s: &PageScenario,
    o: &Outcome,
    words: &Explanation,
    fixes: &str,
    sg: Option<&SglangView>,
    lines: &str,
    busy: bool,
) -> String {
    let r = &o.chosen.report;
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r#"<h2 id="results-title">{}</h2><p class="sr-only" aria-live="polite">{}</p>"#,
        esc(&results_title(s, o)),
        esc(&engine_answer(s, o, sg).0)
    );
    if let Some(refusal) = r.refusal {
        let _ = write!(
            out,
            r#"<div class="refusal" role="alert" data-testid="refusal" data-value="{}"><p><strong>{}</strong>{}</p><p class="refusal__error"><code>{}</code></p><p><strong>{}</strong>{}</p>"#,
            refusal.kind.key(),
            esc(t!(RS_WOULD_REFUSE)),
            esc(refusal_summary(refusal.kind)),
            esc(&r.error_line().unwrap_or_default()),
            esc(t!(RS_WHAT_MAKES_IT_START)),
            esc(t!(RS_EACH_CHECKED))
        );
        out.push_str(fixes);
        out.push_str("</div>");
    }
    if s.engine == Engine::Sglang {
        let _ = write!(
            out,
            r#"<h3 data-testid="stats-engine">{}</h3>"#,
            esc(&vllm_stats_heading(s))
        );
    }
    out.push_str(r#"<div class="stats">"#);
    for st in stats(s, o) {
        stat_html(&mut out, &st, true);
    }
    out.push_str("</div>");
    if o.range.is_some() {
        let _ = write!(
            out,
            r#"<p class="hint" data-testid="range-note">{}</p>"#,
            esc(t!(RS_RANGE_NOTE))
        );
    }
    out.push_str(r#"<ul class="warnings">"#);
    out.push_str(&list_items_html(&words.warnings));
    let _ = write!(
        out,
        r#"</ul><h3 data-testid="lines-heading">{}</h3><pre class="log{}" data-testid="vllm-lines" data-value="{}">{}</pre>"#,
        esc(&lines_heading(s)),
        if busy { " stale" } else { "" },
        esc(lines),
        esc(lines)
    );
    out
}

/// The primer, "The KV cache in one minute": static text, drawn once per language (outside the
/// text an edit replaces, so a reader's opening it survives edits).
pub fn primer_html() -> String {
    let mut out = format!(
        r#"<details class="primer"><summary>{}</summary>"#,
        esc(t!(RS_PRIMER_TITLE))
    );
    for p in primer() {
        let _ = write!(out, "<p>{}</p>", esc(p));
    }
    out.push_str("</details>");
    out
}

/// The panel after the primer: the derivations (terms defined on hover and focus), and
/// `vllm serve …` (or SGLang's).
pub fn results_bottom(o: &Outcome, words: &Explanation, serve: &str) -> String {
    let r = &o.chosen.report;
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r#"<h3>{}</h3><dl class="derivation" data-testid="derivations">"#,
        esc(t!(RS_HOW))
    );
    for (k, v) in &words.derivations {
        let label = esc(tr(k));
        match definition(k) {
            Some(d) => {
                let _ = write!(
                    out,
                    r#"<dt><span class="term" tabindex="0" title="{}">{label}</span></dt>"#,
                    esc(d)
                );
            }
            None => {
                let _ = write!(out, "<dt><span>{label}</span></dt>");
            }
        }
        let _ = write!(out, "<dd>{}</dd>", esc(v));
    }
    let _ = write!(
        out,
        "<dt>{}</dt><dd>{}</dd></dl><h3>{}</h3>",
        esc(t!(RS_FORMULA_VS_VLLM)),
        // Where vLLM refuses, its 0 is the refusal's, not its blocks'.
        esc(&if r.refusal.is_some() {
            kvbudget_core::tf!(
                RS_FORMULA_VS_REFUSAL,
                kvbudget_core::units::thousands(o.chosen.seed_max)
            )
        } else {
            t!(rs_formula_vs_vllm(
                o.chosen.seed_max,
                r.block_size,
                o.chosen.vllm_max
            ))
        }),
        esc(t!(RS_SERVE_IT))
    );
    if r.refusal.is_some() {
        let _ = write!(
            out,
            r#"<p class="hint">{}</p>"#,
            esc(t!(RS_REFUSED_COMMAND))
        );
    }
    let _ = write!(
        out,
        r#"<pre class="cmd" data-testid="serve-command" data-value="{}">{}</pre>"#,
        esc(serve),
        esc(serve)
    );
    out
}

/// SGLang's figures and the same GPU under both engines (the worker writes it; the page shows an
/// older one dimmed while the worker computes the current one).
pub fn sglang_panel_html(sg: &SglangView) -> String {
    let mut out = String::with_capacity(2048);
    out.push_str(r#"<div><div class="stats" data-testid="sglang-stats">"#);
    for st in &sg.stats {
        stat_html(&mut out, st, true);
    }
    let _ = write!(
        out,
        r#"</div><div class="table-wrap"><table class="rep compare" data-testid="compare"><caption>{}</caption><thead><tr><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>"#,
        esc(&sg.caption),
        esc(t!(RS_ENGINE)),
        esc(t!(RS_TOKENS_IN_KV)),
        esc(t!(RS_SEQS_AT_CTX)),
        esc(t!(RS_HOW_POOL))
    );
    for r in &sg.rows {
        let engine = esc(&r.engine.to_ascii_lowercase());
        let tokens = r.tokens.map(|t| t.to_string()).unwrap_or_default();
        let _ = write!(
            out,
            r#"<tr data-testid="compare-{engine}"><th scope="row">{}</th><td data-testid="compare-{engine}-tokens" data-value="{tokens}" data-label="{}">{}</td><td data-testid="compare-{engine}-seqs" data-value="{}" data-label="{}">{}</td><td class="compare__pool" data-label="{}">{}</td></tr>"#,
            esc(&r.engine),
            esc(t!(RS_TOKENS_IN_KV)),
            esc(&tokens_cell(r.tokens)),
            r.sequences,
            esc(t!(RS_SEQS_AT_CTX)),
            kvbudget_core::units::thousands(r.sequences),
            esc(t!(RS_HOW_POOL)),
            esc(&r.pool)
        );
    }
    let _ = write!(
        out,
        r#"</tbody></table></div><p class="hint" data-testid="compare-why">{}</p><ul class="warnings">"#,
        esc(&sg.why)
    );
    out.push_str(&list_items_html(&sg.notes));
    out.push_str("</ul></div>");
    out
}

/// The embedded card: the refusal (if vLLM would refuse), the four figures, vLLM's lines.
pub fn card_html(s: &PageScenario, o: &Outcome) -> String {
    let r = &o.chosen.report;
    let mut out = String::with_capacity(2048);
    out.push_str(r#"<section class="results results--card">"#);
    if let Some(x) = r.refusal {
        let _ = write!(
            out,
            r#"<p class="refusal" data-testid="refusal" data-value="{}"><strong>{}</strong>{}</p>"#,
            x.kind.key(),
            esc(t!(RS_WOULD_REFUSE)),
            esc(refusal_summary(x.kind))
        );
    }
    out.push_str(r#"<div class="stats">"#);
    for st in stats(s, o) {
        stat_html(&mut out, &st, false);
    }
    let lines = super::log_lines(r);
    let _ = write!(
        out,
        r#"</div><pre class="log" data-testid="vllm-lines" data-value="{}">{}</pre></section>"#,
        esc(&lines),
        esc(&lines)
    );
    out
}

/// The results' action buttons as HTML text (each names its `data-action`; "Use the GPU's
/// budget" is shown only while the scenario starts from a fixed KV memory).
pub fn actions_html() -> String {
    format!(
        r#"<button type="button" data-action="copy-command">{}</button><button type="button" data-testid="copy-link" data-action="copy-link">{}</button><button type="button" aria-expanded="false" data-action="embed">{}</button><button type="button" id="use-budget" data-testid="use-budget" data-action="use-budget" data-when="use-budget" hidden>{}</button>"#,
        esc(t!(RS_COPY_COMMAND)),
        esc(t!(RS_COPY_LINK)),
        esc(t!(RS_EMBED)),
        esc(t!(RS_USE_BUDGET))
    )
}

/// The answer in one line (`refused`: vLLM would not start), a link to the results.
pub fn answer_bar_html(text: &str, refused: bool) -> String {
    format!(
        r##"<p class="answer{}"><a href="#results-title">{}</a></p>"##,
        if refused { " answer--refused" } else { "" },
        esc(text)
    )
}
