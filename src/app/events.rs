//! The page's handlers: one per event type, on the element that holds the page's markup, each
//! passing the event to the panel whose control it came from (found by id or data attribute).

use super::parts::Ui;
use super::{browser, dom, embed, figures, gpus, import, inputs, log_check, plan};
use super::{results, State};
use crate::page::{DropPanel, IMPORT_PANEL, LOG_PANEL};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A keystroke in a text field.
pub fn input(state: State, ui: Ui, ev: leptos::ev::Event) {
    ui.history.typed(|| inputs::input(state, &ev));
}

/// Gives a read text (or why a file could not be read) to the panel it was meant for.
fn take(state: State, ui: Ui, panel: &DropPanel, text: Result<String, String>) {
    if panel.text_id == IMPORT_PANEL.text_id {
        import::take(state.scenario, ui, text);
    } else {
        log_check::take(state, text);
    }
}

/// Reads a chosen or dropped file for `panel` (a log is handed to the worker, which reads it).
fn read(state: State, ui: Ui, panel: &'static DropPanel, file: web_sys::File) {
    if panel.text_id != IMPORT_PANEL.text_id {
        log_check::take_file(state, file, panel.max_bytes);
        return;
    }
    import::reading(ui, &file.name());
    // The page may be drawn anew (a change of language) by the time a long file is read.
    browser::read_text(file, panel.max_bytes, move |text| {
        take(state, ui, panel, text)
    });
}

/// A change: the language switch, a file chosen, the embed builder's pickers, or the form. Each
/// is a committed edit: its history entry stays.
pub fn change(state: State, ui: Ui, ev: leptos::ev::Event) {
    let Some(id) = dom::target_id(&ev) else {
        return;
    };
    ui.history.commit();
    let value = event_target_value(&ev);
    if id == "lang" {
        // The page is drawn anew in the language, changing only the markup that differs: the
        // switch keeps the keyboard focus, open panels stay open, pasted text stays.
        let to = kvbudget_core::i18n::Lang::parse(&value);
        state.scenario.update(|s| s.lang = to);
        return;
    }
    if embed::change(ui, &id, &value) {
        return;
    }
    if let Some(panel) = [&IMPORT_PANEL, &LOG_PANEL]
        .into_iter()
        .find(|p| p.file_id == id)
    {
        if let Some(file) = browser::chosen_file(&ev) {
            read(state, ui, panel, file);
        }
    } else {
        inputs::change(state, &id, &ev);
    }
}

/// A click on one of the page's buttons (each panel says whether it was its).
pub fn click(state: State, ui: Ui, ev: leptos::ev::MouseEvent) {
    if browser::target_closest(&ev, "button") {
        ui.history.commit();
    }
    if let Some(text_id) = browser::clicked_data(&ev, "button[data-take]", "data-take") {
        if let Some(panel) = [&IMPORT_PANEL, &LOG_PANEL]
            .into_iter()
            .find(|p| p.text_id == text_id)
        {
            take(state, ui, panel, Ok(dom::control_value(panel.text_id)));
        }
        return;
    }
    if let Some(a) = browser::clicked_data(&ev, "button[data-action]", "data-action") {
        let _ =
            inputs::action(state, &a) || results::action(state, ui, &a) || embed::action(ui, &a);
        return;
    }
    let _ = plan::click(state, ui, &ev)
        || log_check::click(state, &ev)
        || import::click(state.scenario, ui, &ev)
        || figures::click(state, ui, &ev)
        || gpus::click(state, &ev);
}

/// A file dropped on the page: read by the panel it was dropped on (elsewhere the browser's
/// default, opening the file in place of the page, is prevented too).
pub fn drop(state: State, ui: Ui, ev: leptos::ev::DragEvent) {
    let Some(file) = browser::dropped_file(&ev) else {
        return;
    };
    ui.history.commit();
    for panel in [&IMPORT_PANEL, &LOG_PANEL] {
        if browser::target_closest(&ev, &format!("details.{}", panel.class)) {
            read(state, ui, panel, file);
            return;
        }
    }
}

/// One event of the page's, passed to its handler by type.
fn dispatch(state: State, ui: Ui, ev: web_sys::Event) {
    match ev.type_().as_str() {
        "input" => input(state, ui, ev),
        "change" => change(state, ui, ev),
        "click" => {
            if let Ok(ev) = ev.dyn_into::<web_sys::MouseEvent>() {
                click(state, ui, ev);
            }
        }
        "submit" | "dragover" => ev.prevent_default(),
        "drop" => {
            if let Ok(ev) = ev.dyn_into::<web_sys::DragEvent>() {
                drop(state, ui, ev);
            }
        }
        "toggle" => {
            if let Some(d) = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                let open = d.has_attribute("open");
                gpus::toggled(ui, &d, open);
                // The form's settings beyond the first screen: open or closed, in the URL.
                if d.id() == "more-settings" && state.scenario.with_untracked(|s| s.more) != open {
                    state.scenario.update(|s| s.more = open);
                }
            }
        }
        _ => {}
    }
}

/// The page's handler: every event it listens for, with the state of the page drawn last.
type Handler = Box<dyn Fn(web_sys::Event)>;

thread_local! {
    /// The handler of the page drawn last.
    static HANDLER: std::cell::RefCell<Option<Handler>> = const { std::cell::RefCell::new(None) };
}

/// Passes the page's events to the handlers above, with `state` and `ui` (the page drawn last:
/// a change of language draws it anew). One listener on the document per event type, installed
/// with the first page, hears them all: those that bubble as they come up, `toggle` (a
/// `<details>` opening or closing, which does not bubble) as it goes down.
pub fn listen(state: State, ui: Ui) {
    let first = HANDLER.with(|h| {
        h.borrow_mut()
            .replace(Box::new(move |ev| dispatch(state, ui, ev)))
            .is_none()
    });
    let Some(doc) = window().document().filter(|_| first) else {
        return;
    };
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(|ev| {
        HANDLER.with(|h| {
            if let Some(f) = h.borrow().as_ref() {
                f(ev);
            }
        });
    });
    for (kind, capture) in [
        ("input", false),
        ("change", false),
        ("click", false),
        ("submit", false),
        ("dragover", false),
        ("drop", false),
        ("toggle", true),
    ] {
        let _ = doc.add_event_listener_with_callback_and_bool(
            kind,
            listener.as_ref().unchecked_ref(),
            capture,
        );
    }
    // (The page's whole life.)
    listener.forget();
}
