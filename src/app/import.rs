//! Bring your own model: a config.json pasted, dropped, chosen or fetched from the Hugging Face
//! Hub becomes the scenario's custom model (its geometry goes into the URL, not the JSON). The
//! panel's markup is in the page's (`page::page_html`); its events come here.

use super::browser::{self, FetchFailure};
use super::parts::{part, Ui};
use super::{dom, Scn};
use crate::page;
use kvbudget_core::config::{matching_preset, unnamed};
use kvbudget_core::handoff;
use kvbudget_core::presets::ModelPreset;
use kvbudget_core::scenario::ModelChoice;
use kvbudget_core::t;
use leptos::prelude::*;

/// What the last import attempt said.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
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

/// The status line.
pub fn parts(ui: Ui) {
    part("import-status", Box::new(move || ui.import.with(status_html)));
}

/// Reading the file `name` started.
pub fn reading(ui: Ui, name: &str) {
    ui.import.set(Status::Busy(t!(lc_reading(name))));
}

/// The pasted or read text, or why a file could not be read: imported in the worker.
pub fn take(scenario: Scn, ui: Ui, text: Result<String, String>) {
    match text {
        Ok(text) => {
            ui.import.set(Status::Busy(t!(IM_READING_CONFIG).into()));
            leptos::task::spawn_local(apply(scenario, ui.import, text, unnamed().to_string()));
        }
        Err(e) => ui.import.set(Status::Failed(t!(im_too_big(&e)))),
    }
}

/// The panel's buttons: fetch by Hugging Face id, and use the preset of the same geometry.
/// Returns whether the click was theirs.
pub fn click(scenario: Scn, ui: Ui, ev: &leptos::ev::MouseEvent) -> bool {
    let status = ui.import;
    if browser::clicked_data(ev, "button[data-use-preset]", "data-use-preset").is_some() {
        if let Status::Done(_, _, Some(p)) = status.get_untracked() {
            scenario.update(|s| s.set_model(ModelChoice::Preset(p)));
        }
    } else if browser::clicked_data(ev, "button[data-fetch]", "data-fetch").is_some() {
        let id = dom::control_value("hf-id").trim().to_string();
        if !page::valid_hf_id(&id) {
            status.set(Status::Failed(t!(IM_BAD_ID).into()));
        } else {
            status.set(Status::Busy(t!(im_fetching(&id))));
            leptos::task::spawn_local(fetch_config(id, scenario, status));
        }
    } else {
        return false;
    }
    true
}
