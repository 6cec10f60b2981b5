// The worker's entry, which the page starts on first use: wasm-bindgen's glue for the worker, then
// its wasm, both beside this file (so the site works from any path).
importScripts('./kvbudget-worker.js');
wasm_bindgen({ module_or_path: './kvbudget-worker_bg.wasm' });
