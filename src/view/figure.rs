use kvbudget_core::engines::Stat;
use leptos::prelude::*;

/// One figure: its label, its value (with its exact `data-value` under its `data-testid`) and,
/// when `sub`, the line under it.
#[component]
pub fn Figure(stat: Stat, #[prop(optional)] sub: bool) -> impl IntoView {
    let Stat {
        label,
        testid,
        value,
        text,
        sub: under,
    } = stat;
    view! {
        <div class="stat">
            <p class="stat__label">{label}</p>
            <p class="stat__value" data-testid=testid data-value=value>{text}</p>
            {sub.then(|| view! { <p class="stat__sub">{under}</p> })}
        </div>
    }
}
