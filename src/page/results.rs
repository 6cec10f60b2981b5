//! The texts of the results panel, the answer bar, the embedded headline and the repertoire.

use kvbudget_core::calc::{Outcome, Range};
use kvbudget_core::explain::plural;
use kvbudget_core::scenario::PageScenario;
use kvbudget_core::units::{thousands, Bytes};
use kvbudget_core::vllm::{RefusalKind, Report};

/// The answer in one line, for the bar pinned to narrow screens.
pub fn answer(s: &PageScenario, o: &Outcome) -> String {
    let fit = if o.chosen.report.error.is_some() {
        "vLLM would not start".to_string()
    } else {
        format!(
            "{} of {} tokens fit",
            plural(o.chosen.capped, "sequence"),
            thousands(o.context)
        )
    };
    format!(
        "{fit} · {} · {} KV · {}",
        s.model.name(),
        s.kv.name(),
        s.gpu.name()
    )
}

/// The results panel's heading.
pub fn results_title(s: &PageScenario, o: &Outcome) -> String {
    format!(
        "{} · {} KV · {}",
        s.model.name(),
        s.kv.label(o.model.dtype),
        s.gpu.name()
    )
}

/// The embedded view's one-line headline.
pub fn embed_headline(s: &PageScenario, o: &Outcome) -> String {
    format!(
        "{} on {} ({} KV): {} sequences of {} tokens fit · {} B per token",
        s.model.name(),
        s.gpu.name(),
        s.kv.name(),
        thousands(o.chosen.capped),
        thousands(o.context),
        thousands(o.chosen.bytes_per_token.0)
    )
}

/// What vLLM would print, with its refusal as the `ValueError` it raises.
pub fn log_lines(r: &Report) -> String {
    r.lines
        .iter()
        .cloned()
        .chain(r.error_line())
        .collect::<Vec<_>>()
        .join("\n")
}

/// One figure of the results panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Stat {
    /// What it is.
    pub label: &'static str,
    /// `data-testid`.
    pub testid: &'static str,
    /// The exact value for automation (`data-value`).
    pub value: String,
    /// The figure as shown.
    pub text: String,
    /// The line under it.
    pub sub: String,
}

/// The four figures of the results panel.
pub fn stats(s: &PageScenario, o: &Outcome) -> [Stat; 4] {
    let c = &o.chosen;
    let r = &c.report;
    let range = |f: &dyn Fn(&Range) -> String| o.range.as_ref().map(f).unwrap_or_default();
    let fits_head = if r.error.is_some() {
        "vLLM would not start".to_string()
    } else {
        format!("of {} tokens each", thousands(o.context))
    };
    let range_pool = match &o.range {
        Some(g) => format!(
            "range {} – {}",
            Bytes(g.pool.0.max(0) as u64),
            Bytes(g.pool.1.max(0) as u64)
        ),
        None if s.kv_memory.is_some() => "taken from a vLLM log".into(),
        None => "the course lab's single overhead figure".into(),
    };
    let tokens = r.gpu_kv_cache_tokens.unwrap_or(0);
    [
        Stat {
            label: "Sequences that fit",
            testid: "max-seqs",
            value: c.capped.to_string(),
            text: thousands(c.capped),
            sub: format!(
                "{fits_head}{}",
                range(&|g| format!(" · range {}–{}", thousands(g.seqs.0), thousands(g.seqs.1)))
            ),
        },
        Stat {
            label: "KV per token",
            testid: "bytes-per-token",
            value: c.bytes_per_token.0.to_string(),
            text: format!("{} B", thousands(c.bytes_per_token.0)),
            sub: format!("{} · as MHA {}", c.bytes_per_token, o.mha_bytes_per_token),
        },
        Stat {
            label: "KV pool",
            testid: "kv-pool-bytes",
            value: c.pool.to_string(),
            text: if c.pool > 0 {
                Bytes(c.pool as u64).to_string()
            } else {
                "none left".into()
            },
            sub: format!(
                "{} B on one GPU; {range_pool}",
                thousands(c.pool.max(0) as u64)
            ),
        },
        Stat {
            label: "vLLM's KV cache",
            testid: "kv-tokens",
            value: tokens.to_string(),
            text: format!("{} tokens", thousands(tokens)),
            sub: format!(
                "{} blocks of {}{}",
                thousands(r.num_gpu_blocks.unwrap_or(0)),
                r.block_size,
                range(&|g| format!(
                    " · range {}–{}",
                    thousands(g.tokens.0),
                    thousands(g.tokens.1)
                ))
            ),
        },
    ]
}

/// The repertoire table's caption.
pub fn repertoire_caption(s: &PageScenario) -> String {
    let from_log = if s.kv_memory.is_some() {
        " (each model's own budget, not the log's KV memory)"
    } else {
        ""
    };
    format!(
        "The course repertoire on {} at {} tokens{from_log} (choose a row to load it)",
        s.gpu.name(),
        thousands(s.context())
    )
}

/// What a refusal means, in words, before vLLM's own message.
pub fn refusal_summary(kind: RefusalKind) -> &'static str {
    match kind {
        RefusalKind::WeightsDoNotFit => "The weights do not fit on this GPU: vLLM runs out of memory while loading them, before it sizes any KV cache. No utilization and no KV dtype can help; a smaller checkpoint, more GPUs or a larger GPU can.",
        RefusalKind::NoKvMemory => "The weights load, but nothing is left for the KV cache once they and the profile run take their share of total × utilization.",
        RefusalKind::MaxModelLen => "One request of max_model_len tokens does not fit: vLLM checks that at least one full-length request fits before it starts.",
        RefusalKind::InvalidTp => "vLLM cannot split this model's attention heads evenly over this many GPUs.",
    }
}
