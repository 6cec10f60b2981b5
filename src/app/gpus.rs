//! The current model and context on every GPU preset; a row loads its GPU.

use super::parts::{part, Ui};
use super::{browser, State};
use crate::page;
use kvbudget_core::gpus::compare;
use kvbudget_core::scenario::GpuChoice;
use kvbudget_core::t;
use kvbudget_core::units::thousands;
use leptos::prelude::*;

/// The table (HTML text), computed only while its panel is open (14 evaluations), and then only
/// when the evaluated scenario changes.
pub fn parts(state: State, ui: Ui) {
    part(
        "p-gpus",
        Box::new(move || {
            if !ui.gpus_open.get() {
                return String::new();
            }
            let Some((caption, rows)) = state.shown.with(|x| {
                x.as_ref().map(|x| {
                    (
                        t!(gp_caption(&x.s.model.name(), &thousands(x.o.context))),
                        page::gpu_rows_html(&compare(&x.s)),
                    )
                })
            }) else {
                return String::new();
            };
            let heads = [t!(IN_GPU), t!(GP_MEMORY), t!(RS_STAT_SEQS), t!(GP_DECODE)];
            page::table_html(r#" data-testid="gpu-table""#, &caption, &heads, &rows)
        }),
    );
}

/// The panel opened or closed (`toggle` events do not bubble: the page listens for them as they
/// go down).
pub fn toggled(ui: Ui, el: &web_sys::Element, open: bool) {
    if el.class_list().contains("gpus") {
        ui.gpus_open.set(open);
    }
}

/// A row's button (`data-load`, in the GPU table) loads its GPU. Returns whether the click was
/// one.
pub fn click(state: State, ev: &leptos::ev::MouseEvent) -> bool {
    let Some(i) = browser::clicked_data(ev, "details.gpus button[data-load]", "data-load") else {
        return false;
    };
    let gpu = state.shown.with_untracked(|x| {
        let i = i.parse::<usize>().ok()?;
        x.as_ref().and_then(|x| compare(&x.s).get(i).map(|r| r.gpu))
    });
    if let Some(g) = gpu {
        state.scenario.update(|s| s.gpu = GpuChoice::Preset(g));
    }
    true
}
