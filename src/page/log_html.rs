//! The log check's comparison as HTML text (set with `inner_html`): the settings that differ,
//! the side-by-side table and the action buttons, which carry their job in `data-log-job`
//! (`log_align`, `log_adopt`, `log_report`) for the panel's one click handler.

use super::html_escape as esc;
use kvbudget_core::handoff::log::LogView;
use kvbudget_core::t;
use std::fmt::Write;

fn button(out: &mut String, testid: &str, job: &str, label: &str) {
    let _ = write!(
        out,
        r#"<button type="button" data-testid="{testid}" data-log-job="{job}">{}</button>"#,
        esc(label)
    );
}

fn head(out: &mut String, caption: &str, cols: &[&str], busy: bool) {
    let _ = write!(
        out,
        r#"<div class="table-wrap{}" aria-busy="{busy}"><table class="rep compare" data-testid="log-compare"><caption>{}</caption><thead><tr><th scope="col"></th>"#,
        if busy { " stale" } else { "" },
        esc(caption)
    );
    for c in cols {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, esc(c));
    }
    out.push_str("</tr></thead><tbody>");
}

/// The comparison of the log read (`kind`: `vllm`, `sglang` or `none`) with the scenario shown;
/// `view`: the worker's answer for the scenario (`busy`: it is for an older one, so it is shown
/// dimmed until the newer arrives).
pub fn log_compare_html(kind: &str, view: Option<&LogView>, busy: bool) -> String {
    let mut out = String::new();
    match (kind, view) {
        ("vllm", Some(v)) => {
            if !v.mismatches.is_empty() {
                let _ = write!(
                    out,
                    r#"<div class="mismatch" data-testid="log-mismatch"><p>{}</p><ul>"#,
                    esc(t!(LC_DIFFER_IN))
                );
                for m in &v.mismatches {
                    let _ = write!(out, "<li>{}</li>", esc(m));
                }
                out.push_str("</ul>");
                button(&mut out, "log-align", "log_align", t!(LC_ALIGN));
                out.push_str("</div>");
            }
            let cols = [t!(LC_SCENARIO), t!(LC_LOG), t!(LC_DIFFERENCE), t!(LC_WHY)];
            head(&mut out, t!(LC_CAPTION), &cols, busy);
            for r in &v.rows {
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
                    esc(&r.why)
                );
            }
            out.push_str("</tbody></table></div>");
        }
        ("sglang", Some(v)) => {
            let cols = [t!(LC_SCENARIO_SGLANG), t!(LC_LOG)];
            head(&mut out, t!(LC_SG_CAPTION), &cols, busy);
            for r in &v.rows {
                let _ = write!(
                    out,
                    r#"<tr data-row="{}"><th scope="row">{}</th><td class="num" data-label="{}">{}</td><td class="num" data-label="{}">{}</td></tr>"#,
                    esc(&r.key),
                    esc(&r.what),
                    esc(t!(LC_SCENARIO)),
                    esc(&r.predicted),
                    esc(t!(LC_LOG)),
                    esc(&r.printed)
                );
            }
            out.push_str(r#"</tbody></table></div><div class="actions">"#);
            button(
                &mut out,
                "log-adopt-sglang",
                "log_adopt",
                t!(LC_USE_NUMBERS),
            );
            out.push_str("</div>");
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
