//! The layout's rules, checked on the source: no two core modules import each other (the
//! `vllm/` and `sglang/` folders each count as one module towards the rest), no source file over 700 lines, no
//! function over 200 lines, and the page's `app.rs` stays a shell.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `core/src/vllm/report.rs` → `vllm`, `core/src/calc.rs` → `calc`.
fn module_of(core: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(core).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a file without its comment lines (doc links name modules without importing them).
fn code(file: &Path) -> String {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_two_core_modules_import_each_other() {
    let core = root().join("core/src");
    let mut files = Vec::new();
    rust_files(&core, &mut files);
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_of(&core, f);
        let text = code(f);
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() && name != m {
                deps.entry(m.clone()).or_default().insert(name);
            }
        }
    }
    assert!(deps.len() >= 10, "too few modules read: {deps:?}");
    for (a, ds) in &deps {
        for b in ds {
            assert!(
                !deps.get(b).is_some_and(|x| x.contains(a)),
                "{a} and {b} import each other"
            );
        }
    }
    // The engine seam: what is an engine's own depends on no page concept, nor on the other engine.
    for engine in ["vllm", "sglang"] {
        for page_concept in [
            "scenario",
            "query",
            "calc",
            "explain",
            "chart_data",
            "verify",
        ] {
            assert!(
                !deps[engine].contains(page_concept),
                "{engine}/ imports {page_concept}"
            );
        }
    }
    assert!(!deps["sglang"].contains("vllm"), "sglang/ imports vllm/");
    assert!(
        !deps.get("vllm").is_some_and(|d| d.contains("sglang")),
        "vllm/ imports sglang/"
    );
}

#[test]
fn files_and_functions_stay_small() {
    let mut files = Vec::new();
    rust_files(&root().join("core/src"), &mut files);
    rust_files(&root().join("src"), &mut files);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() <= 700, "{}: {} lines", f.display(), lines.len());
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            let is_fn = [
                "fn ",
                "pub fn ",
                "pub(crate) fn ",
                "async fn ",
                "pub async fn ",
            ]
            .iter()
            .any(|p| t.starts_with(p));
            if !is_fn || t.ends_with(';') {
                continue;
            }
            let indent = &l[..l.len() - t.len()];
            let end = lines[i + 1..]
                .iter()
                .position(|x| *x == format!("{indent}}}"))
                .unwrap_or(0);
            assert!(
                end <= 200,
                "{}:{}: a function of {end} lines",
                f.display(),
                i + 1
            );
        }
    }
    let shell = std::fs::read_to_string(root().join("src/app.rs")).unwrap();
    assert!(
        shell.lines().count() <= 150,
        "src/app.rs is no longer a shell"
    );
}
