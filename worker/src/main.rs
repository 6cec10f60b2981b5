//! kvbudget's Web Worker: it answers the page's requests (`kvbudget_core::handoff`) off the main
//! thread and outside the page's first load. Trunk builds it (`data-type="worker"` in
//! `index.html`) with a loader the page starts on first use. The panels the page draws from its
//! answers as HTML text come from `kvbudget::page::worker_answer`, the rest from the core.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    // The worker holds the Chinese texts: it writes its answers in either language and sends the
    // page the texts when the reader chooses Chinese.
    kvbudget_core::i18n::load_builtin_zh();
    // One session for the worker's life: it keeps the last log read.
    let mut session = kvbudget_core::handoff::Session::default();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        // `<number>\n<language>\n<request>`; the answer goes back under the same number, its
        // texts in that language.
        let message = e.data().as_string().unwrap_or_default();
        let (n, rest) = message.split_once('\n').unwrap_or(("0", ""));
        let (lang, request) = rest.split_once('\n').unwrap_or(("en", rest));
        kvbudget_core::i18n::set_lang(kvbudget_core::i18n::Lang::parse(lang).unwrap_or_default());
        let answer = kvbudget::page::worker_answer(&mut session, request);
        let _ = reply.post_message(&JsValue::from_str(&format!("{n}\n{answer}")));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    // The page waits for this before its first request.
    let ready = format!("ready {}", kvbudget_core::handoff::PROTOCOL);
    let _ = scope.post_message(&JsValue::from_str(&ready));
}

/// Natively the worker answers one request from stdin (a way to try it by hand).
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::io::Read;
    let mut request = String::new();
    if std::io::stdin().read_to_string(&mut request).is_ok() {
        let mut session = kvbudget_core::handoff::Session::default();
        println!("{}", kvbudget::page::worker_answer(&mut session, &request));
    }
}

// The same allocator as the page (talc: smaller and faster than dlmalloc on wasm32).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
