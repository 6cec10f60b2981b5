//! The current model and context on every GPU preset; a row loads its GPU.

use super::{browser, State};
use crate::page;
use kvbudget_core::gpus::compare;
use kvbudget_core::scenario::GpuChoice;
use kvbudget_core::t;
use kvbudget_core::units::thousands;
use leptos::prelude::*;

/// The table, computed only while it is open (14 evaluations), and then only when the evaluated
/// scenario changes.
#[component]
pub fn Gpus(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let open = RwSignal::new(false);
    let rows = Memo::new(move |_| {
        if !open.get() {
            return Vec::new();
        }
        state
            .shown
            .with(|x| x.as_ref().map(|x| compare(&x.s)).unwrap_or_default())
    });
    let caption = move || {
        state.shown.with(|x| {
            x.as_ref()
                .map(|x| t!(gp_caption(&x.s.model.name(), &thousands(x.o.context))))
        })
    };
    view! {
        <details class="repertoire gpus" on:toggle=move |ev| open.set(browser::details_open(&ev))>
            <summary><h2 id="gpus-title">{t!(GP_TITLE)}</h2></summary>
            <div class="table-wrap">
                <table class="rep" data-testid="gpu-table">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t!(IN_GPU)}</th>
                            <th scope="col">{t!(GP_MEMORY)}</th>
                            <th scope="col">{t!(RS_STAT_SEQS)}</th>
                            <th scope="col">{t!(GP_DECODE)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || rows.get().into_iter().map(|row| {
                            let g = row.gpu;
                            let load = move |_| scenario.update(|s| s.gpu = GpuChoice::Preset(g));
                            let fits = match row.refusal {
                                Some(k) => page::refusal_short(k).to_string(),
                                None => thousands(row.capped),
                            };
                            view! {
                                <tr data-row=g.slug>
                                    <th scope="row"><button type="button" class="linkish" aria-label=t!(gp_load(g.name)) on:click=load>{g.name}</button></th>
                                    <td class="num" data-label=t!(GP_MEMORY)>{format!("{:.2} GiB", g.total.as_gib())}</td>
                                    <td class="num key" data-label=t!(RS_STAT_SEQS) data-value=row.capped.to_string()>{fits}</td>
                                    <td class="num" data-label=t!(GP_DECODE)>{if row.aggregate > 0.0 { t!(gp_rate(&page::rate(row.aggregate))) } else { "—".into() }}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </details>
    }
}
