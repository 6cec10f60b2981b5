//! The page's frame around the panels: the language switch, and the wrapper that draws panels
//! below the answer one frame later.

use super::{browser, State};
use kvbudget_core::i18n::Lang;
use kvbudget_core::t;
use leptos::prelude::*;

/// Panels below the answer, drawn in the frame after the first one, so the numbers and the charts
/// show sooner.
#[component]
pub fn Later(children: ChildrenFn) -> impl IntoView {
    let shown = RwSignal::new(false);
    request_animation_frame(move || shown.set(true));
    move || shown.get().then(|| children())
}

/// The language switch: each language named in itself.
#[component]
pub fn LangSwitch(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| s.lang = Lang::parse(&v));
        // The page is drawn anew in the language; the switch keeps the keyboard focus.
        browser::focus_when_drawn("lang");
    };
    view! {
        <div class="lang">
            <label for="lang" class="sr-only">{t!(LANGUAGE)}</label>
            <select id="lang" data-testid="lang" on:change=on_change prop:value=move || state.lang.get().key()>
                {Lang::ALL.into_iter().map(|l| view! { <option value=l.key() lang=l.key()>{l.name()}</option> }).collect_view()}
            </select>
        </div>
    }
}
