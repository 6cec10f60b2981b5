//! The panels the first load does without, answered by the page's worker as HTML text: a plan,
//! a refusal's fixes, the GPU table, the log check's comparison, and what their buttons change.
//! A request is lines: the job, then its arguments (scenarios as URL queries); the answer is `ok`
//! and the text, or `err` and why (`handoff::ok_answer`, `handoff::err_answer`; read back by
//! `handoff::read_text`, `handoff::read_scenario`). Other requests are the core's
//! (`handoff::Session`).

use super::{apply_plan, fixes_html, gpu_table_html, log_compare_html, plan_html};
use kvbudget_core::calc::{evaluate, Outcome};
use kvbudget_core::fixes::fixes;
use kvbudget_core::handoff::log::{read_status, read_view};
use kvbudget_core::handoff::sglang::{sglang_view, write_view};
use kvbudget_core::handoff::{err_answer, log_question, ok_answer, one_line, read_text, Session};
use kvbudget_core::query::{decode, encode};
use kvbudget_core::scenario::PageScenario;

/// The request for `job` about the scenario `s` (`plan`, `fixes`, `gpus`).
pub fn panel_request(job: &str, s: &PageScenario) -> String {
    format!("{job}\n{}", encode(s))
}

/// The request that imports the config.json `text` (named `name`) for the page.
pub fn import_page_request(name: &str, text: &str) -> String {
    format!("import_page\n{}\n{text}", one_line(name))
}

/// Imports the config.json `text` (named `name`) for the page: [`super::import_page_answer`], or
/// why it could not be read.
pub fn import_for_page(session: &mut Session, name: &str, text: &str) -> String {
    let answer = session.answer(&kvbudget_core::handoff::import_request(name, text));
    match kvbudget_core::handoff::read_import(&answer) {
        Ok(m) => super::import_page_answer(&m),
        Err(e) => err_answer(&e),
    }
}

/// The request that fetches a model's config.json from the Hugging Face Hub (`id`) and imports
/// it for the page; the worker fetches it (`page::hub_answer` says what the fetch gave).
pub fn hub_request(id: &str) -> String {
    format!("import_hub\n{id}")
}

/// The request that has the worker read a startup log and keep it; the log's text follows it
/// after a newline (the page adds it, or the worker does when it is handed the file).
pub const LOG_READ: &str = "log_read";

/// The request that has the worker read a startup log and keep it ([`LOG_READ`]).
pub fn log_read_request(text: &str) -> String {
    format!("{LOG_READ}\n{text}")
}

/// The request that applies a button of the panel `job` (`plan_apply`: `which` is its
/// `data-plan-apply`; `fix_apply`: its `data-fix-index`) of the scenario shown, `shown`, to the
/// scenario as edited, `target` (they differ while an edit is refused).
pub fn apply_request(
    job: &str,
    which: &str,
    shown: &PageScenario,
    target: &PageScenario,
) -> String {
    format!("{job}\n{which}\n{}\n{}", encode(shown), encode(target))
}

/// The scenario of a query with its evaluation, or the answer that says why there is none.
fn evaluated(query: &str) -> Result<(PageScenario, Outcome), String> {
    let (s, _) = decode(query);
    match evaluate(&s) {
        Ok(o) => Ok((s, o)),
        Err(e) => Err(err_answer(&e.to_string())),
    }
}

/// The worker's answer to `request`: these jobs here, the others the core's (`session` keeps the
/// log read).
pub fn worker_answer(session: &mut Session, request: &str) -> String {
    panel_answer(session, request).unwrap_or_else(|| session.answer(request))
}

/// The answer to `request`, or `None` when it is not one of these jobs.
fn panel_answer(session: &mut Session, request: &str) -> Option<String> {
    // An import for the page (`import_page`, the file's name, its text): the core reads it.
    if let Some(rest) = request.strip_prefix("import_page\n") {
        let (name, text) = rest.split_once('\n').unwrap_or((rest, ""));
        return Some(import_for_page(session, name, text));
    }
    // A log for the session to read and keep (`log_read`, its text): its engine, the verdict
    // and the status line.
    if let Some(text) = request
        .strip_prefix(LOG_READ)
        .and_then(|r| r.strip_prefix('\n'))
    {
        let answer = session.answer(&kvbudget_core::handoff::log_request(text));
        return Some(match read_text(&answer) {
            Ok(st) => {
                let st = read_status(&st);
                ok_answer(&format!(
                    "{}\n{}\n{}",
                    one_line(&st.kind),
                    one_line(&st.verdict),
                    one_line(&st.message)
                ))
            }
            Err(e) => err_answer(&e),
        });
    }
    let mut lines = request.split('\n');
    let job = lines.next()?;
    let mut next = || lines.next().unwrap_or_default();
    let answer = match job {
        "plan" | "fixes" | "gpus" => evaluated(next()).map(|(s, o)| {
            ok_answer(&match job {
                "plan" => plan_html(&s, &o).unwrap_or_default(),
                "fixes" => fixes_html(&fixes(&s, &o)),
                _ => gpu_table_html(&s, &o),
            })
        }),
        "plan_apply" | "fix_apply" => {
            let which = next().to_string();
            let shown = evaluated(next());
            let mut target = decode(next()).0;
            shown.map(|(s, o)| {
                if job == "plan_apply" {
                    apply_plan(&mut target, &s, &o, &which);
                } else if let Some(f) = which
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| fixes(&s, &o).get(i).cloned())
                {
                    f.change.apply(&mut target);
                }
                ok_answer(&encode(&target))
            })
        }
        // The log check's panel for a scenario, from the log the session keeps: the verdict,
        // the status line (in the request's language) and the comparison.
        "log_panel" => {
            let query = next();
            let status = session.answer(&log_question("log_status", ""));
            read_text(&status)
                .and_then(|st| {
                    let st = read_status(&st);
                    let compare = if st.kind == "none" {
                        String::new()
                    } else {
                        let view = session.answer(&log_question("log_view", query));
                        log_compare_html(&st.kind, Some(&read_view(&read_text(&view)?)))
                    };
                    Ok(ok_answer(&format!(
                        "{}\n{}\n{compare}",
                        one_line(&st.verdict),
                        one_line(&st.message)
                    )))
                })
                .map_err(|e| err_answer(&e))
        }
        // SGLang's figures with the results' SGLang panel (`SglangView::panel`).
        "sglang" => {
            let (s, _) = decode(next());
            let mut v = sglang_view(&s);
            if !v.stats.is_empty() {
                v.panel = super::sglang_panel_html(&s, &v);
            }
            Ok(ok_answer(&write_view(&v)))
        }
        _ => return None,
    };
    Some(answer.unwrap_or_else(|e| e))
}
