//! The current model and context on every GPU preset; a row loads its GPU.

use super::{browser, State};
use crate::page;
use kvbudget_core::gpus::compare;
use kvbudget_core::scenario::GpuChoice;
use kvbudget_core::t;
use kvbudget_core::units::thousands;
use leptos::prelude::*;

/// The table, computed only while it is open (14 evaluations), and then only when the evaluated
/// scenario changes.
#[component]
pub fn Gpus(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let open = RwSignal::new(false);
    let rows = Memo::new(move |_| {
        if !open.get() {
            return Vec::new();
        }
        state
            .shown
            .with(|x| x.as_ref().map(|x| compare(&x.s)).unwrap_or_default())
    });
    // The table as HTML text, only while it is open, set again only when it changed.
    let html = Memo::new(move |_| {
        if !open.get() {
            return String::new();
        }
        let caption = state
            .shown
            .with(|x| {
                x.as_ref()
                    .map(|x| t!(gp_caption(&x.s.model.name(), &thousands(x.o.context))))
            })
            .unwrap_or_default();
        let heads = [t!(IN_GPU), t!(GP_MEMORY), t!(RS_STAT_SEQS), t!(GP_DECODE)];
        rows.with(|r| {
            page::table_html(
                r#" data-testid="gpu-table""#,
                &caption,
                &heads,
                &page::gpu_rows_html(r),
            )
        })
    });
    // A row's button loads its GPU (the rows are HTML text: `page::gpu_rows_html`).
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let i = browser::clicked_data(&ev, "button[data-load]", "data-load")
            .and_then(|i| i.parse::<usize>().ok());
        if let Some(g) = i.and_then(|i| rows.with_untracked(|r| r.get(i).map(|r| r.gpu))) {
            scenario.update(|s| s.gpu = GpuChoice::Preset(g));
        }
    };
    view! {
        <details class="repertoire gpus" on:toggle=move |ev| open.set(browser::details_open(&ev)) on:click=on_click>
            <summary><h2 id="gpus-title">{t!(GP_TITLE)}</h2></summary>
            <div class="table-wrap" inner_html=move || html.get()></div>
        </details>
    }
}
