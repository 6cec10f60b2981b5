//! The three charts, from one table (`page::CHARTS`): each a figure with its SVG, its exact value
//! for automation and a summary for screen readers.

use super::State;
use crate::page::{self, Chart, CHARTS};
use kvbudget_core::scenario::Embed;
use leptos::prelude::*;

/// One chart's figure; its SVG is a memo, redrawn only when its data changes.
fn figure(state: State, chart: &'static Chart) -> impl IntoView {
    let svg = Memo::new(move |_| {
        state.charts.with(|d| {
            d.as_ref()
                .map(|d| page::chart_svg(chart, d))
                .unwrap_or_default()
        })
    });
    let value = move || {
        state
            .shown
            .with(|x| x.as_ref().map(|x| (chart.value)(&x.o)).unwrap_or_default())
    };
    let summary = move || {
        state.shown.with(|x| {
            state.charts.with(|d| match (x, d) {
                (Some(x), Some(d)) => (chart.summary)(&x.o, d),
                _ => String::new(),
            })
        })
    };
    view! {
        <figure class="chart" data-testid=chart.testid data-value=value>
            <figcaption><strong>{chart.title}</strong>{chart.subtitle}</figcaption>
            <div class="chart__svg" inner_html=move || svg.get()></div>
            <p class="sr-summary">{summary}</p>
        </figure>
    }
}

/// The charts the view `embed` shows.
#[component]
pub fn Figures(state: State, embed: Embed) -> impl IntoView {
    view! {
        <section class="charts" aria-label="Charts">
            {CHARTS
                .iter()
                .filter(|c| page::chart_shown(c, embed))
                .map(|c| figure(state, c))
                .collect_view()}
        </section>
    }
}
