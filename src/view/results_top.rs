use super::{field, text, Figure, Refusal, SglangPanel};
use crate::page::TopView;
use kvbudget_core::t;
use leptos::either::Either;
use leptos::prelude::*;

/// The results panel from its heading to the engine's startup lines: the title, the answer for
/// screen readers, a refusal with its fixes, the four figures, the range note, the warnings, the
/// lines; under SGLang its own figures after them. Before any scenario has evaluated, a line
/// that asks for one.
#[component]
pub fn ResultsTop(
    #[prop(into)] top: Signal<Option<TopView>>,
    /// A fix chosen: its place in the refusal's list.
    on_fix: Callback<usize>,
) -> impl IntoView {
    let lines = field(top, |v| v.lines.clone());
    let shown = Memo::new(move |_| top.with(Option::is_some));
    let stale = move || top.with(|v| v.as_ref().is_some_and(|v| v.stale));
    let panel = move || {
        view! {
            <h2 id="results-title">{field(top, |v| v.title.clone())}</h2>
            <p class="sr-only" aria-live="polite">{field(top, |v| v.answer.clone())}</p>
            {move || {
                top.with(|v| v.as_ref()?.refusal.clone())
                    .map(|r| view! { <Refusal refusal=r on_fix /> })
            }}
            <div class="stats" class:stale=stale>
                {move || {
                    top.with(|v| {
                        v.iter()
                            .flat_map(|v| v.stats.iter().cloned())
                            .map(|stat| view! { <Figure stat sub=true /> })
                            .collect_view()
                    })
                }}
            </div>
            {move || {
                top.with(|v| v.as_ref().is_some_and(|v| v.range_note))
                    .then(|| {
                        view! {
                            <p class="hint" data-testid="range-note">
                                {text(|| t!(RS_RANGE_NOTE))}
                            </p>
                        }
                    })
            }}
            <ul class="warnings" data-testid="notes">
                {move || {
                    top.with(|v| {
                        v.iter()
                            .flat_map(|v| v.warnings.iter().cloned())
                            .map(|w| view! { <li>{w}</li> })
                            .collect_view()
                    })
                }}
            </ul>
            <h3 data-testid="lines-heading">{field(top, |v| v.lines_heading.clone())}</h3>
            <pre
                class="log"
                class:stale=stale
                data-testid="vllm-lines"
                data-value=lines
            >
                {lines}
            </pre>
            {move || {
                top.with(|v| v.as_ref()?.sglang.clone())
                    .map(|panel| view! { <SglangPanel panel /> })
            }}
        }
    };
    move || match shown.get() {
        true => Either::Left(panel()),
        false => Either::Right(view! { <p>{text(|| t!(RS_ENTER_VALID))}</p> }),
    }
}
