//! The course repertoire under the page's settings; a row loads its model and dtype.

use super::parts::{part, Ui};
use super::{browser, State};
use crate::page;
use kvbudget_core::repertoire::{rows, rows_key};
use leptos::prelude::*;

/// The table (HTML text: `page::repertoire_html`), recomputed when its key changes (`rows_key`: not
/// on an edit of the model or the dtype, which every row sets for itself); computed in the first
/// animation frame after the page is written (`Ui::later`), after the numbers and the charts.
pub fn parts(state: State, ui: Ui) {
    // The key the table was last drawn for, and the table.
    let last = std::sync::Mutex::new((None, String::new()));
    part(
        "p-repertoire",
        Box::new(move || {
            if !ui.later.get() {
                return String::new();
            }
            let key = state.shown.with(|x| x.as_ref().map(|x| rows_key(&x.s)));
            let Ok(mut last) = last.lock() else {
                return String::new();
            };
            if last.0 != key {
                last.1 = key.as_ref().map(page::repertoire_html).unwrap_or_default();
                last.0 = key;
            }
            last.1.clone()
        }),
    );
}

/// A row's button (`data-load`, in the repertoire) loads its model and dtype. Returns whether the
/// click was one.
pub fn click(state: State, ev: &leptos::ev::MouseEvent) -> bool {
    let Some(i) = browser::clicked_data(ev, "section.repertoire button[data-load]", "data-load")
    else {
        return false;
    };
    let row = state.shown.with_untracked(|x| {
        let i = i.parse::<usize>().ok()?;
        x.as_ref().and_then(|x| rows(&x.s).get(i).cloned())
    });
    if let Some(row) = row {
        state.scenario.update(|s| row.load_into(s));
    }
    true
}
