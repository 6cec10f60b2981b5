//! Check the scenario against a vLLM startup log: side by side, "use these numbers", and the
//! course lab's kv_report.json to download. The panel's markup is in the page's
//! (`page::page_html`); its events come here.

use super::asks::Asked;
use super::parts::part;
use super::{browser, Shown, State};
use kvbudget_core::handoff::log::read_status;
use kvbudget_core::handoff::{self, log_question, log_request, read_scenario, read_text};
use kvbudget_core::i18n::Lang;
use kvbudget_core::query::{self, encode};
use kvbudget_core::t;
use leptos::prelude::*;

/// What the log panel keeps, made once with the page's state so that it outlives the panel
/// (which a change of language draws anew): the log the worker holds, the verdict and the
/// comparison for the scenario shown.
#[derive(Clone, Copy)]
pub struct LogState {
    /// Which engine's log the worker holds (`vllm`, `sglang`, or `none`).
    kind: RwSignal<String>,
    /// The verdict's key.
    verdict: RwSignal<String>,
    /// Counts the logs read, so a new log asks for a new comparison.
    reads: RwSignal<u32>,
    /// The status line, and the language it was written in.
    message: RwSignal<String>,
    message_lang: RwSignal<Lang>,
    /// What adopting or aligning changed.
    adopted: RwSignal<Vec<String>>,
    /// The log as read, given again to a worker that replaced a failed one.
    log_text: RwSignal<Option<String>>,
    /// The comparison with the shown scenario, as HTML text from the worker, while a log is held.
    compare: Asked,
}

impl LogState {
    /// The log panel's state, following the shown scenario and the language.
    pub fn new(shown: Memo<Option<Shown>>, lang: Memo<Lang>) -> Self {
        let kind = RwSignal::new(String::from("none"));
        let reads = RwSignal::new(0u32);
        // The request holds the count of logs read, so a log read again (or another one) asks
        // anew (the worker reads the kind and the query).
        let compare = Asked::new(
            lang,
            Box::new(move || {
                let n = reads.get();
                let k = kind.get();
                (k != "none")
                    .then(|| shown.with(|x| x.as_ref().map(|x| format!("log_html\n{k}\n{}\n{n}", encode(&x.s)))))
                    .flatten()
            }),
        );
        let log = LogState {
            kind,
            verdict: RwSignal::new(String::from("no-kv-line")),
            reads,
            message: RwSignal::new(String::new()),
            message_lang: RwSignal::new(Lang::En),
            adopted: RwSignal::new(Vec::new()),
            log_text: RwSignal::new(None),
            compare,
        };
        // A new worker (the last one failed) holds no log: it reads the log again.
        Effect::new(move |_| {
            if let Some(Err(e)) = compare.now() {
                if e == t!(HO_NO_LOG) {
                    if let Some(text) = log.log_text.get_untracked() {
                        log.read(text);
                    }
                } else {
                    log.message.set(e);
                }
            }
        });
        // The status line follows a change of language: the worker says it again for the kept
        // log (a new worker, which keeps none, reads the log again).
        Effect::new(move |_| {
            let l = lang.get();
            if log.message_lang.get_untracked() == l || log.log_text.with_untracked(Option::is_none)
            {
                return;
            }
            leptos::task::spawn_local(async move {
                match browser::ask_worker(log_question("log_status", ""))
                    .await
                    .and_then(|a| read_text(&a))
                {
                    Ok(answer) => {
                        log.message.set(read_status(&answer).message);
                        log.message_lang.set(l);
                    }
                    Err(_) => {
                        if let Some(text) = log.log_text.get_untracked() {
                            log.read(text);
                        }
                    }
                }
            });
        });
        log
    }

    /// Has the worker read `text` and keep it.
    pub fn read(self, text: String) {
        self.message.set(t!(LC_READING_LOG).into());
        self.log_text.set(Some(text.clone()));
        let lang = kvbudget_core::i18n::lang();
        leptos::task::spawn_local(async move {
            match browser::ask_worker(log_request(&text))
                .await
                .and_then(|a| read_text(&a))
            {
                Ok(answer) => {
                    let status = read_status(&answer);
                    self.compare.forget();
                    self.kind.set(status.kind);
                    self.verdict.set(status.verdict);
                    self.message.set(status.message);
                    self.message_lang.set(lang);
                    self.reads.update(|n| *n += 1);
                }
                Err(e) => self.message.set(e),
            }
        });
    }
}

/// The panel's status line, the comparison and what adopting changed. The worker reads the log
/// (off the main thread, outside the first load) and keeps it; the page asks it for the
/// comparison whenever the shown scenario changes.
pub fn parts(state: State) {
    let LogState {
        verdict,
        message,
        adopted,
        ..
    } = state.log;
    part(
        "p-log-status",
        Box::new(move || {
            let esc = crate::page::html_escape;
            format!(
                r#"<p role="status" data-testid="log-status" data-value="{}">{}</p>"#,
                verdict.with(|v| esc(v)),
                message.with(|m| esc(m))
            )
        }),
    );
    // The latest comparison. While the worker computes the one for a newer scenario it stays,
    // dimmed and marked busy, rather than the table vanishing and coming back on every edit.
    let compare = state.log.compare;
    part(
        "p-log-compare",
        Box::new(move || match compare.latest() {
            Some((Ok(html), true)) => html,
            Some((Ok(html), false)) => format!(r#"<div class="stale" aria-busy="true">{html}</div>"#),
            _ => String::new(),
        }),
    );
    part(
        "log-adopted",
        Box::new(move || adopted.with(|a| crate::page::list_items_html(a))),
    );
}

/// Reading the file `name` started.
pub fn reading(state: State, name: &str) {
    state.log.message.set(t!(lc_reading(name)));
}

/// The pasted or read log, or why a file could not be read.
pub fn take(state: State, text: Result<String, String>) {
    match text {
        Ok(text) => state.log.read(text),
        Err(e) => state.log.message.set(t!(lc_too_big(&e))),
    }
}

/// Asks the worker for the scenario with the log's numbers (`log_adopt`) or settings
/// (`log_align`), and applies it.
fn change(state: State, job: &'static str) {
    let scenario = state.scenario;
    let log = state.log;
    let q = scenario.with_untracked(encode);
    leptos::task::spawn_local(async move {
        match browser::ask_worker(log_question(job, &q))
            .await
            .and_then(|a| read_scenario(&a))
        {
            // Dropped if the scenario changed while the worker worked.
            Ok(_) if scenario.with_untracked(encode) != q => {}
            Ok((s, notes)) => {
                scenario.set(s);
                log.adopted.set(if job == "log_align" {
                    vec![t!(LC_ALIGNED).into()]
                } else {
                    notes
                });
            }
            Err(e) => log.message.set(e),
        }
    });
}

/// The course lab's kv_report.json, written in the worker from the log it keeps (and the JSON
/// code), offered as a download.
fn download(state: State) {
    let Some(x) = state.shown.get_untracked() else {
        return;
    };
    let message = state.log.message;
    let request = log_question("log_report", &query::encode(&x.s));
    leptos::task::spawn_local(async move {
        match browser::ask_worker(request)
            .await
            .and_then(|a| handoff::read_text(&a))
        {
            Ok(text) => browser::download("kv_report.json", &text, "application/json"),
            Err(e) => message.set(e),
        }
    });
}

/// The comparison's buttons. Returns whether the click was theirs.
pub fn click(state: State, ev: &leptos::ev::MouseEvent) -> bool {
    match browser::clicked_data(ev, "button[data-log-job]", "data-log-job").as_deref() {
        Some("log_report") => download(state),
        Some("log_align") => change(state, "log_align"),
        Some("log_adopt") => change(state, "log_adopt"),
        _ => return false,
    }
    true
}
