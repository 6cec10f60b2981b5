use super::{column_head, text};
use crate::page::{tokens_cell, SglangPanel as Panel};
use kvbudget_core::t;
use kvbudget_core::units::thousands;
use leptos::prelude::*;

/// The same GPU under both engines, from the worker's answer; an older
/// scenario's shown dimmed and marked busy while the worker computes the current one.
#[component]
pub fn SglangPanel(panel: Panel) -> impl IntoView {
    let Panel { view: sg, stale } = panel;
    let rows = sg.rows.into_iter().map(|r| {
        let engine = r.engine.to_ascii_lowercase();
        let tokens = r.tokens.map(|t| t.to_string()).unwrap_or_default();
        view! {
            <tr data-testid=format!("compare-{engine}")>
                <th scope="row">{r.engine}</th>
                <td
                    data-testid=format!("compare-{engine}-tokens")
                    data-value=tokens
                    data-label=text(|| t!(RS_TOKENS_IN_KV))
                >
                    {tokens_cell(r.tokens)}
                </td>
                <td
                    data-testid=format!("compare-{engine}-seqs")
                    data-value=r.sequences.to_string()
                    data-label=text(|| t!(RS_SEQS_AT_CTX))
                >
                    {thousands(r.sequences)}
                </td>
                <td class="compare__pool" data-label=text(|| t!(RS_HOW_POOL))>
                    {r.pool}
                </td>
            </tr>
        }
    });
    view! {
        <div class:stale=stale aria-busy=stale.then_some("true")>
            <div class="table-wrap">
                <table class="rep compare" data-testid="compare">
                    <caption>{sg.caption}</caption>
                    <thead>
                        <tr>
                            {column_head(|| t!(RS_ENGINE))}
                            {column_head(|| t!(RS_TOKENS_IN_KV))}
                            {column_head(|| t!(RS_SEQS_AT_CTX))}
                            {column_head(|| t!(RS_HOW_POOL))}
                        </tr>
                    </thead>
                    <tbody>{rows.collect_view()}</tbody>
                </table>
            </div>
            <p class="hint" data-testid="compare-why">{sg.why}</p>
        </div>
    }
}
