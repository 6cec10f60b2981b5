//! The current model and context on every GPU preset (`page::gpu_table_html`, from the worker's
//! rows: 14 evaluations the first load does without); a row loads its GPU.

use super::asks::Asked;
use super::parts::{part, Ui};
use super::{browser, State};
use kvbudget_core::handoff::{Answer, Request};
use kvbudget_core::query::encode;
use kvbudget_core::scenario::GpuChoice;
use leptos::prelude::*;

/// The table, asked for only while its panel is open, and then each time the shown scenario
/// changes (the last one, dimmed, until the next arrives).
pub fn parts(state: State, ui: Ui) {
    let asked = Asked::new(
        state.lang,
        Box::new(move || {
            if !ui.gpus_open.get() {
                return None;
            }
            state.shown.with(|x| {
                x.as_ref().map(|x| Request::Gpus {
                    query: encode(&x.s),
                })
            })
        }),
    );
    let caption = Memo::new(move |_| {
        let _ = state.lang.get();
        state.shown.with(|x| {
            x.as_ref()
                .map(|x| (x.s.model.name().to_string(), x.o.context))
        })
    });
    part(
        "p-gpus",
        Box::new(move || {
            asked.html(|a| match (a, caption.get()) {
                (Answer::Gpus(rows), Some((model, context))) => {
                    crate::page::gpu_table_html(&model, context, rows)
                }
                _ => String::new(),
            })
        }),
    );
}

/// The panel opened or closed (`toggle` events do not bubble: the page listens for them as they
/// go down).
pub fn toggled(ui: Ui, el: &web_sys::Element, open: bool) {
    if el.class_name().split(' ').any(|c| c == "gpus") {
        ui.gpus_open.set(open);
    }
}

/// A row's button (`data-gpu`: the GPU's slug) loads its GPU. Returns whether the click was one.
pub fn click(state: State, ev: &leptos::ev::MouseEvent) -> bool {
    let Some(slug) = browser::clicked_data(ev, "button[data-gpu]", "data-gpu") else {
        return false;
    };
    if let Some(g) = kvbudget_core::presets::gpu(&slug) {
        state.scenario.update(|s| s.gpu = GpuChoice::Preset(g));
    }
    true
}
