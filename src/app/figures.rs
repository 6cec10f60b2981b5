//! The three charts, from one table (`page::CHARTS`): each a figure with its SVG drawn at the
//! width it is shown at, its exact value for automation and a summary for screen readers.

use super::{browser, State};
use crate::charts::DEFAULT_WIDTH;
use crate::page::{self, Chart, CHARTS};
use kvbudget_core::scenario::Embed;
use kvbudget_core::t;
use leptos::html::Div;
use leptos::prelude::*;

/// One chart's figure; its SVG is a memo, redrawn when its data or its width changes.
fn figure(state: State, chart: &'static Chart, first: Option<u32>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    // None until known: the chart is drawn once, at the width it is shown at. The page's first
    // charts start from the loading state's stand-in (`first`: no layout forced to measure them)
    // and check it after the first frame is painted, when measuring costs nothing; later ones
    // measure.
    let width = RwSignal::new(first);
    let measure = move || {
        if let Some(el) = node.try_get_untracked().flatten() {
            let w = Some(browser::width_of(&el));
            if Some(w) != width.try_get_untracked() {
                width.set(w);
            }
        }
    };
    Effect::new(move |_| {
        if node.get().is_some() {
            if first.is_some() {
                request_animation_frame(move || {
                    set_timeout(measure, std::time::Duration::ZERO);
                });
            } else {
                measure();
            }
        }
    });
    // Drawn again at a new width when the window is resized. (Removed with the figure: a change
    // of language draws the page anew.)
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    let svg = Memo::new(move |_| {
        let w = match width.get() {
            None => return String::new(),
            Some(0) => DEFAULT_WIDTH,
            Some(w) => w,
        };
        state.charts.with(|d| {
            d.as_ref()
                .map(|d| page::chart_svg(chart, d, w))
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
    // The caption and the export buttons are HTML text (`page::figure_caption_html`,
    // `page::figure_export_html`); the figure handles the buttons' clicks.
    let on_click = move |ev: leptos::ev::MouseEvent| match browser::clicked_data(
        &ev,
        "button[data-export]",
        "data-export",
    )
    .as_deref()
    {
        Some("svg") => {
            browser::download(
                &format!("{}.svg", chart.file),
                &svg.get_untracked(),
                "image/svg+xml",
            );
        }
        Some("csv") => {
            if let Some(text) = state.charts.with_untracked(|d| d.as_ref().map(chart.csv)) {
                browser::download(&format!("{}.csv", chart.file), &text, "text/csv");
            }
        }
        _ => {}
    };
    view! {
        <figure class="chart" data-testid=chart.testid data-value=value on:click=on_click>
            <figcaption inner_html=page::figure_caption_html(chart)></figcaption>
            <div class="chart__svg" node_ref=node inner_html=move || svg.get()></div>
            <p class="sr-summary">{summary}</p>
            <p class="chart__export" inner_html=page::figure_export_html(chart)></p>
        </figure>
    }
}

/// The charts the view `embed` shows.
#[component]
pub fn Figures(state: State, embed: Embed) -> impl IntoView {
    // Only the page's first charts start from the loading state's width.
    let first = browser::take_boot_chart_width();
    let figures = CHARTS
        .iter()
        .filter(|c| page::chart_shown(c, embed))
        .map(|c| figure(state, c, first))
        .collect_view();
    view! {
        <section class="charts" aria-label=t!(CH_CHARTS)>
            {figures}
        </section>
    }
}
