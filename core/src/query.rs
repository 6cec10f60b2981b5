//! The page's scenario: its fields, how each is validated, and its URL query form.
//!
//! One validator per field serves the URL decoder and the page's inputs alike, so a value is
//! refused with the same message wherever it comes from.

use crate::error::{KvError, Result};
use crate::model::{truncate, Attention, KvDtype, ModelDtype, ModelSpec, MAX_DIM};
use crate::presets::{self, Arch, GpuPreset, ModelPreset};
use crate::units::{py_float_repr, Bytes, GIB};
use crate::vllm::{self, Version};

/// A model the user brought by its geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomModel {
    /// A name to show (any text; always shown as text).
    pub name: String,
    /// Layers.
    pub layers: u64,
    /// Query heads.
    pub heads: u64,
    /// KV heads.
    pub kv_heads: u64,
    /// Head dimension.
    pub head_dim: u64,
    /// Weights as vLLM counts them.
    pub weights: Bytes,
    /// Attention kind (full, sliding window, MLA).
    pub attention: Attention,
    /// Checkpoint dtype (what `auto` KV uses).
    pub dtype: ModelDtype,
    /// Default `max_model_len` (0: unknown).
    pub max_position: u64,
    /// Vocabulary size (0: unknown).
    pub vocab: u64,
    /// Sizes for the overhead estimate.
    pub extras: crate::model::Extras,
}

impl Default for CustomModel {
    /// Qwen3-8B's geometry, a reasonable start for editing.
    fn default() -> Self {
        CustomModel {
            name: "my-model".into(),
            layers: 36,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            weights: Bytes(1527 * GIB / 100),
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 0,
            vocab: 0,
            extras: crate::model::Extras::default(),
        }
    }
}

impl CustomModel {
    /// A custom model from a spec (an imported config or a preset to edit).
    pub fn from_spec(m: &ModelSpec) -> Self {
        CustomModel {
            name: m.id.clone(),
            layers: m.layers,
            heads: m.attention_heads,
            kv_heads: m.kv_heads,
            head_dim: m.head_dim,
            weights: m.weights,
            attention: m.attention,
            dtype: m.dtype,
            max_position: m.max_position,
            vocab: m.vocab,
            extras: m.extras,
        }
    }
}

/// The model: a preset or custom geometry.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelChoice {
    /// A preset.
    Preset(&'static ModelPreset),
    /// Custom geometry.
    Custom(CustomModel),
}

impl ModelChoice {
    /// The model as the arithmetic sees it.
    pub fn spec(&self) -> ModelSpec {
        match self {
            ModelChoice::Preset(p) => p.spec(),
            ModelChoice::Custom(c) => ModelSpec {
                id: c.name.clone(),
                layers: c.layers,
                attention_heads: c.heads,
                kv_heads: c.kv_heads,
                head_dim: c.head_dim,
                attention: c.attention,
                dtype: c.dtype,
                max_position: c.max_position,
                vocab: c.vocab,
                weights: c.weights,
                extras: c.extras,
            },
        }
    }
    /// The name to show.
    pub fn name(&self) -> &str {
        match self {
            ModelChoice::Preset(p) => p.id,
            ModelChoice::Custom(c) => &c.name,
        }
    }
}

/// The GPU: a preset or a custom size and bandwidth.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuChoice {
    /// A preset.
    Preset(&'static GpuPreset),
    /// Memory as vLLM sees it, and bandwidth.
    Custom {
        /// Total as vLLM sees it.
        total: Bytes,
        /// GB/s.
        bw_gbs: f64,
    },
}

impl GpuChoice {
    /// Total memory as vLLM sees it.
    pub fn total(&self) -> Bytes {
        match self {
            GpuChoice::Preset(g) => g.total,
            GpuChoice::Custom { total, .. } => *total,
        }
    }
    /// Bandwidth in GB/s.
    pub fn bandwidth_gbs(&self) -> f64 {
        match self {
            GpuChoice::Preset(g) => g.bandwidth_gbs as f64,
            GpuChoice::Custom { bw_gbs, .. } => *bw_gbs,
        }
    }
    /// Family.
    pub fn arch(&self) -> Arch {
        match self {
            GpuChoice::Preset(g) => g.arch,
            GpuChoice::Custom { .. } => Arch::Other,
        }
    }
    /// Display name.
    pub fn name(&self) -> &str {
        match self {
            GpuChoice::Preset(g) => g.name,
            GpuChoice::Custom { .. } => "custom GPU",
        }
    }
}

/// Which view the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Embed {
    /// The full page.
    Full,
    /// Results and charts only (`embed=1`).
    Compact,
    /// One chart (`embed=memory`).
    Memory,
    /// One chart (`embed=concurrency`).
    Concurrency,
    /// One chart (`embed=roofline`).
    Roofline,
}

/// Everything the page computes from.
#[derive(Clone, Debug, PartialEq)]
pub struct PageScenario {
    /// Model.
    pub model: ModelChoice,
    /// KV cache dtype.
    pub kv: KvDtype,
    /// GPU.
    pub gpu: GpuChoice,
    /// `--gpu-memory-utilization`; None follows the version's default.
    pub util: Option<f64>,
    /// vLLM release.
    pub version: Version,
    /// `--max-model-len`.
    pub ctx: u64,
    /// `--max-num-seqs`; None is vLLM's default for the GPU.
    pub seqs: Option<u64>,
    /// `--tensor-parallel-size`.
    pub tp: u64,
    /// Prompt tokens per request (with `trace`, the context each sequence holds); None: use `ctx`.
    pub prompt: Option<u64>,
    /// Reasoning-trace tokens per request.
    pub trace: Option<u64>,
    /// Non-KV overhead besides the weights as one figure (the course lab's assumption);
    /// None: kvbudget's estimate from the model and settings.
    pub overhead: Option<Bytes>,
    /// View.
    pub embed: Embed,
    /// KV memory taken as given (e.g. adopted from a vLLM log) instead of the budget.
    pub kv_memory: Option<Bytes>,
}

impl Default for PageScenario {
    fn default() -> Self {
        PageScenario {
            model: ModelChoice::Preset(&presets::MODELS[0]),
            kv: KvDtype::Auto,
            gpu: GpuChoice::Preset(presets::gpu("rtx-4090").unwrap_or(&presets::GPUS[0])),
            util: None,
            version: vllm::NEWEST,
            ctx: 8192,
            seqs: None,
            tp: 1,
            prompt: None,
            trace: None,
            overhead: None,
            embed: Embed::Full,
            kv_memory: None,
        }
    }
}

impl PageScenario {
    /// Utilization in force.
    pub fn util(&self) -> f64 {
        self.util.unwrap_or_else(|| self.version.default_util())
    }
    /// `max_num_seqs` in force.
    pub fn seqs(&self) -> u64 {
        self.seqs
            .unwrap_or_else(|| vllm::serve_defaults(self.gpu.arch(), Some(self.gpu.total())).0)
    }
    /// Tokens each sequence holds: prompt + trace when given, else `ctx`.
    pub fn context(&self) -> u64 {
        match (self.prompt, self.trace) {
            (None, None) => self.ctx,
            (p, t) => p.unwrap_or(0).saturating_add(t.unwrap_or(0)),
        }
    }
}

/// The versions a picker offers, oldest first.
pub fn versions() -> Vec<Version> {
    (6..=vllm::NEWEST.minor)
        .map(|m| Version::new(0, m))
        .collect()
}

/// Reads a whole number, allowing `8,192`, `8_192` and `8 192`.
fn whole(field: &'static str, s: &str, lo: u64, hi: u64, range: &'static str) -> Result<u64> {
    let t: String = s
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    if t.is_empty() {
        return Err(KvError::Invalid {
            field,
            message: format!("empty; enter {range}"),
        });
    }
    let v: u64 = t.parse().map_err(|_| KvError::Invalid {
        field,
        message: format!("{:?} is not {range}", truncate(s, 24)),
    })?;
    crate::error::check_range(field, v, lo, hi, range)
}

fn decimal(field: &'static str, s: &str) -> Result<f64> {
    let t = s.trim().replace(',', "");
    if t.is_empty() {
        return Err(KvError::Invalid {
            field,
            message: "empty; enter a number".into(),
        });
    }
    let v: f64 = t.parse().map_err(|_| KvError::Invalid {
        field,
        message: format!("{:?} is not a number", truncate(s, 24)),
    })?;
    if !v.is_finite() {
        return Err(KvError::Invalid {
            field,
            message: format!("{:?} is not a finite number", truncate(s, 24)),
        });
    }
    Ok(v)
}

/// `gpu_memory_utilization`: a number in (0, 1].
pub fn parse_util(s: &str) -> Result<f64> {
    let v = decimal("gpu_memory_utilization", s)?;
    if v <= 0.0 || v > 1.0 {
        return Err(KvError::OutOfRange {
            field: "gpu_memory_utilization",
            range: "greater than 0 and at most 1",
            got: s.trim().into(),
        });
    }
    Ok(v)
}

/// `max_model_len`: 16 … 10,485,760 tokens.
pub fn parse_ctx(s: &str) -> Result<u64> {
    whole(
        "max_model_len",
        s,
        16,
        10 * 1024 * 1024,
        "a whole number of tokens from 16 to 10,485,760",
    )
}
/// `max_num_seqs`: 1 … 65,536.
pub fn parse_seqs(s: &str) -> Result<u64> {
    whole(
        "max_num_seqs",
        s,
        1,
        65_536,
        "a whole number from 1 to 65,536",
    )
}
/// Tensor-parallel size: 1 … 64.
pub fn parse_tp(s: &str) -> Result<u64> {
    whole(
        "tensor-parallel size",
        s,
        1,
        64,
        "a whole number from 1 to 64",
    )
}
/// Prompt tokens: 0 … 10,485,760.
pub fn parse_prompt(s: &str) -> Result<u64> {
    whole(
        "prompt tokens",
        s,
        0,
        10 * 1024 * 1024,
        "a whole number of tokens from 0 to 10,485,760",
    )
}
/// Reasoning-trace tokens: 0 … 10,485,760.
pub fn parse_trace(s: &str) -> Result<u64> {
    whole(
        "reasoning-trace tokens",
        s,
        0,
        10 * 1024 * 1024,
        "a whole number of tokens from 0 to 10,485,760",
    )
}
/// Layers, heads, KV heads, head_dim: 1 … 1,048,576.
pub fn parse_dim(field: &'static str, s: &str) -> Result<u64> {
    whole(field, s, 1, MAX_DIM, "a whole number from 1 to 1,048,576")
}

/// A GiB figure within `0 ..= max_gib` (inclusive), as bytes ⌊g × 2³⁰⌋.
pub fn parse_gib(field: &'static str, s: &str, max_gib: f64, range: &'static str) -> Result<Bytes> {
    let v = decimal(field, s)?;
    if !(0.0..=max_gib).contains(&v) {
        return Err(KvError::OutOfRange {
            field,
            range,
            got: s.trim().into(),
        });
    }
    Bytes::from_gib_f64(v).ok_or(KvError::OutOfRange {
        field,
        range,
        got: s.trim().into(),
    })
}
/// Overhead: 0 … 1,024 GiB.
pub fn parse_overhead(s: &str) -> Result<Bytes> {
    parse_gib("overhead", s, 1024.0, "a number of GiB from 0 to 1,024")
}
/// Weights: 0 … 4,096 GiB.
pub fn parse_weights_gib(s: &str) -> Result<Bytes> {
    parse_gib("weights", s, 4096.0, "a number of GiB from 0 to 4,096")
}
/// GPU memory as vLLM sees it: 1 … 4,096 GiB.
pub fn parse_gpu_gib(s: &str) -> Result<Bytes> {
    let b = parse_gib("GPU memory", s, 4096.0, "a number of GiB from 1 to 4,096")?;
    if b.0 < GIB {
        return Err(KvError::OutOfRange {
            field: "GPU memory",
            range: "a number of GiB from 1 to 4,096",
            got: s.trim().into(),
        });
    }
    Ok(b)
}
/// Bandwidth: 1 … 100,000 GB/s.
pub fn parse_bw(s: &str) -> Result<f64> {
    let v = decimal("bandwidth", s)?;
    if !(1.0..=100_000.0).contains(&v) {
        return Err(KvError::OutOfRange {
            field: "bandwidth",
            range: "a number of GB/s from 1 to 100,000",
            got: s.trim().into(),
        });
    }
    Ok(v)
}
/// A model name for a custom model: at most 120 characters of any text.
pub fn parse_name(s: &str) -> Result<String> {
    let t = s.trim();
    if t.is_empty() {
        return Err(KvError::Invalid {
            field: "name",
            message: "empty; give the model a name".into(),
        });
    }
    Ok(truncate(t, 120))
}

/// A problem with one URL parameter: it was ignored and that field's default used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The parameter's key as it appeared (shortened).
    pub param: String,
    /// What was wrong and what was used instead.
    pub message: String,
}

const KEYS: [&str; 34] = [
    "model",
    "kv",
    "gpu",
    "util",
    "ctx",
    "seqs",
    "tp",
    "vllm",
    "prompt",
    "trace",
    "overhead_gib",
    "name",
    "layers",
    "heads",
    "kv_heads",
    "head_dim",
    "weights_gib",
    "gpu_gib",
    "bw_gbs",
    "embed",
    "v",
    "attn",
    "window",
    "sliding_layers",
    "latent",
    "dtype",
    "max_pos",
    "vocab",
    "hidden",
    "inter",
    "experts_per_tok",
    "moe_inter",
    "mm",
    "kv_bytes",
];

/// Decodes a query string (with or without the leading `?`). Every bad or unknown parameter
/// becomes a notice and leaves that one field at its default; nothing else is lost.
pub fn decode(query: &str) -> (PageScenario, Vec<Notice>) {
    let q = query.strip_prefix('?').unwrap_or(query);
    let mut s = PageScenario::default();
    let mut notes = Vec::new();
    let mut get = std::collections::HashMap::new();
    for (k, v) in form_urlencoded::parse(q.as_bytes()) {
        if k.is_empty() {
            continue;
        }
        if !KEYS.contains(&k.as_ref()) {
            notes.push(Notice {
                param: truncate(&k, 40),
                message: "is not a parameter kvbudget knows; ignored".into(),
            });
            continue;
        }
        get.insert(k.into_owned(), v.into_owned());
    }
    let mut note = |param: &str, e: String, default: String| {
        notes.push(Notice {
            param: param.into(),
            message: format!("{e}; using the default ({default})"),
        });
    };
    macro_rules! field {
        ($key:literal, $parse:expr, $default:expr, $apply:expr) => {
            if let Some(v) = get.get($key) {
                match $parse(v.as_str()) {
                    Ok(x) => $apply(x),
                    Err(e) => note($key, e.to_string(), $default),
                }
            }
        };
    }
    field!("kv", KvDtype::parse, "auto".into(), |x| s.kv = x);
    field!("vllm", Version::parse, vllm::NEWEST.to_string(), |x| s
        .version =
        x);
    field!(
        "util",
        parse_util,
        format!("{} for vLLM {}", s.version.default_util(), s.version),
        |x| s.util = Some(x)
    );
    field!("ctx", parse_ctx, "8192".into(), |x| s.ctx = x);
    field!(
        "seqs",
        parse_seqs,
        "vLLM's default for the GPU".into(),
        |x| s.seqs = Some(x)
    );
    field!("tp", parse_tp, "1".into(), |x| s.tp = x);
    field!(
        "prompt",
        parse_prompt,
        "none: the context is max_model_len".into(),
        |x| s.prompt = Some(x)
    );
    field!("trace", parse_trace, "none".into(), |x| s.trace = Some(x));
    field!(
        "kv_bytes",
        |v| whole(
            "kv_bytes",
            v,
            1,
            1 << 50,
            "a whole number of bytes from 1 to 2^50"
        )
        .map(Bytes),
        "the budget".into(),
        |x| s.kv_memory = Some(x)
    );
    field!(
        "overhead_gib",
        parse_overhead,
        "kvbudget's estimate".into(),
        |x| s.overhead = Some(x)
    );

    // Model: a preset id or `custom` with its geometry.
    match get.get("model").map(|m| m.trim()) {
        None => {}
        Some(m) if m.eq_ignore_ascii_case("custom") => {
            let mut c = CustomModel::default();
            field!("name", parse_name, c.name.clone(), |x| c.name = x);
            field!(
                "layers",
                |v| parse_dim("layers", v),
                c.layers.to_string(),
                |x| c.layers = x
            );
            field!(
                "heads",
                |v| parse_dim("attention heads", v),
                c.heads.to_string(),
                |x| c.heads = x
            );
            field!(
                "kv_heads",
                |v| parse_dim("KV heads", v),
                c.kv_heads.to_string(),
                |x| c.kv_heads = x
            );
            field!(
                "head_dim",
                |v| parse_dim("head_dim", v),
                c.head_dim.to_string(),
                |x| c.head_dim = x
            );
            field!(
                "weights_gib",
                parse_weights_gib,
                format!("{} GiB", crate::units::fixed2(c.weights.as_gib())),
                |x| c.weights = x
            );
            let size = |v: &str| whole("size", v, 0, 1 << 32, "a whole number from 0 to 2^32");
            field!("vocab", size, "unknown".into(), |x| c.vocab = x);
            field!("hidden", size, "unknown".into(), |x| c.extras.hidden = x);
            field!("inter", size, "unknown".into(), |x| c.extras.intermediate =
                x);
            field!("experts_per_tok", size, "0 (dense)".into(), |x| c
                .extras
                .experts_per_token =
                x);
            field!("moe_inter", size, "0".into(), |x| c
                .extras
                .moe_intermediate = x);
            field!(
                "max_pos",
                |v| whole(
                    "max_pos",
                    v,
                    0,
                    1 << 40,
                    "a whole number of tokens from 0 to 2^40"
                ),
                "unknown".into(),
                |x| c.max_position = x
            );
            field!(
                "mm",
                |v: &str| match v.trim() {
                    "1" | "true" => Ok(true),
                    "0" | "false" => Ok(false),
                    _ => Err(KvError::Invalid {
                        field: "mm",
                        message: "use 1 or 0".into()
                    }),
                },
                "0".into(),
                |x| c.extras.multimodal = x
            );
            field!(
                "dtype",
                |v: &str| match v.trim() {
                    "bfloat16" => Ok(ModelDtype::Bf16),
                    "float16" => Ok(ModelDtype::F16),
                    "float32" => Ok(ModelDtype::F32),
                    _ => Err(KvError::Invalid {
                        field: "dtype",
                        message: "use bfloat16, float16 or float32".into()
                    }),
                },
                "bfloat16".into(),
                |x| c.dtype = x
            );
            match get.get("attn").map(|a| a.trim()) {
                None | Some("full") => {}
                Some("sliding") => {
                    let window = get.get("window").map(|v| {
                        whole(
                            "window",
                            v,
                            1,
                            1 << 40,
                            "a whole number of tokens from 1 to 2^40",
                        )
                    });
                    let layers = get.get("sliding_layers").map(|v| {
                        whole(
                            "sliding_layers",
                            v,
                            0,
                            c.layers,
                            "a whole number up to the layer count",
                        )
                    });
                    match (window, layers) {
                        (Some(Ok(window)), Some(Ok(sliding_layers))) => {
                            c.attention = Attention::SlidingWindow {
                                window,
                                sliding_layers,
                            }
                        }
                        (w, l) => {
                            let e = w
                                .and_then(Result::err)
                                .or(l.and_then(Result::err))
                                .map(|e| e.to_string())
                                .unwrap_or_else(|| {
                                    "attn=sliding needs window and sliding_layers".into()
                                });
                            note("attn", e, "full attention".into());
                        }
                    }
                }
                Some("mla") => match get.get("latent").map(|v| parse_dim("latent", v)) {
                    Some(Ok(latent)) => c.attention = Attention::Mla { latent },
                    other => note(
                        "attn",
                        other
                            .and_then(Result::err)
                            .map(|e| e.to_string())
                            .unwrap_or_else(|| "attn=mla needs latent".into()),
                        "full attention".into(),
                    ),
                },
                Some(other) => note(
                    "attn",
                    format!("{:?} is not one of full, sliding, mla", truncate(other, 20)),
                    "full attention".into(),
                ),
            }
            if c.kv_heads > c.heads {
                note(
                    "kv_heads",
                    format!(
                        "KV heads ({}) exceed attention heads ({})",
                        c.kv_heads, c.heads
                    ),
                    "KV heads = attention heads".into(),
                );
                c.kv_heads = c.heads;
            }
            s.model = ModelChoice::Custom(c);
        }
        Some(m) => match presets::model(m) {
            Some(p) => s.model = ModelChoice::Preset(p),
            None => note(
                "model",
                format!(
                    "{:?} is not a known model (use a preset id or custom)",
                    truncate(m, 60)
                ),
                "Qwen/Qwen3-8B".into(),
            ),
        },
    }
    // GPU: a preset slug or `custom` with its memory and bandwidth.
    match get.get("gpu").map(|g| g.trim()) {
        None => {}
        Some(g) if g.eq_ignore_ascii_case("custom") => {
            let (mut total, mut bw) = (Bytes(24 * GIB), 1000.0);
            field!("gpu_gib", parse_gpu_gib, "24 GiB".into(), |x| total = x);
            field!("bw_gbs", parse_bw, "1000 GB/s".into(), |x| bw = x);
            s.gpu = GpuChoice::Custom { total, bw_gbs: bw };
        }
        Some(g) => match presets::gpu(g) {
            Some(p) => s.gpu = GpuChoice::Preset(p),
            None => note(
                "gpu",
                format!("{:?} is not a known GPU slug", truncate(g, 40)),
                "rtx-4090".into(),
            ),
        },
    }
    if let Some(e) = get.get("embed") {
        s.embed = match e.trim() {
            "1" | "true" | "compact" => Embed::Compact,
            "memory" => Embed::Memory,
            "concurrency" => Embed::Concurrency,
            "roofline" => Embed::Roofline,
            "0" | "" | "false" => Embed::Full,
            other => {
                note(
                    "embed",
                    format!(
                        "{:?} is not one of 1, memory, concurrency, roofline",
                        truncate(other, 24)
                    ),
                    "the full page".into(),
                );
                Embed::Full
            }
        };
    }
    (s, notes)
}

/// A number as the URL writes it: integers without `.0`, others in Python's shortest form.
fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        py_float_repr(x)
    }
}

/// A byte count as a GiB figure for the URL, exact enough to come back to the same bytes.
fn gib(b: Bytes) -> String {
    // Shortest decimal that parses back to a float whose ⌊× 2³⁰⌋ is the same byte count.
    for digits in 0..=12 {
        let t = format!("{:.*}", digits, b.as_gib());
        if t.parse::<f64>().ok().and_then(Bytes::from_gib_f64) == Some(b) {
            return num(t.parse().unwrap_or(0.0));
        }
    }
    py_float_repr(b.as_gib())
}

/// The query string (without `?`) for a scenario; decoding it gives the scenario back.
pub fn encode(s: &PageScenario) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    match &s.model {
        ModelChoice::Preset(p) => {
            q.append_pair("model", p.id);
        }
        ModelChoice::Custom(c) => {
            q.append_pair("model", "custom");
            q.append_pair("name", &c.name);
            q.append_pair("layers", &c.layers.to_string());
            q.append_pair("heads", &c.heads.to_string());
            q.append_pair("kv_heads", &c.kv_heads.to_string());
            q.append_pair("head_dim", &c.head_dim.to_string());
            q.append_pair("weights_gib", &gib(c.weights));
            match c.attention {
                Attention::Full => {}
                Attention::SlidingWindow {
                    window,
                    sliding_layers,
                } => {
                    q.append_pair("attn", "sliding");
                    q.append_pair("window", &window.to_string());
                    q.append_pair("sliding_layers", &sliding_layers.to_string());
                }
                Attention::Mla { latent } => {
                    q.append_pair("attn", "mla");
                    q.append_pair("latent", &latent.to_string());
                }
            }
            if c.dtype != ModelDtype::Bf16 {
                q.append_pair("dtype", c.dtype.name());
            }
            for (k, v) in [
                ("max_pos", c.max_position),
                ("vocab", c.vocab),
                ("hidden", c.extras.hidden),
                ("inter", c.extras.intermediate),
                ("experts_per_tok", c.extras.experts_per_token),
                ("moe_inter", c.extras.moe_intermediate),
            ] {
                if v > 0 {
                    q.append_pair(k, &v.to_string());
                }
            }
            if c.extras.multimodal {
                q.append_pair("mm", "1");
            }
        }
    }
    q.append_pair("kv", s.kv.name());
    match &s.gpu {
        GpuChoice::Preset(g) => {
            q.append_pair("gpu", g.slug);
        }
        GpuChoice::Custom { total, bw_gbs } => {
            q.append_pair("gpu", "custom");
            q.append_pair("gpu_gib", &gib(*total));
            q.append_pair("bw_gbs", &num(*bw_gbs));
        }
    }
    if let Some(u) = s.util {
        q.append_pair("util", &num(u));
    }
    q.append_pair("ctx", &s.ctx.to_string());
    if let Some(n) = s.seqs {
        q.append_pair("seqs", &n.to_string());
    }
    q.append_pair("tp", &s.tp.to_string());
    q.append_pair("vllm", &s.version.to_string());
    if let Some(p) = s.prompt {
        q.append_pair("prompt", &p.to_string());
    }
    if let Some(t) = s.trace {
        q.append_pair("trace", &t.to_string());
    }
    if let Some(o) = s.overhead {
        q.append_pair("overhead_gib", &gib(o));
    }
    if let Some(k) = s.kv_memory {
        q.append_pair("kv_bytes", &k.0.to_string());
    }
    match s.embed {
        Embed::Full => {}
        Embed::Compact => {
            q.append_pair("embed", "1");
        }
        Embed::Memory => {
            q.append_pair("embed", "memory");
        }
        Embed::Concurrency => {
            q.append_pair("embed", "concurrency");
        }
        Embed::Roofline => {
            q.append_pair("embed", "roofline");
        }
    }
    q.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let s = PageScenario {
            model: ModelChoice::Custom(CustomModel {
                name: "a&b=c <x>".into(),
                attention: Attention::SlidingWindow {
                    window: 4096,
                    sliding_layers: 21,
                },
                dtype: ModelDtype::F16,
                max_position: 8192,
                vocab: 256_000,
                extras: crate::model::Extras {
                    hidden: 3584,
                    intermediate: 14336,
                    experts_per_token: 2,
                    moe_intermediate: 100,
                    multimodal: true,
                },
                ..CustomModel::default()
            }),
            gpu: GpuChoice::Custom {
                total: Bytes(17_000_000_000),
                bw_gbs: 936.5,
            },
            util: Some(0.875),
            prompt: Some(1000),
            trace: Some(4000),
            overhead: Bytes::from_gib_f64(1.37),
            ..PageScenario::default()
        };
        let q = encode(&s);
        let (back, notes) = decode(&q);
        assert_eq!(notes, vec![]);
        assert_eq!(back, s);
    }

    #[test]
    fn bad_values_fall_back_one_field_at_a_time() {
        let (s, notes) = decode(
            "?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&util=NaN&ctx=-5&bogus=1&vllm=0.11",
        );
        assert_eq!(s.model.name(), "Qwen/Qwen3-14B-AWQ");
        assert_eq!(s.kv, KvDtype::Fp8);
        assert_eq!(s.version, Version::new(0, 11));
        assert_eq!(s.util, None);
        assert_eq!(s.ctx, 8192);
        let params: Vec<&str> = notes.iter().map(|n| n.param.as_str()).collect();
        assert_eq!(params, ["bogus", "util", "ctx"]);
        assert!(
            notes[1].message.contains("gpu_memory_utilization"),
            "{}",
            notes[1].message
        );
    }

    #[test]
    fn whole_numbers_accept_separators() {
        assert_eq!(parse_ctx("32,768").unwrap(), 32_768);
        assert_eq!(parse_ctx(" 8_192 ").unwrap(), 8192);
        assert!(parse_ctx("9223372036854775808").is_err());
        assert!(parse_ctx("")
            .unwrap_err()
            .to_string()
            .contains("max_model_len: empty; enter a whole number"));
        assert!(parse_util("1.5")
            .unwrap_err()
            .to_string()
            .contains("at most 1"));
        assert!(parse_util("inf").is_err());
    }
}
