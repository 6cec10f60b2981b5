//! Bring your own model: a config.json pasted, dropped, chosen or fetched from the Hugging Face
//! Hub becomes the scenario's custom model (its geometry goes into the URL, not the JSON).

use super::browser::{self, FetchFailure};
use super::drop_panel::DropPanel;
use super::Scn;
use crate::page;
use kvbudget_core::config::{matching_preset, MAX_CONFIG_BYTES, UNNAMED};
use kvbudget_core::handoff;
use kvbudget_core::presets::ModelPreset;
use kvbudget_core::scenario::ModelChoice;
use leptos::prelude::*;

/// What the last import attempt said.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Busy(String),
    Done(String, Vec<String>, Option<&'static ModelPreset>),
    Failed(String),
}

/// Reads a config.json in the page's worker (where the JSON parser lives), then adopts it.
async fn apply(scenario: Scn, status: RwSignal<Status>, text: String, name: String) {
    let answer = browser::ask_worker(handoff::import_request(&name, &text)).await;
    match answer.and_then(|a| handoff::read_import(&a)) {
        Ok(m) => {
            scenario.update(|s| page::adopt_import(s, &m));
            let preset = matching_preset(&m.spec);
            status.set(Status::Done(m.summary, m.notes, preset));
        }
        Err(e) => status.set(Status::Failed(e)),
    }
}

async fn fetch_config(id: String, scenario: Scn, status: RwSignal<Status>) {
    let url = format!("https://huggingface.co/{id}/resolve/main/config.json");
    let failed = |t: String| status.set(Status::Failed(t));
    match browser::fetch_text(&url).await {
        Err(FetchFailure::Offline) => failed(
            "The browser is offline: download config.json and drop it here instead.".into(),
        ),
        Err(FetchFailure::Blocked) => failed(
            "The request did not complete: the Hub is unreachable from here or the browser blocked it (CORS). Download config.json and drop it here instead.".into(),
        ),
        Ok((200, Some(t))) => apply(scenario, status, t, id).await,
        Ok((200, None)) => failed("the Hub's answer could not be read as text".into()),
        Ok((404, _)) => failed(format!(
            "{id} has no config.json on the Hugging Face Hub (404): check the id."
        )),
        Ok((code @ (401 | 403), _)) => failed(format!(
            "{id} is gated or private ({code}): accept its license on huggingface.co, download config.json and drop it here."
        )),
        Ok((code, _)) => failed(format!("the Hub answered HTTP {code} for {id}")),
    }
}

/// Paste, drop, choose or fetch a config.json.
#[component]
pub fn ImportConfig(scenario: Scn) -> impl IntoView {
    let status = RwSignal::new(Status::Idle);
    let hf_id = RwSignal::new(String::new());
    let on_reading =
        Callback::new(move |name: String| status.set(Status::Busy(format!("Reading {name}…"))));
    let on_text = Callback::new(move |text: Result<String, String>| match text {
        Ok(text) => {
            status.set(Status::Busy("Reading the config…".into()));
            leptos::task::spawn_local(apply(scenario, status, text, UNNAMED.to_string()));
        }
        Err(e) => status.set(Status::Failed(format!("{e}; a config.json is a few KB"))),
    });
    let on_fetch = move |_| {
        let id = hf_id.get_untracked().trim().to_string();
        if !page::valid_hf_id(&id) {
            status.set(Status::Failed(
                "a Hugging Face id looks like owner/name (letters, digits, . _ -)".into(),
            ));
            return;
        }
        status.set(Status::Busy(format!("Fetching {id}/config.json…")));
        leptos::task::spawn_local(fetch_config(id, scenario, status));
    };
    let message = move || {
        match status.get() {
        Status::Idle => view! { <p class="hint">"Paste the JSON, drop the file here, choose it, or fetch it by id."</p> }.into_any(),
        Status::Busy(t) => view! { <p class="hint">{t}</p> }.into_any(),
        Status::Done(t, notes, preset) => view! {
            <div class="import-ok">
                <p>{t}</p>
                {preset.map(|p| view! {
                    <p>"This is the preset "{p.id()}" (same geometry): "
                        <button type="button" class="linkish" data-testid="config-use-preset"
                            on:click=move |_| scenario.update(|s| s.set_model(ModelChoice::Preset(p)))>
                            "use the preset, with the weights vLLM logs"
                        </button>
                    </p>
                })}
                <ul class="hint">{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Status::Failed(t) => view! { <p class="field__msg">{t}</p> }.into_any(),
    }
    };
    view! {
        <DropPanel class="import" summary="Import a config.json"
            text_id="config-text" text_label="config.json (paste or drop)" text_testid="config-text"
            button=("Import pasted JSON", "config-import")
            file_id="config-file" accept=".json,application/json" max_bytes=MAX_CONFIG_BYTES as f64
            on_reading on_text>
            <div class="field">
                <label for="hf-id">"or a Hugging Face id"</label>
                <input id="hf-id" type="text" placeholder="Qwen/Qwen3-8B" autocomplete="off" spellcheck="false"
                    prop:value=move || hf_id.get() on:input=move |ev| hf_id.set(event_target_value(&ev))/>
                <button type="button" data-testid="config-fetch" on:click=on_fetch>"Fetch config.json"</button>
            </div>
            <div role="status" data-testid="import-status">{message}</div>
        </DropPanel>
    }
}
