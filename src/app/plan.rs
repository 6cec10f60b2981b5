//! The inverse question: the settings that give N sequences of the context, each one click away
//! (`page::plan_html`; a button's `data-plan-apply` says what it applies).

use super::{browser, State};
use crate::page;
use leptos::prelude::*;

/// The plan panel, shown when the scenario asks for a plan.
#[component]
pub fn PlanPanel(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let html = move || {
        let _ = state.lang.get();
        state
            .shown
            .with(|x| x.as_ref().and_then(|x| page::plan_html(&x.s, &x.o)))
            .unwrap_or_default()
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(which) = browser::clicked_data(&ev, "button[data-plan-apply]", "data-plan-apply")
        else {
            return;
        };
        // The plan of the scenario shown, whose values the panel states.
        let Some(x) = state.shown.get_untracked() else {
            return;
        };
        scenario.update(|s| page::apply_plan(s, &x.s, &x.o, &which));
    };
    view! { <div class="part" inner_html=html on:click=on_click></div> }
}
