//! What each input shows and how typed text is committed, what the pickers offer and select,
//! and the hints beside them.

use kvbudget_core::calc::{checked_context, checked_pp, Outcome};
use kvbudget_core::error::KvError;
use kvbudget_core::fields;
use kvbudget_core::floatfmt::{display, fixed};
use kvbudget_core::handoff::sglang::SglangView;
use kvbudget_core::model::{Attention, ModelSpec};
use kvbudget_core::presets::{self, GpuPreset, ModelPreset};
use kvbudget_core::scenario::{Engine, GpuChoice, ModelChoice, PageScenario};
use kvbudget_core::sglang::{self, Version as SglangVersion};
use kvbudget_core::t;
use kvbudget_core::units::{fixed2, thousands};
use kvbudget_core::vllm::{Version, NEWEST};

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
    /// Visible label (in the page's language).
    pub label: fn() -> &'static str,
    /// Units or defaults, after the label (empty: none).
    pub hint: fn() -> &'static str,
    /// `inputmode` for phone keyboards.
    pub inputmode: &'static str,
    /// The committed value as text (empty for a value left to its default).
    pub show: fn(&PageScenario, Units) -> String,
    /// Parses typed text into the scenario (empty text: the default, where there is one).
    pub(super) apply: fn(&mut PageScenario, &str, Units) -> Result<(), KvError>,
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

/// Every text input of the page, table by table.
pub fn all_inputs() -> impl Iterator<Item = &'static Input> {
    CUSTOM_MODEL
        .iter()
        .chain([&WEIGHTS])
        .chain(&CUSTOM_GPU)
        .chain(&PARALLEL)
        .chain(&VLLM)
        .chain(&REQUESTS)
        .chain(&SGLANG)
        .chain(&super::flags::FLAGS)
        .chain([&super::flags::PLAN])
}

/// `None` for empty text (the field's default), else the parsed value.
pub(super) fn optional<T>(
    text: &str,
    parse: fn(&str) -> Result<T, KvError>,
) -> Result<Option<T>, KvError> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        parse(text).map(Some)
    }
}

fn custom(s: &PageScenario) -> Option<&ModelSpec> {
    s.model.custom()
}

/// A custom model's geometry, in the order the form shows it.
pub const CUSTOM_MODEL: [Input; 5] = [
    Input {
        id: "name",
        label: || t!(IN_NAME),
        hint: || "",
        inputmode: "text",
        show: |s, _| custom(s).map(|c| c.id.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            let n = fields::parse_name(t)?;
            if let Some(c) = s.model.custom_mut() {
                c.id = n.into();
            }
            Ok(())
        },
    },
    Input {
        id: "layers",
        label: || t!(IN_LAYERS),
        hint: || "",
        inputmode: "numeric",
        show: |s, _| custom(s).map(|c| c.layers.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            let n = fields::parse_dim("layers", t)?;
            if let Some(c) = s.model.custom_mut() {
                c.layers = n;
            }
            Ok(())
        },
    },
    Input {
        id: "heads",
        label: || t!(IN_HEADS),
        hint: || "",
        inputmode: "numeric",
        show: |s, _| {
            custom(s)
                .map(|c| c.attention_heads.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::parse_dim("attention heads", t)?;
            if let Some(c) = s.model.custom_mut() {
                c.attention_heads = n;
            }
            Ok(())
        },
    },
    Input {
        id: "kv_heads",
        label: || t!(IN_KV_HEADS),
        hint: || "",
        inputmode: "numeric",
        show: |s, _| {
            custom(s)
                .map(|c| c.kv_heads.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::parse_dim("KV heads", t)?;
            if let Some(c) = s.model.custom_mut() {
                c.kv_heads = n;
            }
            Ok(())
        },
    },
    Input {
        id: "head_dim",
        label: || "head_dim",
        hint: || "",
        inputmode: "numeric",
        show: |s, _| {
            custom(s)
                .map(|c| c.head_dim.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::parse_dim("head_dim", t)?;
            if let Some(c) = s.model.custom_mut() {
                c.head_dim = n;
            }
            Ok(())
        },
    },
];

/// A custom model's weights, in GiB or GB.
pub const WEIGHTS: Input = Input {
    id: "weights",
    label: || t!(IN_WEIGHTS),
    hint: || "",
    inputmode: "decimal",
    show: |s, u| match custom(s) {
        Some(c) if u.weights_in_gb => fixed(c.weights.as_gb(), 2),
        Some(c) => fixed2(c.weights.as_gib()),
        None => String::new(),
    },
    apply: |s, t, u| {
        let b = if u.weights_in_gb {
            fields::parse_weights_gb(t)?
        } else {
            fields::parse_weights_gib(t)?
        };
        if let Some(c) = s.model.custom_mut() {
            c.weights = b;
        }
        Ok(())
    },
};

/// A custom GPU's memory, bandwidth and compute.
pub const CUSTOM_GPU: [Input; 3] = [
    Input {
        id: "gpu_gib",
        label: || t!(IN_GPU_GIB),
        hint: || "GiB",
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
        label: || t!(IN_BW),
        hint: || "GB/s",
        inputmode: "decimal",
        show: |s, _| display(s.gpu.bandwidth_gbs()),
        apply: |s, t, _| {
            let b = fields::parse_bw(t)?;
            if let GpuChoice::Custom { bw_gbs, .. } = &mut s.gpu {
                *bw_gbs = b;
            }
            Ok(())
        },
    },
    Input {
        id: "tflops",
        label: || t!(IN_TFLOPS),
        hint: || t!(IN_TFLOPS_HINT),
        inputmode: "decimal",
        show: |s, _| display(s.gpu.bf16_tflops().unwrap_or(0.0)),
        apply: |s, t, _| {
            let v = fields::parse_tflops(t)?;
            if let GpuChoice::Custom { tflops, .. } = &mut s.gpu {
                *tflops = v;
            }
            Ok(())
        },
    },
];

/// How many GPUs the model is split over.
pub const PARALLEL: [Input; 2] = [
    Input {
        id: "tp",
        label: || t!(IN_TP),
        hint: || "",
        inputmode: "numeric",
        show: |s, _| s.tp.to_string(),
        apply: |s, t, _| {
            s.tp = fields::parse_tp(t)?;
            Ok(())
        },
    },
    Input {
        id: "pp",
        label: || t!(IN_PP),
        hint: || "",
        inputmode: "numeric",
        show: |s, _| s.pp.to_string(),
        apply: |s, t, _| {
            s.pp = fields::parse_pp(t)?;
            // Not more stages than the model has layers.
            checked_pp(s).map(drop)
        },
    },
];

/// The context (`max_model_len`, on the form's first screen), then vLLM's memory and scheduling
/// settings (the version is a picker).
pub const VLLM: [Input; 4] = [
    Input {
        id: "ctx",
        label: || "max_model_len",
        hint: || t!(IN_TOKENS),
        inputmode: "numeric",
        show: |s, _| s.ctx.to_string(),
        apply: |s, t, _| {
            s.ctx = fields::parse_ctx(t)?;
            // Not below a prompt + trace given (their fields say the same from their side).
            checked_context(s).map(drop)
        },
    },
    Input {
        id: "util",
        label: || "gpu_memory_utilization",
        hint: || t!(IN_UTIL_HINT),
        inputmode: "decimal",
        show: |s, _| s.util.map(display).unwrap_or_default(),
        apply: |s, t, _| {
            s.util = optional(t, fields::parse_util)?;
            Ok(())
        },
    },
    Input {
        id: "seqs",
        label: || "max_num_seqs",
        hint: || t!(IN_SEQS_HINT),
        inputmode: "numeric",
        show: |s, _| s.seqs.map(|n| n.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.seqs = optional(t, fields::parse_seqs)?;
            Ok(())
        },
    },
    Input {
        id: "overhead",
        label: || t!(IN_OVERHEAD),
        hint: || t!(IN_OVERHEAD_HINT),
        inputmode: "decimal",
        show: |s, _| s.overhead.map(|o| fixed2(o.as_gib())).unwrap_or_default(),
        apply: |s, t, _| {
            s.overhead = optional(t, fields::parse_overhead)?;
            Ok(())
        },
    },
];

/// SGLang's own settings (the engine and version are pickers); empty: SGLang's default.
pub const SGLANG: [Input; 3] = [
    Input {
        id: "mfs",
        label: || "mem_fraction_static",
        hint: || t!(IN_MFS_HINT),
        inputmode: "decimal",
        show: |s, _| {
            s.sglang
                .mem_fraction_static
                .map(display)
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            s.sglang.mem_fraction_static = optional(t, fields::parse_mfs)?;
            Ok(())
        },
    },
    Input {
        id: "page_size",
        label: || "page_size",
        hint: || t!(IN_PAGE_HINT),
        inputmode: "numeric",
        show: |s, _| {
            s.sglang
                .page_size
                .map(|n| n.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            s.sglang.page_size = optional(t, fields::parse_page_size)?;
            Ok(())
        },
    },
    Input {
        id: "chunked",
        label: || "chunked_prefill_size",
        hint: || t!(IN_CHUNKED_HINT),
        inputmode: "numeric",
        show: |s, _| {
            s.sglang
                .chunked_prefill_size
                .map(|n| n.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            s.sglang.chunked_prefill_size = optional(t, fields::parse_chunked_prefill)?;
            Ok(())
        },
    },
];

/// What each request holds.
pub const REQUESTS: [Input; 2] = [
    Input {
        id: "prompt",
        label: || t!(IN_PROMPT),
        hint: || "",
        inputmode: "numeric",
        show: |s, _| s.prompt.map(|n| n.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.prompt = optional(t, fields::parse_prompt)?;
            // Refused here, under the field, when prompt + trace is no request vLLM accepts.
            checked_context(s).map(drop)
        },
    },
    Input {
        id: "trace",
        label: || t!(IN_TRACE),
        hint: || "",
        inputmode: "numeric",
        show: |s, _| s.trace.map(|n| n.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.trace = optional(t, fields::parse_trace)?;
            checked_context(s).map(drop)
        },
    },
];

/// The text shown in an empty input whose value follows a default.
/// (`sg`: SGLang's figures for the scenario, once the worker has them.)
pub fn placeholder(
    id: &str,
    s: &PageScenario,
    o: Option<&Outcome>,
    sg: Option<&SglangView>,
) -> String {
    match id {
        "util" => t!(in_util_placeholder(
            &display(s.version.default_util()),
            &s.version.to_string()
        )),
        "seqs" => t!(in_seqs_placeholder(s.seqs())),
        "overhead" => match o.and_then(|o| o.chosen.report.overhead) {
            Some(e) => t!(in_overhead_placeholder(
                &fixed2(e.subtracted().as_gib()),
                &fixed2(e.spread.as_gib())
            )),
            None => t!(IN_OVERHEAD_ESTIMATE).into(),
        },
        "mfs" | "chunked" => {
            let default = sg.map(|v| match id {
                "mfs" => v.default_mfs.as_str(),
                _ => v.default_chunked.as_str(),
            });
            match default.filter(|d| !d.is_empty()) {
                Some(d) => t!(in_sglang_placeholder(d, &s.sglang.version().to_string())),
                None => t!(IN_SGLANG_DEFAULT).into(),
            }
        }
        "page_size" => t!(IN_PAGE_DEFAULT).into(),
        _ => String::new(),
    }
}

/// The engine picker's options.
pub fn engine_options() -> Vec<(String, String)> {
    [Engine::Vllm, Engine::Sglang]
        .iter()
        .map(|e| (e.key().unwrap_or("vllm").to_string(), e.label().to_string()))
        .collect()
}

/// The engine picker's value for the scenario.
pub fn engine_value(s: &PageScenario) -> String {
    s.engine.key().unwrap_or("vllm").to_string()
}

/// Picking `value` in the engine picker.
pub fn select_engine(s: &mut PageScenario, value: &str) {
    if let Some(e) = Engine::parse(value) {
        s.engine = e;
    }
}

/// The SGLang version picker's value for the scenario.
pub fn sglang_version_value(s: &PageScenario) -> String {
    s.sglang.version().to_string()
}

/// Picking `value` in the SGLang version picker (the newest is the default: no URL key).
pub fn select_sglang_version(s: &mut PageScenario, value: &str) {
    if let Ok(v) = SglangVersion::parse(value) {
        s.sglang.version = (v != sglang::NEWEST).then_some(v);
    }
}

/// An SGLang release as the picker lists it.
pub fn sglang_version_option(v: SglangVersion) -> String {
    if v == sglang::NEWEST {
        t!(in_newest(&v.to_string()))
    } else {
        v.to_string()
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
    let m = match presets::model(value) {
        Some(p) => ModelChoice::Preset(p),
        // The model as the arithmetic sees it (a log's weights, and an MoE's routed share of
        // them), under the edited name.
        None => ModelChoice::Custom(ModelSpec {
            id: s.model.to_custom().id,
            ..s.model_spec()
        }),
    };
    s.set_model(m);
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
    // Short, so that a narrow select does not cut it: the name without its organisation; the
    // whole id, the weights and the geometry are the line under the picker.
    let id = m.id();
    id.rsplit_once('/').map_or(id, |(_, name)| name).to_string()
}

/// A GPU preset as the picker lists it.
pub fn gpu_option(g: &GpuPreset) -> String {
    // Short, so that a narrow select does not cut it: the rest is the line under the picker.
    format!("{} — {} GB", g.name, g.marketed_gb)
}

/// A vLLM release as the picker lists it.
pub fn version_option(v: Version) -> String {
    if v == NEWEST {
        t!(in_newest(&v.to_string()))
    } else if v < kvbudget_core::vllm::version::V1_DEFAULT {
        t!(in_v0(&v.to_string()))
    } else {
        v.to_string()
    }
}

/// What vLLM sees of the GPU.
pub fn gpu_seen(s: &PageScenario) -> String {
    match &s.gpu {
        GpuChoice::Preset(g) => t!(in_gpu_seen_preset(
            g.marketed_gb,
            &fixed2(g.total.as_gib()),
            &thousands(g.total.0),
            &thousands(g.bandwidth_gbs),
            &display(g.bf16_tflops),
            &if g.fp8_tflops > 0.0 {
                display(g.fp8_tflops)
            } else {
                String::new()
            }
        )),
        GpuChoice::Custom {
            total,
            bw_gbs,
            tflops,
        } => t!(in_gpu_seen_custom(
            &fixed2(total.as_gib()),
            &thousands(total.0),
            &display(*bw_gbs),
            &if *tflops > 0.0 {
                display(*tflops)
            } else {
                String::new()
            }
        )),
    }
}

/// The line under the model picker: a preset's id, weights and attention; a custom model's
/// geometry beyond the fields shown.
pub fn custom_summary(s: &PageScenario) -> String {
    let Some(c) = custom(s) else {
        // A preset: its whole id, its weights and the attention its KV cache follows.
        let m = s.model.spec();
        return format!(
            "{}: {} GiB, {}",
            m.id,
            fixed2(m.weights.as_gib()),
            m.kinds_text()
        );
    };
    let attention = match c.attention {
        Attention::Full => t!(IN_FULL_ATTENTION).to_string(),
        Attention::SlidingWindow {
            window,
            sliding_layers,
            ..
        } => {
            t!(in_sliding(&thousands(window), sliding_layers, c.layers)) + &c.attention.split_text()
        }
        Attention::Mla { latent, indexer } => t!(in_mla(latent, indexer)),
        Attention::ChunkedLocal {
            chunk,
            local_layers,
        } => t!(in_chunked(&thousands(chunk), local_layers, c.layers)),
    };
    let vocab = if c.vocab > 0 {
        t!(in_vocab(&thousands(c.vocab)))
    } else {
        t!(IN_VOCAB_UNKNOWN).into()
    };
    let len = if c.max_position > 0 {
        t!(in_default_len(&thousands(c.max_position)))
    } else {
        String::new()
    };
    let state = match c.state {
        Some(st) => t!(in_state_layers(st.layers, c.layers, st.kind.name())),
        None => String::new(),
    };
    // (The Chinese list separator is the full-width semicolon the texts above already use.)
    let sep = t!(LIST_SEP);
    format!("{attention}{state}{sep}{}{sep}{vocab}{len}", c.dtype.name())
}
