//! The page (wasm32 only): a thin Leptos shell over the core. State is one `PageScenario`; the
//! numbers, words and chart data are memos over the core's pure functions; effects only write the
//! URL. Each panel is a component in `app/`; what they decide is in `crate::page`.

mod browser;
mod drop_panel;
mod embed;
mod field;
mod figures;
mod gpus;
mod import;
mod inputs;
mod log_check;
mod plan;
mod repertoire;
mod results;
mod sglang;
mod state;

use kvbudget_core::query::{decode, encode};
use kvbudget_core::scenario::Embed;
use leptos::prelude::*;

/// Mounts the page on `<body>`.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}

/// Removes the loading message `index.html` shows until the page starts.
pub fn remove_boot_message() {
    browser::remove_element("boot");
}

/// On a panic, after logging it to the console, shows a banner with a link that reloads the page
/// with the default scenario, instead of leaving a page that silently stopped responding.
pub fn install_panic_banner() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        browser::show_panic_banner();
    }));
}

pub use state::{Scn, Shown, State};

/// The calculator.
#[component]
pub fn App() -> impl IntoView {
    #[cfg(feature = "panic-test")]
    if browser::search().contains("panic_test=1") {
        panic!("panic-test: a deliberate panic to test the error banner");
    }
    let (initial, initial_notices) = decode(&browser::search());
    let scenario: Scn = RwSignal::new(initial);
    let notices = RwSignal::new(initial_notices);
    let state = State::new(scenario);
    let fresh_entry = browser::sync_url(move || scenario.with(encode));
    let _popstate = window_event_listener(leptos::ev::popstate, move |_| {
        let (s, n) = decode(&browser::search());
        fresh_entry.set_value(true);
        scenario.set(s);
        notices.set(n);
    });
    let commit_point = move |_| fresh_entry.set_value(true);
    Effect::new(move |_| browser::set_theme(scenario.with(|s| s.theme.key())));
    let embed = move || scenario.with(|s| s.embed);
    view! {
        <Show
            when=move || embed() == Embed::Full
            fallback=move || view! { <embed::EmbedView state/> }
        >
            <a class="skip" href="#results-title">"Skip to the results"</a>
            <header class="top">
                <h1>"kvbudget"</h1>
                <p class="lede">
                    "How many sequences of what context fit next to these weights on this GPU — and what vLLM prints at startup."
                </p>
            </header>
            <results::Notices notices state/>
            <results::AnswerBar state/>
            <main class="layout">
                <form class="inputs" on:change=commit_point on:submit=|ev| ev.prevent_default() aria-label="Scenario">
                    <inputs::Inputs state/>
                </form>
                <div class="outputs">
                    <results::Results state/>
                    <plan::PlanPanel state/>
                    <log_check::LogCheck state/>
                    <figures::Figures state embed=Embed::Full/>
                    <repertoire::Repertoire state/>
                    <gpus::Gpus state/>
                </div>
            </main>
            <footer class="foot">
                <p>"Exact integer arithmetic, computed in your browser; vLLM's accounting per version. The non-KV overhead is estimated from the model and settings (calibrated on published vLLM logs), or the course lab's single figure if you give one."</p>
            </footer>
        </Show>
    }
}
