//! The inverse question: the settings that give N sequences of the context, each one click away
//! (`page::plan_html`; a button's `data-plan-apply` says what it applies).

use super::parts::part;
use super::{browser, State};
use crate::page;
use leptos::prelude::*;

/// The plan panel, shown when the scenario asks for a plan.
pub fn parts(state: State) {
    part(
        "p-plan",
        Box::new(move || {
            let _ = state.lang.get();
            state
                .shown
                .with(|x| x.as_ref().and_then(|x| page::plan_html(&x.s, &x.o)))
                .unwrap_or_default()
        }),
    );
}

/// A plan's button. Returns whether the click was its.
pub fn click(state: State, ev: &leptos::ev::MouseEvent) -> bool {
    let Some(which) = browser::clicked_data(ev, "button[data-plan-apply]", "data-plan-apply")
    else {
        return false;
    };
    // The plan of the scenario shown, whose values the panel states.
    if let Some(x) = state.shown.get_untracked() {
        state
            .scenario
            .update(|s| page::apply_plan(s, &x.s, &x.o, &which));
    }
    true
}
