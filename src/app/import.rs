//! Bring your own model: a config.json pasted, dropped, chosen or fetched from the Hugging Face
//! Hub becomes the scenario's custom model (its geometry goes into the URL, not the JSON). The
//! panel's markup is in the page's (`page::page_html`); its events come here.

use super::browser;
use super::parts::{part, Ui};
use super::{dom, Scn};
use crate::page;
use kvbudget_core::config::unnamed;
use kvbudget_core::handoff::{Answer, Request};
use kvbudget_core::scenario::ModelChoice;
use kvbudget_core::t;
use leptos::prelude::*;

/// What the last import attempt said, as HTML text: a hint while idle or busy, a message when it
/// failed, the worker's summary when it was read.
pub fn hint_html(text: &str) -> String {
    format!(r#"<p class="hint">{}</p>"#, page::html_escape(text))
}

fn failed_html(text: &str) -> String {
    format!(r#"<p class="field__msg">{}</p>"#, page::html_escape(text))
}

/// Has the worker read a config.json (`request`: pasted or read, or fetched from the Hub by the
/// worker), then adopts it.
async fn apply(scenario: Scn, status: RwSignal<String>, request: Request) {
    match browser::ask_worker(request).await {
        Ok(Answer::Imported(m)) => {
            let mut s = scenario.get_untracked();
            let said = page::adopt_import_view(&mut s, &m);
            scenario.set(s);
            status.set(said);
        }
        Ok(_) => status.set(failed_html(t!(HO_UNREADABLE))),
        Err(e) => status.set(failed_html(&e)),
    }
}

/// The status line.
pub fn parts(ui: Ui) {
    part("import-status", Box::new(move || ui.import.get()));
}

/// Reading the file `name` started.
pub fn reading(ui: Ui, name: &str) {
    ui.import.set(hint_html(&t!(lc_reading(name))));
}

/// The pasted or read text, or why a file could not be read: imported in the worker.
pub fn take(scenario: Scn, ui: Ui, text: Result<String, String>) {
    match text {
        Ok(text) => {
            ui.import.set(hint_html(t!(IM_READING_CONFIG)));
            let request = Request::Import {
                name: unnamed().into(),
                text,
            };
            leptos::task::spawn_local(apply(scenario, ui.import, request));
        }
        Err(e) => ui.import.set(failed_html(&t!(im_too_big(&e)))),
    }
}

/// The panel's buttons: fetch by Hugging Face id, and use the preset of the same geometry.
/// Returns whether the click was theirs.
pub fn click(scenario: Scn, ui: Ui, ev: &leptos::ev::MouseEvent) -> bool {
    let status = ui.import;
    if let Some(id) = browser::clicked_data(ev, "button[data-use-preset]", "data-use-preset") {
        if let Some(p) = kvbudget_core::presets::model(&id) {
            scenario.update(|s| s.set_model(ModelChoice::Preset(p)));
        }
    } else if browser::clicked_data(ev, "button[data-fetch]", "data-fetch").is_some() {
        let id = dom::control_value("hf-id").trim().to_string();
        if !page::valid_hf_id(&id) {
            status.set(failed_html(t!(IM_BAD_ID)));
        } else {
            status.set(hint_html(&t!(im_fetching(&id))));
            leptos::task::spawn_local(apply(scenario, status, Request::ImportHub { id }));
        }
    } else {
        return false;
    }
    true
}
