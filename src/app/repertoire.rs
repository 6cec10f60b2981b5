//! The course repertoire under the page's settings; a row loads its model and dtype.

use super::{browser, State};
use crate::page;
use kvbudget_core::repertoire::rows;
use kvbudget_core::t;
use leptos::prelude::*;

/// The table, recomputed only when the evaluated scenario changes.
#[component]
pub fn Repertoire(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let rows = Memo::new(move |_| {
        state
            .shown
            .with(|x| x.as_ref().map(|x| rows(&x.s)).unwrap_or_default())
    });
    let caption = move || {
        state
            .shown
            .with(|x| x.as_ref().map(|x| page::repertoire_caption(&x.s)))
    };
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
            <div class="table-wrap">
                <table class="rep">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t!(IN_MODEL)}</th>
                            <th scope="col">{t!(IN_KV_DTYPE)}</th>
                            <th scope="col">{t!(RP_BPT)}</th>
                            <th scope="col">{t!(RP_PER_SEQ)}</th>
                            <th scope="col">{t!(RS_STAT_SEQS)}</th>
                        </tr>
                    </thead>
                    <tbody inner_html=move || rows.with(|r| page::repertoire_rows_html(r))></tbody>
                </table>
            </div>
        </section>
    }
}
