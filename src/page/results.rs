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

/// One figure of a panel (the SGLang figures come from the worker in the same shape).
pub use kvbudget_core::handoff::sglang::Stat;

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
            label: "Sequences that fit".into(),
            testid: "max-seqs".into(),
            value: c.capped.to_string(),
            text: thousands(c.capped),
            sub: format!(
                "{fits_head}{}",
                range(&|g| format!(" · range {}–{}", thousands(g.seqs.0), thousands(g.seqs.1)))
            ),
        },
        Stat {
            label: "KV per token".into(),
            testid: "bytes-per-token".into(),
            value: c.bytes_per_token.0.to_string(),
            text: format!("{} B", thousands(c.bytes_per_token.0)),
            sub: format!("{} · as MHA {}", c.bytes_per_token, o.mha_bytes_per_token),
        },
        Stat {
            label: "KV pool".into(),
            testid: "kv-pool-bytes".into(),
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
            label: "vLLM's KV cache".into(),
            testid: "kv-tokens".into(),
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

/// What a derivation's term means, shown on hover or focus.
pub fn definition(term: &str) -> Option<&'static str> {
    Some(match term {
        "KV per token" => "Every layer stores a key and a value vector per KV head for each token it has seen: the KV cache. Grouped-query attention shares few KV heads among many query heads.",
        "as plain MHA" => "Multi-head attention with one KV head per query head, as older models had: the cache grouped-query attention saves.",
        "context per sequence" => "Tokens one request holds in the cache: its prompt plus everything generated so far (a reasoning trace included).",
        "KV per sequence" => "The cache of one request at this context: tokens × bytes per token.",
        "KV pool" => "The memory vLLM gives the KV cache: total × gpu_memory_utilization, less the weights and the overhead (activations of the profile run, CUDA context, CUDA graphs). The rest of the GPU, (1 − utilization) × total, vLLM leaves unclaimed.",
        "sequences (formula)" => "The course formula ⌊pool / (context × bytes per token)⌋: concurrency falls as a hyperbola in the context.",
        "sequences (vLLM)" => "vLLM allocates the cache in whole blocks of 16 tokens (paged attention): a request takes whole blocks, so a few tokens of each are wasted.",
        "after the cap" => "max_num_seqs bounds how many requests vLLM runs at once, whatever fits.",
        "longest context for max_num_seqs" => "The inverse question: how long each request may be if max_num_seqs of them must fit at once.",
        "decode ceiling" => "Decoding is bound by memory bandwidth: each step reads the weights once and every running sequence's cache. It cannot exceed what the GPU computes either (the compute roof).",
        "overhead (estimate)" => "kvbudget's estimate of what vLLM's profile run measures besides the weights, part by part, with its uncertainty.",
        "prefix caching" => "With --enable-prefix-caching, requests that share a prefix reuse its cached blocks instead of recomputing them. For a transformer it costs no memory and saves none: the pool is the same. A Mamba / Gated DeltaNet hybrid keeps one or more extra state blocks per request for it (vLLM turns it on for hybrids from 0.28).",
        "activation peak" => "The largest temporary memory of vLLM's profile run: sampler logits for max_num_seqs rows and the forward pass of max_num_batched_tokens.",
        _ => return None,
    })
}

/// The primer at the top of the results: what the page computes, in one minute.
pub const PRIMER: [&str; 4] = [
    "A transformer keeps, for every token of every request, a key and a value vector per KV head in every layer: the KV cache. One token costs 2 (K and V) × layers × KV heads × head_dim × bytes per element.",
    "vLLM claims total × gpu_memory_utilization of the GPU, loads the weights, measures a profile run, and gives the rest to the cache in blocks of 16 tokens (the KV pool).",
    "Sequences that fit = pool ÷ (context × bytes per token), rounded down to whole blocks: double the context and half as many fit. FP8 KV halves the bytes and doubles the sequences.",
    "Decoding reads the weights and every running sequence's cache at each step, so memory bandwidth bounds tokens per second; more sequences share one read of the weights.",
];

/// A refusal in a few words, for a table cell.
pub fn refusal_short(kind: RefusalKind) -> &'static str {
    match kind {
        RefusalKind::WeightsDoNotFit => "weights do not load",
        RefusalKind::NoKvMemory => "no KV memory",
        RefusalKind::MaxModelLen => "max_model_len too long",
        RefusalKind::InvalidTp => "TP invalid",
    }
}

/// What the plan's figures mean.
pub const PLAN_NOTE: &str =
    "The utilization and the longest length carry the overhead estimate's range; \
--kv-cache-memory (vLLM 0.11+) skips the estimate and gives exactly these blocks.";
