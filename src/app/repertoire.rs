//! The course repertoire under the page's settings; a row loads its model and dtype.

use super::State;
use crate::page;
use kvbudget_core::repertoire::rows;
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
            <h2 id="rep-title">"Repertoire"</h2>
            <div class="table-wrap">
                <table class="rep">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Model"</th>
                            <th scope="col">"KV dtype"</th>
                            <th scope="col">"KV per token"</th>
                            <th scope="col">"GiB per sequence"</th>
                            <th scope="col">"Sequences that fit"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || rows.get().into_iter().map(|row| {
                            let short = row.model.id().rsplit('/').next().unwrap_or_default().to_string();
                            let label = format!("Load {short} with {} KV", row.kv.label(row.model_dtype));
                            let load = {
                                let row = row.clone();
                                move |_| scenario.update(|s| row.load_into(s))
                            };
                            view! {
                                <tr data-row=row.key()>
                                    <th scope="row"><button type="button" class="linkish" aria-label=label on:click=load>{short}</button></th>
                                    <td data-label="KV dtype">{row.kv.label(row.model_dtype)}</td>
                                    <td class="num" data-label="KV per token" data-value=row.bytes_per_token.0.to_string()>{format!("{} KiB", thousands(row.bytes_per_token.0 / 1024))}</td>
                                    <td class="num" data-label="GiB per sequence">{fixed2(row.bytes_per_sequence.0 as f64 / GIB as f64)}</td>
                                    <td class="num key" data-label="Sequences that fit" data-value=row.capped.to_string()>{thousands(row.capped)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}
