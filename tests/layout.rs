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

/// The core modules a file names: `crate::name`, `crate::{a, b::c}`, and `i18n` for a text it
/// writes with `t!` or `tf!` (the macros name `$crate::i18n`). Module names may hold digits.
fn imports(text: &str) -> BTreeSet<String> {
    let module = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + 7..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                out.extend(group.split(',').map(|p| module(p.trim())));
            }
            None => {
                out.insert(module(rest));
            }
        }
    }
    // (A macro's name, not the end of another's: `format!(` is no `t!(`.)
    let texts = ["t!(", "tf!("].iter().any(|m| {
        text.match_indices(m).any(|(i, _)| {
            !text[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    });
    if texts {
        out.insert("i18n".into());
    }
    out.retain(|m| !m.is_empty());
    out
}

/// A circle of imports through `from`, if there is one: the modules in order, back to `from`.
fn circle(deps: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    let mut path = vec![from.to_string()];
    let mut seen = BTreeSet::new();
    fn walk(
        deps: &BTreeMap<String, BTreeSet<String>>,
        from: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let at = path.last().unwrap().clone();
        for next in deps.get(&at).into_iter().flatten() {
            if next == from {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(deps, from, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    walk(deps, from, &mut path, &mut seen).then_some(path)
}

#[test]
fn the_import_reader_sees_digits_groups_and_texts() {
    let text = "use crate::i18n::Lang;\nuse crate::{pyjson, seed::Seed};\nlet x = t!(HELLO);";
    let got: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(got, ["i18n", "pyjson", "seed"]);
    assert!(imports("let s = format!(\"{x}\");").is_empty());
    let mut deps = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c2"), ("c2", "a"), ("c2", "d")] {
        deps.entry(a.to_string())
            .or_insert_with(BTreeSet::new)
            .insert(b.to_string());
    }
    assert_eq!(circle(&deps, "a").unwrap(), ["a", "b", "c2", "a"]);
    assert_eq!(circle(&deps, "d"), None);
}

#[test]
fn no_core_modules_import_each_other_in_a_circle() {
    let core = root().join("core/src");
    let mut files = Vec::new();
    rust_files(&core, &mut files);
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_of(&core, f);
        let mut named = imports(&code(f));
        named.remove(&m);
        deps.entry(m).or_default().extend(named);
    }
    assert!(deps.len() >= 10, "too few modules read: {deps:?}");
    for m in deps.keys() {
        if let Some(c) = circle(&deps, m) {
            panic!(
                "core modules import each other in a circle: {}",
                c.join(" → ")
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

/// A vLLM release written as digits in a check (`Version::new(0, 22)`), outside the release table
/// and outside tests: the file and line.
fn bare_vllm_versions(files: &[PathBuf]) -> Vec<String> {
    let mut out = Vec::new();
    for f in files {
        let text = code(f);
        // (A file's own tests may spell releases out.)
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in text.lines().enumerate() {
            for call in ["Version::new(", "Version::at("] {
                let after = line.split(call).skip(1);
                if after
                    .into_iter()
                    .any(|a| a.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                {
                    out.push(format!("{}: {}", f.display(), i + 1));
                }
            }
        }
    }
    out
}

#[test]
fn every_vllm_release_boundary_is_named_in_the_table() {
    let mut files = Vec::new();
    rust_files(&root().join("core/src"), &mut files);
    rust_files(&root().join("src"), &mut files);
    files.retain(|f| {
        !f.ends_with("vllm/version.rs") && !f.components().any(|c| c.as_os_str() == "sglang")
    });
    let found = bare_vllm_versions(&files);
    assert!(
        found.is_empty(),
        "vLLM releases written in a check instead of a named boundary of core/src/vllm/version.rs: {found:?}"
    );
    // The reader finds one when there is one.
    let dir = std::env::temp_dir().join(format!("kvbudget-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let probe = dir.join("probe.rs");
    std::fs::write(
        &probe,
        "fn f(v: Version) -> bool {\n    v >= Version::new(0, 22)\n}\n",
    )
    .unwrap();
    assert_eq!(bare_vllm_versions(std::slice::from_ref(&probe)).len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}
