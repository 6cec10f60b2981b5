//! Embedding in a course page: the embedded views (a compact card, or one chart), which post their
//! height to the embedding page, and the embed builder (mode, theme, live preview, snippet). Their
//! markup is the page's (`page::embed_html`, `page::page_html`).

use super::parts::{shown_while, Ui};
use super::{browser, dom, views, State};
use crate::page;
use crate::view::{Card, EmbedHead};
use kvbudget_core::query::encode;
use kvbudget_core::scenario::{Embed, Engine, Theme};
use kvbudget_core::t;
use leptos::prelude::*;

/// Posts the height of the page's content to the embedding page whenever it changes size
/// (growing or shrinking: a chart drawn, the frame made narrower or wider).
pub fn post_height() {
    // (Not a reactive value: the observer outlives the drawing that made it.)
    let last = std::cell::Cell::new(0u32);
    browser::on_size_change("main.embed", move || {
        let h = browser::content_height();
        if h > 0 && h != last.replace(h) {
            browser::post_to_parent(&page::height_message(h));
        }
    });
}

/// The embedded view's components: a headline with a link to the full page, then the card
/// (`embed=1`); the charts are `figures::parts`.
pub fn mount_view(state: State) {
    let scenario = state.scenario;
    let full =
        Memo::new(move |_| browser::url_for(&scenario.with(|s| encode(&page::full_page(s)))));
    let headline = Memo::new(move |_| {
        let _ = state.lang.get();
        state
            .shown
            .with(|x| {
                let x = x.as_ref()?;
                Some(match x.s.engine {
                    Engine::Sglang => state.sglang_now.with(|sg| {
                        page::engine_answer(&x.s, &x.o, sg.as_ref().map(|v| &v.engine)).0
                    }),
                    Engine::Vllm => page::embed_headline(&x.s, &x.o),
                })
            })
            .unwrap_or_default()
    });
    views::mount(
        "p-embed-head",
        move || view! { <EmbedHead headline full /> },
    );
    if scenario.with_untracked(|s| s.embed) == Embed::Compact {
        let card = Memo::new(move |_| {
            let _ = state.lang.get();
            state.shown.with(|x| {
                let x = x.as_ref()?;
                state.sglang_now.with(|sg| {
                    let now = (x.s.engine == Engine::Sglang)
                        .then(|| (sg.as_ref().map(|v| &v.engine), true));
                    Some(page::card_view(&x.s, &x.o, now))
                })
            })
        });
        views::mount("p-card", move || view! { <Card card /> });
    }
}

/// The embed builder: shown while open; its snippet and preview follow the scenario, the view
/// and the theme (the preview's frame exists only while the builder is open).
pub fn builder_parts(state: State, ui: Ui) {
    shown_while("embed-box", Box::new(move || ui.embed_open.get()));
    let scenario = state.scenario;
    Effect::new_sync(move |prev: Option<String>| {
        if !ui.embed_open.get() {
            // (The preview's frame goes with the builder.)
            if prev.as_ref().is_some_and(|p| !p.is_empty()) {
                dom::patch_html("embed-preview", "");
            }
            return String::new();
        }
        let (mode, theme) = ui.embed.get();
        let url = browser::url_for(&scenario.with(|s| encode(&page::embedded(s, mode, theme))));
        if prev.as_deref() != Some(url.as_str()) {
            dom::set_control_value("embed-code", &page::embed_snippet(&url, mode));
            dom::patch_html("embed-preview", &page::embed_preview_html(&url));
        }
        url
    });
}

/// The builder's pickers. Returns whether the control was theirs.
pub fn change(ui: Ui, id: &str, value: &str) -> bool {
    match id {
        "embed-mode" => ui
            .embed
            .update(|e| e.0 = Embed::parse(value).unwrap_or(Embed::Compact)),
        "embed-theme" => ui
            .embed
            .update(|e| e.1 = Theme::parse(value).unwrap_or(Theme::Light)),
        _ => return false,
    }
    true
}

/// The builder's copy button (`data-action`). Returns whether the action was its.
pub fn action(ui: Ui, action: &str) -> bool {
    if action != "copy-snippet" {
        return false;
    }
    let snippet = dom::control_value("embed-code");
    browser::copy_reporting(t!(RS_SNIPPET), snippet, ui.copied);
    true
}
