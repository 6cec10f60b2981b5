//! Writes the page's first answer into the built `index.html` (Trunk runs it after each build, a
//! `post_build` hook in `Trunk.toml`): the default scenario rendered by `page::prerender` into the
//! empty `#prerendered` box, so the first paint needs no wasm. The file is
//! `$TRUNK_STAGING_DIR/index.html`, or the path given.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use kvbudget::page::prerender;
    use kvbudget_core::scenario::PageScenario;
    use std::process::ExitCode;

    let path = match std::env::args().nth(1) {
        Some(p) => std::path::PathBuf::from(p),
        None => match std::env::var_os("TRUNK_STAGING_DIR") {
            Some(dir) => std::path::Path::new(&dir).join("index.html"),
            None => {
                eprintln!("kvbudget-prerender: give the built index.html, or run it from Trunk");
                return ExitCode::FAILURE;
            }
        },
    };
    let html = match std::fs::read_to_string(&path) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("kvbudget-prerender: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let Some(page) = prerender(&PageScenario::default(), kvbudget::charts::DEFAULT_WIDTH) else {
        eprintln!("kvbudget-prerender: the default scenario does not evaluate");
        return ExitCode::FAILURE;
    };
    // Trunk's minifier may drop the attribute's quotes.
    let Some(at) = ["id=prerendered></div>", r#"id="prerendered"></div>"#]
        .iter()
        .find_map(|b| html.find(b).map(|i| i + b.len() - "</div>".len()))
    else {
        eprintln!(
            "kvbudget-prerender: {} has no empty #prerendered box",
            path.display()
        );
        return ExitCode::FAILURE;
    };
    let mut out = html;
    out.insert_str(at, &page);
    if let Err(e) = std::fs::write(&path, out) {
        eprintln!("kvbudget-prerender: {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

#[cfg(target_arch = "wasm32")]
fn main() {}
