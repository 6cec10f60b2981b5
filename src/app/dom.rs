//! Writes into markup the page set as HTML text (the form): a control's value, a field's text,
//! placeholder and message, a block shown or hidden. A missing element is skipped: the markup
//! and these writes come from the same tables, so that only happens while the page is redrawn.

use crate::page::{patch, FieldNow};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Node};

fn by_id(id: &str) -> Option<Element> {
    window().document()?.get_element_by_id(id)
}

fn query(selector: &str) -> Option<web_sys::Element> {
    window().document()?.query_selector(selector).ok()?
}

/// The id of the element an event comes from.
pub fn target_id(ev: &leptos::ev::Event) -> Option<String> {
    Some(ev.target()?.dyn_into::<web_sys::Element>().ok()?.id())
}

/// Sets the value of an `<input>`, `<select>` or `<textarea>`, unless it already has it (so the
/// caret of a field being typed into never moves).
pub fn set_control_value(id: &str, value: &str) {
    let Some(el) = by_id(id) else { return };
    if let Some(i) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        if i.value() != value {
            i.set_value(value);
        }
    } else if let Some(s) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
        if s.value() != value {
            s.set_value(value);
        }
    } else if let Some(t) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        if t.value() != value {
            t.set_value(value);
        }
    }
}

/// What [`patch_html`] wrote last into a box, and the box's nodes as that write left them.
#[derive(Default)]
struct Written {
    html: String,
    nodes: patch::Mirror<Node>,
}

thread_local! {
    /// What [`patch_html`] wrote last into each box, by the box's id (a few dozen boxes: a list
    /// is smaller code than a map). It outlives the drawing whose part wrote it: a new drawing in
    /// another language patches the boxes the page's markup kept (an open primer stays open).
    /// Forgotten when the page is written whole; the nodes are forgotten whenever the page's
    /// markup is patched (that may write a box's content whole, or the box itself).
    static LAST: std::cell::RefCell<Vec<(String, Written)>> = Default::default();
}

/// Changes the markup inside the element with this id to `new`, touching only what differs from
/// what was written there last (`page::patch`; written whole the first time).
pub fn patch_html(id: &str, new: &str) {
    let Some(root) = by_id(id) else { return };
    // (Out of the list while the DOM is changed, in case an event that change sends writes a box.)
    let mut w = LAST
        .with(|l| {
            let mut l = l.borrow_mut();
            let i = l.iter().position(|(k, _)| k == id)?;
            Some(l.swap_remove(i).1)
        })
        .unwrap_or_default();
    patch::patch(&Page, &root, &mut w.nodes, &w.html, new);
    new.clone_into(&mut w.html);
    LAST.with(|l| {
        let mut l = l.borrow_mut();
        match l.iter().position(|(k, _)| k == id) {
            // Written meanwhile: what the box holds is not known, so it is written whole next time.
            Some(i) => l[i].1 = Written::default(),
            None => l.push((id.to_string(), w)),
        }
    });
}

/// Changes the markup inside `root` from `old` to `new` (written whole when `old` is `None`, and
/// then what the boxes inside held is forgotten).
pub fn patch(root: &Element, old: Option<&str>, new: &str) {
    match old {
        Some(old) => {
            LAST.with(|l| {
                for (_, w) in l.borrow_mut().iter_mut() {
                    w.nodes = patch::Mirror::default();
                }
            });
            patch::patch(&Page, root, &mut patch::Mirror::default(), old, new)
        }
        None => {
            LAST.with(|l| l.borrow_mut().clear());
            root.set_inner_html(new);
        }
    }
}

/// The page's DOM, for `page::patch`.
struct Page;

impl patch::Dom for Page {
    type Node = Node;
    fn kids(&self, n: &Node) -> Vec<Node> {
        let mut out = Vec::new();
        let mut next = n.first_child();
        while let Some(k) = next {
            next = k.next_sibling();
            out.push(k);
        }
        out
    }
    fn holds(&self, parent: &Node, n: &Node) -> bool {
        // (Inside it, rather than its child: one call, and a node something wrapped in place
        // still shows what is written into it.)
        parent.contains(Some(n))
    }
    fn is(&self, n: &Node, tag: &str) -> bool {
        match tag {
            "" => n.node_type() == Node::TEXT_NODE,
            _ => n.node_name().eq_ignore_ascii_case(tag),
        }
    }
    fn set_attr(&self, n: &Node, name: &str, value: &str) {
        let _ = n.unchecked_ref::<Element>().set_attribute(name, value);
    }
    fn unset_attr(&self, n: &Node, name: &str) {
        let _ = n.unchecked_ref::<Element>().remove_attribute(name);
    }
    fn set_text(&self, n: &Node, text: &str) {
        n.set_node_value(Some(text));
    }
    fn set_inner(&self, n: &Node, html: &str) {
        n.unchecked_ref::<Element>().set_inner_html(html);
    }
    fn remove(&self, parent: &Node, n: &Node) {
        let _ = parent.remove_child(n);
    }
    fn insert_before(&self, next: &Node, html: &str) -> bool {
        next.dyn_ref::<Element>()
            .is_some_and(|e| e.insert_adjacent_html("beforebegin", html).is_ok())
    }
    fn append(&self, n: &Node, html: &str) {
        let _ = n
            .unchecked_ref::<Element>()
            .insert_adjacent_html("beforeend", html);
    }
}

/// Sets the text of the element `#id`.
pub fn set_text(id: &str, text: &str) {
    if let Some(el) = by_id(id) {
        el.set_text_content(Some(text));
    }
}

/// Shows the element with this id when `shown` is `"1"`, else hides it.
pub fn show_if(id: &str, shown: &str) {
    if let Some(el) = by_id(id) {
        let _ = if shown == "1" {
            el.remove_attribute("hidden")
        } else {
            el.set_attribute("hidden", "")
        };
    }
}

/// The text in an `<input>` or a `<textarea>` (empty when there is none).
pub fn control_value(id: &str) -> String {
    let Some(el) = by_id(id) else {
        return String::new();
    };
    match el.dyn_ref::<web_sys::HtmlInputElement>() {
        Some(i) => i.value(),
        None => el
            .dyn_ref::<web_sys::HtmlTextAreaElement>()
            .map(|t| t.value())
            .unwrap_or_default(),
    }
}

/// Ticks or clears a checkbox.
pub fn set_checked(id: &str, on: bool) {
    if let Some(i) = by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok()) {
        i.set_checked(on);
    }
}

/// Shows or hides the block `[data-when="key"]`.
pub fn set_block_shown(key: &str, shown: bool) {
    if let Some(b) = query(&format!(r#"[data-when="{key}"]"#)) {
        let _ = if shown {
            b.remove_attribute("hidden")
        } else {
            b.set_attribute("hidden", "")
        };
    }
}

/// Opens or closes the `<details>` with this id.
pub fn set_open(id: &str, open: bool) {
    if let Some(el) = by_id(id) {
        let _ = el.toggle_attribute_with_force("open", open);
    }
}

/// Sets an attribute of the first element matching `selector`.
pub fn set_attr(selector: &str, attr: &str, value: &str) {
    if let Some(e) = query(selector) {
        let _ = e.set_attribute(attr, value);
    }
}

/// Sets the text of `[data-testid="id"]`.
pub fn set_testid_text(id: &str, text: &str) {
    if let Some(e) = query(&format!(r#"[data-testid="{id}"]"#)) {
        e.set_text_content(Some(text));
    }
}

/// Writes a text field: its text, its placeholder, and its message with `aria-invalid` and the
/// field's bad state; `old` is what was written last (`None`: everything is written).
pub fn show_field(f: &FieldNow, old: Option<&FieldNow>) {
    if old.is_some_and(|o| o == f) {
        return;
    }
    if old.is_none_or(|o| o.value != f.value) {
        set_control_value(f.id, &f.value);
    }
    let Some(input) = by_id(f.id) else { return };
    if old.is_none_or(|o| o.placeholder != f.placeholder) {
        let _ = input.set_attribute("placeholder", &f.placeholder);
    }
    if old.is_none_or(|o| o.error != f.error) {
        let bad = !f.error.is_empty();
        let _ = input.set_attribute("aria-invalid", if bad { "true" } else { "false" });
        if let Some(field) = input.parent_element() {
            let _ = field.class_list().toggle_with_force("field--bad", bad);
        }
        if let Some(msg) = by_id(&format!("{}-msg", f.id)) {
            msg.set_text_content(Some(&f.error));
        }
    }
}
