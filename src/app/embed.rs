//! Embedding in a course page: the embedded views (a compact card, or one chart), which post their
//! height to the embedding page, and the embed builder (mode, theme, live preview, snippet).

use super::figures::Figures;
use super::{browser, dom, Scn, State};
use crate::page;
use kvbudget_core::query::encode;
use kvbudget_core::scenario::{Embed, Theme};
use kvbudget_core::t;
use leptos::prelude::*;
use std::time::Duration;

/// Posts the page's height to the embedding page after each change and on resize.
fn post_height(state: State) {
    let last = StoredValue::new(0u32);
    let post = move || {
        set_timeout(
            move || {
                let h = browser::document_height();
                if h > 0 && h != last.get_value() {
                    last.set_value(h);
                    browser::post_to_parent(&page::height_message(h));
                }
            },
            Duration::from_millis(50),
        )
    };
    Effect::new(move |_| {
        state.charts.track();
        state.shown.track();
        post();
    });
    let handle = window_event_listener(leptos::ev::resize, move |_| post());
    on_cleanup(move || handle.remove());
}

/// The compact card: vLLM's lines (or its refusal) and the four figures (`page::card_html`).
#[component]
fn Card(state: State) -> impl IntoView {
    let html = move || {
        state.shown.with(|x| {
            x.as_ref()
                .map(|x| page::card_html(&x.s, &x.o))
                .unwrap_or_default()
        })
    };
    view! { <div class="part" inner_html=html></div> }
}

/// The embedded view: a headline with a link to the full page, then the card and the charts
/// (`embed=1`), or one chart.
#[component]
pub fn EmbedView(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let full = move || browser::url_for(&scenario.with(|s| encode(&page::full_page(s))));
    let embed = scenario.with_untracked(|s| s.embed);
    let headline = move || {
        state
            .shown
            .with(|x| x.as_ref().map(|x| page::embed_headline(&x.s, &x.o)))
    };
    post_height(state);
    view! {
        <main class="embed">
            <h1 class="embed__head">
                <span data-testid="embed-headline">{headline}</span>
                " "
                <a href=full target="_blank" rel="noopener">{t!(EM_OPEN)}</a>
            </h1>
            {(embed == Embed::Compact).then(|| view! { <Card state/> })}
            <Figures state embed/>
        </main>
    }
}

/// The embed builder: mode and theme, a live preview, and the snippet with a copy button.
#[component]
pub fn EmbedBox(scenario: Scn, copied: RwSignal<String>) -> impl IntoView {
    let mode = RwSignal::new(Embed::Compact);
    let theme = RwSignal::new(Theme::Light);
    let url = move || {
        browser::url_for(&scenario.with(|s| encode(&page::embedded(s, mode.get(), theme.get()))))
    };
    let snippet = move || page::embed_snippet(&url(), mode.get());
    // The pickers are HTML text (`page::embed_pickers_html`); the box handles their events.
    let on_change = move |ev: leptos::ev::Event| match dom::target_id(&ev).as_deref() {
        Some("embed-mode") => {
            mode.set(Embed::parse(&event_target_value(&ev)).unwrap_or(Embed::Compact));
        }
        Some("embed-theme") => {
            theme.set(Theme::parse(&event_target_value(&ev)).unwrap_or(Theme::Light));
        }
        _ => {}
    };
    view! {
        <div class="embed-box" on:change=on_change>
            <div class="part" inner_html=page::embed_pickers_html()></div>
            <textarea id="embed-code" readonly rows="5" data-testid="embed-snippet" prop:value=snippet></textarea>
            <button type="button" on:click=move |_| browser::copy_reporting(t!(RS_SNIPPET), snippet(), copied)>{t!(EM_COPY_SNIPPET)}</button>
            <p class="hint">{t!(EM_PREVIEW)}</p>
            <iframe class="embed-preview" title=t!(EM_PREVIEW_TITLE) src=url></iframe>
        </div>
    }
}
