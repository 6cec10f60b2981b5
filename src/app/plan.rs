//! The inverse question: the settings that give N sequences of the context, each one click away.

use super::State;
use crate::page;
use kvbudget_core::calc::plan;
use kvbudget_core::units::{thousands, Bytes};
use leptos::prelude::*;

/// The plan panel, shown when the scenario asks for a plan.
#[component]
pub fn PlanPanel(state: State) -> impl IntoView {
    let scenario = state.scenario;
    move || {
        state.shown.with(|x| {
            let x = x.as_ref()?;
            let n = x.s.plan?;
            let p = plan(&x.s, &x.o)?;
            let title = format!(
                "Plan: {} of {} tokens at once (vLLM {})",
                kvbudget_core::explain::plural(n, "sequence"),
                thousands(x.o.context),
                x.s.version
            );
            Some(match p {
                Err(e) => view! { <section class="plan" data-testid="plan"><h3>{title}</h3><p>{e.to_string()}</p></section> }.into_any(),
                Ok(p) => {
                    let util = match &p.util {
                        Ok(u) => view! {
                            <li>"Lowest --gpu-memory-utilization: "<strong data-testid="plan-util" data-value=u.point.to_string()>{u.point.to_string()}</strong>
                                {format!(" (range {} – {}; the safe end starts even at the estimate's high overhead) ", u.optimistic, u.safe)}
                                <button type="button" class="linkish" data-testid="plan-apply-util" on:click={
                                    let safe = u.safe;
                                    move |_| scenario.update(|s| s.util = Some(safe))
                                }>"use the safe end"</button></li>
                        }.into_any(),
                        Err(why) => view! { <li data-testid="plan-util" data-value="none">"No utilization: "{why.clone()}</li> }.into_any(),
                    };
                    let bytes = p.kv_cache_memory;
                    let len = p.longest_context.safe;
                    view! {
                        <section class="plan" data-testid="plan">
                            <h3>{title}</h3>
                            <ul>
                                {util}
                                <li>"--kv-cache-memory "<strong data-testid="plan-kv-bytes" data-value=bytes.to_string()>{thousands(bytes)}</strong>
                                    {format!(" B ({}, {} whole blocks: exactly the sequences asked for) ", Bytes(bytes), thousands(p.kv_cache_blocks))}
                                    <button type="button" class="linkish" data-testid="plan-apply-kv" on:click=move |_| scenario.update(|s| s.kv_memory = Some(Bytes(bytes)))>"use it"</button></li>
                                <li>"Longest --max-model-len for them: "<strong data-testid="plan-ctx" data-value=len.to_string()>{thousands(len)}</strong>
                                    {format!(" (estimate {}; range {} – {})", thousands(p.longest_context.point), thousands(p.longest_context.safe), thousands(p.longest_context.optimistic))}</li>
                                <li>"Smallest --tensor-parallel-size: "<strong data-testid="plan-tp" data-value=p.smallest_tp.map(|t| t.to_string()).unwrap_or_default()>{p.smallest_tp.map(|t| t.to_string()).unwrap_or_else(|| "none up to 8".into())}</strong></li>
                            </ul>
                            <p class="hint">{page::PLAN_NOTE}</p>
                        </section>
                    }.into_any()
                }
            })
        })
    }
}
