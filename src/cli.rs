//! The `kvbudget` command line: `predict` and `verify` (twins of the course lab's scripts),
//! `vllm` (what vLLM prints at startup for a scenario); `sglang`, `llamacpp`, `plan` and `engine`
//! in [`sglang`], `llamacpp.rs`, `plan.rs` and [`engine`].

use clap::{Args, Parser, Subcommand};
use kvbudget_core::model::{Attention, Extras, KvDtype, ModelDtype, ModelSpec};
use kvbudget_core::presets::{self, Arch};
use kvbudget_core::pyjson;
use kvbudget_core::report_json::{kv_report, prediction_json};
use kvbudget_core::seed;
use kvbudget_core::units::Bytes;
use kvbudget_core::vllm::logparse::{self, LogError};
use kvbudget_core::vllm::{self, KvMemory, Margin, Overhead, Scenario, Version};
use kvbudget_core::KvError;
use serde_json::{json, Value};

/// `println!` that does not panic when the reader went away (`kvbudget … | head`).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

pub mod engine;
mod knob_args;
mod llamacpp;
mod plan;
mod sglang;

/// Exit status when the engine would refuse to start (or the log shows it refused).
pub const EXIT_REFUSED: i32 = 3;

#[derive(Parser, Debug)]
#[command(
    name = "kvbudget",
    version,
    about = "KV-cache arithmetic for serving an LLM with vLLM or SGLang on one GPU"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Predict max concurrency from the model geometry and a KV pool (the lab's predict.py).
    Predict(PredictArgs),
    /// Read a vLLM or SGLang startup log and compare it with the prediction; writes kv_report.json (the lab's verify.py).
    Verify(VerifyArgs),
    /// Print what vLLM would print at startup about its KV cache for a scenario.
    Vllm(Box<VllmArgs>),
    /// The inverse question: the settings that give N sequences of C tokens, per version.
    Plan(Box<plan::PlanArgs>),
    /// Print what SGLang would print at startup about its KV pool for a scenario.
    Sglang(Box<sglang::SglangArgs>),
    /// A registered engine on the page's scenario (its URL query): lines, figures, command, a log.
    Engine(engine::EngineArgs),
    /// Print what llama.cpp prints at startup about its KV cache for a model and its flags.
    Llamacpp(Box<llamacpp::LlamacppArgs>),
}

#[derive(Args, Debug)]
struct PredictArgs {
    /// A model preset by Hugging Face id (e.g. Qwen/Qwen3-8B); stands in for --layers/--kv-heads/--head-dim.
    #[arg(long)]
    model: Option<String>,
    /// A Hugging Face config.json to read the model from (instead of --model or the geometry flags).
    #[arg(long)]
    config: Option<String>,
    /// Transformer layers (required without --model).
    #[arg(long)]
    layers: Option<i64>,
    /// KV heads (required without --model).
    #[arg(long)]
    kv_heads: Option<i64>,
    /// Head dimension (required without --model).
    #[arg(long)]
    head_dim: Option<i64>,
    /// Bytes per KV element: 2 for BF16/FP16, 1 for FP8.
    #[arg(long, default_value_t = 2.0)]
    dtype_bytes: f64,
    /// GiB left for the KV cache after weights and overhead.
    #[arg(long)]
    kv_pool_gib: f64,
    /// Context per sequence, in tokens.
    #[arg(long, default_value_t = 8192)]
    ctx: i64,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// The startup log to read (vLLM, or SGLang when it has no vLLM KV line).
    #[arg(long, default_value = "serve.log")]
    log: String,
    /// Context per sequence, in tokens.
    #[arg(long, default_value_t = 8192)]
    ctx: i64,
    /// A model preset by Hugging Face id; stands in for --layers/--kv-heads/--head-dim.
    #[arg(long)]
    model: Option<String>,
    /// A Hugging Face config.json to read the model from (instead of --model or the geometry flags).
    #[arg(long)]
    config: Option<String>,
    /// Transformer layers.
    #[arg(long, default_value_t = 40)]
    layers: i64,
    /// KV heads.
    #[arg(long, default_value_t = 8)]
    kv_heads: i64,
    /// Head dimension.
    #[arg(long, default_value_t = 128)]
    head_dim: i64,
    /// Bytes per KV element: 2 for BF16/FP16, 1 for FP8.
    #[arg(long, default_value_t = 2.0)]
    dtype_bytes: f64,
    /// GiB left for the KV cache after weights and overhead.
    #[arg(long, default_value_t = 5.9)]
    kv_pool_gib: f64,
    /// Tokens per block, to turn a V0 '# GPU blocks' count into tokens.
    #[arg(long, default_value_t = 16)]
    block_size: u64,
    /// Where to write the report.
    #[arg(long, default_value = "kv_report.json")]
    out: String,
}

#[derive(Args, Debug)]
pub(crate) struct VllmArgs {
    /// The model.
    #[command(flatten)]
    pub(crate) m: ModelArgs,
    /// GPU preset slug: rtx-5080, rtx-5090, rtx-4090, rtx-3090, l4, t4, a10g, a100-40gb, a100-80gb, h100-sxm, h100-pcie, h200, l40s, mi300x.
    #[arg(long)]
    gpu: Option<String>,
    /// GPU total memory in GiB as vLLM logs it (overrides the preset's).
    #[arg(long)]
    gpu_total_gib: Option<f64>,
    /// Fraction of the GPU vLLM may use [default: 0.90, or 0.92 from vLLM 0.20].
    #[arg(long)]
    gpu_memory_utilization: Option<f64>,
    /// Non-KV overhead besides the weights as one figure in GiB (the course lab assumes 1) [default: kvbudget's estimate from the model and settings].
    #[arg(long)]
    overhead_gib: Option<f64>,
    /// Vocabulary size, for the sampler's share of the estimate [default: the preset's, else 128,256].
    #[arg(long)]
    vocab_size: Option<u64>,
    /// hidden_size, for the estimate [default: the preset's, else heads × head_dim].
    #[arg(long)]
    hidden_size: Option<u64>,
    /// intermediate_size of the dense MLP, for the estimate [default: the preset's, else 3.5 × hidden].
    #[arg(long)]
    intermediate_size: Option<u64>,
    /// num_experts_per_tok of a MoE model, for the estimate [default: the preset's, else 0 (dense)].
    #[arg(long)]
    experts_per_token: Option<u64>,
    /// moe_intermediate_size of a MoE model, for the estimate [default: the preset's, else 0].
    #[arg(long)]
    moe_intermediate_size: Option<u64>,
    /// The model has a vision or audio encoder that vLLM profiles too.
    #[arg(long)]
    multimodal: bool,
    /// Maximum tokens per request [default: the model's max_position_embeddings].
    #[arg(long)]
    max_model_len: Option<u64>,
    /// KV cache dtype: auto, bfloat16, float16, float32, fp8, fp8_e4m3, fp8_e5m2.
    #[arg(long, default_value = "auto")]
    kv_cache_dtype: String,
    /// Tensor-parallel size (GPUs that split every layer).
    #[arg(long, default_value_t = 1)]
    tensor_parallel_size: u64,
    /// Pipeline-parallel size (GPUs that split the layers into stages).
    #[arg(long, default_value_t = 1)]
    pipeline_parallel_size: u64,
    /// Cap on concurrent sequences [default: 1024 on ≥ 70 GiB GPUs other than A100, else 256; vLLM 0.8 by release].
    #[arg(long)]
    max_num_seqs: Option<u64>,
    /// Tokens per scheduler step [default: 8192 on ≥ 70 GiB GPUs other than A100, else 2048; vLLM 0.8 by release].
    #[arg(long)]
    max_num_batched_tokens: Option<u64>,
    /// Tokens per KV block [default: 16; MLA on Hopper: 64].
    #[arg(long)]
    block_size: Option<u64>,
    /// vLLM release X.Y, from 0.4 to 0.33 [default: 0.33].
    #[arg(long)]
    vllm_version: Option<String>,
    /// Engine for 0.8–0.9, where both exist: v0 or v1 [default: v1 from 0.8].
    #[arg(long)]
    engine: Option<String>,
    /// Start from a printed 'Available KV cache memory' in GiB (bytes = floor(G × 2^30)) instead of the budget.
    #[arg(long)]
    available_kv_gib: Option<f64>,
    /// Start from a known number of GPU blocks instead of the budget.
    #[arg(long)]
    num_gpu_blocks: Option<u64>,
    /// The other `vllm serve` flags (--enforce-eager, --kv-cache-memory, …).
    #[command(flatten)]
    knobs: knob_args::KnobArgs,
    /// Print a JSON object instead of the log lines.
    #[arg(long)]
    json: bool,
}

/// Runs the command line; returns the process exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let result = match cli.command {
        Command::Predict(a) => predict(&a),
        Command::Verify(a) => verify(&a),
        Command::Vllm(a) => vllm_cmd(&a),
        Command::Plan(a) => plan::run(&a),
        Command::Sglang(a) => sglang::sglang_cmd(&a),
        Command::Engine(a) => engine::engine_cmd(&a),
        Command::Llamacpp(a) => llamacpp::llamacpp_cmd(&a),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("kvbudget: {msg}");
            1
        }
    }
}

fn preset(id: &str) -> Result<&'static presets::ModelPreset, String> {
    presets::model(id).ok_or_else(|| {
        let known: Vec<&str> = presets::MODELS.iter().map(|m| m.id()).collect();
        format!("unknown --model {id:?}; known models: {}", known.join(", "))
    })
}

/// The model from `--config` (read like vLLM reads it) or `--model` (a preset), if either is given.
pub(crate) fn base_model(
    model: &Option<String>,
    config: &Option<String>,
) -> Result<Option<ModelSpec>, String> {
    match config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --config {path}: {e}"))?;
            // `…/Qwen3-8B/config.json` names the model by its folder; `qwen3-8b.json` by its file.
            let file = std::path::Path::new(path);
            let stem = if file.file_name().and_then(|n| n.to_str()) == Some("config.json") {
                file.parent()
                    .and_then(|d| d.file_name())
                    .and_then(|n| n.to_str())
            } else {
                file.file_stem().and_then(|n| n.to_str())
            }
            .unwrap_or("config");
            let name = model.clone().unwrap_or_else(|| stem.to_string());
            let m = kvbudget_core::config::import(&text, &name)
                .map_err(|e| format!("--config {path}: {e}"))?;
            Ok(Some(m.spec))
        }
        None => Ok(model.as_deref().map(preset).transpose()?.map(|p| p.spec())),
    }
}

/// The seed formula's geometry: the model's (from --config or --model) where given, else the flags.
fn geometry_i64(
    base: Option<&ModelSpec>,
    layers: Option<i64>,
    kv: Option<i64>,
    hd: Option<i64>,
) -> Result<(i64, i64, i64), String> {
    let pick = |from: Option<u64>, flag: Option<i64>, name: &str| {
        from.map(|v| v as i64)
            .or(flag)
            .ok_or_else(|| format!("--{name} is required (or give --model or --config)"))
    };
    Ok((
        pick(base.map(|p| p.layers), layers, "layers")?,
        pick(base.map(|p| p.kv_heads), kv, "kv-heads")?,
        pick(base.map(|p| p.head_dim), hd, "head-dim")?,
    ))
}

fn predict(a: &PredictArgs) -> Result<i32, String> {
    let base = base_model(&a.model, &a.config)?;
    let (l, k, h) = geometry_i64(base.as_ref(), a.layers, a.kv_heads, a.head_dim)?;
    let p =
        seed::predict(l, k, h, a.dtype_bytes, a.kv_pool_gib, a.ctx).map_err(|e| e.to_string())?;
    say!("{}", pyjson::dumps(&prediction_json(&p)));
    Ok(0)
}

fn refusal_text(e: &LogError) -> String {
    match e {
        LogError::RequestTooLong { max_model_len, needed_gib, available_gib, estimated_max_len } => format!(
            "vLLM refused to start: one request of {max_model_len} tokens needs {needed_gib} GiB of KV cache, only {available_gib} GiB is available{}",
            estimated_max_len.map(|e| format!(" (longest that fits: {e} tokens)")).unwrap_or_default()
        ),
        LogError::V0TooLong { max_model_len, kv_tokens } => format!(
            "vLLM refused to start: max_model_len {max_model_len} is larger than the {kv_tokens} tokens the KV cache holds"
        ),
        LogError::NoMemory => "vLLM refused to start: no memory was left for the KV cache blocks".into(),
        LogError::NoBfloat16 => "vLLM refused to start: the GPU has no bfloat16 (before vLLM 0.9.0 a bfloat16 model needs --dtype half there)".into(),
    }
}

fn verify(a: &VerifyArgs) -> Result<i32, String> {
    let base = base_model(&a.model, &a.config)?;
    let (l, k, h) = geometry_i64(
        base.as_ref(),
        Some(a.layers),
        Some(a.kv_heads),
        Some(a.head_dim),
    )?;
    if a.block_size == 0 {
        return Err("--block-size must be a whole number of tokens from 1 up".into());
    }
    if a.ctx <= 0 {
        return Err("--ctx must be a whole number of tokens from 1 up".into());
    }
    let bytes = std::fs::read(&a.log).map_err(|e| format!("cannot read --log {}: {e}", a.log))?;
    let text = String::from_utf8_lossy(&bytes);
    let parsed = logparse::parse(&text);
    let pred =
        seed::predict(l, k, h, a.dtype_bytes, a.kv_pool_gib, a.ctx).map_err(|e| e.to_string())?;
    if parsed.kv.is_none() && parsed.error.is_none() {
        if kvbudget_core::sglang::logparse::is_sglang(&text) {
            return sglang::verify_sglang(a, &text, &pred);
        }
        if kvbudget_core::llamacpp::logparse::is_llamacpp(&text) {
            return Err(format!(
                "{0} is llama.cpp's: kvbudget llamacpp --log {0} checks it",
                a.log
            ));
        }
    }
    let cached = parsed.cached_tokens(a.block_size);
    if cached.is_none() && parsed.error.is_none() {
        return Err(match &parsed.kv_unreadable {
            Some(line) => format!(
                "the KV capacity line in {} holds a figure that is not a count of tokens or \
blocks (a whole number up to 18,446,744,073,709,551,615): {line}",
                a.log
            ),
            None => format!(
                "no KV capacity line in {}: looked for {}",
                a.log,
                logparse::LOOKED_FOR
            ),
        });
    }
    let report = kv_report(&pred, &parsed, a.block_size, a.ctx as u64);
    let text = pyjson::dumps(&report);
    std::fs::write(&a.out, format!("{text}\n"))
        .map_err(|e| format!("cannot write {}: {e}", a.out))?;
    say!("{text}");
    if let (None, Some(e)) = (cached, &parsed.error) {
        eprintln!("kvbudget: {}", refusal_text(e));
        return Ok(EXIT_REFUSED);
    }
    Ok(0)
}

pub(crate) fn gib_flag(name: &'static str, g: f64) -> Result<Bytes, String> {
    Bytes::from_gib_f64(g)
        .ok_or_else(|| format!("--{name} must be a finite number of GiB, 0 or more (got {g})"))
}

/// The model flags the engines' subcommands share: a preset or a config, overridden by geometry.
#[derive(Args, Debug)]
pub(crate) struct ModelArgs {
    /// A model preset by Hugging Face id (case-insensitive); or give the geometry flags.
    #[arg(long)]
    pub(crate) model: Option<String>,
    /// A Hugging Face config.json to read the model from (instead of --model or the geometry flags).
    #[arg(long)]
    pub(crate) config: Option<String>,
    /// Transformer layers (geometry; overrides the preset).
    #[arg(long)]
    pub(crate) layers: Option<u64>,
    /// KV heads (geometry; overrides the preset).
    #[arg(long)]
    pub(crate) kv_heads: Option<u64>,
    /// Head dimension (geometry; overrides the preset).
    #[arg(long)]
    pub(crate) head_dim: Option<u64>,
    /// Query heads [default: the KV heads, i.e. plain MHA].
    #[arg(long)]
    pub(crate) attention_heads: Option<u64>,
    /// MLA latent width per token per layer (kv_lora_rank + qk_rope_head_dim, e.g. 576).
    #[arg(long)]
    pub(crate) mla_latent: Option<u64>,
    /// Sliding-window size in tokens (with --sliding-layers).
    #[arg(long)]
    pub(crate) sliding_window: Option<u64>,
    /// How many layers use the sliding window (with --sliding-window).
    #[arg(long)]
    pub(crate) sliding_layers: Option<u64>,
    /// The checkpoint's dtype, which `--kv-cache-dtype auto` uses: bfloat16, float16 or float32 [default: the preset's, else bfloat16].
    #[arg(long)]
    pub(crate) model_dtype: Option<String>,
    /// Weights in GiB as the engine counts them [default: the preset's].
    #[arg(long)]
    pub(crate) weights_gib: Option<f64>,
}

/// The model from `--model` / `--config` and the geometry flags (validated).
pub(crate) fn model_from(a: &ModelArgs) -> Result<ModelSpec, String> {
    let base = base_model(&a.model, &a.config)?;
    let need = |flag: Option<u64>, from: Option<u64>, name: &str| {
        flag.or(from)
            .ok_or_else(|| format!("--{name} is required without --model"))
    };
    let layers = need(a.layers, base.as_ref().map(|m| m.layers), "layers")?;
    let mut kv_heads = a.kv_heads.or(base.as_ref().map(|m| m.kv_heads));
    let head_dim_default = base.as_ref().map(|m| m.head_dim);
    let attention = match (a.mla_latent, a.sliding_window, a.sliding_layers) {
        (Some(latent), None, None) => Attention::Mla { latent, indexer: 0 },
        (None, Some(window), Some(sliding_layers)) => Attention::sliding(window, sliding_layers),
        (None, None, None) => base
            .as_ref()
            .map(|m| m.attention)
            .unwrap_or(Attention::Full),
        (Some(_), _, _) => {
            return Err("--mla-latent cannot be combined with a sliding window".into())
        }
        _ => return Err("--sliding-window and --sliding-layers go together".into()),
    };
    let head_dim = match attention {
        Attention::Mla { latent, .. } => {
            kv_heads = kv_heads.or(Some(1));
            a.head_dim.or(head_dim_default).unwrap_or(latent)
        }
        _ => need(a.head_dim, head_dim_default, "head-dim")?,
    };
    let kv_heads = kv_heads.ok_or("--kv-heads is required without --model")?;
    let attention_heads = a
        .attention_heads
        .or(base.as_ref().map(|m| m.attention_heads.max(kv_heads)))
        .unwrap_or(kv_heads);
    let dtype = match a.model_dtype.as_deref() {
        None => base.as_ref().map(|m| m.dtype).unwrap_or(ModelDtype::Bf16),
        Some(s) => ModelDtype::parse(s).map_err(|_| {
            format!(
                "--model-dtype {:?}: use bfloat16, float16 or float32",
                s.to_ascii_lowercase()
            )
        })?,
    };
    let weights = match a.weights_gib {
        Some(g) => gib_flag("weights-gib", g)?,
        None => base.as_ref().map(|m| m.weights).unwrap_or_default(),
    };
    Ok(ModelSpec {
        id: base
            .as_ref()
            .map(|m| m.id.clone())
            .unwrap_or_else(|| "custom".into()),
        layers,
        attention_heads,
        kv_heads,
        head_dim,
        attention,
        dtype,
        max_position: base.as_ref().map(|m| m.max_position).unwrap_or(0),
        weights,
        vocab: base.as_ref().map(|m| m.vocab).unwrap_or(0),
        // (A dtype given is the checkpoint's: not a float32 one read as 16 bits.)
        extras: base
            .as_ref()
            .map(|m| Extras {
                f32_checkpoint: m.extras.f32_checkpoint && a.model_dtype.is_none(),
                ..m.extras
            })
            .unwrap_or_default(),
        state: base.as_ref().and_then(|m| m.state),
    })
}

fn build_model(a: &VllmArgs) -> Result<ModelSpec, String> {
    let mut m = model_from(&a.m)?;
    m.vocab = a.vocab_size.unwrap_or(m.vocab);
    let e = &mut m.extras;
    e.hidden = a.hidden_size.unwrap_or(e.hidden);
    e.intermediate = a.intermediate_size.unwrap_or(e.intermediate);
    e.experts_per_token = a.experts_per_token.unwrap_or(e.experts_per_token);
    e.moe_intermediate = a.moe_intermediate_size.unwrap_or(e.moe_intermediate);
    e.multimodal |= a.multimodal;
    m.validate().map_err(|e| e.to_string())?;
    Ok(m)
}

/// The scenario the `vllm` flags describe.
pub(crate) fn scenario_of(a: &VllmArgs) -> Result<Scenario, String> {
    let model = build_model(a)?;
    let version = match &a.vllm_version {
        Some(v) => Version::parse(v).map_err(|e| e.to_string())?,
        None => vllm::NEWEST,
    };
    let kv_dtype = KvDtype::parse(&a.kv_cache_dtype).map_err(|e| e.to_string())?;
    let gpu = a.gpu.as_deref().map(|g| {
        presets::gpu(g).ok_or_else(|| {
            let known: Vec<&str> = presets::GPUS.iter().map(|g| g.slug).collect();
            format!("unknown --gpu {g:?}; known GPUs: {}", known.join(", "))
        })
    });
    let gpu = gpu.transpose()?;
    let gpu_total = match a.gpu_total_gib {
        Some(g) => Some(gib_flag("gpu-total-gib", g)?),
        None => gpu.map(|g| g.total),
    };
    let arch = gpu.map(|g| g.arch).unwrap_or(Arch::Other);
    let knobs = a.knobs.knobs()?;
    // vLLM's float32 for a model it will not run in float16, on a GPU without bfloat16: the
    // preset's or the config's weights at twice the bytes (--weights-gib is as vLLM counts them).
    let mut model = model;
    if vllm::runs_float32(&model, arch, knobs.dtype_half, version) {
        let given = a.m.weights_gib.map(|_| model.weights);
        vllm::to_float32(&mut model);
        model.weights = given.unwrap_or(model.weights);
    }
    let engine = knob_args::engine(a.engine.as_deref(), version, arch)?;
    let memory = if let Some(n) = a.num_gpu_blocks {
        KvMemory::Blocks(n)
    } else if let Some(g) = a.available_kv_gib {
        KvMemory::Available(gib_flag("available-kv-gib", g)?)
    } else {
        let total = gpu_total.ok_or(
            "give --gpu or --gpu-total-gib (or start from --available-kv-gib / --num-gpu-blocks)",
        )?;
        if a.m.model.is_none() && a.m.config.is_none() && a.m.weights_gib.is_none() {
            return Err("--weights-gib is required for a model given by geometry".into());
        }
        KvMemory::Budget {
            gpu_total: total,
            util: a
                .gpu_memory_utilization
                .unwrap_or_else(|| version.default_util()),
            weights: model.weights,
            overhead: match a.overhead_gib {
                Some(g) => Overhead::Fixed(gib_flag("overhead-gib", g)?),
                None => Overhead::ESTIMATE,
            },
        }
    };
    // A given KV memory that, beside the weights on the GPU as the budget counts them, exceeds
    // it cannot happen.
    if let (KvMemory::Available(kv), Some(total)) = (memory, gpu_total) {
        let (tp, pp) = (a.tensor_parallel_size, a.pipeline_parallel_size);
        let w = knobs.weights_on_gpu(&model, model.weights, (tp, pp), version);
        if w.0.saturating_add(kv.0) > total.0 {
            return Err(format!(
                "--available-kv-gib {}: with the weights on the GPU ({w}) that is more than the GPU's {total}; vLLM would run out of memory (leave out --gpu/--gpu-total-gib, or give the GPU the figure came from)",
                a.available_kv_gib.unwrap_or_default()
            ));
        }
    }
    let scenario = Scenario {
        model,
        kv_dtype,
        tp: a.tensor_parallel_size,
        pp: a.pipeline_parallel_size,
        block_size: a.block_size,
        max_model_len: a.max_model_len,
        max_num_seqs: a.max_num_seqs,
        max_num_batched_tokens: a.max_num_batched_tokens,
        version,
        engine,
        memory,
        arch,
        gpu_total,
        knobs,
    };
    Ok(scenario)
}

fn vllm_cmd(a: &VllmArgs) -> Result<i32, String> {
    let scenario = scenario_of(a)?;
    let version = scenario.version;
    let kv_dtype = scenario.kv_dtype;
    let r = vllm::report(&scenario).map_err(|e: KvError| e.to_string())?;
    // With the estimate: the same report at both ends of its range.
    let range = match scenario.memory {
        KvMemory::Budget {
            overhead: Overhead::Estimated(_),
            gpu_total,
            util,
            weights,
        } => {
            let at = |m: Margin| {
                let mut t = scenario.clone();
                t.memory = KvMemory::Budget {
                    gpu_total,
                    util,
                    weights,
                    overhead: Overhead::Estimated(m),
                };
                vllm::report(&t).ok()
            };
            at(Margin::High).zip(at(Margin::Low))
        }
        _ => None,
    };
    // (None with --enforce-eager: no graphs are captured.)
    if let Some(e) = r
        .overhead
        .filter(|e| !e.graphs_counted && e.cuda_graphs.0 > 0)
    {
        eprintln!(
            "kvbudget: vLLM {version} keeps CUDA graphs (about {} GiB) outside --gpu-memory-utilization: real usage exceeds util × total by that much",
            kvbudget_core::units::fixed2(e.cuda_graphs.as_gib())
        );
    }
    if a.json {
        let v = json!({
            "vllm_version": version.to_string(),
            "model": scenario.model.id,
            "kv_cache_dtype": kv_dtype.name(),
            "available_kv_bytes": r.available_kv_bytes.map(|b| b as i64),
            "block_size": r.block_size,
            "page_size_bytes": r.page_bytes,
            "kv_bytes_per_token": r.bytes_per_token.0,
            "max_model_len": r.max_model_len,
            "blocks_per_request": r.blocks_per_request,
            "num_gpu_blocks": r.num_gpu_blocks,
            "gpu_kv_cache_tokens": r.gpu_kv_cache_tokens,
            "max_concurrency": r.max_concurrency,
            "max_num_seqs": r.max_num_seqs,
            "max_seqs_capped": r.max_seqs_capped,
            "lines": r.lines,
            "error": r.error,
            "refusal": r.refusal.map(|x| x.kind.key()),
            "budget": r.budget.map(|b| json!({
                "requested_bytes": b.requested,
                "weights_per_gpu_bytes": b.weights_per_gpu.0,
                "overhead_bytes": b.overhead.0,
            })),
            "overhead": r.overhead.map(|e| json!({
                "mode": "estimate",
                "subtracted_bytes": e.subtracted().0,
                "activation_bytes": e.activation.0,
                "sampler_bytes": e.sampler.0,
                "sampler_rows": e.sampler_rows,
                "forward_base_bytes": e.base.0,
                "dense_mlp_bytes": e.dense.0,
                "moe_workspace_bytes": e.moe.0,
                "encoder_bytes": e.encoder.0,
                "profile_batch_tokens": e.batch_tokens,
                "non_torch_bytes": e.non_torch.0,
                "cuda_graph_bytes": e.cuda_graphs.0,
                "cuda_graphs_in_budget": e.graphs_counted,
                "spread_bytes": e.spread.0,
            })).unwrap_or_else(|| match scenario.memory {
                KvMemory::Budget { overhead: Overhead::Fixed(b), .. } => json!({ "mode": "fixed", "subtracted_bytes": b.0 }),
                _ => Value::Null,
            }),
            "range": range.as_ref().map(|(lo, hi)| json!({
                "available_kv_bytes": [lo.available_kv_bytes.map(|b| b as i64), hi.available_kv_bytes.map(|b| b as i64)],
                "gpu_kv_cache_tokens": [lo.gpu_kv_cache_tokens, hi.gpu_kv_cache_tokens],
                "max_seqs_capped": [lo.max_seqs_capped, hi.max_seqs_capped],
            })),
        });
        say!("{}", pyjson::dumps(&v));
    } else {
        for l in &r.lines {
            say!("{l}");
        }
        // The exception as vLLM prints it; where its text is not known, kvbudget's own reckoning
        // (which says it is kvbudget's).
        if let Some(e) = r.error_line().or_else(|| r.error.clone()) {
            say!("{e}");
        }
    }
    Ok(if r.error.is_some() { EXIT_REFUSED } else { 0 })
}
