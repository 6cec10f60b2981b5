//! The page (wasm32 only): a thin Leptos shell over the core. State is one `PageScenario`; the
//! numbers, words and chart data are memos over the core's pure functions. The markup is HTML
//! text drawn once per language (`page::page_html`); each panel in `app/` keeps its parts of it
//! up to date (`app::parts`) and takes its events (`app::events`); what they decide is in
//! `crate::page`.

mod asks;
mod browser;
mod dom;
mod embed;
mod events;
mod figures;
mod gpus;
mod import;
mod inputs;
mod log_check;
mod parts;
mod plan;
mod repertoire;
mod results;
mod sglang;
mod state;
mod views;

use kvbudget_core::i18n::Lang;
use kvbudget_core::query::decode;
use kvbudget_core::scenario::Embed;
use kvbudget_core::t;
use leptos::prelude::*;

/// Mounts the page on `<body>`, replacing what `index.html` shows before the wasm has run (the
/// default scenario prerendered at build time, or the page's skeleton). A reader who
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
        // Effects run on the browser's microtask queue; the page lives under one root owner, for
        // as long as the page.
        let _ = any_spawner::Executor::init_wasm_bindgen();
        let root = Owner::new();
        root.set();
        std::mem::forget(root);
        app();
        browser::mark_live();
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

/// The calculator: its state, and its markup written into one box on `<body>`.
fn app() {
    #[cfg(feature = "panic-test")]
    if browser::search().contains("panic_test=1") {
        panic!("panic-test: a deliberate panic to test the error banner");
    }
    let (mut initial, initial_notices) = decode(&browser::search());
    initial.more |= crate::page::sets_more(&initial);
    let scenario: Scn = RwSignal::new(initial);
    let notices = RwSignal::new(initial_notices);
    let state = State::new(scenario);
    // The URL holds the scenario shown: one the page refuses (more stages than layers) stays out.
    let kept = parts::Kept::new();
    let history = browser::History::follow(move || state.query());
    browser::on_window("popstate", move || {
        let (s, n) = state::decode_in_its_language(&browser::search());
        history.returned();
        // The entry's own values show: text refused in a field belonged to the entry left.
        state.typed.update(|t| t.raw.clear());
        scenario.set(s);
        notices.set(n);
    });
    Effect::new_sync(move |_| browser::set_theme(scenario.with(|s| s.theme.key())));
    let lang = state.lang;
    Effect::new_sync(move |_| browser::set_document_lang(lang.get().key(), t!(DOCUMENT_TITLE)));
    // The URL's notices follow a change of language (those still shown are written anew).
    Effect::new_sync(move |prev: Option<Lang>| {
        let l = lang.get();
        if prev.is_some_and(|p| p != l) && notices.with_untracked(|n| !n.is_empty()) {
            notices.set(decode(&browser::search()).1);
        }
        l
    });
    let embed = Memo::new(move |_| scenario.with(|s| s.embed));
    let root = views::root(lang);
    let Some(page) = browser::body_box("part") else {
        return;
    };
    // A change of language draws the page anew in it (the scenario, in its signal, stays): the new
    // markup changes only what differs from the last (`dom::patch`), so the focus, open panels and
    // text typed into the page stay, and the parts patch what their boxes kept. A change between
    // the full page and an embedded view (back and forward) draws a new page, written whole. Each
    // drawing runs under this effect's owner, which disposes the last one's parts first.
    Effect::new_sync(move |last: Option<(Embed, String)>| {
        let drawn = lang.get();
        let embed = embed.get();
        let last = last.filter(|(e, _)| *e == embed).map(|(_, html)| html);
        let whole = last.is_none();
        if whole {
            kept.reset();
        }
        browser::clear_resize();
        let ui = parts::Ui::new(history, kept);
        let html = if embed == Embed::Full {
            results::parts(state, ui);
            inputs::parts(state);
            import::parts(ui);
            embed::builder_parts(state, ui);
            plan::parts(state);
            log_check::parts(state);
            figures::parts(state, ui, embed);
            gpus::parts(state, ui);
            crate::page::page_html(drawn, None)
        } else {
            embed::post_height();
            figures::parts(state, ui, embed);
            crate::page::embed_html(embed)
        };
        events::listen(state, ui);
        dom::patch(&page, last.as_deref(), &html);
        if whole || views::lost() {
            root.with(|| views::mount_all(embed, state, notices, kept.copied));
        }
        (embed, html)
    });
}
