//! The JSON of the course lab's `kv_report.json`, shared by the CLI's `verify` and the page's download:
//! the lab's keys (`prediction`, `vllm_total_cached_tokens`, `vllm_implied_max_seqs_at_ctx`, `agreement`)
//! plus `vllm_log`, everything the parser read; for an SGLang log the same lab keys (the pool's
//! tokens under the lab's `vllm_total_cached_tokens`) plus `engine` and `sglang_log`.

use crate::seed::SeedPrediction;
use crate::sglang::logparse::{ParsedLog as SglangLog, Refusal};
use crate::vllm::logparse::{KvFigure, LogError, ParsedLog};
use serde_json::{json, Value};

/// The lab's `predict()` result as JSON, keys in the lab's order.
pub fn prediction_json(p: &SeedPrediction) -> Value {
    json!({
        "kv_bytes_per_token": p.kv_bytes_per_token,
        "kv_kib_per_token": p.kv_kib_per_token,
        "ctx": p.ctx,
        "kv_gib_per_seq": p.kv_gib_per_seq,
        "predicted_max_seqs": p.predicted_max_seqs,
        "predicted_total_tokens": p.predicted_total_tokens,
    })
}

fn opt_f64(x: Option<f64>) -> Value {
    x.map(Value::from).unwrap_or(Value::Null)
}

/// Everything the parser read, as JSON.
pub fn parsed_json(p: &ParsedLog, block_size: u64) -> Value {
    let (kind, raw) = match p.kv {
        Some(KvFigure::Tokens(t)) => ("tokens", Value::from(t)),
        Some(KvFigure::Blocks(b)) => ("blocks", Value::from(b)),
        None => ("none", Value::Null),
    };
    let error = match &p.error {
        None => Value::Null,
        Some(LogError::RequestTooLong {
            max_model_len,
            needed_gib,
            available_gib,
            estimated_max_len,
        }) => json!({
            "kind": "request_too_long",
            "max_model_len": max_model_len,
            "needed_gib": needed_gib,
            "available_gib": available_gib,
            "estimated_max_model_len": estimated_max_len,
        }),
        Some(LogError::V0TooLong {
            max_model_len,
            kv_tokens,
        }) => json!({
            "kind": "v0_max_seq_len_too_large",
            "max_model_len": max_model_len,
            "kv_cache_tokens": kv_tokens,
        }),
        Some(LogError::NoMemory) => json!({ "kind": "no_available_memory" }),
        Some(LogError::NoBfloat16) => json!({ "kind": "bfloat16_unsupported" }),
    };
    json!({
        "vllm_version": p.version,
        "kv_line": p.kv_line,
        "kv_figure": kind,
        "kv_figure_value": raw,
        "block_size": block_size,
        "gpu_blocks": match p.kv { Some(KvFigure::Blocks(b)) => Value::from(b), _ => Value::Null },
        "cpu_blocks": p.cpu_blocks,
        "max_concurrency": p.max_concurrency.as_ref().map(|c| c.value),
        "max_concurrency_tokens_per_request": p.max_concurrency.as_ref().map(|c| c.tokens_per_request),
        "available_kv_cache_gib": opt_f64(p.available_kv_gib),
        "model_loading_gib": opt_f64(p.model_loading_gib),
        "total_gpu_memory_gib": opt_f64(p.total_gpu_gib),
        "gpu_memory_utilization": opt_f64(p.gpu_memory_utilization),
        "requested_memory_gib": opt_f64(p.requested_gib),
        "weights_gib": opt_f64(p.weights_gib),
        "non_torch_memory_gib": opt_f64(p.non_torch_gib),
        "activation_peak_gib": opt_f64(p.activation_peak_gib),
        "budget_kv_cache_gib": opt_f64(p.budget_kv_gib),
        "cuda_graph_estimate_gib": opt_f64(p.cudagraph_estimate_gib),
        "error": error,
    })
}

/// The whole `kv_report.json`: the lab's keys, then `vllm_log`.
pub fn kv_report(pred: &SeedPrediction, parsed: &ParsedLog, block_size: u64, ctx: u64) -> Value {
    let cached = parsed.cached_tokens(block_size);
    let implied = cached.map(|t| t / ctx.max(1));
    let agreement = match implied {
        Some(n) => format!("{} predicted vs {} observed", pred.predicted_max_seqs, n),
        None => format!(
            "{} predicted vs none observed (vLLM did not start)",
            pred.predicted_max_seqs
        ),
    };
    json!({
        "prediction": prediction_json(pred),
        "vllm_total_cached_tokens": cached,
        "vllm_implied_max_seqs_at_ctx": implied,
        "agreement": agreement,
        "vllm_log": parsed_json(parsed, block_size),
    })
}

/// Everything the SGLang parser read, as JSON.
pub fn sglang_log_json(p: &SglangLog) -> Value {
    let refusal = match &p.refusal {
        None => Value::Null,
        Some(Refusal::NotEnoughMemory {
            mem_fraction_static,
        }) => json!({
            "kind": "not_enough_memory",
            "mem_fraction_static": mem_fraction_static,
        }),
        Some(Refusal::EmptyProfile { profiled }) => json!({
            "kind": "profile_without_room",
            "profiled_tokens": profiled,
        }),
        Some(Refusal::NoRest {
            mem_fraction_static,
            suggested,
        }) => json!({
            "kind": "no_memory_after_weights",
            "mem_fraction_static": mem_fraction_static,
            "suggested_mem_fraction_static": suggested,
        }),
    };
    json!({
        "model": p.model,
        "mem_fraction_static": opt_f64(p.mem_fraction_static),
        "tp_size": p.tp_size,
        "pp_size": p.pp_size,
        "dp_size": p.dp_size,
        "kv_cache_dtype": p.kv_cache_dtype,
        "page_size": p.page_size,
        "pre_load_free_gib": opt_f64(p.pre_load_free_gib),
        "pre_load_free_gib_or_derived": opt_f64(p.pre_load_free_gib_or_derived()),
        "post_load_free_gib": opt_f64(p.post_load_free_gib),
        "weights_gib": opt_f64(p.weights_gib),
        "architecture": p.architecture,
        "kv_allocations": p.allocations.iter().map(|a| json!({
            "label": a.label,
            "dtype": a.dtype,
            "tokens": a.tokens,
            "k_size_gib": a.k_size,
            "v_size_gib": a.v_size,
            "kv_size_gib": a.kv_size,
            "line": a.line,
        })).collect::<Vec<_>>(),
        "pool_end_free_gib": opt_f64(p.pool_end_free_gib),
        "max_total_num_tokens": p.max_total_num_tokens,
        "chunked_prefill_size": p.chunked_prefill_size,
        "max_prefill_tokens": p.max_prefill_tokens,
        "max_running_requests": p.max_running_requests,
        "context_len": p.context_len,
        "available_gpu_mem_gib": opt_f64(p.available_gpu_mem_gib),
        "swa_layer_tokens": p.swa_split.map(|(_, s)| s),
        "full_layer_tokens": p.swa_split.map(|(f, _)| f),
        "max_mamba_cache_size": p.mamba_slots,
        "profiled_value": p.profiled_value,
        "refusal": refusal,
    })
}

/// `kv_report.json` for an SGLang log: the lab's keys (the pool's tokens as the cached tokens),
/// then `engine` and `sglang_log`.
pub fn kv_report_sglang(pred: &SeedPrediction, parsed: &SglangLog, ctx: u64) -> Value {
    let cached = parsed.total_tokens();
    let implied = cached.map(|t| t / ctx.max(1));
    let agreement = match implied {
        Some(n) => format!("{} predicted vs {} observed", pred.predicted_max_seqs, n),
        None => format!(
            "{} predicted vs none observed (SGLang did not start)",
            pred.predicted_max_seqs
        ),
    };
    json!({
        "prediction": prediction_json(pred),
        "vllm_total_cached_tokens": cached,
        "vllm_implied_max_seqs_at_ctx": implied,
        "agreement": agreement,
        "engine": "sglang",
        "sglang_log": sglang_log_json(parsed),
    })
}
