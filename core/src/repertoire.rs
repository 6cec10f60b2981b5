//! The seeds' repertoire on one GPU: bytes per token and how many sequences fit, BF16 and FP8.

use crate::capacity::{self, Overhead};
use crate::error::Result;
use crate::model::{KvDtype, ModelDtype};
use crate::presets::{self, REPERTOIRE};
use crate::query::GpuChoice;
use crate::units::Bytes;
use crate::vllm::{self, KvMemory, Scenario, Version};

/// One model × KV dtype on a GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Hugging Face id.
    pub model: &'static str,
    /// KV dtype.
    pub kv: KvDtype,
    /// The checkpoint's dtype (what `auto` resolves to).
    pub model_dtype: ModelDtype,
    /// KV bytes per token (TP 1).
    pub bytes_per_token: Bytes,
    /// KV bytes of one sequence at the context.
    pub bytes_per_sequence: Bytes,
    /// The pool: `total × util − weights − overhead` (negative: nothing left).
    pub pool: i128,
    /// The seed's `⌊M_kv / (S × B_tok)⌋`.
    pub seed_max_seqs: u64,
    /// vLLM's whole sequences at the context (block-rounded), before any `max_num_seqs` cap.
    pub vllm_max_seqs: u64,
    /// The token count vLLM prints.
    pub vllm_tokens: u64,
    /// vLLM's startup lines.
    pub lines: Vec<String>,
    /// vLLM's refusal, when it would not start.
    pub error: Option<String>,
}

/// The repertoire (Qwen3-8B, Qwen3-14B-AWQ, Qwen2.5-7B-Instruct) × {BF16 (`auto`), FP8} on `gpu`
/// at context `ctx`, with the seed's single overhead figure.
pub fn rows(
    gpu: &GpuChoice,
    ctx: u64,
    version: Version,
    util: f64,
    overhead: Overhead,
) -> Result<Vec<Row>> {
    let mut out = Vec::new();
    for id in REPERTOIRE {
        let Some(p) = presets::model(id) else {
            continue;
        };
        for kv in [KvDtype::Auto, KvDtype::Fp8] {
            let model = p.spec();
            let bpt = capacity::bytes_per_token(&model, kv, 1, 1)?;
            let bps = capacity::bytes_per_sequence(&model, kv, 1, 1, ctx)?;
            let scenario = Scenario {
                model,
                kv_dtype: kv,
                tp: 1,
                pp: 1,
                block_size: None,
                max_model_len: Some(ctx),
                max_num_seqs: None,
                max_num_batched_tokens: None,
                version,
                engine: version.default_engine(),
                memory: KvMemory::Budget {
                    gpu_total: gpu.total(),
                    util,
                    weights: p.weights,
                    overhead,
                },
                arch: gpu.arch(),
                gpu_total: Some(gpu.total()),
            };
            let r = vllm::report(&scenario)?;
            let pool = r.available_kv_bytes.unwrap_or(0);
            out.push(Row {
                model: p.id,
                kv,
                model_dtype: p.dtype,
                bytes_per_token: bpt,
                bytes_per_sequence: bps,
                pool,
                seed_max_seqs: capacity::max_sequences_for(pool, bps),
                vllm_max_seqs: r
                    .num_gpu_blocks
                    .map(|b| b / r.blocks_per_request.max(1))
                    .unwrap_or(0),
                vllm_tokens: r.gpu_kv_cache_tokens.unwrap_or(0),
                lines: r.lines,
                error: r.error,
            });
        }
    }
    Ok(out)
}
