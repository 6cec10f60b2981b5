//! kvbudget's Web Worker: it answers the page's requests (`kvbudget_core::handoff`: typed
//! requests and answers in their wire format) off the main thread and outside the page's first load. Trunk
//! builds it (`data-type="worker"` in `index.html`) with a loader the page starts on first use.
//! The answers are data; the page draws them. A config.json on the Hugging Face Hub is fetched
//! here too.

#[cfg(target_arch = "wasm32")]
fn main() {
    use kvbudget_core::handoff::{hub_answer, hub_config_url, Request, Session};
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // The worker holds the Chinese texts: it writes its answers in either language and sends the
    // page the texts when the reader chooses Chinese.
    kvbudget_core::i18n::load_builtin_zh();
    // One session for the worker's life: it keeps the last log read.
    let session = Rc::new(RefCell::new(Session::default()));
    // An envelope (`handoff::Envelope`, as `handoff::to_wire` writes it); the answer goes back under the same number, its
    // texts in the envelope's language.
    let answer = Rc::new(move |n: u32, request: Request| {
        if let Request::ImportHub { id } = request {
            let lang = kvbudget_core::i18n::lang();
            wasm_bindgen_futures::spawn_local(async move {
                let fetched = fetch_text(&hub_config_url(&id)).await;
                // (Set again: other requests may have come meanwhile.)
                kvbudget_core::i18n::set_lang(lang);
                reply(n, hub_answer(&id, fetched));
            });
            return;
        }
        reply(n, session.borrow_mut().answer(request));
    });
    let inbox = Rc::new(Inbox {
        answer,
        queue: RefCell::new(Vec::new()),
        reading: std::cell::Cell::new(false),
    });
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        take(&inbox, e.data());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    // The page waits for this before its first request.
    let ready = format!("ready {}", kvbudget_core::handoff::PROTOCOL);
    let _ = scope.post_message(&JsValue::from_str(&ready));
}

/// Reads an envelope, setting its language as the worker's: its number and request (`None`: not
/// an envelope of this protocol).
#[cfg(target_arch = "wasm32")]
fn open(message: &wasm_bindgen::JsValue) -> Option<(u32, kvbudget_core::handoff::Request)> {
    use kvbudget_core::handoff::{from_wire, Envelope};
    let e: Envelope = from_wire(&js_sys::Uint8Array::new(message).to_vec())?;
    kvbudget_core::i18n::set_lang(kvbudget_core::i18n::Lang::parse(&e.lang).unwrap_or_default());
    Some((e.n, e.request))
}

/// Sends the page `answer` under the request's number `n` (a `handoff::Reply`, as
/// `handoff::to_wire`'s bytes).
#[cfg(target_arch = "wasm32")]
fn reply(n: u32, answer: kvbudget_core::handoff::Answer) {
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = kvbudget_core::handoff::Reply { n, answer };
    if let Some(bytes) = kvbudget_core::handoff::to_wire(&reply) {
        let _ = scope.post_message(&js_sys::Uint8Array::from(&bytes[..]));
    }
}

/// The page's requests, answered in the order they come.
#[cfg(target_arch = "wasm32")]
struct Inbox {
    /// Answers a request under its number.
    answer: std::rc::Rc<dyn Fn(u32, kvbudget_core::handoff::Request)>,
    /// Requests that came while a file was read.
    queue: std::cell::RefCell<Vec<wasm_bindgen::JsValue>>,
    /// A file is being read.
    reading: std::cell::Cell<bool>,
}

/// Takes a request: an envelope, or, for a dropped or chosen log, `[envelope, file]` whose
/// request is `ReadLogFile`: the file's text (read here, off the page's thread) makes it a
/// `ReadLog`. Requests that come while
/// a file is read wait for it, so a question about the log is answered from the log last sent.
#[cfg(target_arch = "wasm32")]
fn take(inbox: &std::rc::Rc<Inbox>, data: wasm_bindgen::JsValue) {
    use wasm_bindgen::JsCast;
    if inbox.reading.get() {
        inbox.queue.borrow_mut().push(data);
        return;
    }
    let Some(pair) = data.dyn_ref::<js_sys::Array>() else {
        if let Some((n, request)) = open(&data) {
            (inbox.answer)(n, request);
        }
        return;
    };
    let Some((n, _)) = open(&pair.get(0)) else {
        return;
    };
    let file: web_sys::Blob = pair.get(1).unchecked_into();
    inbox.reading.set(true);
    let inbox = inbox.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
        match text.ok().and_then(|v| v.as_string()) {
            Some(text) => (inbox.answer)(n, kvbudget_core::handoff::Request::ReadLog { text }),
            // (A file changed or removed since it was chosen: its handle no longer reads.)
            None => {
                let name = js_sys::Reflect::get(&file, &"name".into())
                    .ok()
                    .and_then(|v| v.as_string());
                let why = kvbudget_core::i18n::fmt::br_not_text(&name.unwrap_or_default());
                reply(n, kvbudget_core::handoff::Answer::Failed(why));
            }
        }
        inbox.reading.set(false);
        while !inbox.reading.get() {
            let next = {
                let mut queue = inbox.queue.borrow_mut();
                if queue.is_empty() {
                    break;
                }
                queue.remove(0)
            };
            take(&inbox, next);
        }
    });
}

/// GETs `url` from the worker: its HTTP status and, for 200, its body as text; or no answer
/// (`Err(true)`: the browser is offline, `Err(false)`: the request did not complete, e.g.
/// unreachable or blocked by CORS).
#[cfg(target_arch = "wasm32")]
async fn fetch_text(url: &str) -> kvbudget_core::handoff::HubFetch {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let response = match JsFuture::from(scope.fetch_with_str(url)).await {
        Ok(r) => r.dyn_into::<web_sys::Response>().ok(),
        Err(_) => None,
    };
    let Some(response) = response else {
        return Err(!scope.navigator().on_line());
    };
    let status = response.status();
    let text = if status == 200 {
        match response.text() {
            Ok(p) => JsFuture::from(p).await.ok().and_then(|v| v.as_string()),
            Err(_) => None,
        }
    } else {
        None
    };
    Ok((status, text))
}

/// Natively the worker answers one request from stdin (a `handoff::Request` in JSON, e.g.
/// `{"sglang":{"query":"?engine=sglang"}}`), a way to try it by hand.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::io::Read;
    let mut text = String::new();
    if std::io::stdin().read_to_string(&mut text).is_ok() {
        let answer = match serde_json::from_str(&text) {
            Ok(request) => kvbudget_core::handoff::Session::default().answer(request),
            Err(e) => kvbudget_core::handoff::Answer::Failed(e.to_string()),
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&answer).unwrap_or_default()
        );
    }
}

// The same allocator as the page (talc: smaller and faster than dlmalloc on wasm32).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
