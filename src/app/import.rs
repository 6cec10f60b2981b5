//! Bring your own model: a config.json pasted, dropped, chosen or fetched from the Hugging Face
//! Hub becomes the scenario's custom model (its geometry goes into the URL, not the JSON).

use super::Scn;
use kvbudget_core::config::{import, Imported};
use kvbudget_core::model::Attention;
use kvbudget_core::query::{CustomModel, ModelChoice};
use kvbudget_core::units::{fixed2, thousands};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// What the last import attempt said.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Busy(String),
    Done(String, Vec<String>),
    Failed(String),
}

fn describe(m: &Imported) -> String {
    let s = &m.spec;
    let attention = match s.attention {
        Attention::Full => format!("{} KV heads × {}", s.kv_heads, s.head_dim),
        Attention::SlidingWindow {
            window,
            sliding_layers,
        } => {
            format!(
                "{} KV heads × {}, window {} on {sliding_layers} layers",
                s.kv_heads,
                s.head_dim,
                thousands(window)
            )
        }
        Attention::Mla { latent } => format!("MLA latent {latent}"),
    };
    format!(
        "Imported {}: {} layers, {attention}; weights ≈ {} GiB ({}).",
        s.id,
        s.layers,
        fixed2(s.weights.as_gib()),
        m.weights.explain
    )
}

fn apply(scenario: Scn, status: RwSignal<Status>, text: &str, name: &str) {
    match import(text, name) {
        Ok(m) => {
            let default_len = m.default_max_model_len;
            scenario.update(|s| {
                s.model = ModelChoice::Custom(CustomModel::from_spec(&m.spec));
                if default_len > 0 && s.ctx > default_len {
                    s.ctx = default_len;
                }
            });
            status.set(Status::Done(describe(&m), m.notes));
        }
        Err(e) => status.set(Status::Failed(e.to_string())),
    }
}

/// Reads a chosen or dropped file and imports it.
fn read_file(file: web_sys::File, scenario: Scn, status: RwSignal<Status>) {
    status.set(Status::Busy(format!("Reading {}…", file.name())));
    super::browser::read_text(
        file,
        kvbudget_core::config::MAX_CONFIG_BYTES as f64,
        move |text| match text {
            Ok(text) => apply(scenario, status, &text, "imported model"),
            Err(e) => status.set(Status::Failed(format!("{e}; a config.json is a few KB"))),
        },
    );
}

/// A Hugging Face id: `owner/name` of letters, digits, `.`, `_` and `-`.
fn valid_id(id: &str) -> bool {
    let mut parts = id.split('/');
    let ok = |p: Option<&str>| {
        p.is_some_and(|p| {
            !p.is_empty()
                && p.len() <= 96
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        })
    };
    ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
}

async fn fetch_config(id: String, scenario: Scn, status: RwSignal<Status>) {
    let url = format!("https://huggingface.co/{id}/resolve/main/config.json");
    let window = leptos::prelude::window();
    let response = match JsFuture::from(window.fetch_with_str(&url)).await {
        Ok(r) => r.dyn_into::<web_sys::Response>().ok(),
        Err(_) => None,
    };
    let Some(response) = response else {
        let offline = !window.navigator().on_line();
        status.set(Status::Failed(if offline {
            "The browser is offline: download config.json and drop it here instead.".into()
        } else {
            "The request did not complete: the Hub is unreachable from here or the browser blocked it (CORS). Download config.json and drop it here instead.".into()
        }));
        return;
    };
    match response.status() {
        200 => {
            let text = match response.text() {
                Ok(p) => JsFuture::from(p).await.ok().and_then(|v| v.as_string()),
                Err(_) => None,
            };
            match text {
                Some(t) => apply(scenario, status, &t, &id),
                None => status.set(Status::Failed("the Hub's answer could not be read as text".into())),
            }
        }
        404 => status.set(Status::Failed(format!("{id} has no config.json on the Hugging Face Hub (404): check the id."))),
        401 | 403 => status.set(Status::Failed(format!(
            "{id} is gated or private ({}): accept its license on huggingface.co, download config.json and drop it here.",
            response.status()
        ))),
        code => status.set(Status::Failed(format!("the Hub answered HTTP {code} for {id}"))),
    }
}

/// Paste, drop, choose or fetch a config.json.
#[component]
pub fn ImportConfig(scenario: Scn) -> impl IntoView {
    let status = RwSignal::new(Status::Idle);
    let pasted = RwSignal::new(String::new());
    let hf_id = RwSignal::new(String::new());
    let on_file = move |ev: leptos::ev::Event| {
        if let Some(file) = super::browser::chosen_file(&ev) {
            read_file(file, scenario, status);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        if let Some(file) = super::browser::dropped_file(&ev) {
            read_file(file, scenario, status);
        }
    };
    let on_fetch = move |_| {
        let id = hf_id.get_untracked().trim().to_string();
        if !valid_id(&id) {
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
        Status::Done(t, notes) => view! {
            <div class="import-ok">
                <p>{t}</p>
                <ul class="hint">{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Status::Failed(t) => view! { <p class="field__msg">{t}</p> }.into_any(),
    }
    };
    view! {
        <details class="import" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <summary>"Import a config.json"</summary>
            <div class="field">
                <label for="config-text">"config.json (paste or drop)"</label>
                <textarea id="config-text" rows="4" spellcheck="false" data-testid="config-text"
                    prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
                <button type="button" data-testid="config-import"
                    on:click=move |_| apply(scenario, status, &pasted.get_untracked(), "imported model")>
                    "Import pasted JSON"
                </button>
            </div>
            <div class="field">
                <label for="config-file">"or choose the file"</label>
                <input id="config-file" type="file" accept=".json,application/json" on:change=on_file/>
            </div>
            <div class="field">
                <label for="hf-id">"or a Hugging Face id"</label>
                <input id="hf-id" type="text" placeholder="Qwen/Qwen3-8B" autocomplete="off" spellcheck="false"
                    prop:value=move || hf_id.get() on:input=move |ev| hf_id.set(event_target_value(&ev))/>
                <button type="button" data-testid="config-fetch" on:click=on_fetch>"Fetch config.json"</button>
            </div>
            <div role="status" data-testid="import-status">{message}</div>
        </details>
    }
}
