//! A labelled text input that keeps what the user typed, validates it on every keystroke, and
//! commits only valid values; the message under it names the field and the accepted range.

use leptos::prelude::*;

/// A text field bound to one scenario value.
///
/// `value` is the committed value's text; `commit` parses the typed text, stores it when valid,
/// and returns the error message otherwise.
#[component]
pub fn Field(
    /// DOM id (and the base of the message's id).
    id: &'static str,
    /// Visible label.
    label: &'static str,
    /// The committed value as text.
    #[prop(into)]
    value: Signal<String>,
    /// Parses and commits; `Some(message)` when the text is refused.
    commit: Callback<String, Option<String>>,
    /// Shown when the field is empty.
    #[prop(optional, into)]
    placeholder: Signal<String>,
    /// A hint after the label (units, defaults).
    #[prop(optional)]
    hint: &'static str,
    /// `inputmode` for phone keyboards.
    #[prop(default = "decimal")]
    inputmode: &'static str,
) -> impl IntoView {
    // Some(text) while the user's text differs from the committed value (typing, or refused).
    let raw = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let shown = move || raw.get().unwrap_or_else(|| value.get());
    let msg_id = format!("{id}-msg");
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        error.set(commit.run(text.clone()));
        raw.set(Some(text));
    };
    let on_change = move |_| {
        if error.get_untracked().is_none() {
            raw.set(None);
        }
    };
    view! {
        <div class="field" class:field--bad=move || error.get().is_some()>
            <label for=id>{label}{(!hint.is_empty()).then(|| view! { <span class="hint">{format!(" ({hint})")}</span> })}</label>
            <input
                id=id
                type="text"
                inputmode=inputmode
                autocomplete="off"
                spellcheck="false"
                prop:value=shown
                placeholder=move || placeholder.get()
                aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                aria-describedby=msg_id.clone()
                on:input=on_input
                on:change=on_change
            />
            <p id=msg_id class="field__msg" role="alert" data-testid=format!("error-{id}")>
                {move || error.get().unwrap_or_default()}
            </p>
        </div>
    }
}
