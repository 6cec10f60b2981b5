use super::{field, text, Figure};
use crate::page::CardView;
use kvbudget_core::t;
use leptos::prelude::*;

/// The embedded card: the refusal (if the engine would refuse), the four figures, vLLM's lines.
#[component]
pub fn Card(#[prop(into)] card: Signal<Option<CardView>>) -> impl IntoView {
    let lines = field(card, |c| c.lines.clone());
    let shown = Memo::new(move |_| card.with(Option::is_some));
    let panel = move || {
        view! {
            <section class="results results--card">
                {move || {
                    card.with(|c| c.as_ref()?.refusal)
                        .map(|(key, summary)| {
                            view! {
                                <p class="refusal" data-testid="refusal" data-value=key>
                                    <strong>{text(|| t!(RS_WOULD_REFUSE))}</strong>
                                    {summary}
                                </p>
                            }
                        })
                }}
                <div class="stats">
                    {move || {
                        card.with(|c| {
                            c.iter()
                                .flat_map(|c| c.stats.iter().cloned())
                                .map(|stat| view! { <Figure stat /> })
                                .collect_view()
                        })
                    }}
                </div>
                <pre class="log" data-testid="vllm-lines" data-value=lines>{lines}</pre>
            </section>
        }
    };
    move || shown.get().then(panel)
}
