//! A collapsible panel that takes text pasted, a file chosen, or a file dropped anywhere on it:
//! the config import and the log check both start from one.

use super::{browser, dom};
use crate::page;
use leptos::prelude::*;

/// Paste, choose or drop; `on_text` gets the text (or why a file could not be read).
#[component]
pub fn DropPanel(
    /// The `<details>` class (`import`, `verify`).
    class: &'static str,
    /// The summary line.
    summary: &'static str,
    /// DOM id of the text area (and the base of its `data-testid`).
    text_id: &'static str,
    /// Label of the text area.
    text_label: &'static str,
    /// `data-testid` of the text area.
    text_testid: &'static str,
    /// The button that takes the pasted text, and its `data-testid`.
    button: (&'static str, &'static str),
    /// DOM id of the file input.
    file_id: &'static str,
    /// What the file input accepts.
    accept: &'static str,
    /// The largest file read, in bytes.
    max_bytes: f64,
    /// Called with a file's name when reading it starts.
    on_reading: Callback<String>,
    /// Called with the text, or with why the file could not be read.
    on_text: Callback<Result<String, String>>,
    /// What follows the two inputs.
    children: Children,
) -> impl IntoView {
    let read = move |file: web_sys::File| {
        on_reading.run(file.name());
        // The panel may be gone (a change of language) by the time a long file is read.
        browser::read_text(file, max_bytes, move |text| {
            let _ = on_text.try_run(text);
        });
    };
    // The inputs are HTML text (`page::drop_fields_html`); the panel handles their events.
    let on_change = move |ev: leptos::ev::Event| {
        if dom::target_id(&ev).as_deref() == Some(file_id) {
            if let Some(file) = browser::chosen_file(&ev) {
                read(file);
            }
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if browser::clicked_data(&ev, "button[data-take]", "data-take").as_deref() == Some(text_id)
        {
            on_text.run(Ok(dom::control_value(text_id)));
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        if let Some(file) = browser::dropped_file(&ev) {
            read(file);
        }
    };
    let fields = page::drop_fields_html(
        (text_id, text_label, text_testid),
        button,
        (file_id, accept),
    );
    view! {
        <details class=class on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop
            on:change=on_change on:click=on_click>
            <summary>{summary}</summary>
            <div class="part" inner_html=fields></div>
            {children()}
        </details>
    }
}
