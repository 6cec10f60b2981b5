//! `kvbudget engine ID [QUERY]`: any engine registered at the seam (`kvbudget_core::engines`)
//! answers the page's scenario, given as the page's URL query: what it prints, its headline and its
//! serve command; with `--log`, a startup log's figures beside its own.

use clap::Args;
use kvbudget_core::engines::{self, EnginePlug};
use kvbudget_core::query::decode;
use serde_json::json;

#[derive(Args, Debug)]
pub(crate) struct EngineArgs {
    /// The engine's id (`kvbudget engine --help` lists them: sglang).
    id: String,
    /// The scenario as the page's URL query (e.g. '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192');
    /// empty: the page's default.
    #[arg(default_value = "")]
    query: String,
    /// A startup log of this engine to check against the scenario.
    #[arg(long)]
    log: Option<String>,
    /// JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The engine's answer for `query` (and, with `log`, the log checked against it) as the command
/// line prints it, and its exit status: 0; 1 when there is nothing to compare (settings kvbudget
/// cannot size under the engine, a log that is not its); 3 when the engine would refuse to start
/// or a figure of the log differs.
pub fn report(e: &dyn EnginePlug, query: &str, log: Option<&str>, json: bool) -> (String, i32) {
    let (s, notices) = decode(query);
    let view = e.view(&s);
    let checked = log.map(|text| engines::check_log(e, &view, &s, text));
    let differs = checked.iter().flatten().flatten().any(|c| !c.agrees());
    // 1: nothing to answer (settings kvbudget cannot size under this engine, or a log that is
    // not its); 3: the engine would refuse, or the log differs.
    let nothing = view.stats.is_empty() || matches!(checked, Some(None));
    let code = if nothing {
        1
    } else if view.refused || differs {
        super::EXIT_REFUSED
    } else {
        0
    };
    let notices: Vec<String> = notices
        .iter()
        .map(|n| format!("{}: {}", n.param, n.message))
        .collect();
    if json {
        let stats: serde_json::Map<String, serde_json::Value> = view
            .stats
            .iter()
            .map(|x| (x.testid.clone(), json!(x.value)))
            .collect();
        let log = checked.map(|c| match c {
            None => json!({ "error": format!("not a {} log", e.name()) }),
            Some(rows) => json!(rows
                .iter()
                .map(|r| json!({ "figure": r.what, "logged": r.logged, "computed": r.computed, "agrees": r.agrees() }))
                .collect::<Vec<_>>()),
        });
        let out = json!({
            "engine": e.id(),
            "answer": view.answer,
            "refused": view.refused,
            "figures": stats,
            "lines": view.lines.lines().collect::<Vec<_>>(),
            "command": view.command,
            "notes": view.notes,
            "url_notices": notices,
            "log": log,
        });
        return (format!("{out:#}\n"), code);
    }
    let mut out = String::new();
    for n in &notices {
        out += &format!("note: {n}\n");
    }
    out += &format!("{}\n", view.answer);
    for x in &view.stats {
        match x.sub.is_empty() {
            true => out += &format!("{}: {}\n", x.label, x.text),
            false => out += &format!("{}: {} ({})\n", x.label, x.text, x.sub),
        }
    }
    for n in &view.notes {
        out += &format!("note: {n}\n");
    }
    if !view.lines.is_empty() {
        out += &format!("\n{}\n", view.lines);
    }
    out += &format!("\n{}\n", view.command);
    match checked {
        None => {}
        Some(None) => out += &format!("\nlog: not a {} log\n", e.name()),
        Some(Some(rows)) => {
            out += "\nlog:\n";
            for r in rows {
                let mark = if r.agrees() { "same" } else { "differs" };
                out += &format!(
                    "  {}: logged {}, computed {} ({mark})\n",
                    r.what, r.logged, r.computed
                );
            }
        }
    }
    (out, code)
}

/// `kvbudget engine`: the registered engine by its id.
pub(crate) fn engine_cmd(a: &EngineArgs) -> Result<i32, String> {
    let e = engines::find(&a.id).ok_or_else(|| {
        let known: Vec<&str> = engines::REGISTRY.iter().map(|e| e.id()).collect();
        format!(
            "unknown engine {:?}; registered: {}",
            a.id,
            known.join(", ")
        )
    })?;
    let log = match &a.log {
        Some(path) => {
            Some(std::fs::read_to_string(path).map_err(|err| format!("--log {path}: {err}"))?)
        }
        None => None,
    };
    let (text, code) = report(e, &a.query, log.as_deref(), a.json);
    say!("{}", text.trim_end_matches('\n'));
    Ok(code)
}
