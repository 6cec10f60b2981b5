//! The course repertoire under the page's settings (`view::Repertoire`); a row loads its model and
//! dtype.

use super::{views, State};
use crate::page;
use crate::view::Repertoire;
use kvbudget_core::repertoire::{rows, rows_key};
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
    let table = Memo::new(move |_| {
        let _ = state.lang.get();
        key.with(|k| k.as_ref().map(page::repertoire_view))
    });
    let on_load = Callback::new(move |i: usize| {
        let row = state
            .shown
            .with_untracked(|x| x.as_ref().and_then(|x| rows(&x.s).get(i).cloned()));
        if let Some(row) = row {
            state.scenario.update(|s| row.load_into(s));
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
