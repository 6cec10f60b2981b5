//! kvbudget: the web page (wasm32) and the `kvbudget` command line (native) over one core.

// Leptos views are nested types; the native build (without erased components) needs the room.
#![recursion_limit = "256"]

pub use kvbudget_core as core;

pub mod charts;
pub mod page;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

/// Text made safe to place inside HTML or SVG text or a double-quoted attribute (the page's
/// markup and the charts' labels).
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
