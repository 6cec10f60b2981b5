use super::text;
use kvbudget_core::t;
use leptos::prelude::*;

/// What the page says about its URL and its scenario: the parameters that were refused (their
/// names in `data-value`) and why the scenario does not evaluate, with a button that dismisses
/// them; hidden while there is nothing to say.
#[component]
pub fn Notices(
    /// The refused parameters' names, and every notice in words.
    #[prop(into)]
    notices: Signal<(String, Vec<String>)>,
    on_dismiss: Callback<()>,
) -> impl IntoView {
    view! {
        <div
            class="notices"
            data-testid="notice"
            data-value=move || notices.with(|n| n.0.clone())
            role="status"
            hidden=move || notices.with(|n| n.1.is_empty())
        >
            <ul>
                {move || {
                    notices.with(|n| n.1.iter().map(|m| view! { <li>{m.clone()}</li> }).collect_view())
                }}
            </ul>
            <button type="button" class="linkish" on:click=move |_| on_dismiss.run(())>
                {text(|| t!(RS_DISMISS))}
            </button>
        </div>
    }
}
