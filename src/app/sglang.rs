//! SGLang on the page: its figures for the scenario, and the same GPU under both engines.

use super::results::stat;
use crate::page;
use kvbudget_core::calc::Outcome;
use kvbudget_core::engines::{compare, SglangOutcome};
use kvbudget_core::scenario::PageScenario;
use leptos::prelude::*;

/// SGLang's sequences, tokens and `mem_fraction_static`, then vLLM and SGLang side by side.
#[component]
pub fn SglangPanel(s: PageScenario, o: Outcome, sg: SglangOutcome) -> impl IntoView {
    let stats = page::sglang_stats(&sg).map(|st| stat(st, true));
    let c = compare(&o, &sg);
    let rows = c.rows.clone().map(|r| {
        let engine = r.engine.to_ascii_lowercase();
        let tokens_value = r.tokens.map(|t| t.to_string()).unwrap_or_default();
        view! {
            <tr data-testid=format!("compare-{engine}")>
                <th scope="row">{r.engine}</th>
                <td data-testid=format!("compare-{engine}-tokens") data-value=tokens_value>{page::tokens_cell(r.tokens)}</td>
                <td data-testid=format!("compare-{engine}-seqs") data-value=r.sequences.to_string()>{r.sequences.to_string()}</td>
                <td class="compare__pool">{r.pool}</td>
            </tr>
        }
    });
    let notes = sg.report.notes.clone();
    view! {
        <div class="stats" data-testid="sglang-stats">{stats.into_iter().collect_view()}</div>
        <div class="table-wrap"><table class="rep compare" data-testid="compare">
            <caption>{page::compare_caption(&s)}</caption>
            <thead>
                <tr><th scope="col">"Engine"</th><th scope="col">"Tokens in the KV cache"</th><th scope="col">"Sequences at the context"</th><th scope="col">"How the pool is sized"</th></tr>
            </thead>
            <tbody>{rows.into_iter().collect_view()}</tbody>
        </table></div>
        <p class="hint" data-testid="compare-why">{c.why}</p>
        <ul class="warnings">{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
    }
}
