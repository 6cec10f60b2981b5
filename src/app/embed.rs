//! Embedding in a course page: the embedded views (a compact card, or one chart), which post their
//! height to the embedding page, and the embed builder (mode, theme, live preview, snippet).

use super::figures::Figures;
use super::{browser, Scn, State};
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
    let modes = [
        (Embed::Compact, t!(EM_MODE_CARD)),
        (Embed::Memory, t!(EM_MODE_MEMORY)),
        (Embed::Concurrency, t!(EM_MODE_CONCURRENCY)),
        (Embed::Roofline, t!(EM_MODE_ROOFLINE)),
    ];
    let themes = [
        (Theme::Light, t!(EM_LIGHT)),
        (Theme::Dark, t!(EM_DARK)),
        (Theme::Auto, t!(EM_AUTO)),
    ];
    view! {
        <div class="embed-box">
            <div class="field-row">
                <div class="field">
                    <label for="embed-mode">{t!(EM_SHOW)}</label>
                    <select id="embed-mode" data-testid="embed-mode" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        mode.set(Embed::parse(&v).unwrap_or(Embed::Compact));
                    }>
                        {modes.into_iter().map(|(m, l)| view! { <option value=m.key().unwrap_or("1") selected=move || mode.get() == m>{l}</option> }).collect_view()}
                    </select>
                </div>
                <div class="field">
                    <label for="embed-theme">{t!(EM_THEME)}</label>
                    <select id="embed-theme" data-testid="embed-theme" on:change=move |ev| {
                        theme.set(Theme::parse(&event_target_value(&ev)).unwrap_or(Theme::Light));
                    }>
                        {themes.into_iter().map(|(t, l)| view! { <option value=t.key().unwrap_or("auto") selected=move || theme.get() == t>{l}</option> }).collect_view()}
                    </select>
                </div>
            </div>
            <label for="embed-code">{t!(EM_PASTE)}</label>
            <textarea id="embed-code" readonly rows="5" data-testid="embed-snippet" prop:value=snippet></textarea>
            <button type="button" on:click=move |_| browser::copy_reporting(t!(RS_SNIPPET), snippet(), copied)>{t!(EM_COPY_SNIPPET)}</button>
            <p class="hint">{t!(EM_PREVIEW)}</p>
            <iframe class="embed-preview" title=t!(EM_PREVIEW_TITLE) src=url></iframe>
        </div>
    }
}
