//! The page's components (`crate::view`) mounted into their boxes in the page's markup. They
//! live under the page's root owner, not under the drawing that wrote the markup: a change of
//! language redraws the markup around them and leaves them (their texts follow the language), so
//! an opened primer or a focused fix stays. Written whole (the first time, or between the full
//! page and an embedded view), the page's boxes are new and the components are mounted anew.

use kvbudget_core::i18n::Lang;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// What keeps each mounted component: dropping it unmounts the component.
    static MOUNTED: std::cell::RefCell<Vec<Box<dyn std::any::Any>>> = Default::default();
}

/// Unmounts every component (the page is about to be written whole).
pub fn unmount_all() {
    let mounted = MOUNTED.with(|m| std::mem::take(&mut *m.borrow_mut()));
    drop(mounted);
}

/// Gives the components the page's language (under the root owner, before any is mounted).
pub fn provide_lang(lang: Memo<Lang>) {
    provide_context(crate::view::PageLang(lang.into()));
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
    let handle = leptos::mount::mount_to(el, view);
    MOUNTED.with(|m| m.borrow_mut().push(Box::new(handle)));
}
