use super::text;
use kvbudget_core::t;
use leptos::prelude::*;

/// The embedded view's headline, with a link that opens the full page (`full`) in a new tab.
#[component]
pub fn EmbedHead(
    #[prop(into)] headline: Signal<String>,
    #[prop(into)] full: Signal<String>,
) -> impl IntoView {
    view! {
        <span data-testid="embed-headline">{move || headline.get()}</span>
        " "
        <a href=move || full.get() target="_blank" rel="noopener">
            {text(|| t!(EM_OPEN))}
        </a>
    }
}
