//! The log check's comparison and the plan panel as HTML text (set with `inner_html`). The log
//! check's buttons carry their job in `data-log-job` (`log_align`, `log_adopt`, `log_report`),
//! the plan's what they apply in `data-plan-apply`, for each panel's one click handler.

use super::html_escape as esc;
use kvbudget_core::handoff::{LogView, PlanView};
use kvbudget_core::t;
use kvbudget_core::units::{thousands, Bytes};
use std::fmt::Write;

fn button(out: &mut String, testid: &str, job: &str, label: &str) {
    let _ = write!(
        out,
        r#"<button type="button" data-testid="{testid}" data-log-job="{job}">{}</button>"#,
        esc(label)
    );
}

/// A plan's button, after a space: it applies `which` (`data-plan-apply`).
fn plan_button(which: &str, label: &str) -> String {
    format!(
        r#" <button type="button" class="linkish" data-testid="plan-apply-{which}" data-plan-apply="{which}">{}</button>"#,
        esc(label)
    )
}

fn head(out: &mut String, caption: &str, cols: &[&str]) {
    let _ = write!(
        out,
        r#"<div class="table-wrap"><table class="rep compare" data-testid="log-compare"><caption>{}</caption><thead><tr><th scope="col"></th>"#,
        esc(caption)
    );
    for c in cols {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, esc(c));
    }
    out.push_str("</tr></thead><tbody>");
}

/// The comparison of the log read (`kind`: `vllm`, `sglang`, `llamacpp` or `none`) with a scenario
/// (`view`).
/// The worker writes it; the page shows the last one dimmed while the next is computed.
pub fn log_compare_html(kind: &str, view: Option<&LogView>) -> String {
    let mut out = String::new();
    match (kind, view) {
        ("vllm", Some(v)) => {
            if !v.mismatches.is_empty() {
                let _ = write!(
                    out,
                    r#"<div class="mismatch" data-testid="log-mismatch"><p>{}</p><ul>"#,
                    esc(t!(LC_DIFFER_IN))
                );
                out.push_str(&list_items_html(&v.mismatches));
                out.push_str("</ul>");
                button(&mut out, "log-align", "log_align", t!(LC_ALIGN));
                out.push_str("</div>");
            }
            let cols = [t!(LC_SCENARIO), t!(LC_LOG), t!(LC_DIFFERENCE), t!(LC_WHY)];
            head(&mut out, t!(LC_CAPTION), &cols);
            // A reason the row above gives already shows as a ditto mark, not the sentence again
            // (a screen reader still reads it).
            let mut above = "";
            for r in &v.rows {
                let why = if !r.why.is_empty() && r.why == above {
                    format!(
                        r#"<span aria-hidden="true">〃</span><span class="sr-only">{}</span>"#,
                        esc(&r.why)
                    )
                } else {
                    esc(&r.why)
                };
                above = &r.why;
                let _ = write!(
                    out,
                    r#"<tr data-row="{}" data-diff="{}"><th scope="row">{}</th><td class="num" data-label="{}">{}</td><td class="num" data-label="{}">{}</td><td class="num" data-label="{}">{}</td><td data-label="{}">{}</td></tr>"#,
                    esc(&r.key),
                    esc(&r.difference),
                    esc(&r.what),
                    esc(cols[0]),
                    esc(&r.predicted),
                    esc(cols[1]),
                    esc(&r.printed),
                    esc(cols[2]),
                    esc(&r.difference_text),
                    esc(cols[3]),
                    why
                );
            }
            out.push_str("</tbody></table></div>");
        }
        // SGLang's figures beside the log's; a llama.cpp log's lines beside kvbudget's.
        (kind @ ("sglang" | "llamacpp"), Some(v)) => {
            let sglang = kind == "sglang";
            let (caption, ours) = match sglang {
                true => (t!(LC_SG_CAPTION), t!(LC_SCENARIO_SGLANG)),
                false => (t!(LC_LC_CAPTION), t!(LC_KVBUDGET)),
            };
            let cols = [ours, t!(LC_LOG)];
            head(&mut out, caption, &cols);
            // (A llama.cpp line as printed: monospace, its spaces kept, wrapped.)
            let cell = if sglang { "num" } else { "line" };
            for r in &v.rows {
                let _ = write!(
                    out,
                    r#"<tr data-row="{}" data-diff="{}"><th scope="row">{}</th><td class="{cell}" data-label="{}">{}</td><td class="{cell}" data-label="{}">{}</td></tr>"#,
                    esc(&r.key),
                    esc(&r.difference),
                    esc(&r.what),
                    esc(ours),
                    esc(&r.predicted),
                    esc(t!(LC_LOG)),
                    esc(&r.printed)
                );
            }
            out.push_str("</tbody></table></div>");
            if sglang {
                out.push_str(r#"<div class="actions">"#);
                button(
                    &mut out,
                    "log-adopt-sglang",
                    "log_adopt",
                    t!(LC_USE_NUMBERS),
                );
                out.push_str("</div>");
            }
        }
        _ => {}
    }
    if kind == "vllm" {
        out.push_str(r#"<div class="actions">"#);
        button(&mut out, "log-adopt", "log_adopt", t!(LC_USE_NUMBERS));
        button(&mut out, "log-download", "log_report", t!(LC_DOWNLOAD));
        out.push_str("</div>");
    }
    out
}

/// The plan panel as HTML text, from the worker's plan (`handoff::PlanView`) for a scenario at
/// `current_tp`: the settings that give its sequences of the context, with buttons that apply them (`data-plan-apply`: `util`,
/// the safe end of the utilization's range, `kv`, the KV memory in bytes, or `seqs`).
pub fn plan_html(v: &PlanView, current_tp: u64) -> String {
    let n = v.n;
    let title = t!(pl_title(n, &thousands(v.context), &v.version));
    let mut out = String::with_capacity(2048);
    let _ = write!(
        out,
        r#"<section class="plan" data-testid="plan"><h3>{}</h3>"#,
        esc(&title)
    );
    let p = match &v.figures {
        Err(e) => {
            let _ = write!(out, "<p>{}</p></section>", esc(e));
            return out;
        }
        Ok(p) => p,
    };
    out.push_str("<ul>");
    match &p.util {
        Ok(u) => {
            let _ = write!(
                out,
                r#"<li>{lowest}<strong data-testid="plan-util" data-value="{point}">{point}</strong>{range}{safe}</li>"#,
                lowest = esc(t!(PL_LOWEST_UTIL)),
                range = esc(&t!(pl_util_range(
                    &kvbudget_core::floatfmt::display(u.optimistic),
                    &kvbudget_core::floatfmt::display(u.safe)
                ))),
                point = kvbudget_core::floatfmt::display(u.point),
                safe = plan_button("util", t!(PL_SAFE_END))
            );
        }
        Err(why) => {
            let _ = write!(
                out,
                r#"<li data-testid="plan-util" data-value="none">{}{}</li>"#,
                esc(t!(PL_NO_UTIL)),
                esc(why)
            );
        }
    }
    let bytes = p.kv_cache_memory;
    // Bytes that do not fit beside the weights get no button: only why not.
    let use_kv = match p.kv_cache_memory_over {
        None => plan_button("kv", t!(PL_USE_IT)),
        Some((needed, total)) => format!(
            r#"<span data-testid="plan-kv-over">{}</span>"#,
            esc(&t!(pl_kv_over(
                &Bytes(needed).to_string(),
                &Bytes(total).to_string()
            )))
        ),
    };
    let (point, safe, optimistic) = p.longest;
    // Each suggestion a button, where there is one to apply.
    let use_ctx = if safe >= kvbudget_core::fields::MIN_CTX {
        plan_button("ctx", t!(PL_SAFE_END))
    } else {
        String::new()
    };
    // (No button for the TP size already set.)
    let use_tp = p
        .smallest_tp
        .filter(|t| *t != current_tp)
        .map(|_| plan_button("tp", t!(PL_USE_IT)))
        .unwrap_or_default();
    let tp = p.smallest_tp.map(|t| t.to_string());
    let _ = write!(
        out,
        r#"<li>--kv-cache-memory <strong data-testid="plan-kv-bytes" data-value="{bytes}">{}</strong>{}{use_kv}</li><li>{}<strong data-testid="plan-ctx" data-value="{}">{}</strong>{}{use_ctx}</li><li>{}<strong data-testid="plan-tp" data-value="{}">{}</strong>{use_tp}</li>"#,
        thousands(bytes),
        esc(&t!(pl_kv_bytes(
            &Bytes(bytes).to_string(),
            &thousands(p.kv_cache_blocks)
        ))),
        esc(t!(PL_LONGEST)),
        safe,
        thousands(safe),
        esc(&t!(pl_len_range(
            &thousands(point),
            &thousands(safe),
            &thousands(optimistic)
        ))),
        esc(t!(PL_SMALLEST_TP)),
        tp.clone().unwrap_or_default(),
        esc(&tp.unwrap_or_else(|| t!(PL_NO_TP).into())),
    );
    if let Some(u) = p.fp8_util {
        let _ = write!(
            out,
            r#"<li data-testid="plan-fp8" data-value="{u}">{}{}</li>"#,
            esc(&kvbudget_core::tf!(
                PL_FP8,
                kvbudget_core::floatfmt::display(u)
            )),
            plan_button("fp8", t!(PL_USE_IT))
        );
    }
    // A max_num_seqs below N: the memory holds them, the scheduler does not run them at once.
    if let Some(cap) = p.capped_at {
        let _ = write!(
            out,
            r#"<li data-testid="plan-seqs" data-value="{n}">{}<strong>--max-num-seqs {n}</strong>{}</li>"#,
            esc(&kvbudget_core::tf!(PL_CAPPED, thousands(cap), thousands(n))),
            plan_button("seqs", t!(PL_USE_IT))
        );
    }
    let _ = write!(
        out,
        r#"</ul><p class="hint">{}</p></section>"#,
        esc(super::plan_note())
    );
    out
}

/// Items of a list as HTML text, each escaped.
pub fn list_items_html(items: &[String]) -> String {
    items
        .iter()
        .map(|n| format!("<li>{}</li>", esc(n)))
        .collect()
}

/// A panel the worker wrote for an older scenario, shown dimmed and marked busy while it computes
/// the current one (rather than the panel blinking out and back on every keystroke).
pub fn dimmed(html: &str) -> String {
    format!(r#"<div class="stale" aria-busy="true">{html}</div>"#)
}
