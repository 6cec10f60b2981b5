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
