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

use kvbudget_core::i18n::Lang;
use kvbudget_core::query::{decode, encode};
use kvbudget_core::scenario::Embed;
use kvbudget_core::t;
use leptos::prelude::*;

/// Mounts the page on `<body>`, replacing the loading message `index.html` shows. A reader who
/// arrives in Chinese waits for the Chinese texts first (from the worker), so the page never
/// flashes English.
pub fn start() {
    let mount = |zh: bool| {
        // The URL's notices are written when the page reads it, in the language it will show.
        if zh {
            kvbudget_core::i18n::set_lang(Lang::ZhCn);
        }
        browser::remove_element("boot");
        leptos::mount::mount_to_body(App);
    };
    if state::wanted_lang(&decode(&browser::search()).0) == Lang::ZhCn {
        state::load_zh(mount);
    } else {
        mount(false);
    }
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
    let lang = state.lang;
    Effect::new(move |_| browser::set_document_lang(lang.get().key(), t!(DOCUMENT_TITLE)));
    let embed = move || scenario.with(|s| s.embed);
    // A change of language draws the page anew in it (the scenario, in its signal, stays).
    move || {
        let _ = lang.get();
        view! {
            <Show
                when=move || embed() == Embed::Full
                fallback=move || view! { <embed::EmbedView state/> }
            >
                <a class="skip" href="#results-title">{t!(SKIP_TO_RESULTS)}</a>
                <header class="top">
                    <h1>"kvbudget"</h1>
                    <p class="lede">{t!(LEDE)}</p>
                    <LangSwitch state/>
                </header>
                <results::Notices notices state/>
                <results::AnswerBar state/>
                <main class="layout">
                    <form class="inputs" on:change=commit_point on:submit=|ev| ev.prevent_default() aria-label=t!(SCENARIO)>
                        <inputs::Inputs state/>
                    </form>
                    <div class="outputs">
                        <results::Results state/>
                        <plan::PlanPanel state/>
                        <Later><log_check::LogCheck state/></Later>
                        <figures::Figures state embed=Embed::Full/>
                        <Later>
                            <repertoire::Repertoire state/>
                            <gpus::Gpus state/>
                        </Later>
                    </div>
                </main>
                <footer class="foot">
                    <p>{t!(FOOTER)}</p>
                </footer>
            </Show>
        }
    }
}

/// Panels below the answer, drawn in the frame after the first one, so the numbers and the charts
/// show sooner.
#[component]
fn Later(children: ChildrenFn) -> impl IntoView {
    let shown = RwSignal::new(false);
    request_animation_frame(move || shown.set(true));
    move || shown.get().then(|| children())
}

/// The language switch: each language named in itself.
#[component]
fn LangSwitch(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| s.lang = Lang::parse(&v));
    };
    view! {
        <div class="lang">
            <label for="lang" class="sr-only">{t!(LANGUAGE)}</label>
            <select id="lang" data-testid="lang" on:change=on_change prop:value=move || state.lang.get().key()>
                {Lang::ALL.into_iter().map(|l| view! { <option value=l.key() lang=l.key()>{l.name()}</option> }).collect_view()}
            </select>
        </div>
    }
}
