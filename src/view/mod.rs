//! The page's components, written with `view!`: each draws a part of the page from data the page
//! computes (`crate::page`'s view types) and is compiled for every target. In the browser they are
//! mounted into the page (`app`); natively they render to HTML, for the page written into
//! `index.html` at build time (`page::prerender`) and for the tests. Text reaches the document only
//! as Leptos' text nodes and attributes, escaped by construction.

mod answer_bar;
mod card;
mod embed_head;
mod figure;
mod notices;
mod primer;
mod refusal;
mod repertoire;
mod results_bottom;
mod results_top;
mod sglang_panel;

pub use answer_bar::AnswerBar;
pub use card::Card;
pub use embed_head::EmbedHead;
pub use figure::Figure;
pub use notices::Notices;
pub use primer::Primer;
pub use refusal::Refusal;
pub use repertoire::Repertoire;
pub use results_bottom::ResultsBottom;
pub use results_top::ResultsTop;
pub use sglang_panel::SglangPanel;

use kvbudget_core::i18n::Lang;
use leptos::prelude::*;

/// The page's language, provided to the components by whoever mounts or renders them: a text of
/// the interface ([`text`]) follows it.
#[derive(Clone, Copy)]
pub struct PageLang(pub Signal<Lang>);

/// An interface text that follows the page's language: `text(|| t!(NAME))` in a view, or any view
/// made of such texts. (`t!` reads the language the page's language memo set; reading the memo
/// here makes the text change with it.)
pub fn text<T: 'static>(f: fn() -> T) -> impl Fn() -> T + Copy + Send + Sync + 'static {
    let lang = use_context::<PageLang>().map(|l| l.0);
    move || {
        if let Some(l) = lang {
            l.track();
        }
        f()
    }
}

/// Renders a view to HTML in `lang` (natively: the page written at build time, and the tests).
pub fn to_html<V: IntoView + 'static>(lang: Lang, view: impl FnOnce() -> V) -> String {
    let owner = Owner::new();
    owner.with(|| {
        provide_context(PageLang(Signal::stored(lang)));
        view().into_view().to_html()
    })
}

/// A text of a panel's data (`data`: none while there is nothing to show, then the text is
/// empty), as a view that follows the data.
pub fn field<T: Send + Sync + 'static>(
    data: Signal<Option<T>>,
    f: fn(&T) -> String,
) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || data.with(|v| v.as_ref().map(f).unwrap_or_default())
}

/// A table's column heading, an interface text.
pub fn column_head(f: fn() -> &'static str) -> impl IntoView {
    view! { <th scope="col">{text(f)}</th> }
}
