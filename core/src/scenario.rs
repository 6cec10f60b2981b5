//! The page's scenario: what a user chose (model, GPU, settings, view), each default written once.
//!
//! The URL codec ([`crate::query`]) and the page's inputs read and write this type; the
//! evaluation ([`crate::calc`]) computes from it.

use crate::model::{Extras, KvDtype, ModelSpec};
use crate::presets::{self, Arch, GpuPreset, ModelPreset};
use crate::sglang::Version as SglangVersion;
use crate::units::{Bytes, GIB};
use crate::vllm::{default_max_num_seqs, family, Knobs, Overhead, Version, NEWEST};
use std::borrow::Cow;

/// The model a fresh page shows.
pub const DEFAULT_MODEL: &str = "Qwen/Qwen3-8B";
/// The GPU a fresh page shows.
pub const DEFAULT_GPU: &str = "rtx-4090";
/// The `--max-model-len` a fresh page shows.
pub const DEFAULT_CTX: u64 = 8192;
/// Where custom geometry starts: the default model's geometry and weights, named `my-model`,
/// with its vocabulary, default length and MLP sizes left unknown.
pub fn custom_start() -> ModelSpec {
    ModelSpec {
        id: Cow::Borrowed("my-model"),
        max_position: 0,
        vocab: 0,
        extras: Extras::default(),
        ..default_model().spec()
    }
}

fn default_model() -> &'static ModelPreset {
    presets::model(DEFAULT_MODEL).unwrap_or(&presets::MODELS[0])
}

/// A custom GPU's memory until one is given.
pub const CUSTOM_GPU_TOTAL: Bytes = Bytes(24 * GIB);
/// A custom GPU's bandwidth in GB/s until one is given.
pub const CUSTOM_GPU_BW_GBS: f64 = 1000.0;

/// The model: a preset or geometry the user brought (typed, imported, or a preset edited).
// One scenario lives at a time and is small either way (a few hundred bytes): boxing the custom
// model would add an allocation per edit for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum ModelChoice {
    /// A preset.
    Preset(&'static ModelPreset),
    /// Custom geometry; its `id` is the name the user gave.
    Custom(ModelSpec),
}

impl ModelChoice {
    /// The model as the arithmetic sees it.
    pub fn spec(&self) -> ModelSpec {
        match self {
            ModelChoice::Preset(p) => p.spec(),
            ModelChoice::Custom(c) => c.clone(),
        }
    }
    /// The name to show.
    pub fn name(&self) -> &str {
        match self {
            ModelChoice::Preset(p) => p.id(),
            ModelChoice::Custom(c) => &c.id,
        }
    }
    /// The custom geometry, when the model is custom.
    pub fn custom(&self) -> Option<&ModelSpec> {
        match self {
            ModelChoice::Custom(c) => Some(c),
            ModelChoice::Preset(_) => None,
        }
    }
    /// The custom geometry to edit, when the model is custom.
    pub fn custom_mut(&mut self) -> Option<&mut ModelSpec> {
        match self {
            ModelChoice::Custom(c) => Some(c),
            ModelChoice::Preset(_) => None,
        }
    }
    /// The same model as editable geometry: a preset becomes `<id> (edited)`.
    pub fn to_custom(&self) -> ModelSpec {
        match self {
            ModelChoice::Custom(c) => c.clone(),
            ModelChoice::Preset(p) => ModelSpec {
                id: Cow::Owned(format!("{} (edited)", p.id())),
                ..p.spec()
            },
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
        /// Peak dense 16-bit TFLOPS (0: unknown, no compute roof).
        tflops: f64,
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
    /// Peak dense 16-bit tensor TFLOPS, when known.
    pub fn bf16_tflops(&self) -> Option<f64> {
        let t = match self {
            GpuChoice::Preset(g) => g.bf16_tflops,
            GpuChoice::Custom { tflops, .. } => *tflops,
        };
        (t > 0.0).then_some(t)
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
    /// The same memory and bandwidth as a custom GPU.
    pub fn to_custom(&self) -> GpuChoice {
        GpuChoice::Custom {
            total: self.total(),
            bw_gbs: self.bandwidth_gbs(),
            tflops: self.bf16_tflops().unwrap_or(0.0),
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

impl Embed {
    /// Every view with its URL value (`None`: the full page, no parameter) and the words that
    /// also select it.
    const VALUES: [(Embed, Option<&'static str>, &'static [&'static str]); 5] = [
        (Embed::Full, None, &["0", "", "false"]),
        (Embed::Compact, Some("1"), &["true", "compact"]),
        (Embed::Memory, Some("memory"), &[]),
        (Embed::Concurrency, Some("concurrency"), &[]),
        (Embed::Roofline, Some("roofline"), &[]),
    ];

    /// The `embed=` value (None for the full page).
    pub fn key(self) -> Option<&'static str> {
        Embed::VALUES
            .iter()
            .find(|(e, _, _)| *e == self)
            .and_then(|(_, k, _)| *k)
    }

    /// Reads an `embed=` value.
    pub fn parse(s: &str) -> Option<Embed> {
        let t = s.trim();
        Embed::VALUES
            .iter()
            .find(|(_, k, also)| *k == Some(t) || also.contains(&t))
            .map(|(e, _, _)| *e)
    }
}

/// The colour scheme: the reader's (`auto`), or fixed for a course page that embeds the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Follows the reader's system setting.
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// The `theme=` value (None for `auto`, the default).
    pub fn key(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }
    /// Reads a `theme=` value.
    pub fn parse(s: &str) -> Option<Theme> {
        match s.trim() {
            "auto" | "" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// The serving engine the page emulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// vLLM (the default).
    Vllm,
    /// SGLang.
    Sglang,
}

impl Engine {
    /// The `engine=` value (None for vLLM, the default).
    pub fn key(self) -> Option<&'static str> {
        match self {
            Engine::Vllm => None,
            Engine::Sglang => Some("sglang"),
        }
    }
    /// Reads an `engine=` value.
    pub fn parse(s: &str) -> Option<Engine> {
        match s.trim().to_ascii_lowercase().as_str() {
            "vllm" | "" => Some(Engine::Vllm),
            "sglang" => Some(Engine::Sglang),
            _ => None,
        }
    }
    /// The name to show.
    pub fn label(self) -> &'static str {
        match self {
            Engine::Vllm => "vLLM",
            Engine::Sglang => "SGLang",
        }
    }
}

/// SGLang's own settings on the page; `None` is SGLang's default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SglangKnobs {
    /// The release (`None`: the newest known).
    pub version: Option<SglangVersion>,
    /// `--mem-fraction-static`.
    pub mem_fraction_static: Option<f64>,
    /// `--page-size`.
    pub page_size: Option<u64>,
    /// `--chunked-prefill-size`.
    pub chunked_prefill_size: Option<i64>,
    /// The pool's size in tokens taken as given (adopted from an SGLang log), instead of the
    /// one computed from the free memory.
    pub num_tokens: Option<u64>,
}

impl SglangKnobs {
    /// The release in force.
    pub fn version(&self) -> SglangVersion {
        self.version.unwrap_or(crate::sglang::NEWEST)
    }
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
    /// `--pipeline-parallel-size`.
    pub pp: u64,
    /// Prompt tokens per request (with `trace`, the context each sequence holds); None: use `ctx`.
    pub prompt: Option<u64>,
    /// Reasoning-trace tokens per request.
    pub trace: Option<u64>,
    /// Non-KV overhead besides the weights as one figure (the course lab's assumption);
    /// None: kvbudget's estimate from the model and settings.
    pub overhead: Option<Bytes>,
    /// View.
    pub embed: Embed,
    /// Colour scheme.
    pub theme: Theme,
    /// The page's form shows its settings beyond the model, GPU, context and KV dtype
    /// (parallelism, engine, versions, requests), not only one click away.
    pub more: bool,
    /// The interface's language; None follows the reader's browser.
    pub lang: Option<crate::i18n::Lang>,
    /// KV memory taken as given (e.g. adopted from a vLLM log) instead of the budget.
    pub kv_memory: Option<Bytes>,
    /// A preset's weights as a log measured them ("Model loading took", × GPUs), in place of the
    /// preset's figure (custom models carry their weights in their geometry).
    pub weights: Option<Bytes>,
    /// `--max-num-batched-tokens`; None is vLLM's default for the GPU.
    pub mnbt: Option<u64>,
    /// vLLM's other flags (eager mode, CPU offload, LoRA, speculative decoding, prefix caching).
    pub knobs: Knobs,
    /// The inverse question: plan for this many sequences of the context (None: no plan).
    pub plan: Option<u64>,
    /// The engine emulated.
    pub engine: Engine,
    /// SGLang's settings (used when the engine is SGLang, and by the comparison).
    pub sglang: SglangKnobs,
}

impl Default for PageScenario {
    fn default() -> Self {
        PageScenario {
            model: ModelChoice::Preset(
                presets::model(DEFAULT_MODEL).unwrap_or(&presets::MODELS[0]),
            ),
            kv: KvDtype::Auto,
            gpu: GpuChoice::Preset(presets::gpu(DEFAULT_GPU).unwrap_or(&presets::GPUS[0])),
            util: None,
            version: NEWEST,
            ctx: DEFAULT_CTX,
            seqs: None,
            tp: 1,
            pp: 1,
            prompt: None,
            trace: None,
            overhead: None,
            embed: Embed::Full,
            theme: Theme::Auto,
            more: false,
            lang: None,
            kv_memory: None,
            weights: None,
            mnbt: None,
            knobs: Knobs::default(),
            plan: None,
            engine: Engine::Vllm,
            sglang: SglangKnobs::default(),
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
        self.seqs.unwrap_or_else(|| {
            let fam = family(self.version, self.version.engine_on(self.gpu.arch()));
            let (arch, total) = (self.gpu.arch(), Some(self.gpu.total()));
            default_max_num_seqs(self.version, fam, arch, total, self.mnbt)
        })
    }
    /// Tokens each sequence holds: prompt + trace when given, else `ctx`.
    pub fn context(&self) -> u64 {
        match (self.prompt, self.trace) {
            (None, None) => self.ctx,
            (p, t) => p.unwrap_or(0).saturating_add(t.unwrap_or(0)),
        }
    }
    /// The overhead in force: the figure given, else kvbudget's estimate.
    pub fn overhead_policy(&self) -> Overhead {
        self.overhead
            .map(Overhead::Fixed)
            .unwrap_or(Overhead::ESTIMATE)
    }
    /// The model as the arithmetic sees it, with the weights a log measured where given (an
    /// MoE's routed experts keep their share of them).
    pub fn model_spec(&self) -> ModelSpec {
        let mut m = self.model.spec();
        if let (ModelChoice::Preset(_), Some(w)) = (&self.model, self.weights) {
            let share = m.extras.routed.0 as u128 * w.0 as u128 / m.weights.0.max(1) as u128;
            m.extras.routed = Bytes(share.min(w.0 as u128) as u64);
            m.weights = w;
        }
        m
    }
    /// Chooses a model; weights measured for another model no longer apply.
    pub fn set_model(&mut self, m: ModelChoice) {
        if m != self.model {
            self.weights = None;
        }
        self.model = m;
    }
    /// Takes the model a log names when it is a preset; otherwise keeps the current one and says
    /// why (the note a log's adoption shows).
    pub fn take_logged_model(&mut self, name: Option<&str>) -> Option<String> {
        let kept = self.model.name().to_string();
        match name.map(|m| (m, presets::model(m))) {
            Some((_, Some(p))) => {
                self.set_model(ModelChoice::Preset(p));
                None
            }
            Some((m, None)) => Some(format!(
                "the log's model {} is not a preset: kept {kept}; import its config.json for its geometry",
                crate::error::truncate(m, 80)
            )),
            None => Some("the log does not name its model: kept the current one".into()),
        }
    }
    /// GPUs the model is spread over (`tp × pp`).
    pub fn gpus(&self) -> u64 {
        self.tp.max(1).saturating_mul(self.pp.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embed_values_round_trip() {
        for (e, k, also) in Embed::VALUES {
            assert_eq!(e.key(), k);
            assert_eq!(Embed::parse(k.unwrap_or("")), Some(e));
            for a in also {
                assert_eq!(Embed::parse(a), Some(e));
            }
        }
        assert_eq!(Embed::parse("bogus"), None);
    }

    #[test]
    fn defaults_are_presets() {
        let s = PageScenario::default();
        assert_eq!(s.model.name(), DEFAULT_MODEL);
        assert_eq!(s.gpu.name(), "RTX 4090");
        // RTX 4090 (23.55 GiB < 70 GiB): vLLM's small-GPU default of 256 sequences.
        assert_eq!(s.seqs(), 256);
    }
}
