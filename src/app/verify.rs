//! Check the scenario against a vLLM startup log: side by side, "use these numbers", and the
//! course lab's kv_report.json to download.

use super::{browser, Scn};
use kvbudget_core::calc::Outcome;
use kvbudget_core::logparse::{self, ParsedLog};
use kvbudget_core::report_json::kv_report;
use kvbudget_core::units::GIB;
use kvbudget_core::verify::{adopt, compare};
use kvbudget_core::{pyjson, seed};
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The largest log read (real startup logs are well under a megabyte).
const MAX_LOG_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// Lets the browser paint and handle input between chunks of a long log.
async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = leptos::prelude::window().set_timeout_with_callback(&resolve);
    });
    let _ = JsFuture::from(promise).await;
}

/// Parses a log in chunks of lines, yielding between them, so a long log never freezes the page.
async fn parse_in_chunks(text: String) -> ParsedLog {
    let mut p = ParsedLog::default();
    for (i, line) in text.lines().enumerate() {
        logparse::scan_line(line, &mut p);
        if i % 4000 == 3999 {
            yield_to_browser().await;
        }
    }
    p
}

fn load(text: &str, parsed: RwSignal<Option<ParsedLog>>, message: RwSignal<String>) {
    let text = text.to_string();
    message.set("Reading the log…".into());
    leptos::task::spawn_local(async move {
        let p = parse_in_chunks(text).await;
        show(p, parsed, message);
    });
}

fn show(p: ParsedLog, parsed: RwSignal<Option<ParsedLog>>, message: RwSignal<String>) {
    if p.kv.is_none() && p.error.is_none() {
        message.set(format!(
            "No KV cache figures in this log: looked for {}.",
            logparse::LOOKED_FOR
        ));
        parsed.set(None);
    } else {
        message.set(match (&p.version, &p.model) {
            (Some(v), Some(m)) => format!("vLLM {v}, {m}."),
            (Some(v), None) => format!("vLLM {v}."),
            _ => "Read.".into(),
        });
        parsed.set(Some(p));
    }
}

fn read_file(file: web_sys::File, parsed: RwSignal<Option<ParsedLog>>, message: RwSignal<String>) {
    message.set(format!("Reading {}…", file.name()));
    browser::read_text(file, MAX_LOG_BYTES, move |text| match text {
        Ok(text) => load(&text, parsed, message),
        Err(e) => message.set(format!("{e}; trim it to the startup part (64 MiB at most)")),
    });
}

/// The lab's report for the scenario's geometry and pool.
fn report_text(
    scenario: &kvbudget_core::query::PageScenario,
    o: &Outcome,
    log: &ParsedLog,
) -> Option<String> {
    let m = scenario.model.spec();
    let pred = seed::predict(
        m.layers as i64,
        m.kv_heads as i64,
        m.head_dim as i64,
        scenario.kv.bytes(m.dtype) as f64,
        o.chosen.pool.max(0) as f64 / GIB as f64,
        o.context as i64,
    )
    .ok()?;
    Some(
        pyjson::dumps(&kv_report(
            &pred,
            log,
            o.chosen.report.block_size,
            o.context,
        )) + "\n",
    )
}

/// The log panel.
#[component]
pub fn VerifyLog(scenario: Scn, shown: Memo<Option<Outcome>>) -> impl IntoView {
    let parsed = RwSignal::new(None::<ParsedLog>);
    let message = RwSignal::new(String::new());
    let adopted = RwSignal::new(Vec::<String>::new());
    let pasted = RwSignal::new(String::new());
    let on_file = move |ev: leptos::ev::Event| {
        if let Some(file) = browser::chosen_file(&ev) {
            read_file(file, parsed, message);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        if let Some(file) = browser::dropped_file(&ev) {
            read_file(file, parsed, message);
        }
    };
    let rows = move || {
        let log = parsed.get()?;
        let s = scenario.get();
        shown.with(|o| o.as_ref().map(|o| compare(&s, o, &log)))
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
            adopted.set(if notes.is_empty() {
                vec!["Adopted the log's numbers.".into()]
            } else {
                notes
            });
        }
    };
    let download = move |_| {
        let (Some(log), Some(o)) = (parsed.get_untracked(), shown.get_untracked()) else {
            return;
        };
        if let Some(text) = report_text(&scenario.get_untracked(), &o, &log) {
            browser::download("kv_report.json", &text, "application/json");
        }
    };
    view! {
        <details class="verify" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <summary>"Check against a vLLM log"</summary>
            <div class="field">
                <label for="log-text">"serve.log (paste or drop; any vLLM version)"</label>
                <textarea id="log-text" rows="4" spellcheck="false" data-testid="log-text"
                    prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
                <button type="button" data-testid="log-read" on:click=move |_| load(&pasted.get_untracked(), parsed, message)>"Compare"</button>
            </div>
            <div class="field">
                <label for="log-file">"or choose the file"</label>
                <input id="log-file" type="file" accept=".log,.txt,text/plain" on:change=on_file/>
            </div>
            <p role="status" data-testid="log-status">{move || message.get()}</p>
            {table}
            <Show when=move || parsed.with(|p| p.is_some())>
                <div class="actions">
                    <button type="button" data-testid="log-adopt" on:click=use_numbers>"Use these numbers"</button>
                    <button type="button" data-testid="log-download" on:click=download>"Download kv_report.json"</button>
                </div>
            </Show>
            <ul class="hint" data-testid="log-adopted">{move || adopted.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
        </details>
    }
}
