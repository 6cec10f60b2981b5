//! Browser glue, every call the page makes to the browser: location, history, clipboard, files,
//! downloads, network and yielding to the event loop. Every call's failure is handled (ignored
//! with a fallback, or reported), never unwrapped: a browser that refuses (Safari's replaceState
//! limit, a clipboard without permission, a blocked request) must not break the page.

use kvbudget_core::handoff::{self, Answer, Envelope, Reply, Request};
use kvbudget_core::i18n::Lang;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// `location.search` (with its `?`), or empty.
pub fn search() -> String {
    window().location().search().unwrap_or_default()
}

/// The page's URL without query or fragment.
pub fn base_url() -> String {
    let l = window().location();
    let origin = l.origin().unwrap_or_default();
    let path = l.pathname().unwrap_or_default();
    format!("{origin}{path}")
}

/// The URL for a query string.
pub fn url_for(query: &str) -> String {
    if query.is_empty() {
        base_url()
    } else {
        format!("{}?{query}", base_url())
    }
}

fn same_as_current(query: &str) -> bool {
    search().trim_start_matches('?') == query
}

/// Replaces the current history entry's URL (no new entry).
pub fn replace(query: &str) {
    if same_as_current(query) {
        return;
    }
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url_for(query)));
    }
}

/// Adds a history entry for the URL, unless it is already the current one.
pub fn push(query: &str) {
    if same_as_current(query) {
        return;
    }
    if let Ok(h) = window().history() {
        let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url_for(query)));
    }
}

/// Copies text to the clipboard, then calls `done` with whether the browser allowed it
/// (a refusal is reported to the user, never left as an unhandled rejection).
pub fn copy(text: &str, done: impl FnOnce(bool) + 'static) {
    let promise = window().navigator().clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done(ok);
    });
}

/// Puts a fixed banner on the page saying that it stopped, with a "reset to defaults" link.
/// Built with plain DOM calls: after a panic the reactive system cannot be trusted.
pub fn show_panic_banner() {
    let Some(doc) = window().document() else {
        return;
    };
    let Some(body) = doc.body() else { return };
    if doc.get_element_by_id("panic-banner").is_some() {
        return;
    }
    let Ok(banner) = doc.create_element("div") else {
        return;
    };
    banner.set_id("panic-banner");
    let _ = banner.set_attribute("role", "alert");
    let _ = banner.set_attribute("data-testid", "panic-banner");
    banner.set_text_content(Some(kvbudget_core::t!(PB_ERROR)));
    if let Ok(link) = doc.create_element("a") {
        // The reset keeps the reader's language.
        let lang = kvbudget_core::i18n::lang();
        let href = match lang {
            Lang::En => base_url(),
            l => format!("{}?lang={}", base_url(), l.key()),
        };
        let _ = link.set_attribute("href", &href);
        link.set_text_content(Some(kvbudget_core::t!(IN_RESET)));
        let _ = banner.append_child(&link);
    }
    let _ = body.prepend_with_node_1(&banner);
}

/// Offers `text` as a file download.
pub fn download(name: &str, text: &str, mime: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    let Some(doc) = window().document() else {
        return;
    };
    if let Ok(a) = doc.create_element("a") {
        let _ = a.set_attribute("href", &url);
        let _ = a.set_attribute("download", name);
        if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
            a.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// The first file of a file input's change event.
pub fn chosen_file(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    let input = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())?;
    input.files()?.get(0)
}

/// The first file of a drop event (the browser's default of opening it is prevented).
pub fn dropped_file(ev: &leptos::ev::DragEvent) -> Option<web_sys::File> {
    ev.prevent_default();
    ev.data_transfer()?.files()?.get(0)
}

/// Why a file over `max_bytes` is not read, naming it and its size.
pub fn too_big(file: &web_sys::File, max_bytes: f64) -> Option<String> {
    (file.size() > max_bytes)
        .then(|| kvbudget_core::t!(br_file_too_big(&file.name(), file.size() as u64)).to_string())
}

/// Reads a file as text, refusing ones over `max_bytes`; `done` gets the text or the message.
pub fn read_text(
    file: web_sys::File,
    max_bytes: f64,
    done: impl FnOnce(Result<String, String>) + 'static,
) {
    let name = file.name();
    if let Some(e) = too_big(&file, max_bytes) {
        done(Err(e));
        return;
    }
    let promise = file.text();
    leptos::task::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .ok()
            .and_then(|v| v.as_string());
        done(text.ok_or_else(|| kvbudget_core::t!(br_not_text(&name))));
    });
}

/// Calls `f` when the browser is idle, within 250 ms (at once after a timer where the browser
/// has no idle callbacks).
fn when_idle(f: impl FnOnce() + 'static) {
    let f = wasm_bindgen::closure::Closure::once_into_js(f);
    let options = web_sys::IdleRequestOptions::new();
    options.set_timeout(250);
    let w = window();
    if w.request_idle_callback_with_options(f.unchecked_ref(), &options)
        .is_err()
    {
        let _ = w.set_timeout_with_callback(f.unchecked_ref());
    }
}

/// The page's history entries. The URL's query follows the scenario shown: a keystroke's change
/// is written 250 ms after the last one, into an entry of its own that later keystrokes replace;
/// any other change (a pick, a field left, a button: an import, a fix, a log's numbers) is written
/// 100 ms after it, into a new entry, and that entry is kept: Back then returns to the scenario
/// before the change. The page's own first write (the URL it was opened with, in its canonical
/// form) replaces the entry: Back leaves the page rather than returning to the same scenario spelt
/// differently.
#[derive(Clone, Copy)]
pub struct History {
    /// The current entry stays: the next write adds one.
    kept: StoredValue<bool>,
    /// The next change comes from a keystroke.
    typing: StoredValue<bool>,
    /// The write waiting for its timer: the query, and whether a keystroke made it.
    pending: StoredValue<Option<(String, bool)>>,
    /// Counts the writes asked for: a timer whose write is no longer the latest does nothing.
    generation: StoredValue<u64>,
    /// The opening write is done.
    opened: StoredValue<bool>,
}

impl History {
    /// Keeps the URL's query equal to `query()`.
    pub fn follow(query: impl Fn() -> String + Send + Sync + 'static) -> Self {
        let h = History {
            kept: StoredValue::new(true),
            typing: StoredValue::new(false),
            pending: StoredValue::new(None),
            generation: StoredValue::new(0),
            opened: StoredValue::new(false),
        };
        Effect::new_sync(move |prev: Option<()>| {
            let q = query();
            let keystroke = std::mem::take(&mut *h.typing.write_value());
            let timed = prev.is_none() || keystroke;
            if !timed {
                // The opening write or a keystroke's still waiting comes first: its entry
                // precedes this change's.
                h.flush_timed();
            }
            h.generation.update_value(|g| *g += 1);
            let mine = h.generation.get_value();
            h.pending.set_value(Some((q, keystroke)));
            let flush = move || {
                if h.generation.get_value() == mine {
                    h.flush();
                }
            };
            if timed {
                set_timeout(flush, Duration::from_millis(250));
            } else {
                // A change's own write comes 100 ms after it, once the browser is idle: a new
                // history entry costs the page a few ms (Chromium saves the form's state with
                // it), which written in the task after each change delayed that change's frame
                // (paired runs of 360 model changes: 24.7 → 30.3 ms median), and written at idle
                // after each change, the changes after it (input → DOM p95 12.6 → 16.8 ms in
                // changes 60 ms apart). Changes closer than that share one entry.
                set_timeout(move || when_idle(flush), Duration::from_millis(100));
            }
        });
        h
    }

    /// A keystroke: the change `apply` makes is a keystroke's. (Only that change: a keystroke
    /// that changes nothing leaves no mark on the next change, e.g. an import's answer.)
    pub fn typed(self, apply: impl FnOnce()) {
        self.typing.set_value(true);
        apply();
        // (Queued after the effect that `apply`'s change woke, which reads the mark.)
        leptos::task::spawn_local(async move { self.typing.set_value(false) });
    }

    /// A committed edit (a field left, a pick, a button, a file): a keystroke's write still
    /// waiting is written now, and the entry it is in stays.
    pub fn commit(self) {
        self.typing.set_value(false);
        self.flush_timed();
        self.kept.set_value(true);
    }

    /// Back or forward: the entry arrived at is shown and stays; a write still waiting belonged
    /// to the entry left, and is dropped.
    pub fn returned(self) {
        self.typing.set_value(false);
        self.generation.update_value(|g| *g += 1);
        self.pending.set_value(None);
        self.kept.set_value(true);
    }

    /// Writes now the opening write or a keystroke's, if one is waiting (a change's own write
    /// keeps its time).
    fn flush_timed(self) {
        let keystroke = self.pending.with_value(|p| p.as_ref().is_some_and(|w| w.1));
        if keystroke || !self.opened.get_value() {
            self.generation.update_value(|g| *g += 1);
            self.flush();
        }
    }

    /// Writes the pending query: the opening one in place, a keystroke's into an entry of its
    /// own, another change's into a new entry that stays.
    fn flush(self) {
        let Some((q, keystroke)) = self.pending.write_value().take() else {
            return;
        };
        if !self.opened.get_value() {
            self.opened.set_value(true);
            replace(&q);
            return;
        }
        if same_as_current(&q) {
            if !keystroke {
                self.kept.set_value(true);
            }
            return;
        }
        // (A change other than a keystroke after keystrokes, e.g. an import's answer while a
        // field is typed in, keeps their entry.)
        if self.kept.get_value() || !keystroke {
            push(&q);
        } else {
            replace(&q);
        }
        self.kept.set_value(!keystroke);
    }
}

/// Copies `text` and reports in `status` whether the browser allowed it, for a few seconds.
pub fn copy_reporting(what: &'static str, text: String, status: RwSignal<String>) {
    copy(&text, move |ok| {
        status.set(if ok {
            kvbudget_core::t!(rs_copied(what))
        } else {
            kvbudget_core::t!(rs_clipboard_refused(what))
        });
        set_timeout(
            move || status.set(String::new()),
            Duration::from_millis(2500),
        );
    });
}

/// An element's content width in CSS px, rounded down to 10 px (0 when it is not laid out).
pub fn width_of(el: &web_sys::HtmlElement) -> u32 {
    let w = el.client_width().max(0) as u32;
    w / 10 * 10
}

/// The language the browser prefers (`navigator.languages`), for a scenario that names none.
pub fn browser_lang() -> Lang {
    let tags: Vec<String> = window()
        .navigator()
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    Lang::for_browser(tags.iter().map(String::as_str))
}

/// Sets `<html lang>` and the document's title.
pub fn set_document_lang(lang: &str, title: &str) {
    let Some(doc) = window().document() else {
        return;
    };
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("lang", lang);
    }
    doc.set_title(title);
}

/// Sets `data-theme` on `<html>` (`light`, `dark`), or removes it to follow the reader's scheme.
pub fn set_theme(theme: Option<&str>) {
    let Some(root) = window().document().and_then(|d| d.document_element()) else {
        return;
    };
    let _ = match theme {
        Some(t) => root.set_attribute("data-theme", t),
        None => root.remove_attribute("data-theme"),
    };
}

/// Marks the document live (`<html data-app="live">`): the app's page replaced the one
/// `index.html` showed before the wasm ran.
pub fn mark_live() {
    if let Some(root) = window().document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-app", "live");
    }
}

/// The height of the embedded view's content in CSS px: the bottom of `main.embed`, not the
/// document's scroll height, which is never less than the frame's own height (so a frame sized
/// too tall could never shrink to its content).
pub fn content_height() -> u32 {
    window()
        .document()
        .and_then(|d| d.query_selector("main.embed").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|e| (e.offset_top() + e.offset_height()).max(0) as u32)
        .unwrap_or(0)
}

/// Scrolls the element with this id to the top of the window.
pub fn scroll_to(id: &str) {
    if let Some(e) = window().document().and_then(|d| d.get_element_by_id(id)) {
        e.scroll_into_view();
    }
}

/// Calls `f` whenever the box of the element `selector` names changes size (a chart drawn late,
/// text reflowed to a new frame width, a panel opened), from the next task on: the element is
/// looked up then, once the page has been written. An element already observed keeps its one
/// observer.
pub fn on_size_change(selector: &'static str, f: impl Fn() + 'static) {
    set_timeout(
        move || {
            let Some(el) = window()
                .document()
                .and_then(|d| d.query_selector(selector).ok().flatten())
            else {
                return;
            };
            // (One observer per element, however often the page is drawn anew in place.)
            if el.has_attribute("data-observed") {
                return;
            }
            let _ = el.set_attribute("data-observed", "");
            let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(f);
            if let Ok(o) = web_sys::ResizeObserver::new(f.as_ref().unchecked_ref()) {
                o.observe(&el);
            }
            f.forget();
        },
        Duration::ZERO,
    );
}

/// Posts `message` (JSON) to the embedding page, if there is one.
pub fn post_to_parent(message: &str) {
    let w = window();
    let Ok(Some(parent)) = w.parent() else { return };
    if parent == w {
        return;
    }
    if let Ok(value) = js_sys::JSON::parse(message) {
        let _ = parent.post_message(&value, "*");
    }
}

thread_local! {
    static BOOT_CHART_WIDTH: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// Reads the width of the loading state's stand-in chart (`#boot-chart` in `index.html`, laid
/// out like a chart's drawing box) while it is still on the page: the loading state is laid out
/// already, so this costs no layout, and the first charts can be drawn at their width without
/// forcing one. (Not in an embed, whose charts are laid out otherwise.)
pub fn keep_boot_chart_width() {
    let doc = window().document();
    let embed = doc
        .as_ref()
        .and_then(|d| d.get_element_by_id("boot"))
        .is_some_and(|b| b.class_name().contains("boot--embed"));
    let w = doc
        .filter(|_| !embed)
        .and_then(|d| d.get_element_by_id(crate::page::BOOT_CHART))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|e| width_of(&e))
        .filter(|&w| w > 0);
    BOOT_CHART_WIDTH.with(|c| c.set(w));
}

/// The width [`keep_boot_chart_width`] read, once: the page's first charts take it, charts drawn
/// later measure their own.
pub fn take_boot_chart_width() -> Option<u32> {
    BOOT_CHART_WIDTH.with(|c| c.take())
}

/// Removes the element with this id, if there is one.
pub fn remove_element(id: &str) {
    if let Some(el) = window().document().and_then(|d| d.get_element_by_id(id)) {
        el.remove();
    }
}

/// The attribute `attr` of the element matching `selector` that a click landed in (a click on a
/// button inside HTML text the panel set, handled by the panel).
pub fn clicked_data(ev: &leptos::ev::MouseEvent, selector: &str, attr: &str) -> Option<String> {
    closest(ev, selector)?.get_attribute(attr)
}

/// The element matching `selector` that the element an event comes from is inside (or is).
fn closest(ev: &web_sys::Event, selector: &str) -> Option<web_sys::Element> {
    ev.target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()?
}

/// Whether the element an event comes from is inside (or is) one matching `selector`.
pub fn target_closest(ev: &web_sys::Event, selector: &str) -> bool {
    closest(ev, selector).is_some()
}

/// The page's second module: a Web Worker built by Trunk from `worker/`, started on first use.
/// Its loader sits beside `index.html`, so the URL is relative to the page's own.
const WORKER_LOADER: &str = "./kvbudget-worker_loader.js";

/// The worker, once started: its handle, its generation, and a promise that settles when it says
/// `ready`.
struct Started {
    worker: web_sys::Worker,
    generation: u32,
    ready: js_sys::Promise,
}

/// The requests waiting for their answers (by number: several may be in flight), and the
/// answers come for them.
type Waiting = std::collections::HashMap<u32, (js_sys::Function, js_sys::Function)>;
type Come = std::collections::HashMap<u32, Answer>;

thread_local! {
    static WORKER: std::cell::RefCell<Option<Started>> = const { std::cell::RefCell::new(None) };
    static WAITING: std::cell::RefCell<Waiting> = std::cell::RefCell::new(Waiting::new());
    static COME: std::cell::RefCell<Come> = std::cell::RefCell::new(Come::new());
    static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// How long the worker may take to start, and to answer one request (a 64 MB log included).
const READY_MS: i32 = 20_000;
const ANSWER_MS: i32 = 60_000;

/// Drops the worker of `generation` if it is still the current one (a later one is left alone),
/// stops it, and fails what waited on it; the next request starts a fresh worker.
fn worker_failed(generation: u32) {
    let current = WORKER.with(|w| {
        let mut w = w.borrow_mut();
        if w.as_ref().is_some_and(|s| s.generation == generation) {
            w.take()
        } else {
            None
        }
    });
    let Some(started) = current else { return };
    started.worker.terminate();
    for (_, (_, reject)) in WAITING.with(|w| std::mem::take(&mut *w.borrow_mut())) {
        let _ = reject.call0(&wasm_bindgen::JsValue::NULL);
    }
}

/// `promise`, or a rejection after `ms` milliseconds.
fn within(promise: js_sys::Promise, ms: i32) -> js_sys::Promise {
    let timeout = js_sys::Promise::new(&mut |_, reject| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&reject, ms);
    });
    js_sys::Promise::race(&js_sys::Array::of2(&promise, &timeout))
}

/// Starts the worker: its messages are `ready <protocol>`, then a [`Reply`] (`handoff::to_wire`'s
/// bytes) for each request. A worker of another protocol (a stale copy from a cache) counts as failed.
fn start_worker(generation: u32) -> Result<(web_sys::Worker, js_sys::Promise), String> {
    use wasm_bindgen::closure::Closure;
    let worker = web_sys::Worker::new(WORKER_LOADER)
        .map_err(|_| kvbudget_core::t!(BR_NO_WORKER).to_string())?;
    let mut ready_resolve = None;
    let ready = js_sys::Promise::new(&mut |resolve, reject| {
        ready_resolve = Some((resolve, reject));
    });
    let (resolve, reject) = ready_resolve.expect("the promise's executor runs at once");
    let ready_text = format!("ready {}", kvbudget_core::handoff::PROTOCOL);
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let data = e.data();
            let text = data.as_string().unwrap_or_default();
            if data.is_string() && text.starts_with("ready") {
                if text == ready_text {
                    let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
                } else {
                    worker_failed(generation);
                }
                return;
            }
            let bytes = js_sys::Uint8Array::new(&data).to_vec();
            let Some(Reply { n, answer }) = handoff::from_wire::<Reply>(&bytes) else {
                worker_failed(generation);
                return;
            };
            if let Some((resolve, _)) = WAITING.with(|w| w.borrow_mut().remove(&n)) {
                COME.with(|c| c.borrow_mut().insert(n, answer));
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
        });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
        let _ = reject.call0(&wasm_bindgen::JsValue::NULL);
        worker_failed(generation);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The handlers live as long as the page (a failed worker is terminated).
    on_message.forget();
    on_error.forget();
    Ok((worker, ready))
}

/// Sends `request` to the worker (starting it the first time, and waiting until it says it is
/// ready: a message sent before its handler is set would be lost) and waits for its answer, its
/// texts in the page's language as it is now. Requests may overlap; each answer comes back to
/// its own request. A worker that does not start or answer in time is stopped and reported.
/// An answer that says the worker could not answer comes back as `Err`.
pub async fn ask_worker(request: Request) -> Result<Answer, String> {
    ask(request, None).await
}

/// Has the worker read the log in `file` and keep it: a dropped or chosen log goes to the worker
/// as it is (a handle, not its text), so the page's thread neither reads nor copies a 10 MB log.
pub async fn ask_worker_reading(file: web_sys::File) -> Result<Answer, String> {
    ask(Request::ReadLogFile, Some(file)).await
}

async fn ask(request: Request, file: Option<web_sys::File>) -> Result<Answer, String> {
    let lang = kvbudget_core::i18n::lang().key().to_string();
    let failed = || kvbudget_core::t!(BR_WORKER_FAILED).to_string();
    let existing = WORKER.with(|w| {
        w.borrow()
            .as_ref()
            .map(|s| (s.worker.clone(), s.generation, s.ready.clone()))
    });
    let (worker, generation, ready) = match existing {
        Some(w) => w,
        None => {
            let generation = NEXT.with(|c| {
                c.set(c.get().wrapping_add(1));
                c.get()
            });
            let (worker, ready) = start_worker(generation)?;
            WORKER.with(|slot| {
                *slot.borrow_mut() = Some(Started {
                    worker: worker.clone(),
                    generation,
                    ready: ready.clone(),
                })
            });
            (worker, generation, ready)
        }
    };
    if JsFuture::from(within(ready, READY_MS)).await.is_err() {
        worker_failed(generation);
        return Err(failed());
    }
    let n = NEXT.with(|c| {
        c.set(c.get().wrapping_add(1));
        c.get()
    });
    let answer = js_sys::Promise::new(&mut |resolve, reject| {
        WAITING.with(|w| w.borrow_mut().insert(n, (resolve, reject)));
    });
    let envelope = Envelope { n, lang, request };
    let Some(bytes) = handoff::to_wire(&envelope) else {
        return Err(failed());
    };
    let mut message: wasm_bindgen::JsValue = js_sys::Uint8Array::from(&bytes[..]).into();
    if let Some(file) = file {
        message = js_sys::Array::of2(&message, &file).into();
    }
    if worker.post_message(&message).is_err() {
        worker_failed(generation);
        return Err(failed());
    }
    match JsFuture::from(within(answer, ANSWER_MS)).await {
        Ok(_) => match COME.with(|c| c.borrow_mut().remove(&n)) {
            Some(Answer::Failed(e)) => Err(e),
            Some(answer) => Ok(answer),
            None => Err(failed()),
        },
        Err(_) => {
            worker_failed(generation);
            Err(failed())
        }
    }
}

/// Calls `f` on each `event` of the window, for as long as the page.
pub fn on_window(event: &str, f: impl Fn() + 'static) {
    let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(f);
    let _ = window().add_event_listener_with_callback(event, f.as_ref().unchecked_ref());
    f.forget();
}

thread_local! {
    static ON_RESIZE: std::cell::RefCell<Vec<Box<dyn Fn()>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Calls `f` on each resize of the window until the page is drawn anew ([`clear_resize`]).
pub fn on_resize(f: impl Fn() + 'static) {
    let first = ON_RESIZE.with(|r| {
        let mut r = r.borrow_mut();
        r.push(Box::new(f));
        r.len() == 1
    });
    thread_local! {
        static LISTENING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if first && !LISTENING.with(|l| l.replace(true)) {
        on_window("resize", || {
            ON_RESIZE.with(|r| r.borrow().iter().for_each(|f| f()))
        });
    }
}

/// Forgets the resize handlers of the page drawn before.
pub fn clear_resize() {
    ON_RESIZE.with(|r| r.borrow_mut().clear());
}

/// A new `<div class="{class}">` at the end of `<body>`, the box the page's markup is written into.
pub fn body_box(class: &str) -> Option<web_sys::Element> {
    let doc = window().document()?;
    let el = doc.create_element("div").ok()?;
    el.set_class_name(class);
    doc.body()?.append_child(&el).ok()?;
    Some(el)
}
