//! The inverse question: the settings that give N sequences of the context, each one click away.

use super::State;
use crate::page;
use kvbudget_core::calc::plan;
use kvbudget_core::t;
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
            let title = t!(pl_title(
                n,
                &thousands(x.o.context),
                &x.s.version.to_string()
            ));
            Some(match p {
                Err(e) => view! { <section class="plan" data-testid="plan"><h3>{title}</h3><p>{e.to_string()}</p></section> }.into_any(),
                Ok(p) => {
                    let util = match &p.util {
                        Ok(u) => view! {
                            <li>{t!(PL_LOWEST_UTIL)}<strong data-testid="plan-util" data-value=u.point.to_string()>{u.point.to_string()}</strong>
                                {t!(pl_util_range(&u.optimistic.to_string(), &u.safe.to_string()))}
                                <button type="button" class="linkish" data-testid="plan-apply-util" on:click={
                                    let safe = u.safe;
                                    move |_| scenario.update(|s| s.util = Some(safe))
                                }>{t!(PL_SAFE_END)}</button></li>
                        }.into_any(),
                        Err(why) => view! { <li data-testid="plan-util" data-value="none">{t!(PL_NO_UTIL)}{why.clone()}</li> }.into_any(),
                    };
                    let bytes = p.kv_cache_memory;
                    let len = p.longest_context.safe;
                    view! {
                        <section class="plan" data-testid="plan">
                            <h3>{title}</h3>
                            <ul>
                                {util}
                                <li>"--kv-cache-memory "<strong data-testid="plan-kv-bytes" data-value=bytes.to_string()>{thousands(bytes)}</strong>
                                    {t!(pl_kv_bytes(&Bytes(bytes).to_string(), &thousands(p.kv_cache_blocks)))}
                                    <button type="button" class="linkish" data-testid="plan-apply-kv" on:click=move |_| scenario.update(|s| s.kv_memory = Some(Bytes(bytes)))>{t!(PL_USE_IT)}</button></li>
                                <li>{t!(PL_LONGEST)}<strong data-testid="plan-ctx" data-value=len.to_string()>{thousands(len)}</strong>
                                    {t!(pl_len_range(&thousands(p.longest_context.point), &thousands(p.longest_context.safe), &thousands(p.longest_context.optimistic)))}</li>
                                <li>{t!(PL_SMALLEST_TP)}<strong data-testid="plan-tp" data-value=p.smallest_tp.map(|t| t.to_string()).unwrap_or_default()>{p.smallest_tp.map(|t| t.to_string()).unwrap_or_else(|| t!(PL_NO_TP).into())}</strong></li>
                            </ul>
                            <p class="hint">{page::plan_note()}</p>
                        </section>
                    }.into_any()
                }
            })
        })
    }
}
