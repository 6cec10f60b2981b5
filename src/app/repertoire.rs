//! The course repertoire under the page's settings (`view::Repertoire`); a row loads its model and
//! dtype.

use super::{views, State};
use crate::page;
use crate::view::Repertoire;
use kvbudget_core::model::KvDtype;
use kvbudget_core::presets;
use kvbudget_core::repertoire::rows_key;
use kvbudget_core::scenario::{Engine, ModelChoice};
use leptos::prelude::*;

/// Mounts the table, recomputed when its key changes (`rows_key`: not on an edit of the model or
/// the dtype, which every row sets for itself) or the language; computed in the first animation
/// frame after the table is mounted, after the numbers and the charts.
pub fn mount(state: State) {
    let later = RwSignal::new(false);
    request_animation_frame(move || later.set(true));
    let key = Memo::new(move |_| {
        later
            .get()
            .then(|| state.shown.with(|x| x.as_ref().map(|x| rows_key(&x.s))))
            .flatten()
    });
    // Under SGLang, its rows once the worker has answered for the scenario shown.
    let sglang = Memo::new(move |_| {
        state.shown.with(|x| x.as_ref().map(|x| x.s.engine)) == Some(Engine::Sglang)
    });
    let table = Memo::new(move |_| {
        let _ = state.lang.get();
        match sglang.get() {
            true => state
                .sglang_now
                .with(|v| v.as_ref()?.engine.repertoire.clone()),
            false => key.with(|k| k.as_ref().map(page::repertoire_view)),
        }
    });
    let on_load = Callback::new(move |i: usize| {
        let row = table.with_untracked(|t| t.as_ref().and_then(|t| t.rows.get(i).cloned()));
        let model = row.as_ref().and_then(|r| presets::model(&r.model_id));
        let kv = row.and_then(|r| KvDtype::parse(&r.kv_name).ok());
        if let (Some(p), Some(kv)) = (model, kv) {
            state.scenario.update(|s| {
                s.set_model(ModelChoice::Preset(p));
                s.kv = kv;
            });
            // Feedback where the table sits far below the answer: the answer, now the row's
            // (once it is written).
            request_animation_frame(|| super::browser::scroll_to("results-title"));
        }
    });
    views::mount(
        "p-repertoire",
        move || view! { <Repertoire table on_load /> },
    );
}
