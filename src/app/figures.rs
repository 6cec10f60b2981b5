//! The three charts, from one table (`page::CHARTS`): each a figure with its SVG drawn at the
//! width it is shown at, its exact value for automation and a summary for screen readers.

use super::browser;
use super::parts::{part, Ui};
use super::State;
use crate::charts::DEFAULT_WIDTH;
use crate::page::{self, Chart, CHARTS};
use kvbudget_core::scenario::Embed;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Measures the charts' box (they all have the width of the column) and, when it changed, has
/// them drawn again at the new width.
fn measure(ui: Ui) {
    let Some(el) = window()
        .document()
        .and_then(|d| d.query_selector(".chart__svg").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let w = Some(browser::width_of(&el));
    if Some(w) != ui.chart_width.try_get_untracked() {
        ui.chart_width.set(w);
    }
}

/// One chart's figure as HTML text: empty SVG box until the width is known.
fn figure_html(state: State, ui: Ui, chart: &'static Chart) -> String {
    let svg = match ui.chart_width.get() {
        None => String::new(),
        Some(w) => state.charts.with(|d| {
            d.as_ref()
                .map(|d| page::chart_svg(chart, d, if w == 0 { DEFAULT_WIDTH } else { w }))
                .unwrap_or_default()
        }),
    };
    let (value, summary) = state.charts.with(|d| match d {
        Some(d) => ((chart.value)(d), (chart.summary)(d)),
        None => (String::new(), String::new()),
    });
    page::figure_html(chart, &value, &summary, &svg, None)
}

/// The charts the view `embed` shows. The page's first charts are drawn at the loading state's
/// stand-in width (no layout forced to measure them) and checked after the first frame is
/// painted, when measuring costs nothing; they are drawn again when the window is resized.
pub fn parts(state: State, ui: Ui, embed: Embed) {
    for c in CHARTS.iter().filter(|c| page::chart_shown(c, embed)) {
        part(
            &page::chart_box_id(c),
            Box::new(move || figure_html(state, ui, c)),
        );
    }
    if ui.chart_width.get_untracked().is_some() {
        request_animation_frame(move || {
            set_timeout(move || measure(ui), std::time::Duration::ZERO);
        });
    }
    // (Measured once the figures are written: this effect runs after theirs.)
    Effect::new_sync(move |_| {
        if ui.chart_width.get().is_none() {
            measure(ui);
        }
    });
    // (Until the page is drawn anew, in another language.)
    browser::on_resize(move || measure(ui));
}

/// A figure's download buttons (`data-export`: svg or csv). Returns whether the click was theirs.
pub fn click(state: State, ui: Ui, ev: &leptos::ev::MouseEvent) -> bool {
    let Some(kind) = browser::clicked_data(ev, "button[data-export]", "data-export") else {
        return false;
    };
    let testid = browser::clicked_data(ev, "figure[data-testid]", "data-testid");
    let Some(chart) = CHARTS.iter().find(|c| Some(c.testid) == testid.as_deref()) else {
        return true;
    };
    let w = match ui.chart_width.get_untracked() {
        Some(w) if w > 0 => w,
        _ => DEFAULT_WIDTH,
    };
    state.charts.with_untracked(|d| {
        let Some(d) = d else { return };
        if kind == "svg" {
            let svg = page::chart_svg(chart, d, w);
            browser::download(&format!("{}.svg", chart.file), &svg, "image/svg+xml");
        } else if kind == "csv" {
            let text = (chart.csv)(d);
            browser::download(&format!("{}.csv", chart.file), &text, "text/csv");
        }
    });
    true
}
