use super::{column_head, text};
use crate::page::{RepertoireRow, RepertoireView};
use kvbudget_core::t;
use leptos::prelude::*;

/// The course's models under the page's settings: a row's button loads its model and dtype
/// (`on_load` gets the row's place).
#[component]
pub fn Repertoire(
    #[prop(into)] table: Signal<Option<RepertoireView>>,
    on_load: Callback<usize>,
) -> impl IntoView {
    let row = move |i: usize, r: RepertoireRow| {
        view! {
            <tr data-row=r.key>
                <th scope="row">
                    <button
                        type="button"
                        class="linkish"
                        aria-label=r.label
                        on:click=move |_| on_load.run(i)
                    >
                        {r.model}
                    </button>
                </th>
                <td data-label=t!(IN_KV_DTYPE)>{r.kv}</td>
                <td class="num" data-label=t!(RP_BPT) data-value=r.bytes_per_token>
                    {r.kib_per_token}
                </td>
                <td class="num" data-label=t!(RP_PER_SEQ)>{r.gib_per_sequence}</td>
                <td class="num key" data-label=t!(RS_STAT_SEQS) data-value=r.sequences>
                    {r.fits}
                </td>
            </tr>
        }
    };
    let caption = move || table.with(|t| t.as_ref().map(|t| t.caption.clone()));
    let rows = move || {
        table.with(|t| {
            t.iter()
                .flat_map(|t| t.rows.iter().cloned().enumerate())
                .map(|(i, r)| row(i, r))
                .collect_view()
        })
    };
    view! {
        <section class="repertoire" aria-labelledby="rep-title">
            <h2 id="rep-title">{text(|| t!(RP_TITLE))}</h2>
            <div class="table-wrap">
                <table class="rep">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            {column_head(|| t!(IN_MODEL))}
                            {column_head(|| t!(IN_KV_DTYPE))}
                            {column_head(|| t!(RP_BPT))}
                            {column_head(|| t!(RP_PER_SEQ))}
                            {column_head(|| t!(RS_STAT_SEQS))}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}
