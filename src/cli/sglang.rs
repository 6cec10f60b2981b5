//! `kvbudget sglang`: what SGLang would print at startup about its KV pool for a scenario.

use super::{gib_flag, model_from, ModelArgs, EXIT_REFUSED};
use clap::Args;
use kvbudget_core::model::KvDtype;
use kvbudget_core::presets;
use kvbudget_core::pyjson;
use kvbudget_core::sglang::{self, cards, Mamba, Memory, Scenario, SpecAlgorithm, Version, Vit};
use kvbudget_core::units::fixed2;
use kvbudget_core::KvError;
use serde_json::json;

#[derive(Args, Debug)]
pub(crate) struct SglangArgs {
    /// The model.
    #[command(flatten)]
    m: ModelArgs,
    /// V head dimension, when it differs from --head-dim (counted from SGLang 0.5.7).
    #[arg(long)]
    v_head_dim: Option<u64>,
    /// The config's architectures[0] (printed as type=; Llama4, GptOss, MiMo, Gemma4 … get two pools, full and sliding) [default: the preset's].
    #[arg(long)]
    architecture: Option<String>,
    /// The model has a vision tower (lowers the default mem_fraction_static).
    #[arg(long)]
    multimodal: bool,
    /// vision_config.num_hidden_layers of a multimodal model [default: 24, as SGLang assumes when the key is absent].
    #[arg(long)]
    vit_layers: Option<u64>,
    /// vision_config.hidden_size of a multimodal model [default: 1024].
    #[arg(long)]
    vit_hidden_size: Option<u64>,
    /// Mamba/GDN hybrid: the layers with a KV cache (full attention); give the state too.
    #[arg(long)]
    full_attention_layers: Option<u64>,
    /// Mamba/GDN hybrid: conv-state bytes per request over all linear layers.
    #[arg(long)]
    mamba_conv_bytes: Option<u64>,
    /// Mamba/GDN hybrid: SSM-state bytes per request over all linear layers.
    #[arg(long)]
    mamba_ssm_bytes: Option<u64>,
    /// Mamba/GDN hybrid: state bytes per KV byte.
    #[arg(long, default_value_t = 0.9)]
    mamba_full_memory_ratio: f64,
    /// Mamba/GDN hybrid: state slots, instead of the ratio.
    #[arg(long)]
    max_mamba_cache_size: Option<u64>,
    /// GPU preset slug: rtx-5080, rtx-5090, rtx-4090, rtx-3090, l4, t4, a10g, a100-40gb, a100-80gb, h100-sxm, h100-pcie, h200, l40s.
    #[arg(long)]
    gpu: Option<String>,
    /// GPU memory as `nvidia-smi --query-gpu=memory.total` reports it, in MiB (overrides the preset's).
    #[arg(long)]
    gpu_total_mib: Option<u64>,
    /// Free memory before loading (the log's `Load weight begin. avail mem=`), GiB [default: predicted from the GPU].
    #[arg(long)]
    pre_load_free_gib: Option<f64>,
    /// Free memory after loading (the log's `Load weight end. … avail mem=`), GiB [default: the free memory before, less the weights on one GPU].
    #[arg(long)]
    post_load_free_gib: Option<f64>,
    /// Fraction of the free memory before loading that weights and KV may take [default: the release's rule].
    #[arg(long)]
    mem_fraction_static: Option<f64>,
    /// Tensor-parallel size.
    #[arg(long, default_value_t = 1)]
    tp_size: u64,
    /// Pipeline-parallel size.
    #[arg(long, default_value_t = 1)]
    pp_size: u64,
    /// Data-parallel size.
    #[arg(long, default_value_t = 1)]
    dp_size: u64,
    /// Attention data parallelism (KV heads split over tp/dp; needs --dp-size > 1 dividing --tp-size).
    #[arg(long)]
    enable_dp_attention: bool,
    /// Maximum tokens per request [default: the model's max_position_embeddings].
    #[arg(long)]
    context_length: Option<u64>,
    /// KV cache dtype: auto, fp8_e4m3, fp8_e5m2 or bfloat16 (as the release accepts).
    #[arg(long, default_value = "auto")]
    kv_cache_dtype: String,
    /// Tokens per page (the pool is rounded down to whole pages) [default: 1].
    #[arg(long)]
    page_size: Option<u64>,
    /// Prefill chunk in tokens, or -1 to disable chunking [default: by GPU memory and release].
    #[arg(long, allow_hyphen_values = true)]
    chunked_prefill_size: Option<i64>,
    /// Largest decode batch captured in a CUDA graph [default: by GPU memory, TP and release].
    #[arg(long)]
    cuda_graph_max_bs: Option<u64>,
    /// Cap on concurrent requests [default: from the pool and the context length].
    #[arg(long)]
    max_running_requests: Option<u64>,
    /// Cap on the pool in tokens.
    #[arg(long)]
    max_total_tokens: Option<u64>,
    /// Speculative decoding: EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM or DFLASH.
    #[arg(long)]
    speculative_algorithm: Option<String>,
    /// Layers of the draft model [default: 1, an EAGLE/MTP head].
    #[arg(long)]
    speculative_draft_layers: Option<u64>,
    /// Capture prefill CUDA graphs (opt-in in 0.5.4–0.5.9).
    #[arg(long, conflicts_with = "disable_piecewise_cuda_graph")]
    enable_piecewise_cuda_graph: bool,
    /// Do not capture prefill CUDA graphs (on by default from 0.5.10).
    #[arg(long)]
    disable_piecewise_cuda_graph: bool,
    /// Sliding-window tokens per full-attention token of a hybrid sliding-window pool.
    #[arg(long)]
    swa_full_tokens_ratio: Option<f64>,
    /// SGLang release X.Y.Z[.postN], from 0.3.0 to 0.5.23 [default: 0.5.23].
    #[arg(long)]
    sglang_version: Option<String>,
    /// Start from a known pool size (a printed #tokens / max_total_num_tokens) instead of the memory.
    #[arg(long)]
    num_tokens: Option<u64>,
    /// Print a JSON object instead of the log lines.
    #[arg(long)]
    json: bool,
}

/// The flag a core field name stands for, for messages.
fn flag_of(field: &str) -> String {
    match field {
        "tp_size"
        | "pp_size"
        | "dp_size"
        | "mem_fraction_static"
        | "context_length"
        | "max_total_tokens"
        | "num_tokens"
        | "page_size"
        | "cuda_graph_max_bs"
        | "max_running_requests"
        | "chunked_prefill_size"
        | "kv_cache_dtype"
        | "swa_full_tokens_ratio"
        | "mamba_full_memory_ratio" => {
            format!("--{}", field.replace('_', "-"))
        }
        "pre-load free memory" => "--pre-load-free-gib".into(),
        "post-load free memory" => "--post-load-free-gib".into(),
        "GPU memory" => "--gpu-total-mib".into(),
        "prefill CUDA graphs" => "--enable-piecewise-cuda-graph: prefill CUDA graphs".into(),
        "GPU" => "--gpu".into(),
        "weights" => "--weights-gib".into(),
        "SGLang version" => "--sglang-version".into(),
        other => other.to_string(),
    }
}

/// A core error with the field named by its flag.
fn flag_error(e: KvError) -> String {
    match e {
        KvError::OutOfRange { field, range, got } => {
            format!("{} must be {range} (got {got})", flag_of(field))
        }
        KvError::Invalid { field, message } => format!("{} {message}", flag_of(field)),
        other => other.to_string(),
    }
}

fn scenario(a: &SglangArgs) -> Result<Scenario, String> {
    let mut model = model_from(&a.m)?;
    model.extras.multimodal |= a.multimodal;
    model.validate().map_err(flag_error)?;
    let version = match &a.sglang_version {
        Some(v) => Version::parse(v).map_err(flag_error)?,
        None => sglang::NEWEST,
    };
    let kv_dtype = KvDtype::parse(&a.kv_cache_dtype).map_err(|_| {
        format!(
            "--kv-cache-dtype {:?}: SGLang {version} accepts {}",
            a.kv_cache_dtype,
            version.kv_dtypes().join(", ")
        )
    })?;
    let gpu_mib = match (a.gpu_total_mib, &a.gpu) {
        (Some(m), _) => Some(m),
        (None, Some(slug)) => {
            if presets::gpu(slug).is_none() {
                let known: Vec<&str> = presets::GPUS.iter().map(|g| g.slug).collect();
                return Err(format!(
                    "unknown --gpu {slug:?}; known GPUs: {}",
                    known.join(", ")
                ));
            }
            Some(cards::nvidia_smi_mib(slug).ok_or_else(|| {
                format!("--gpu {slug}: kvbudget has no nvidia-smi capacity for it; give --gpu-total-mib")
            })?)
        }
        (None, None) => None,
    };
    let mut s = Scenario::new(model, version, gpu_mib);
    s.pre_load_free_gib = a
        .pre_load_free_gib
        .map(|g| gib_flag("pre-load-free-gib", g).map(|_| g))
        .transpose()?;
    s.post_load_free_gib = a
        .post_load_free_gib
        .map(|g| gib_flag("post-load-free-gib", g).map(|_| g))
        .transpose()?;
    s.num_tokens = a.num_tokens;
    s.mem_fraction_static = a.mem_fraction_static;
    (s.tp, s.pp, s.dp, s.dp_attention) = (a.tp_size, a.pp_size, a.dp_size, a.enable_dp_attention);
    s.context_length = a.context_length;
    s.kv_dtype = kv_dtype;
    s.page_size = a.page_size;
    s.chunked_prefill_size = a.chunked_prefill_size;
    s.cuda_graph_max_bs = a.cuda_graph_max_bs;
    s.max_running_requests = a.max_running_requests;
    s.max_total_tokens = a.max_total_tokens;
    s.speculative = match &a.speculative_algorithm {
        None => None,
        Some(x) => Some(SpecAlgorithm::parse(x).ok_or_else(|| {
            format!("--speculative-algorithm {x:?}: use EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM or DFLASH")
        })?),
    };
    s.prefill_graph = match (
        a.enable_piecewise_cuda_graph,
        a.disable_piecewise_cuda_graph,
    ) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    s.extras.architecture = a.architecture.clone();
    s.extras.v_head_dim = a.v_head_dim;
    s.extras.vit = Vit {
        layers: a.vit_layers,
        hidden: a.vit_hidden_size,
    };
    s.extras.swa_full_tokens_ratio = a.swa_full_tokens_ratio;
    s.extras.draft_layers = a.speculative_draft_layers;
    s.extras.mamba = match (
        a.full_attention_layers,
        a.mamba_conv_bytes,
        a.mamba_ssm_bytes,
    ) {
        (None, None, None) => None,
        (Some(full), conv, ssm) if conv.is_some() || ssm.is_some() => Some(Mamba {
            full_attention_layers: full,
            conv_bytes: conv.unwrap_or(0),
            ssm_bytes: ssm.unwrap_or(0),
            ratio: a.mamba_full_memory_ratio,
            max_slots: a.max_mamba_cache_size,
        }),
        _ => {
            return Err(
                "--full-attention-layers goes with --mamba-conv-bytes and/or --mamba-ssm-bytes"
                    .into(),
            )
        }
    };
    if s.num_tokens.is_none()
        && s.pre_load_free_gib.zip(s.post_load_free_gib).is_none()
        && a.m.model.is_none()
        && a.m.config.is_none()
        && a.m.weights_gib.is_none()
    {
        return Err("--weights-gib is required for a model given by geometry (or give both --pre-load-free-gib and --post-load-free-gib, or --num-tokens)".into());
    }
    Ok(s)
}

pub(crate) fn sglang_cmd(a: &SglangArgs) -> Result<i32, String> {
    let s = scenario(a)?;
    let r = sglang::report(&s).map_err(flag_error)?;
    if a.json {
        let memory = match r.memory {
            Memory::Measured => "measured",
            Memory::HalfPredicted => "half-predicted",
            Memory::Predicted => "predicted",
            Memory::FromTokens => "from-tokens",
        };
        let v = json!({
            "sglang_version": r.version.to_string(),
            "model": s.model.id,
            "kv_cache_dtype": s.kv_dtype.name(),
            "mem_fraction_static": r.mem_fraction_static,
            "mem_fraction_static_default": r.mfs_default.is_some(),
            "server_args_mem_fraction_static": r.mfs_default.as_ref().map_or(s.mem_fraction_static.unwrap_or(r.mem_fraction_static), |d| d.printed),
            "reserved_mib": r.mfs_default.as_ref().and_then(|d| d.reserved_mib),
            "chunked_prefill_size": r.defaults.chunked_prefill_size,
            "cuda_graph_max_bs": r.defaults.cuda_graph_max_bs,
            "prefill_cuda_graph_sizes": r.defaults.prefill_graph_sizes,
            "page_size": r.page_size,
            "context_len": r.context_len,
            "cell_size_bytes": r.cell_size_bytes,
            "memory": memory,
            "pre_load_free_gib": r.pre_load_free_gib,
            "post_load_free_gib": r.post_load_free_gib,
            "rest_gib": r.rest_gib,
            "profiled_tokens": r.profiled_tokens,
            "max_total_num_tokens": r.max_total_num_tokens,
            "swa_tokens": r.swa_tokens,
            "max_mamba_cache_size": r.mamba_slots,
            "k_size_gib": r.k_size_gib,
            "v_size_gib": r.v_size_gib,
            "kv_size_gib": r.kv_size_gib,
            "kv_bytes": r.kv_bytes,
            "max_running_requests": r.max_running_requests,
            "lines": r.lines,
            "error": r.error,
            "error_type": r.error_type,
            "range": r.range.map(|g| json!({
                "max_total_num_tokens": [g.low_tokens, g.high_tokens],
                "pre_load_free_gib": [g.low_pre_gib, g.high_pre_gib],
            })),
            "notes": r.notes,
        });
        say!("{}", pyjson::dumps(&v));
    } else {
        for l in &r.lines {
            say!("{l}");
        }
        // The exception as SGLang prints it; where its text is not known, kvbudget's own
        // reckoning (which says it is kvbudget's).
        if let Some(e) = r.error_line().or_else(|| r.error.clone()) {
            say!("{e}");
        }
        if let Some(g) = r.range {
            let pool = if g.high_tokens <= 0 {
                "SGLang refuses across the range".to_string()
            } else {
                format!(
                    "max_total_num_tokens {} to {}",
                    g.low_tokens.max(0),
                    g.high_tokens
                )
            };
            eprintln!(
                "kvbudget: free memory predicted ({} GiB before loading, {}–{}; give --pre-load-free-gib and --post-load-free-gib from a log to be exact): {pool}",
                fixed2(r.pre_load_free_gib.unwrap_or(0.0)),
                fixed2(g.low_pre_gib),
                fixed2(g.high_pre_gib),
            );
        }
    }
    Ok(if r.error.is_some() { EXIT_REFUSED } else { 0 })
}

/// `verify` on an SGLang log: the pool is `max_total_num_tokens` (else the first `#tokens`).
pub(super) fn verify_sglang(
    a: &super::VerifyArgs,
    text: &str,
    pred: &kvbudget_core::seed::SeedPrediction,
) -> Result<i32, String> {
    use kvbudget_core::sglang::logparse as sg;
    let parsed = sg::parse(text);
    let cached = parsed.total_tokens();
    if cached.is_none() && parsed.refusal.is_none() {
        return Err(format!(
            "no KV capacity line in {}: looked for {} (vLLM) or {}",
            a.log,
            kvbudget_core::vllm::logparse::LOOKED_FOR,
            sg::LOOKED_FOR
        ));
    }
    let report = kvbudget_core::report_json::kv_report_sglang(pred, &parsed, a.ctx as u64);
    let out = pyjson::dumps(&report);
    std::fs::write(&a.out, format!("{out}\n"))
        .map_err(|e| format!("cannot write {}: {e}", a.out))?;
    say!("{out}");
    if let (None, Some(_)) = (cached, &parsed.refusal) {
        eprintln!(
            "kvbudget: SGLang refused to start: its pool got no tokens (see sglang_log.refusal)"
        );
        return Ok(EXIT_REFUSED);
    }
    Ok(0)
}
