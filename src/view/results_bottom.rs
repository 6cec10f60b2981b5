use super::{field, text};
use crate::page::BottomView;
use kvbudget_core::t;
use leptos::either::Either;
use leptos::prelude::*;

/// The results after the primer: the derivations (a term with a meaning is defined on hover, on
/// keyboard focus and on a tap), the formula against the engine's blocks, and the serve command.
#[component]
pub fn ResultsBottom(#[prop(into)] bottom: Signal<Option<BottomView>>) -> impl IntoView {
    let serve = field(bottom, |v| v.serve.clone());
    let shown = Memo::new(move |_| bottom.with(Option::is_some));
    let panel = move || {
        view! {
            <h3>{text(|| t!(RS_HOW))}</h3>
            <dl class="derivation" data-testid="derivations">
                {move || {
                    bottom.with(|v| {
                        v.iter()
                            .flat_map(|v| v.derivations.iter().cloned())
                            .enumerate()
                            .map(|(i, d)| {
                                // The definition shows on hover, on keyboard focus and on a tap
                                // (which focuses the term), and describes the term to a screen
                                // reader.
                                let term = match d.definition {
                                    Some(def) => Either::Left(view! {
                                        <span
                                            class="term"
                                            tabindex="0"
                                            aria-describedby=format!("def-{i}")
                                        >
                                            {d.term}
                                        </span>
                                        <span class="term__def" role="tooltip" id=format!("def-{i}")>
                                            {def}
                                        </span>
                                    }),
                                    None => Either::Right(view! { <span>{d.term}</span> }),
                                };
                                view! {
                                    <dt>{term}</dt>
                                    <dd>{d.value}</dd>
                                }
                            })
                            .collect_view()
                    })
                }}
            </dl>
            <h3>{text(|| t!(RS_SERVE_IT))}</h3>
            {move || {
                bottom.with(|v| v.as_ref().is_some_and(|v| v.refused))
                    .then(|| view! { <p class="hint">{text(|| t!(RS_REFUSED_COMMAND))}</p> })
            }}
            <pre class="cmd" data-testid="serve-command" data-value=serve>{serve}</pre>
        }
    };
    move || shown.get().then(panel)
}
