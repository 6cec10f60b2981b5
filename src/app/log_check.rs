//! Check the scenario against a vLLM startup log: side by side, "use these numbers", and the
//! course lab's kv_report.json to download.

use super::drop_panel::DropPanel;
use super::{browser, State};
use kvbudget_core::handoff::log::{read_status, read_view, LogView};
use kvbudget_core::handoff::{self, log_question, log_request, read_scenario, read_text};
use kvbudget_core::query::{self, encode};
use leptos::prelude::*;

/// The largest log read (real startup logs are well under a megabyte).
const MAX_LOG_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// The log panel. The worker reads the log (off the main thread, outside the first load) and
/// keeps it; the page asks it for the comparison whenever the shown scenario changes.
#[component]
pub fn LogCheck(state: State) -> impl IntoView {
    let State {
        scenario, shown, ..
    } = state;
    // Which engine's log the worker holds (`vllm`, `sglang`, or `none`), and its verdict.
    let kind = RwSignal::new(String::from("none"));
    let verdict = RwSignal::new(String::from("no-kv-line"));
    // Counts the logs read, so a new log asks for a new comparison.
    let reads = RwSignal::new(0u32);
    let message = RwSignal::new(String::new());
    let adopted = RwSignal::new(Vec::<String>::new());
    let got = RwSignal::new(None::<LogView>);
    // The log as read, for the kv_report.json the worker writes.
    let log_text = RwSignal::new(None::<String>);
    let on_reading = Callback::new(move |name: String| message.set(format!("Reading {name}…")));
    let on_text = Callback::new(move |text: Result<String, String>| match text {
        Ok(text) => {
            message.set("Reading the log…".into());
            log_text.set(Some(text.clone()));
            leptos::task::spawn_local(async move {
                match browser::ask_worker(log_request(&text))
                    .await
                    .and_then(|a| read_text(&a))
                {
                    Ok(answer) => {
                        let status = read_status(&answer);
                        got.set(None);
                        kind.set(status.kind);
                        verdict.set(status.verdict);
                        message.set(status.message);
                        reads.update(|n| *n += 1);
                    }
                    Err(e) => message.set(e),
                }
            });
        }
        Err(e) => message.set(format!("{e}; trim it to the startup part (64 MiB at most)")),
    });
    // The shown scenario's query while a log is held.
    let query = Memo::new(move |_| {
        reads.track();
        (kind.get() != "none")
            .then(|| shown.with(|x| x.as_ref().map(|x| encode(&x.s))))
            .flatten()
    });
    Effect::new(move |_| {
        let Some(q) = query.get() else { return };
        leptos::task::spawn_local(async move {
            let answer = browser::ask_worker(log_question("log_view", &q))
                .await
                .and_then(|a| read_text(&a));
            if query.get_untracked().as_deref() == Some(q.as_str()) {
                if let Ok(text) = answer {
                    let mut v = read_view(&text);
                    v.query = q;
                    got.set(Some(v));
                }
            }
        });
    });
    // The latest comparison. While the worker computes the one for a newer scenario it stays,
    // dimmed and marked busy, rather than the table vanishing and coming back on every edit.
    let view_now = Memo::new(move |_| got.get());
    let busy = move || {
        let q = query.get();
        got.with(|v| v.as_ref().map(|v| Some(&v.query) != q.as_ref()))
            .unwrap_or(false)
    };
    // Asks the worker for the scenario with the log's numbers (`log_adopt`) or settings
    // (`log_align`), and applies it.
    let change = move |job: &'static str| {
        let q = scenario.with_untracked(encode);
        leptos::task::spawn_local(async move {
            match browser::ask_worker(log_question(job, &q))
                .await
                .and_then(|a| read_scenario(&a))
            {
                Ok((s, notes)) => {
                    scenario.set(s);
                    adopted.set(if job == "log_align" {
                        vec!["Aligned the version, utilization, max_model_len, KV dtype, parallelism and model to the log; the memory is still the scenario's own estimate.".into()]
                    } else {
                        notes
                    });
                }
                Err(e) => message.set(e),
            }
        });
    };
    let is = move |k: &str| kind.with(|x| x == k);
    let sg_table = move || {
        let v = view_now.get().filter(|_| is("sglang"))?;
        Some(view! {
            <div class="table-wrap" class:stale=busy aria-busy=move || busy().to_string()>
                <table class="rep compare" data-testid="log-compare">
                    <caption>"This scenario under SGLang beside the log"</caption>
                    <thead><tr><th scope="col">""</th><th scope="col">"scenario (SGLang)"</th><th scope="col">"log"</th></tr></thead>
                    <tbody>
                        {v.rows.into_iter().map(|r| { let row = r.what.clone(); view! {
                            <tr data-row=row><th scope="row">{r.what}</th><td class="num" data-label="scenario">{r.predicted}</td><td class="num" data-label="log">{r.printed}</td></tr>
                        }}).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="actions">
                <button type="button" data-testid="log-adopt-sglang" on:click=move |_| change("log_adopt")>"Use these numbers"</button>
            </div>
        })
    };
    let differ = move || {
        let m = view_now.get().filter(|_| is("vllm"))?.mismatches;
        (!m.is_empty()).then(|| {
            view! {
                <div class="mismatch" data-testid="log-mismatch">
                    <p>"The scenario and the log differ in:"</p>
                    <ul>{m.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                    <button type="button" data-testid="log-align" on:click=move |_| change("log_align")>"Align to log"</button>
                </div>
            }
        })
    };
    let table = move || {
        let v = view_now.get().filter(|_| is("vllm"))?;
        Some(view! {
            <div class="table-wrap" class:stale=busy aria-busy=move || busy().to_string()>
                <table class="rep compare" data-testid="log-compare">
                    <caption>"This scenario beside the log (differences: log − scenario)"</caption>
                    <thead><tr>
                        <th scope="col">""</th><th scope="col">"scenario"</th><th scope="col">"log"</th>
                        <th scope="col">"difference"</th><th scope="col">"what explains it"</th>
                    </tr></thead>
                    <tbody>
                        {v.rows.into_iter().map(|r| view! {
                            <tr data-row=r.key data-diff=r.difference>
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
        })
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
            <p role="status" data-testid="log-status" data-value=move || verdict.get()>{move || message.get()}</p>
            {differ}
            {table}
            {sg_table}
            <Show when=move || is("vllm")>
                <div class="actions">
                    <button type="button" data-testid="log-adopt" on:click=move |_| change("log_adopt")>"Use these numbers"</button>
                    <button type="button" data-testid="log-download" on:click=download>"Download kv_report.json"</button>
                </div>
            </Show>
            <ul class="hint" data-testid="log-adopted">{move || adopted.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
        </DropPanel>
    }
}
