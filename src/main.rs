//! Entry point: the Leptos page in the browser, the command line natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    kvbudget::app::install_panic_banner();
    kvbudget::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(kvbudget::cli::run());
}

// The page's allocator: talc, smaller than the standard dlmalloc on wasm32 and faster (measured
// in commit 24b77fd).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
