//! Entry point: the Leptos page in the browser, the command line natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    kvbudget::app::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(kvbudget::cli::run());
}
