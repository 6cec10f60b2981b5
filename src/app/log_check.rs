//! Check the scenario against a vLLM startup log: side by side, "use these numbers", and the
//! course lab's kv_report.json to download. The panel's markup is in the page's
//! (`page::page_html`); its events come here.

use super::asks::{apply, Asked};
use super::parts::part;
use super::{browser, Shown, State};
use kvbudget_core::handoff::{Answer, LogStatus, Request};
use kvbudget_core::i18n::Lang;
use kvbudget_core::query::encode;
use kvbudget_core::t;
use leptos::prelude::*;

/// The log read last, given again to a worker that replaced a failed one: the text pasted, or
/// the file dropped or chosen.
#[derive(Clone)]
enum Source {
    Text(String),
    File(web_sys::File),
}

thread_local! {
    static KEPT: std::cell::RefCell<Option<Source>> = const { std::cell::RefCell::new(None) };
}

/// What the log panel keeps, made once with the page's state so that it outlives the panel
/// (which a change of language draws anew): the panel's status line and
/// comparison with the shown scenario, which the worker (holding the log) writes.
#[derive(Clone, Copy)]
pub struct LogState {
    /// Counts the logs the worker read, so a new log asks for a new panel (0: it holds none).
    reads: RwSignal<u32>,
    /// The status line besides the panel's: while a log is read, what the worker said of a log
    /// it keeps nothing of, or why a log could not be read (`None`: nothing).
    pending: RwSignal<Option<LogStatus>>,
    /// What adopting or aligning changed (or why it could not).
    adopted: RwSignal<Vec<String>>,
    /// The panel for the shown scenario (`Answer::LogPanel`), while a log is held.
    panel: Asked,
}

impl LogState {
    /// The log panel's state, following the shown scenario and the language.
    pub fn new(shown: Memo<Option<Shown>>, lang: Memo<Lang>) -> Self {
        let reads = RwSignal::new(0u32);
        // The request holds the count of logs read, so a log read again (or another one) asks
        // anew.
        let panel = Asked::new(
            lang,
            Box::new(move || {
                let n = reads.get();
                (n > 0)
                    .then(|| {
                        shown.with(|x| {
                            x.as_ref().map(|x| Request::LogPanel {
                                query: encode(&x.s),
                                reads: n,
                            })
                        })
                    })
                    .flatten()
            }),
        );
        let log = LogState {
            reads,
            pending: RwSignal::new(None),
            adopted: RwSignal::new(Vec::new()),
            panel,
        };
        // A new worker (the last one failed) holds no log: it reads the log again.
        Effect::new_sync(move |_| {
            if let Some(Err(e)) = panel.now() {
                if e == t!(HO_NO_LOG) {
                    match KEPT.with(|k| k.borrow().clone()) {
                        Some(Source::Text(text)) => log.read(text),
                        Some(Source::File(file)) => log.read_file(file),
                        None => {}
                    }
                }
            }
        });
        log
    }

    /// Has the worker read `text` and keep it (a log without KV figures is not kept: what the
    /// worker said of it stays the status line).
    pub fn read(self, text: String) {
        KEPT.with(|k| *k.borrow_mut() = Some(Source::Text(text.clone())));
        self.ask(
            t!(LC_READING_LOG),
            browser::ask_worker(Request::ReadLog { text }),
        );
    }

    /// Has the worker read the log in `file` (it reads the file itself, off the page's thread).
    pub fn read_file(self, file: web_sys::File) {
        KEPT.with(|k| *k.borrow_mut() = Some(Source::File(file.clone())));
        let reading = t!(lc_reading(&file.name()));
        self.ask(&reading, browser::ask_worker_reading(file));
    }

    /// Says `reading` while the worker reads a log.
    fn ask(
        self,
        reading: &str,
        answer: impl std::future::Future<Output = Result<Answer, String>> + 'static,
    ) {
        self.say(reading);
        self.panel.forget();
        leptos::task::spawn_local(async move {
            match answer.await {
                Ok(Answer::LogRead(status)) => {
                    let none = status.kind == "none";
                    self.pending.set(Some(status));
                    // (None held: nothing to compare.)
                    if none {
                        self.reads.set(0);
                    } else {
                        self.reads.update(|n| *n += 1);
                    }
                }
                Ok(_) => self.say(t!(HO_UNREADABLE)),
                Err(e) => self.say(&e),
            }
        });
    }

    /// Says `message` in the status line (no verdict).
    fn say(self, message: &str) {
        self.pending.set(Some(LogStatus {
            message: message.into(),
            ..LogStatus::default()
        }));
    }
}

/// The panel's status line, the comparison and what adopting changed. The worker reads the log
/// (off the main thread, outside the first load) and keeps it; the page asks it for the panel
/// whenever the shown scenario or the language changes.
pub fn parts(state: State) {
    let LogState {
        pending,
        adopted,
        panel,
        ..
    } = state.log;
    // (The worker's panel: the kept log's status, then the comparison.)
    let status_line = move || -> (String, String) {
        let of = |st: &LogStatus| (st.verdict.clone(), st.message.clone());
        match panel.latest() {
            Some((Ok(Answer::LogPanel { status, .. }), true)) => of(&status),
            _ if pending.with(Option::is_some) => {
                pending.with(|p| p.as_ref().map(of)).unwrap_or_default()
            }
            Some((Ok(Answer::LogPanel { status, .. }), false)) => of(&status),
            Some((Err(e), _)) => (String::new(), e),
            _ => (String::new(), String::new()),
        }
    };
    part(
        "p-log-status",
        Box::new(move || {
            let esc = crate::page::html_escape;
            let (verdict, message) = status_line();
            format!(
                r#"<p role="status" data-testid="log-status" data-value="{}">{}</p>"#,
                esc(&verdict),
                esc(&message)
            )
        }),
    );
    // The latest comparison. While the worker computes the one for a newer scenario it stays,
    // dimmed and marked busy, rather than the table vanishing and coming back on every edit.
    part(
        "p-log-compare",
        Box::new(move || match panel.latest() {
            Some((Ok(Answer::LogPanel { status, view }), current)) => {
                let html = crate::page::log_compare_html(&status.kind, view.as_ref());
                if current {
                    html
                } else {
                    crate::page::dimmed(&html)
                }
            }
            _ => String::new(),
        }),
    );
    part(
        "log-adopted",
        Box::new(move || adopted.with(|a| crate::page::list_items_html(a))),
    );
}

/// A dropped or chosen log: read by the worker, unless it is over `max_bytes`.
pub fn take_file(state: State, file: web_sys::File, max_bytes: f64) {
    match browser::too_big(&file, max_bytes) {
        Some(e) => state.log.say(&t!(lc_too_big(&e))),
        None => state.log.read_file(file),
    }
}

/// The pasted or read log, or why a file could not be read.
pub fn take(state: State, text: Result<String, String>) {
    match text {
        Ok(text) => state.log.read(text),
        Err(e) => state.log.say(&t!(lc_too_big(&e))),
    }
}

/// Asks the worker for the scenario with the log's numbers (`log_adopt`) or settings
/// (`log_align`), and applies it.
fn change(state: State, job: &'static str) {
    let adopted = state.log.adopted;
    let query = state.scenario.with_untracked(encode);
    let request = if job == "log_align" {
        Request::LogAlign { query }
    } else {
        Request::LogAdopt { query }
    };
    apply(
        state.scenario,
        request,
        move |notes| {
            adopted.set(if job == "log_align" {
                vec![t!(LC_ALIGNED).into()]
            } else {
                notes
            })
        },
        move |e| adopted.set(vec![e]),
    );
}

/// The course lab's kv_report.json, written in the worker from the log it keeps (and the JSON
/// code), offered as a download.
fn download(state: State) {
    let Some(request) = state.shown.with_untracked(|x| {
        x.as_ref().map(|x| Request::LogReport {
            query: encode(&x.s),
        })
    }) else {
        return;
    };
    let adopted = state.log.adopted;
    leptos::task::spawn_local(async move {
        match browser::ask_worker(request).await {
            Ok(Answer::Report(text)) => {
                browser::download("kv_report.json", &text, "application/json")
            }
            Ok(_) => adopted.set(vec![t!(HO_UNREADABLE).into()]),
            Err(e) => adopted.set(vec![e]),
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
