use super::text;
use crate::page::{Fixes, RefusalView};
use kvbudget_core::t;
use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;

/// Why the engine would not start: what it means, the exception it raises, and the changes that
/// make it start, each a button (`on_fix` gets its place in the list).
#[component]
pub fn Refusal(refusal: RefusalView, on_fix: Callback<usize>) -> impl IntoView {
    let RefusalView {
        key,
        summary,
        error,
        note,
        fixes,
    } = refusal;
    // The engine's exception as it prints it, or, where its text is not known, kvbudget's words.
    let error = if error.is_empty() {
        Either::Left(view! { <p class="refusal__note" data-testid="refusal-note">{note}</p> })
    } else {
        Either::Right(view! {
            <p class="refusal__error">
                <code>{error}</code>
            </p>
        })
    };
    let fixes = match fixes {
        Fixes::Checking => {
            EitherOf3::A(view! { <p class="hint">{text(|| t!(RS_CHECKING_FIXES))}</p> })
        }
        Fixes::Failed(why) => EitherOf3::B(view! { <p>{why}</p> }),
        Fixes::Found(found) => EitherOf3::C(view! {
            {found.is_empty().then(|| view! { <p>{text(|| t!(RS_NO_FIX))}</p> })}
            <ul class="fixes">
                {found
                    .into_iter()
                    .enumerate()
                    .map(|(i, f)| {
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class="fix"
                                    data-testid="fix"
                                    data-fix=f.key
                                    on:click=move |_| on_fix.run(i)
                                >
                                    {f.label}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }),
    };
    view! {
        <div class="refusal" role="alert" data-testid="refusal" data-value=key>
            <p>
                <strong>{text(|| t!(RS_WOULD_REFUSE))}</strong>
                {summary}
            </p>
            {error}
            <p>
                <strong>{text(|| t!(RS_WHAT_MAKES_IT_START))}</strong>
                {text(|| t!(RS_EACH_CHECKED))}
            </p>
            {fixes}
        </div>
    }
}
