//! The page's components (`crate::view`) mounted into their boxes in the page's markup. They
//! live under the page's root owner, not under the drawing that wrote the markup: a change of
//! language redraws the markup around them and leaves them (their texts follow the language), so
//! an opened primer stays open. Written whole (the first time, or between the full page and an
//! embedded view), the page's boxes are new and the components are mounted anew; so they are when
//! a redrawing had to write a box's surroundings whole (the DOM no longer matched the markup).

use super::{embed, repertoire, results, State};
use kvbudget_core::i18n::Lang;
use kvbudget_core::query::Notice;
use kvbudget_core::scenario::Embed;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// Each mounted component's box, and what keeps the component: dropping it unmounts it.
    static MOUNTED: std::cell::RefCell<Vec<(web_sys::HtmlElement, Box<dyn std::any::Any>)>> =
        Default::default();
    /// The owner of the components mounted now, and of their memos and effects.
    static OWNER: std::cell::RefCell<Option<Owner>> = const { std::cell::RefCell::new(None) };
}

/// The page's root owner, which the components live under through redrawings of the markup,
/// giving them the page's language.
pub fn root(lang: Memo<Lang>) -> Owner {
    provide_context(crate::view::PageLang(lang.into()));
    Owner::current().expect("the page's root owner")
}

/// Mounts `view` into the element `#id` (emptied first), under the current owner.
pub fn mount<V: IntoView + 'static>(id: &str, view: impl FnOnce() -> V + 'static) {
    let Some(el) = document()
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    el.set_text_content(None);
    let handle = leptos::mount::mount_to(el.clone(), view);
    MOUNTED.with(|m| m.borrow_mut().push((el, Box::new(handle))));
}

/// Whether a component's box has left the page (a redrawing wrote its surroundings whole).
pub fn lost() -> bool {
    MOUNTED.with(|m| m.borrow().iter().any(|(el, _)| !el.is_connected()))
}

/// Mounts the components of the page just written whole (`embed`: the full page or an embedded
/// view), with their memos and effects, under the current owner (the page's root, not the
/// drawing's), unmounting those of the page it replaced.
pub fn mount_all(
    embed: Embed,
    state: State,
    notices: RwSignal<Vec<Notice>>,
    copied: RwSignal<String>,
) {
    let replaced = MOUNTED.with(|m| std::mem::take(&mut *m.borrow_mut()));
    drop(replaced);
    if let Some(old) = OWNER.with(|o| o.borrow_mut().take()) {
        old.cleanup();
    }
    let owner = Owner::new();
    owner.with(|| {
        if embed == Embed::Full {
            results::mount(state, notices, copied);
            repertoire::mount(state);
        } else {
            results::mount_notices(state, notices);
            embed::mount_view(state);
        }
    });
    OWNER.with(|o| *o.borrow_mut() = Some(owner));
}
