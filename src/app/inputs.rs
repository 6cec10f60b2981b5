//! The scenario's inputs: the form's markup is HTML text (`page::form_*_html`, in the page's
//! markup), the page's handlers pass its events here (the control found by its id), and one effect
//! writes what each control shows (`page::fields_now`), touching only what changed.

use super::{dom, State};
use crate::page::{self, FieldNow, Typed};
use kvbudget_core::scenario::PageScenario;
use kvbudget_core::units::Bytes;
use leptos::prelude::*;

/// What the effect last wrote, to touch only what changed.
#[derive(Clone, Default, PartialEq)]
struct Written {
    fields: Vec<FieldNow>,
    picks: Vec<String>,
    checks: Vec<bool>,
    blocks: [(&'static str, bool); 3],
    hints: [String; 2],
    in_gb: bool,
    more: bool,
}

/// Writes the form's controls from the scenario and what was typed; `prev` is what it wrote last
/// (`None`: the form was just drawn).
fn write_form(now: &Written, prev: Option<&Written>) {
    for (i, f) in now.fields.iter().enumerate() {
        let old = prev.and_then(|p| p.fields.get(i));
        dom::show_field(f, old);
    }
    for (i, (p, v)) in page::PICKS.iter().zip(&now.picks).enumerate() {
        if prev.is_none_or(|w| w.picks.get(i) != Some(v)) {
            dom::set_control_value(p.id, v);
        }
    }
    for (i, (c, &on)) in page::CHECKS.iter().zip(&now.checks).enumerate() {
        if prev.is_none_or(|w| w.checks.get(i) != Some(&on)) {
            dom::set_checked(c.id, on);
        }
    }
    for (i, &(key, shown)) in now.blocks.iter().enumerate() {
        if prev.is_none_or(|w| w.blocks[i] != (key, shown)) {
            dom::set_block_shown(key, shown);
        }
    }
    for (i, id) in ["gpu-seen", "custom-geometry"].iter().enumerate() {
        if prev.is_none_or(|w| w.hints[i] != now.hints[i]) {
            dom::set_testid_text(id, &now.hints[i]);
        }
    }
    if prev.is_none_or(|w| w.more != now.more) {
        dom::set_open("more-settings", now.more);
    }
    if prev.is_none_or(|w| w.in_gb != now.in_gb) {
        dom::set_control_value(page::UNIT_PICK, if now.in_gb { "GB" } else { "GiB" });
    }
}

/// The effect that writes the form's controls from the scenario and what was typed.
pub fn parts(state: State) {
    let scenario = state.scenario;
    let typed = state.typed;
    Effect::new_sync(move |prev: Option<Written>| {
        let _ = state.lang.get();
        let now = typed.with(|t| {
            scenario.with(|s| {
                let fields = state.shown.with(|x| {
                    state
                        .sglang_now
                        .with(|sg| page::fields_now(s, t, x.as_ref().map(|x| &x.o), sg.as_ref()))
                });
                Written {
                    fields,
                    picks: page::PICKS.iter().map(|p| (p.value)(s)).collect(),
                    checks: page::CHECKS.iter().map(|c| (c.get)(s)).collect(),
                    blocks: page::shown_blocks(s),
                    hints: [page::gpu_seen(s), page::custom_summary(s)],
                    in_gb: t.units.weights_in_gb,
                    more: s.more,
                }
            })
        });
        write_form(&now, prev.as_ref());
        now
    });
}

/// A keystroke in a text field: committed when it reads, kept as typed either way.
pub fn input(state: State, ev: &leptos::ev::Event) {
    let Some(i) = dom::target_id(ev).and_then(|id| page::text_input(&id)) else {
        return;
    };
    let (scenario, typed) = (state.scenario, state.typed);
    let text = event_target_value(ev);
    let units = typed.with_untracked(|t| t.units);
    let next = scenario.with_untracked(|s| i.commit(s, &text, units));
    typed.update(|t| t.set(i.id, text));
    if let Ok(next) = next {
        scenario.set(next);
    }
}

/// A change of a form control (`id`): a field left, a pick, a box ticked, the weights' unit.
/// Returns whether the control was the form's.
pub fn change(state: State, id: &str, ev: &leptos::ev::Event) -> bool {
    let (scenario, typed) = (state.scenario, state.typed);
    let text = event_target_value(ev);
    if let Some(i) = page::text_input(id) {
        // A committed edit shows the committed value again (a refused one stays as typed).
        let units = typed.with_untracked(|t| t.units);
        if scenario.with_untracked(|s| i.commit(s, &text, units).is_ok()) {
            typed.update(|t| t.clear(i.id));
        }
    } else if let Some(p) = page::pick(id) {
        scenario.update(|s| (p.select)(s, &text));
    } else if let Some(c) = page::check(id) {
        let on = event_target_checked(ev);
        scenario.update(|s| (c.set)(s, on));
    } else if id == page::UNIT_PICK {
        typed.update(|t| t.units.weights_in_gb = text == "GB");
    } else {
        return false;
    }
    true
}

/// The form's buttons (`data-action`): the overhead's two shortcuts and the reset. Returns
/// whether the action was theirs.
pub fn action(state: State, action: &str) -> bool {
    let (scenario, typed) = (state.scenario, state.typed);
    match action {
        "seed-overhead" => scenario.update(|s| s.overhead = Some(Bytes::gib(1))),
        "estimate-overhead" => scenario.update(|s| s.overhead = None),
        "reset" => {
            typed.set(Typed::default());
            scenario.update(|s| {
                *s = PageScenario {
                    lang: s.lang,
                    ..PageScenario::default()
                }
            });
        }
        _ => return false,
    }
    true
}
