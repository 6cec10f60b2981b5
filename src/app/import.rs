//! Bring your own model: a config.json pasted, dropped, chosen or fetched from the Hugging Face
//! Hub becomes the scenario's custom model (its geometry goes into the URL, not the JSON).

use super::browser::{self, FetchFailure};
use super::dom;
use super::drop_panel::DropPanel;
use super::Scn;
use crate::page;
use kvbudget_core::config::{matching_preset, unnamed, MAX_CONFIG_BYTES};
use kvbudget_core::handoff;
use kvbudget_core::presets::ModelPreset;
use kvbudget_core::scenario::ModelChoice;
use kvbudget_core::t;
use leptos::prelude::*;

/// What the last import attempt said.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Busy(String),
    Done(String, Vec<String>, Option<&'static ModelPreset>),
    Failed(String),
}

/// What the last import attempt said, as HTML text.
fn status_html(status: &Status) -> String {
    let esc = page::html_escape;
    match status {
        Status::Idle => format!(r#"<p class="hint">{}</p>"#, esc(t!(IM_IDLE))),
        Status::Busy(t) => format!(r#"<p class="hint">{}</p>"#, esc(t)),
        Status::Failed(t) => format!(r#"<p class="field__msg">{}</p>"#, esc(t)),
        Status::Done(t, notes, preset) => {
            let mut out = format!(r#"<div class="import-ok"><p>{}</p>"#, esc(t));
            if let Some(p) = preset {
                out += &format!(
                    r#"<p>{}<button type="button" class="linkish" data-testid="config-use-preset" data-use-preset="1">{}</button></p>"#,
                    esc(&t!(im_same_preset(p.id()))),
                    esc(t!(IM_USE_PRESET))
                );
            }
            out + r#"<ul class="hint">"# + &page::list_items_html(notes) + "</ul></div>"
        }
    }
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
        Err(FetchFailure::Offline) => failed(t!(IM_OFFLINE).into()),
        Err(FetchFailure::Blocked) => failed(t!(IM_BLOCKED).into()),
        Ok((200, Some(t))) => apply(scenario, status, t, id).await,
        Ok((200, None)) => failed(t!(IM_NOT_TEXT).into()),
        Ok((404, _)) => failed(t!(im_404(&id))),
        Ok((code @ (401 | 403), _)) => failed(t!(im_gated(&id, code))),
        Ok((code, _)) => failed(t!(im_http(code, &id))),
    }
}

/// Paste, drop, choose or fetch a config.json.
#[component]
pub fn ImportConfig(scenario: Scn) -> impl IntoView {
    let status = RwSignal::new(Status::Idle);
    let on_reading =
        Callback::new(move |name: String| status.set(Status::Busy(t!(lc_reading(&name)))));
    let on_text = Callback::new(move |text: Result<String, String>| match text {
        Ok(text) => {
            status.set(Status::Busy(t!(IM_READING_CONFIG).into()));
            leptos::task::spawn_local(apply(scenario, status, text, unnamed().to_string()));
        }
        Err(e) => status.set(Status::Failed(t!(im_too_big(&e)))),
    });
    let on_fetch = move || {
        let id = dom::control_value("hf-id").trim().to_string();
        if !page::valid_hf_id(&id) {
            status.set(Status::Failed(t!(IM_BAD_ID).into()));
            return;
        }
        status.set(Status::Busy(t!(im_fetching(&id))));
        leptos::task::spawn_local(fetch_config(id, scenario, status));
    };
    // The status as HTML text; its one button (the preset with the same geometry) is handled by
    // the click handler below.
    let message = move || status.with(status_html);
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if browser::clicked_data(&ev, "button[data-use-preset]", "data-use-preset").is_some() {
            if let Status::Done(_, _, Some(p)) = status.get_untracked() {
                scenario.update(|s| s.set_model(ModelChoice::Preset(p)));
            }
        }
    };
    // The Hub id's field is HTML text (`page::hf_field_html`); its button is handled here.
    let on_field_click = move |ev: leptos::ev::MouseEvent| {
        if browser::clicked_data(&ev, "button[data-fetch]", "data-fetch").is_some() {
            on_fetch();
        }
    };
    view! {
        <DropPanel class="import" summary=t!(IM_SUMMARY)
            text_id="config-text" text_label=t!(IM_TEXT_LABEL) text_testid="config-text"
            button=(t!(IM_IMPORT), "config-import")
            file_id="config-file" accept=".json,application/json" max_bytes=MAX_CONFIG_BYTES as f64
            on_reading on_text>
            <div class="field" inner_html=page::hf_field_html() on:click=on_field_click></div>
            <div role="status" data-testid="import-status" inner_html=message on:click=on_click></div>
        </DropPanel>
    }
}
