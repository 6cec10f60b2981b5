//! The course repertoire under the page's settings; a row loads its model and dtype.

use super::State;
use crate::page;
use kvbudget_core::repertoire::rows;
use kvbudget_core::t;
use kvbudget_core::units::{fixed2, thousands, GIB};
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
    view! {
        <section class="repertoire" aria-labelledby="rep-title">
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
                    <tbody>
                        {move || rows.get().into_iter().map(|row| {
                            let short = row.model.id().rsplit('/').next().unwrap_or_default().to_string();
                            let label = t!(rp_load(&short, &row.kv.label(row.model_dtype)));
                            let load = {
                                let row = row.clone();
                                move |_| scenario.update(|s| row.load_into(s))
                            };
                            view! {
                                <tr data-row=row.key()>
                                    <th scope="row"><button type="button" class="linkish" aria-label=label on:click=load>{short}</button></th>
                                    <td data-label=t!(IN_KV_DTYPE)>{row.kv.label(row.model_dtype)}</td>
                                    <td class="num" data-label=t!(RP_BPT) data-value=row.bytes_per_token.0.to_string()>{format!("{} KiB", thousands(row.bytes_per_token.0 / 1024))}</td>
                                    <td class="num" data-label=t!(RP_PER_SEQ)>{fixed2(row.bytes_per_sequence.0 as f64 / GIB as f64)}</td>
                                    <td class="num key" data-label=t!(RS_STAT_SEQS) data-value=row.capped.to_string()>{thousands(row.capped)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}
