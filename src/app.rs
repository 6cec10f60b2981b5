//! The page (wasm32 only): a thin Leptos shell over the core. State is one `PageScenario`; the
//! numbers, words and chart data are memos over the core's pure functions; effects only write the
//! URL. Each panel is a component in `app/`; what they decide is in `crate::page`.

mod browser;
mod dom;
mod drop_panel;
mod embed;
mod figures;
mod frame;
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
        browser::keep_boot_chart_width();
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
        let (s, n) = state::decode_in_its_language(&browser::search());
        fresh_entry.set_value(true);
        scenario.set(s);
        notices.set(n);
    });
    let commit_point = move |_| fresh_entry.set_value(true);
    Effect::new(move |_| browser::set_theme(scenario.with(|s| s.theme.key())));
    let lang = state.lang;
    Effect::new(move |_| browser::set_document_lang(lang.get().key(), t!(DOCUMENT_TITLE)));
    // The URL's notices follow a change of language (those still shown are written anew).
    Effect::new(move |prev: Option<Lang>| {
        let l = lang.get();
        if prev.is_some_and(|p| p != l) && notices.with_untracked(|n| !n.is_empty()) {
            notices.set(decode(&browser::search()).1);
        }
        l
    });
    let embed = move || scenario.with(|s| s.embed);
    // The language switch (in the header's HTML text): the page is drawn anew in the language;
    // the switch keeps the keyboard focus and the open panels stay open.
    let switch_lang = move |ev: leptos::ev::Event| {
        let to = Lang::parse(&event_target_value(&ev));
        browser::keep_through_redraw(to.unwrap_or_else(browser::browser_lang));
        scenario.update(|s| s.lang = to);
    };
    // A change of language draws the page anew in it (the scenario, in its signal, stays).
    move || {
        let drawn = lang.get();
        // (Once this view replaces the old one.)
        set_timeout(
            move || browser::restore_after_redraw(drawn, 20),
            std::time::Duration::ZERO,
        );
        view! {
            <Show
                when=move || embed() == Embed::Full
                fallback=move || view! { <embed::EmbedView state/> }
            >
                <div class="part" inner_html=crate::page::header_html(lang.get_untracked()) on:change=switch_lang></div>
                <results::Notices notices state/>
                <results::AnswerBar state/>
                <main class="layout">
                    <form class="inputs" on:change=commit_point on:submit=|ev| ev.prevent_default() aria-label=t!(SCENARIO)>
                        <inputs::Inputs state/>
                    </form>
                    <div class="outputs">
                        <results::Results state/>
                        <plan::PlanPanel state/>
                        <frame::Later><log_check::LogCheck state/></frame::Later>
                        <figures::Figures state embed=Embed::Full/>
                        <frame::Later>
                            <repertoire::Repertoire state/>
                            <gpus::Gpus state/>
                        </frame::Later>
                    </div>
                </main>
                <div class="part" inner_html=crate::page::footer_html()></div>
            </Show>
        }
    }
}
