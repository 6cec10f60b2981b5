//! The page's decisions as pure functions, compiled for every target and tested natively
//! (`tests/page.rs`): what each input shows and how typed text is committed, what the pickers
//! offer and select, the texts the panels show, the three charts as one table, and the embed
//! snippet. The Leptos components in `app/` only wire these to the DOM.

use crate::charts;
use kvbudget_core::calc::Outcome;
use kvbudget_core::chart_data::ChartData;
use kvbudget_core::config::Imported;
use kvbudget_core::error::KvError;
use kvbudget_core::explain::plural;
use kvbudget_core::fields;
use kvbudget_core::model::{Attention, ModelSpec};
use kvbudget_core::presets::{self, GpuPreset, ModelPreset};
use kvbudget_core::report_json::kv_report;
use kvbudget_core::scenario::{Embed, GpuChoice, ModelChoice, PageScenario};
use kvbudget_core::units::GIB;
use kvbudget_core::units::{fixed2, thousands, Bytes};
use kvbudget_core::vllm::logparse::{self, ParsedLog};
use kvbudget_core::vllm::{Report, Version, NEWEST};
use kvbudget_core::{pyjson, seed};

/// How the user wants weights entered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Units {
    /// Decimal GB (10⁹ B) instead of GiB (2³⁰ B).
    pub weights_in_gb: bool,
}

/// A text input bound to one value of the scenario.
pub struct Input {
    /// DOM id (the error message is `error-<id>`).
    pub id: &'static str,
    /// Visible label.
    pub label: &'static str,
    /// Units or defaults, after the label (empty: none).
    pub hint: &'static str,
    /// `inputmode` for phone keyboards.
    pub inputmode: &'static str,
    /// The committed value as text (empty for a value left to its default).
    pub show: fn(&PageScenario, Units) -> String,
    /// Parses typed text into the scenario (empty text: the default, where there is one).
    apply: fn(&mut PageScenario, &str, Units) -> Result<(), KvError>,
}

impl Input {
    /// The scenario with `text` committed, or the message to show under the field; the scenario
    /// passed in is left as it was either way.
    pub fn commit(
        &self,
        s: &PageScenario,
        text: &str,
        units: Units,
    ) -> Result<PageScenario, String> {
        let mut t = s.clone();
        (self.apply)(&mut t, text, units).map_err(|e| e.to_string())?;
        Ok(t)
    }
}

/// `None` for empty text (the field's default), else the parsed value.
fn optional<T>(text: &str, parse: fn(&str) -> Result<T, KvError>) -> Result<Option<T>, KvError> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        parse(text).map(Some)
    }
}

fn custom(s: &PageScenario) -> Option<&ModelSpec> {
    match &s.model {
        ModelChoice::Custom(c) => Some(c),
        ModelChoice::Preset(_) => None,
    }
}

fn set_custom(s: &mut PageScenario, f: impl FnOnce(&mut ModelSpec)) {
    if let Some(c) = s.model.custom_mut() {
        f(c)
    }
}

/// A custom model's geometry, in the order the form shows it.
pub const CUSTOM_MODEL: [Input; 5] = [
    Input {
        id: "name",
        label: "Name",
        hint: "",
        inputmode: "text",
        show: |s, _| custom(s).map(|c| c.id.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            let n = fields::parse_name(t)?;
            set_custom(s, |c| c.id = n.into());
            Ok(())
        },
    },
    Input {
        id: "layers",
        label: "Layers",
        hint: "",
        inputmode: "numeric",
        show: |s, _| custom(s).map(|c| c.layers.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            let n = fields::parse_dim("layers", t)?;
            set_custom(s, |c| c.layers = n);
            Ok(())
        },
    },
    Input {
        id: "heads",
        label: "Attention heads",
        hint: "",
        inputmode: "numeric",
        show: |s, _| {
            custom(s)
                .map(|c| c.attention_heads.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::parse_dim("attention heads", t)?;
            set_custom(s, |c| c.attention_heads = n);
            Ok(())
        },
    },
    Input {
        id: "kv_heads",
        label: "KV heads",
        hint: "",
        inputmode: "numeric",
        show: |s, _| {
            custom(s)
                .map(|c| c.kv_heads.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::parse_dim("KV heads", t)?;
            set_custom(s, |c| c.kv_heads = n);
            Ok(())
        },
    },
    Input {
        id: "head_dim",
        label: "head_dim",
        hint: "",
        inputmode: "numeric",
        show: |s, _| {
            custom(s)
                .map(|c| c.head_dim.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::parse_dim("head_dim", t)?;
            set_custom(s, |c| c.head_dim = n);
            Ok(())
        },
    },
];

/// A custom model's weights, in GiB or GB.
pub const WEIGHTS: Input = Input {
    id: "weights",
    label: "Weights",
    hint: "",
    inputmode: "decimal",
    show: |s, u| match custom(s) {
        Some(c) if u.weights_in_gb => format!("{:.2}", c.weights.as_gb()),
        Some(c) => fixed2(c.weights.as_gib()),
        None => String::new(),
    },
    apply: |s, t, u| {
        let b = if u.weights_in_gb {
            fields::parse_weights_gb(t)?
        } else {
            fields::parse_weights_gib(t)?
        };
        set_custom(s, |c| c.weights = b);
        Ok(())
    },
};

/// A custom GPU's memory and bandwidth.
pub const CUSTOM_GPU: [Input; 2] = [
    Input {
        id: "gpu_gib",
        label: "Memory as vLLM sees it",
        hint: "GiB",
        inputmode: "decimal",
        show: |s, _| fixed2(s.gpu.total().as_gib()),
        apply: |s, t, _| {
            let b = fields::parse_gpu_gib(t)?;
            if let GpuChoice::Custom { total, .. } = &mut s.gpu {
                *total = b;
            }
            Ok(())
        },
    },
    Input {
        id: "bw_gbs",
        label: "Bandwidth",
        hint: "GB/s",
        inputmode: "decimal",
        show: |s, _| format!("{}", s.gpu.bandwidth_gbs()),
        apply: |s, t, _| {
            let b = fields::parse_bw(t)?;
            if let GpuChoice::Custom { bw_gbs, .. } = &mut s.gpu {
                *bw_gbs = b;
            }
            Ok(())
        },
    },
];

/// How many GPUs the model is split over.
pub const PARALLEL: [Input; 2] = [
    Input {
        id: "tp",
        label: "Tensor-parallel size",
        hint: "",
        inputmode: "numeric",
        show: |s, _| s.tp.to_string(),
        apply: |s, t, _| {
            s.tp = fields::parse_tp(t)?;
            Ok(())
        },
    },
    Input {
        id: "pp",
        label: "Pipeline-parallel size",
        hint: "",
        inputmode: "numeric",
        show: |s, _| s.pp.to_string(),
        apply: |s, t, _| {
            s.pp = fields::parse_pp(t)?;
            Ok(())
        },
    },
];

/// vLLM's memory and scheduling settings (the version is a picker).
pub const VLLM: [Input; 4] = [
    Input {
        id: "util",
        label: "gpu_memory_utilization",
        hint: "0–1; empty: the version's default",
        inputmode: "decimal",
        show: |s, _| s.util.map(|u| u.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.util = optional(t, fields::parse_util)?;
            Ok(())
        },
    },
    Input {
        id: "ctx",
        label: "max_model_len",
        hint: "tokens",
        inputmode: "numeric",
        show: |s, _| s.ctx.to_string(),
        apply: |s, t, _| {
            s.ctx = fields::parse_ctx(t)?;
            Ok(())
        },
    },
    Input {
        id: "seqs",
        label: "max_num_seqs",
        hint: "empty: vLLM's default",
        inputmode: "numeric",
        show: |s, _| s.seqs.map(|n| n.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.seqs = optional(t, fields::parse_seqs)?;
            Ok(())
        },
    },
    Input {
        id: "overhead",
        label: "Overhead besides weights",
        hint: "GiB; empty: kvbudget's estimate",
        inputmode: "decimal",
        show: |s, _| s.overhead.map(|o| fixed2(o.as_gib())).unwrap_or_default(),
        apply: |s, t, _| {
            s.overhead = optional(t, fields::parse_overhead)?;
            Ok(())
        },
    },
];

/// What each request holds.
pub const REQUESTS: [Input; 2] = [
    Input {
        id: "prompt",
        label: "Prompt tokens",
        hint: "",
        inputmode: "numeric",
        show: |s, _| s.prompt.map(|n| n.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.prompt = optional(t, fields::parse_prompt)?;
            Ok(())
        },
    },
    Input {
        id: "trace",
        label: "Reasoning-trace tokens",
        hint: "",
        inputmode: "numeric",
        show: |s, _| s.trace.map(|n| n.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.trace = optional(t, fields::parse_trace)?;
            Ok(())
        },
    },
];

/// The text shown in an empty input whose value follows a default.
pub fn placeholder(id: &str, s: &PageScenario, o: Option<&Outcome>) -> String {
    match id {
        "util" => format!("{} (vLLM {} default)", s.version.default_util(), s.version),
        "seqs" => format!("{} (vLLM default here)", s.seqs()),
        "overhead" => match o.and_then(|o| o.chosen.report.overhead) {
            Some(e) => format!(
                "estimate: {} GiB ± {}",
                fixed2(e.subtracted().as_gib()),
                fixed2(e.spread.as_gib())
            ),
            None => "estimate".into(),
        },
        _ => String::new(),
    }
}

/// The model picker's value for the scenario (`custom` for custom geometry).
pub fn model_value(s: &PageScenario) -> String {
    match &s.model {
        ModelChoice::Preset(p) => p.id().to_string(),
        ModelChoice::Custom(_) => "custom".into(),
    }
}

/// Picking `value` in the model picker: a preset, or the current model as editable geometry.
pub fn select_model(s: &mut PageScenario, value: &str) {
    s.model = match presets::model(value) {
        Some(p) => ModelChoice::Preset(p),
        None => ModelChoice::Custom(s.model.to_custom()),
    }
}

/// The GPU picker's value for the scenario (`custom` for a custom GPU).
pub fn gpu_value(s: &PageScenario) -> String {
    match &s.gpu {
        GpuChoice::Preset(g) => g.slug.to_string(),
        GpuChoice::Custom { .. } => "custom".into(),
    }
}

/// Picking `value` in the GPU picker: a preset, or the current GPU's figures as a custom one.
pub fn select_gpu(s: &mut PageScenario, value: &str) {
    s.gpu = match presets::gpu(value) {
        Some(g) => GpuChoice::Preset(g),
        None => s.gpu.to_custom(),
    }
}

/// A model preset as the picker lists it.
pub fn model_option(m: &ModelPreset) -> String {
    let attn = match m.spec.attention {
        Attention::Mla { latent } => format!("MLA {latent}"),
        _ => format!("{} KV heads × {}", m.spec.kv_heads, m.spec.head_dim),
    };
    format!(
        "{} — {attn}, {} GiB weights",
        m.id(),
        fixed2(m.spec.weights.as_gib())
    )
}

/// A GPU preset as the picker lists it.
pub fn gpu_option(g: &GpuPreset) -> String {
    format!(
        "{} — {} GB ({} GiB to vLLM), {} GB/s",
        g.name,
        g.marketed_gb,
        fixed2(g.total.as_gib()),
        thousands(g.bandwidth_gbs)
    )
}

/// A vLLM release as the picker lists it.
pub fn version_option(v: Version) -> String {
    if v == NEWEST {
        format!("{v} (newest known)")
    } else if v < Version::new(0, 8) {
        format!("{v} (V0 engine)")
    } else {
        v.to_string()
    }
}

/// What vLLM sees of the GPU.
pub fn gpu_seen(s: &PageScenario) -> String {
    match &s.gpu {
        GpuChoice::Preset(g) => format!(
            "Marketed {} GB; vLLM sees {} GiB ({} B); {} GB/s.",
            g.marketed_gb,
            fixed2(g.total.as_gib()),
            thousands(g.total.0),
            thousands(g.bandwidth_gbs)
        ),
        GpuChoice::Custom { total, bw_gbs } => format!(
            "vLLM sees {} GiB ({} B); {bw_gbs} GB/s.",
            fixed2(total.as_gib()),
            thousands(total.0)
        ),
    }
}

/// What a custom model's geometry holds beyond the fields shown.
pub fn custom_summary(s: &PageScenario) -> String {
    let Some(c) = custom(s) else {
        return String::new();
    };
    let attention = match c.attention {
        Attention::Full => "full attention".to_string(),
        Attention::SlidingWindow {
            window,
            sliding_layers,
        } => format!(
            "sliding window {} on {sliding_layers} of {} layers",
            thousands(window),
            c.layers
        ),
        Attention::Mla { latent } => format!("MLA latent {latent}"),
    };
    let vocab = if c.vocab > 0 {
        format!("vocab {}", thousands(c.vocab))
    } else {
        "vocab unknown".into()
    };
    let len = if c.max_position > 0 {
        format!("; default max_model_len {}", thousands(c.max_position))
    } else {
        String::new()
    };
    format!("{attention}; {}; {vocab}{len}", c.dtype.name())
}

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
        .chain(r.error.iter().map(|e| format!("ValueError: {e}")))
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
    let range = |f: &dyn Fn(&kvbudget_core::calc::Range) -> String| {
        o.range.as_ref().map(f).unwrap_or_default()
    };
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

/// One of the three charts.
pub struct Chart {
    /// `data-testid` of its figure.
    pub testid: &'static str,
    /// The view that shows it alone.
    pub embed: Embed,
    /// Its title.
    pub title: &'static str,
    /// What it shows, after the title.
    pub subtitle: &'static str,
    /// Draws it.
    pub draw: fn(&ChartData) -> Result<String, charts::ChartError>,
    /// The exact value for automation (`data-value`).
    pub value: fn(&Outcome) -> String,
    /// What it shows, in words, for screen readers.
    pub summary: fn(&Outcome, &ChartData) -> String,
}

/// The three charts, in page order.
pub const CHARTS: [Chart; 3] = [
    Chart {
        testid: "chart-memory",
        embed: Embed::Memory,
        title: "Memory split on one GPU",
        subtitle: " — 16-bit and FP8 KV side by side",
        draw: charts::memory,
        value: |o| o.chosen.pool.to_string(),
        summary: |_, d| {
            d.memory
                .iter()
                .map(|bar| {
                    let parts: Vec<String> = bar
                        .segments
                        .iter()
                        .filter(|s| s.bytes > 0)
                        .map(|s| format!("{} {}", s.label, Bytes(s.bytes)))
                        .collect();
                    format!("{} KV: {}.", bar.label, parts.join(", "))
                })
                .collect::<Vec<_>>()
                .join(" ")
        },
    },
    Chart {
        testid: "chart-concurrency",
        embed: Embed::Concurrency,
        title: "Concurrency vs context",
        subtitle: " — the hyperbola, vLLM's whole blocks",
        draw: charts::concurrency,
        value: |o| o.chosen.capped.to_string(),
        summary: |o, d| {
            let per: Vec<String> = o
                .pair
                .iter()
                .map(|p| {
                    format!(
                        "{} sequences with {} KV",
                        thousands(p.vllm_max),
                        p.kv.name()
                    )
                })
                .collect();
            format!(
                "At {} tokens: {}; max_num_seqs caps at {}.",
                thousands(o.context),
                per.join(", "),
                thousands(d.cap)
            )
        },
    },
    Chart {
        testid: "chart-roofline",
        embed: Embed::Roofline,
        title: "Decode roofline",
        subtitle: " — bandwidth ÷ (weights + KV read per step)",
        draw: charts::roofline,
        value: |o| format!("{}", o.decode.aggregate.round() as u64),
        summary: |o, _| {
            format!(
                "At {} tokens: {:.1} tokens/s for one sequence alone, {:.1} tokens/s for {} sequences together.",
                thousands(o.context),
                o.decode.per_sequence,
                o.decode.aggregate,
                o.chosen.capped.max(1)
            )
        },
    },
];

/// Whether `chart` shows in view `embed`: every chart on the full page and in `embed=1`, one alone.
pub fn chart_shown(chart: &Chart, embed: Embed) -> bool {
    matches!(embed, Embed::Full | Embed::Compact) || chart.embed == embed
}

/// A chart's SVG, or its error as escaped text.
pub fn chart_svg(chart: &Chart, d: &ChartData) -> String {
    (chart.draw)(d).unwrap_or_else(|e| format!("<p>chart error: {}</p>", html_escape(&e)))
}

/// Text made safe to place inside HTML text or a quoted attribute.
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The `<iframe>` a course page pastes to embed `url`.
pub fn embed_snippet(url: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"100%\" height=\"720\" style=\"border:0\" loading=\"lazy\" title=\"kvbudget: KV cache budget\"></iframe>",
        html_escape(url)
    )
}

/// The scenario as the compact embedded view.
pub fn embedded(s: &PageScenario) -> PageScenario {
    PageScenario {
        embed: Embed::Compact,
        ..s.clone()
    }
}

/// The scenario as the full page.
pub fn full_page(s: &PageScenario) -> PageScenario {
    PageScenario {
        embed: Embed::Full,
        ..s.clone()
    }
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

/// A Hugging Face id: `owner/name` of letters, digits, `.`, `_` and `-`.
pub fn valid_hf_id(id: &str) -> bool {
    let mut parts = id.split('/');
    let ok = |p: Option<&str>| {
        p.is_some_and(|p| {
            !p.is_empty()
                && p.len() <= 96
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        })
    };
    ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
}

/// An imported config becomes the custom model; `max_model_len` is lowered to the model's
/// default length when it exceeds it.
pub fn adopt_import(s: &mut PageScenario, m: &Imported) {
    s.model = ModelChoice::Custom(m.spec.clone());
    let default_len = m.default_max_model_len;
    if default_len > 0 && s.ctx > default_len {
        s.ctx = default_len;
    }
}

/// What an import read, in one sentence.
pub fn import_summary(m: &Imported) -> String {
    let s = &m.spec;
    let attention = match s.attention {
        Attention::Full => format!("{} KV heads × {}", s.kv_heads, s.head_dim),
        Attention::SlidingWindow {
            window,
            sliding_layers,
        } => format!(
            "{} KV heads × {}, window {} on {sliding_layers} layers",
            s.kv_heads,
            s.head_dim,
            thousands(window)
        ),
        Attention::Mla { latent } => format!("MLA latent {latent}"),
    };
    format!(
        "Imported {}: {} layers, {attention}; weights ≈ {} GiB ({}).",
        s.id,
        s.layers,
        fixed2(s.weights.as_gib()),
        m.weights.explain
    )
}

/// What the log check says after reading a log.
pub fn log_status(p: &ParsedLog) -> String {
    if p.kv.is_none() && p.error.is_none() {
        return format!(
            "No KV cache figures in this log: looked for {}.",
            logparse::LOOKED_FOR
        );
    }
    match (&p.version, &p.model) {
        (Some(v), Some(m)) => format!("vLLM {v}, {m}."),
        (Some(v), None) => format!("vLLM {v}."),
        _ => "Read.".into(),
    }
}

/// The course lab's kv_report.json for the scenario's geometry and pool beside a log.
pub fn lab_report(s: &PageScenario, o: &Outcome, log: &ParsedLog) -> Option<String> {
    let m = &o.model;
    let pred = seed::predict(
        m.layers as i64,
        m.kv_heads as i64,
        m.head_dim as i64,
        s.kv.bytes(m.dtype) as f64,
        o.chosen.pool.max(0) as f64 / GIB as f64,
        o.context as i64,
    )
    .ok()?;
    Some(
        pyjson::dumps(&kv_report(
            &pred,
            log,
            o.chosen.report.block_size,
            o.context,
        )) + "\n",
    )
}
