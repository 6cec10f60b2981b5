//! The texts of the SGLang results and of the two engines side by side.

use super::results::{answer, Stat};
use kvbudget_core::calc::Outcome;
use kvbudget_core::engines::{sglang_outcome, SglangOutcome};
use kvbudget_core::explain::plural;
use kvbudget_core::scenario::{Engine, PageScenario};
use kvbudget_core::units::thousands;

/// The answer in one line for the chosen engine, and whether that engine refuses to start.
pub fn engine_answer(s: &PageScenario, o: &Outcome) -> (String, bool) {
    match s.engine {
        Engine::Vllm => (answer(s, o), o.chosen.report.refusal.is_some()),
        Engine::Sglang => match sglang_outcome(s) {
            Ok(sg) => {
                let refused = sg.report.error.is_some();
                let fit = if refused {
                    "SGLang would not start".to_string()
                } else {
                    format!(
                        "{} of {} tokens fit",
                        plural(sg.sequences, "sequence"),
                        thousands(sg.context)
                    )
                };
                (
                    format!(
                        "{fit} under SGLang {} · {} · {} KV · {}",
                        sg.report.version,
                        s.model.name(),
                        s.kv.name(),
                        s.gpu.name()
                    ),
                    refused,
                )
            }
            Err(e) => (format!("SGLang: {e}"), true),
        },
    }
}

/// The heading over the startup lines: the engine and its release.
pub fn lines_heading(s: &PageScenario) -> String {
    let version = match s.engine {
        Engine::Vllm => s.version.to_string(),
        Engine::Sglang => s.sglang.version().to_string(),
    };
    format!("What {} {version} prints at startup", s.engine.label())
}

/// The heading over vLLM's figures when SGLang is the chosen engine (they stay for comparison).
pub fn vllm_stats_heading(s: &PageScenario) -> String {
    format!(
        "Under vLLM {} (SGLang {} below)",
        s.version,
        s.sglang.version()
    )
}

/// What SGLang would print, with its refusal as the exception it raises.
pub fn sglang_lines(o: &SglangOutcome) -> String {
    let r = &o.report;
    let error = r
        .error
        .as_ref()
        .map(|e| format!("{}: {e}", r.error_type.unwrap_or("RuntimeError")));
    r.lines
        .iter()
        .cloned()
        .chain(error)
        .collect::<Vec<_>>()
        .join("\n")
}

/// SGLang's three figures: sequences at the context, tokens in its pool, `mem_fraction_static`.
pub fn sglang_stats(o: &SglangOutcome) -> [Stat; 3] {
    let r = &o.report;
    let tokens = r.max_total_num_tokens.unwrap_or(0);
    let range = r
        .range
        .map(|g| {
            format!(
                " · range {}–{}",
                thousands(g.low_tokens.max(0) as u64),
                thousands(g.high_tokens.max(0) as u64)
            )
        })
        .unwrap_or_default();
    [
        Stat {
            label: "Sequences that fit (SGLang)",
            testid: "sglang-seqs",
            value: o.sequences.to_string(),
            text: thousands(o.sequences),
            sub: if r.error.is_some() {
                "SGLang would not start".into()
            } else {
                format!(
                    "of {} tokens each · max_running_requests {}",
                    thousands(o.context),
                    thousands(r.max_running_requests.unwrap_or(0))
                )
            },
        },
        Stat {
            label: "SGLang's KV cache",
            testid: "sglang-tokens",
            value: tokens.to_string(),
            text: format!("{} tokens", thousands(tokens)),
            sub: format!(
                "max_total_num_tokens · {} B per token{range}",
                thousands(r.cell_size_bytes)
            ),
        },
        Stat {
            label: "mem_fraction_static",
            testid: "sglang-mfs",
            value: r.mem_fraction_static_text.clone(),
            text: r.mem_fraction_static_text.clone(),
            sub: match &r.mfs_default {
                Some(d) => match d.reserved_mib {
                    Some(m) => format!(
                        "SGLang {}'s default: {} MiB reserved of {} MiB",
                        r.version,
                        thousands(m.round() as u64),
                        thousands(o.gpu_mib)
                    ),
                    None => format!("SGLang {}'s default", r.version),
                },
                None => "as given".into(),
            },
        },
    ]
}

/// The comparison's caption.
pub fn compare_caption(s: &PageScenario) -> String {
    format!(
        "Same GPU, both engines: {} on {} at {} per sequence",
        s.model.name(),
        s.gpu.name(),
        plural(s.context(), "token")
    )
}

/// A token count for the comparison's cell (the engine refuses: none).
pub fn tokens_cell(t: Option<u64>) -> String {
    t.map(thousands).unwrap_or_else(|| "— (refuses)".into())
}
