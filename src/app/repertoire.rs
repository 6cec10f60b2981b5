//! The course repertoire under the page's settings; a row loads its model and dtype.

use super::{browser, State};
use crate::page;
use kvbudget_core::repertoire::rows;
use kvbudget_core::t;
use leptos::prelude::*;

/// The table, recomputed only when the evaluated scenario changes; its markup is HTML text
/// (`page::table_html`).
#[component]
pub fn Repertoire(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let rows = Memo::new(move |_| {
        state
            .shown
            .with(|x| x.as_ref().map(|x| rows(&x.s)).unwrap_or_default())
    });
    // The table as HTML text, built again only when its rows or its caption changed.
    let caption = Memo::new(move |_| {
        state
            .shown
            .with(|x| x.as_ref().map(|x| page::repertoire_caption(&x.s)))
            .unwrap_or_default()
    });
    let html = Memo::new(move |_| {
        let heads = [
            t!(IN_MODEL),
            t!(IN_KV_DTYPE),
            t!(RP_BPT),
            t!(RP_PER_SEQ),
            t!(RS_STAT_SEQS),
        ];
        let rows = rows.with(|r| page::repertoire_rows_html(r));
        caption.with(|c| page::table_html("", c, &heads, &rows))
    });
    // A row's button loads its model and dtype (the rows are HTML text: `page::repertoire_rows_html`).
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let i = browser::clicked_data(&ev, "button[data-load]", "data-load")
            .and_then(|i| i.parse::<usize>().ok());
        if let Some(row) = i.and_then(|i| rows.with_untracked(|r| r.get(i).cloned())) {
            scenario.update(|s| row.load_into(s));
        }
    };
    view! {
        <section class="repertoire" aria-labelledby="rep-title" on:click=on_click>
            <h2 id="rep-title">{t!(RP_TITLE)}</h2>
            <div class="table-wrap" inner_html=move || html.get()></div>
        </section>
    }
}
