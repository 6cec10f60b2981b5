//! Entry point: the Leptos page in the browser, the command line natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    kvbudget::app::install_panic_banner();
    kvbudget::app::remove_boot_message();
    kvbudget::app::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(kvbudget::cli::run());
}
