use super::text;
use crate::page::primer;
use kvbudget_core::t;
use leptos::prelude::*;

/// The primer, "The KV cache in one minute": static text in the page's language (drawn once, so a
/// reader's opening it survives edits and a change of language).
#[component]
pub fn Primer() -> impl IntoView {
    view! {
        <details class="primer">
            <summary>{text(|| t!(RS_PRIMER_TITLE))}</summary>
            {text(|| primer().map(|p| view! { <p>{p}</p> }))}
        </details>
    }
}
