//! Check the scenario against a vLLM startup log: side by side, "use these numbers", and the
//! course lab's kv_report.json to download.

use super::drop_panel::DropPanel;
use super::{browser, State};
use crate::page;
use kvbudget_core::engines::adopt_sglang_log;
use kvbudget_core::sglang::{self, logparse::ParsedLog as SgLog};
use kvbudget_core::verify::{adopt, align, compare, mismatches, Verdict};
use kvbudget_core::vllm::logparse::{self, ParsedLog};
use kvbudget_core::{handoff, query};
use leptos::prelude::*;

/// The largest log read (real startup logs are well under a megabyte).
const MAX_LOG_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// Parses a log in chunks of lines, yielding between them, so a long log never freezes the page.
async fn parse_in_chunks(text: String) -> ParsedLog {
    let mut p = ParsedLog::default();
    for (i, line) in text.lines().enumerate() {
        logparse::scan_line(line, &mut p);
        if i % 4000 == 3999 {
            browser::yield_now().await;
        }
    }
    p
}

/// An SGLang log, read at once (its startup part is short).
fn load_sglang(
    text: &str,
    sg: RwSignal<Option<SgLog>>,
    verdict: RwSignal<&'static str>,
    message: RwSignal<String>,
) {
    let p = sglang::logparse::parse(text);
    let (key, status) = page::sglang_log_status(&p);
    verdict.set(key);
    message.set(status);
    sg.set((key != "no-kv-line").then_some(p));
}

fn load(text: String, parsed: RwSignal<Option<ParsedLog>>, message: RwSignal<String>) {
    message.set("Reading the log…".into());
    leptos::task::spawn_local(async move {
        let p = parse_in_chunks(text).await;
        message.set(page::log_status(&p));
        parsed.set((p.kv.is_some() || p.error.is_some()).then_some(p));
    });
}

/// The log panel.
#[component]
pub fn LogCheck(state: State) -> impl IntoView {
    let State {
        scenario, shown, ..
    } = state;
    let parsed = RwSignal::new(None::<ParsedLog>);
    let message = RwSignal::new(String::new());
    let adopted = RwSignal::new(Vec::<String>::new());
    let on_reading = Callback::new(move |name: String| message.set(format!("Reading {name}…")));
    let sg = RwSignal::new(None::<SgLog>);
    // The log as read, for the kv_report.json the worker writes.
    let log_text = RwSignal::new(None::<String>);
    let sg_verdict = RwSignal::new("no-kv-line");
    let on_text = Callback::new(move |text: Result<String, String>| match text {
        Ok(text) if sglang::logparse::is_sglang(&text) => {
            parsed.set(None);
            load_sglang(&text, sg, sg_verdict, message);
        }
        Ok(text) => {
            sg.set(None);
            log_text.set(Some(text.clone()));
            load(text, parsed, message)
        }
        Err(e) => message.set(format!("{e}; trim it to the startup part (64 MiB at most)")),
    });
    let rows = move || {
        let log = parsed.get()?;
        shown.with(|x| x.as_ref().map(|x| compare(&x.s, &x.o, &log)))
    };
    let verdict = move || {
        if sg.with(|x| x.is_some()) {
            return sg_verdict.get();
        }
        parsed.with(|p| {
            p.as_ref()
                .map(|p| Verdict::of(p).key())
                .unwrap_or("no-kv-line")
        })
    };
    let sg_table = move || {
        let log = sg.get()?;
        let rows = scenario.with(|s| page::sglang_compare(s, &log));
        Some(view! {
            <div class="table-wrap">
                <table class="rep compare" data-testid="log-compare">
                    <caption>"This scenario under SGLang beside the log"</caption>
                    <thead><tr><th scope="col">""</th><th scope="col">"scenario (SGLang)"</th><th scope="col">"log"</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(what, ours, theirs)| view! {
                            <tr data-row=what><th scope="row">{what}</th><td class="num" data-label="scenario">{ours}</td><td class="num" data-label="log">{theirs}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="actions">
                <button type="button" data-testid="log-adopt-sglang" on:click=move |_| {
                    if let Some(log) = sg.get_untracked() {
                        let (s, notes) = adopt_sglang_log(&scenario.get_untracked(), &log);
                        scenario.set(s);
                        let mut lines = vec!["Adopted the SGLang log's numbers:".to_string()];
                        lines.extend(notes);
                        adopted.set(lines);
                    }
                }>"Use these numbers"</button>
            </div>
        })
    };
    let differ = move || {
        let log = parsed.get()?;
        let m = scenario.with(|s| mismatches(s, &log));
        (!m.is_empty()).then(|| {
            view! {
                <div class="mismatch" data-testid="log-mismatch">
                    <p>"The scenario and the log differ in:"</p>
                    <ul>{m.into_iter().map(|m| view! { <li>{format!("{}: {} here, {} in the log", m.what, m.scenario, m.log)}</li> }).collect_view()}</ul>
                    <button type="button" data-testid="log-align" on:click=move |_| {
                        if let Some(log) = parsed.get_untracked() {
                            scenario.update(|s| *s = align(s, &log));
                            adopted.set(vec!["Aligned the version, utilization, max_model_len, KV dtype, parallelism and model to the log; the memory is still the scenario's own estimate.".into()]);
                        }
                    }>"Align to log"</button>
                </div>
            }
        })
    };
    let table = move || {
        rows().map(|rows| {
            view! {
                <div class="table-wrap">
                    <table class="rep compare" data-testid="log-compare">
                        <caption>"This scenario beside the log (differences: log − scenario)"</caption>
                        <thead><tr>
                            <th scope="col">""</th><th scope="col">"scenario"</th><th scope="col">"log"</th>
                            <th scope="col">"difference"</th><th scope="col">"what explains it"</th>
                        </tr></thead>
                        <tbody>
                            {rows.into_iter().map(|r| view! {
                                <tr data-row=r.key data-diff=r.difference.map(|d| d.to_string()).unwrap_or_default()>
                                    <th scope="row">{r.what}</th>
                                    <td class="num" data-label="scenario">{r.predicted}</td>
                                    <td class="num" data-label="log">{r.printed}</td>
                                    <td class="num" data-label="difference">{r.difference_text}</td>
                                    <td data-label="why">{r.why}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        })
    };
    let use_numbers = move |_| {
        if let Some(log) = parsed.get_untracked() {
            let (s, notes) = adopt(&scenario.get_untracked(), &log);
            scenario.set(s);
            let mut lines = vec!["Adopted the log's numbers:".to_string()];
            lines.extend(notes);
            adopted.set(lines);
        }
    };
    let download = move |_| {
        let (Some(log), Some(x)) = (log_text.get_untracked(), shown.get_untracked()) else {
            return;
        };
        // The JSON is written in the page's worker, where the JSON code lives.
        let request = handoff::kv_report_request(&query::encode(&x.s), &log);
        leptos::task::spawn_local(async move {
            match browser::ask_worker(request)
                .await
                .and_then(|a| handoff::read_text(&a))
            {
                Ok(text) => browser::download("kv_report.json", &text, "application/json"),
                Err(e) => message.set(e),
            }
        });
    };
    view! {
        <DropPanel class="verify" summary="Check against a vLLM log"
            text_id="log-text" text_label="serve.log (paste or drop; any vLLM version)" text_testid="log-text"
            button=("Compare", "log-read")
            file_id="log-file" accept=".log,.txt,text/plain" max_bytes=MAX_LOG_BYTES
            on_reading on_text>
            <p role="status" data-testid="log-status" data-value=verdict>{move || message.get()}</p>
            {differ}
            {table}
            {sg_table}
            <Show when=move || parsed.with(|p| p.is_some())>
                <div class="actions">
                    <button type="button" data-testid="log-adopt" on:click=use_numbers>"Use these numbers"</button>
                    <button type="button" data-testid="log-download" on:click=download>"Download kv_report.json"</button>
                </div>
            </Show>
            <ul class="hint" data-testid="log-adopted">{move || adopted.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
        </DropPanel>
    }
}
