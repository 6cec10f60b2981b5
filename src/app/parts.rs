//! The parts of the page an edit rewrites. The page's markup is HTML text drawn once per language
//! (`page::page_html`, `page::embed_html`) with an empty box for each part; each part is one
//! effect that computes its text from the state and writes it into its box when it changed. All
//! parts share one effect type (the text as a boxed closure), which keeps the page's code small.
//! The page's effects are `Effect::new_sync`: `Effect::new` keeps its effect in a `SendWrapper`,
//! which links `std::thread::current` (4 KB of wasm) to note a thread the page never leaves.

use super::dom;
use kvbudget_core::scenario::{Embed, Theme};
use leptos::prelude::*;

/// A part's text, computed from the state (reading it subscribes the part to what it reads).
pub type Text = Box<dyn Fn() -> String + Send + Sync>;

/// Keeps `write(id, text())` up to date: written first when the page is drawn, then whenever the
/// text changes.
pub fn watch(id: String, text: Text, write: fn(&str, &str)) {
    Effect::new_sync(move |prev: Option<String>| {
        let now = text();
        if prev.as_deref() != Some(now.as_str()) {
            write(&id, &now);
        }
        now
    });
}

/// Keeps the markup inside the element `#id` equal to `html()`, changing only what differs from
/// the last write (`dom::patch_html`), so an edit costs the browser only the elements it changes,
/// and a focused element or an opened `<details>` stays as it was.
pub fn part(id: &str, html: Text) {
    watch(id.to_string(), html, dom::patch_html);
}

/// Shows the element `#id` while `shown()` (hides it otherwise).
pub fn shown_while(id: &str, shown: Box<dyn Fn() -> bool + Send + Sync>) {
    let text: Text = Box::new(move || if shown() { "1" } else { "" }.to_string());
    watch(id.to_string(), text, dom::show_if);
}

/// What the reader set in the page's panels, kept through a change of language (whose new drawing
/// patches the old, so these panels stay as they were), and reset by a change between the full
/// page and an embedded view (which draws a page anew).
#[derive(Clone, Copy)]
pub struct Kept {
    /// The embed builder: open, and its view and theme.
    pub embed_open: RwSignal<bool>,
    pub embed: RwSignal<(Embed, Theme)>,
    /// Whether the GPU table is open (it is computed only then).
    pub gpus_open: RwSignal<bool>,
    /// What the last copy said ("Link copied", …), for a few seconds.
    pub copied: RwSignal<String>,
}

/// The embed builder's view and theme as a new page draws its pickers: their first options.
const FIRST_EMBED: (Embed, Theme) = (Embed::Compact, Theme::Light);

impl Kept {
    pub fn new() -> Self {
        Kept {
            embed_open: RwSignal::new(false),
            embed: RwSignal::new(FIRST_EMBED),
            gpus_open: RwSignal::new(false),
            copied: RwSignal::new(String::new()),
        }
    }

    /// The panels closed and the builder's pickers at their first options, as a new page draws them.
    pub fn reset(self) {
        self.embed_open.set(false);
        self.embed.set(FIRST_EMBED);
        self.gpus_open.set(false);
    }
}

/// What the page's own controls hold besides the scenario: made anew each time the page is drawn
/// (a change of language), except the history entries and what [`Kept`] holds, which outlive it.
#[derive(Clone, Copy)]
pub struct Ui {
    /// The history entries the URL is written into.
    pub history: super::browser::History,
    /// What the last copy said ("Link copied", …), for a few seconds.
    pub copied: RwSignal<String>,
    /// The embed builder: open, and its view and theme.
    pub embed_open: RwSignal<bool>,
    pub embed: RwSignal<(Embed, Theme)>,
    /// What the last config import said, as HTML text.
    pub import: RwSignal<String>,
    /// Whether the GPU table is open (it is computed only then).
    pub gpus_open: RwSignal<bool>,
    /// The width the charts are drawn at (`None` until known).
    pub chart_width: RwSignal<Option<u32>>,
}

impl Ui {
    pub fn new(history: super::browser::History, kept: Kept) -> Self {
        // (What the last copy said was said in the language the page is no longer drawn in.)
        kept.copied.set(String::new());
        Ui {
            history,
            copied: kept.copied,
            embed_open: kept.embed_open,
            embed: kept.embed,
            import: RwSignal::new(super::import::hint_html(kvbudget_core::t!(IM_IDLE))),
            gpus_open: kept.gpus_open,
            chart_width: RwSignal::new(super::browser::take_boot_chart_width()),
        }
    }
}
