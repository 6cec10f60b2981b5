//! Embedding in a course page: the embedded views (`embed=1`, or one chart) and the box that
//! gives the `<iframe>` snippet.

use super::figures::Figures;
use super::results::Results;
use super::{browser, Scn, State};
use crate::page;
use kvbudget_core::query::encode;
use kvbudget_core::scenario::Embed;
use leptos::prelude::*;

/// The embedded view: a headline with a link to the full page, then the results (`embed=1`) and
/// the charts, or one chart.
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
    view! {
        <main class="embed">
            <h1 class="embed__head">
                <span data-testid="embed-headline">{headline}</span>
                " "
                <a href=full target="_blank" rel="noopener">"Open in kvbudget ↗"</a>
            </h1>
            {(embed == Embed::Compact).then(|| view! { <Results state/> })}
            <Figures state embed/>
        </main>
    }
}

/// The `<iframe>` snippet for the current scenario, with a copy button.
#[component]
pub fn EmbedBox(scenario: Scn, copied: RwSignal<String>) -> impl IntoView {
    let snippet = move || {
        page::embed_snippet(&browser::url_for(
            &scenario.with(|s| encode(&page::embedded(s))),
        ))
    };
    view! {
        <div class="embed-box">
            <label for="embed-code">"Paste this into a course page:"</label>
            <textarea id="embed-code" readonly rows="4" data-testid="embed-snippet" prop:value=snippet></textarea>
            <button type="button" on:click=move |_| browser::copy_reporting("snippet", snippet(), copied)>"Copy snippet"</button>
            <p class="hint">"One chart only: replace embed=1 with embed=memory, embed=concurrency or embed=roofline."</p>
        </div>
    }
}
