//! The inverse question: the settings that give N sequences of the context, each one click away.
//! The worker answers the plan as data (`handoff::PlanView`, drawn by `page::plan_html`; a
//! button's `data-plan-apply` says what it applies) and applies a button: the first load carries no plan search.

use super::asks::{apply_button, Asked};
use super::parts::{part, Ui};
use super::{browser, State};
use kvbudget_core::handoff::{panels::PlanButton, Answer, Request};
use kvbudget_core::query::encode;
use leptos::prelude::*;

/// The plan panel, shown when the scenario asks for a plan (the last one, dimmed, while the
/// worker computes the next).
pub fn parts(state: State) {
    let asked = Asked::new(
        state.lang,
        Box::new(move || {
            state.shown.with(|x| {
                x.as_ref()
                    .filter(|x| x.s.plan.is_some())
                    .map(|x| Request::Plan {
                        query: encode(&x.s),
                    })
            })
        }),
    );
    part(
        "p-plan",
        Box::new(move || {
            asked.html(|a| match a {
                Answer::Plan(Some(p)) => {
                    let tp = state
                        .shown
                        .with_untracked(|x| x.as_ref().map_or(1, |x| x.s.tp));
                    crate::page::plan_html(p, tp)
                }
                _ => String::new(),
            })
        }),
    );
}

/// A plan's button: the plan of the scenario shown (whose values the panel states) applied to
/// the scenario. Returns whether the click was its.
pub fn click(state: State, ui: Ui, ev: &leptos::ev::MouseEvent) -> bool {
    let Some(which) = browser::clicked_data(ev, "button[data-plan-apply]", "data-plan-apply")
    else {
        return false;
    };
    let which = match which.as_str() {
        "util" => PlanButton::Util,
        "kv" => PlanButton::Kv,
        "seqs" => PlanButton::Seqs,
        "ctx" => PlanButton::Ctx,
        "tp" => PlanButton::Tp,
        "fp8" => PlanButton::Fp8,
        _ => return true,
    };
    apply_button(state, ui.copied, |shown, target| Request::PlanApply {
        which,
        shown,
        target,
    });
    true
}
