use leptos::prelude::*;

/// The answer in one line (`refused`: the engine would not start), a link to the results; pinned
/// to the bottom of narrow screens, where the results sit below the inputs.
#[component]
pub fn AnswerBar(#[prop(into)] answer: Signal<(String, bool)>) -> impl IntoView {
    view! {
        <p class="answer" class:answer--refused=move || answer.with(|a| a.1)>
            <a href="#results-title">{move || answer.with(|a| a.0.clone())}</a>
        </p>
    }
}
