// Shared by `bench/calibration.rs` and `tests/calibration.rs`: reads the shared vLLM 0.19 logs'
// records and predicts each one's available KV memory with kvbudget's overhead estimate.
//
// Model sizes that the logs do not print (vocab, hidden and intermediate sizes, MoE routing,
// multimodal encoders) are the published values of each model's config.json on Hugging Face.

use kvbudget::core::model::{Attention, Extras, KvDtype, ModelDtype, ModelSpec};
use kvbudget::core::presets::Arch;
use kvbudget::core::units::{Bytes, GIB};
use kvbudget::core::vllm::overhead::{estimate, Settings};
use kvbudget::core::vllm::{serve_defaults, Engine, Version};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// (lower-case substring of the model id, vocab, hidden, intermediate, experts per token, moe intermediate, multimodal)
#[rustfmt::skip]
pub const FACTS: &[(&str, u64, u64, u64, u64, u64, bool)] = &[
    ("codellama-7b", 32_016, 4096, 11_008, 0, 0, false),
    ("deepseek-v2-lite", 102_400, 2048, 10_944, 6, 1408, false),
    ("llama-3.3-70b", 128_256, 8192, 28_672, 0, 0, false),
    ("qwen2.5-72b", 152_064, 8192, 29_568, 0, 0, false),
    ("kimi-dev-72b", 152_064, 8192, 29_568, 0, 0, false),
    ("qwen2.5-7b", 152_064, 3584, 18_944, 0, 0, false),
    ("gemma-2-27b", 256_000, 4608, 36_864, 0, 0, false),
    ("gemma-2-2b", 256_000, 2304, 9216, 0, 0, false),
    ("gemma-2-9b", 256_000, 3584, 14_336, 0, 0, false),
    ("gemma-3-12b", 262_208, 3840, 15_360, 0, 0, true),
    ("gemma-3-27b", 262_208, 5376, 21_504, 0, 0, true),
    ("gemma-3-4b", 262_208, 2560, 10_240, 0, 0, true),
    ("gemma-7b", 256_000, 3072, 24_576, 0, 0, false),
    ("granite-vision", 49_156, 2048, 8192, 0, 0, true),
    ("granite-3.1-2b", 49_155, 2048, 8192, 0, 0, false),
    ("granite-3.1-8b", 49_155, 4096, 12_800, 0, 0, false),
    ("granite-3.3-8b", 49_159, 4096, 12_800, 0, 0, false),
    ("llama-4-scout", 202_048, 5120, 16_384, 1, 8192, true),
    ("llama-3.1-8b", 128_256, 4096, 14_336, 0, 0, false),
    ("phi-2", 51_200, 2560, 10_240, 0, 0, false),
    ("phi-4", 100_352, 5120, 17_920, 0, 0, false),
    ("mistral-small-3.1-24b", 131_072, 5120, 32_768, 0, 0, true),
    ("mixtral-8x7b", 32_000, 4096, 0, 2, 14_336, false),
    ("kimi-vl-a3b", 163_840, 2048, 11_264, 6, 1408, true),
    ("gpt-oss-20b", 201_088, 2880, 0, 4, 2880, false),
    ("qwen1.5-moe-a2.7b", 151_936, 2048, 5632, 4, 1408, false),
    ("qwen3-30b-a3b", 151_936, 2048, 0, 8, 768, false),
    ("qwen3-8b", 151_936, 4096, 12_288, 0, 0, false),
];

/// One log's prediction.
pub struct Row {
    pub id: String,
    pub tp: u64,
    pub pp: u64,
    pub reported: f64,
    pub predicted: f64,
    pub low: f64,
    pub high: f64,
    pub fixed1: f64,
    pub fixed2: f64,
}

impl Row {
    pub fn error(&self) -> f64 {
        (self.predicted - self.reported) / self.reported
    }
    pub fn single_gpu(&self) -> bool {
        self.tp == 1 && self.pp == 1
    }
}

pub fn calibration_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/calibration");
    d.join("vllm-0.19-h100.jsonl").is_file().then_some(d)
}

fn model_of(r: &Value) -> Option<ModelSpec> {
    let a = &r["check"]["arch"];
    let id = r["model"].as_str()?.to_ascii_lowercase();
    let f = FACTS.iter().find(|f| id.contains(f.0))?;
    let layers = a["layers"].as_u64()?;
    let kv_heads = a["kv_heads"].as_u64()?;
    let head_dim = a["head_dim"].as_u64()?;
    let mla = a["attention"].as_str().unwrap_or("").starts_with("MLA");
    // The records carry no query-head count. Each log started, so its TP split the heads: a
    // multiple of TP stands in (it only enters vLLM's TP check; hidden sizes come from FACTS).
    let tp = r["tp"].as_u64().unwrap_or(1).max(1);
    Some(ModelSpec {
        id: id.into(),
        layers,
        attention_heads: kv_heads.max(1) * tp,
        kv_heads,
        head_dim,
        attention: if mla {
            Attention::Mla { latent: 576 }
        } else {
            Attention::Full
        },
        dtype: match r["dtype"].as_str() {
            Some("float32") => ModelDtype::F32,
            Some("float16") => ModelDtype::F16,
            _ => ModelDtype::Bf16,
        },
        max_position: 0,
        vocab: f.1,
        weights: Bytes(0),
        extras: Extras {
            hidden: f.2,
            intermediate: f.3,
            experts_per_token: f.4,
            moe_intermediate: f.5,
            multimodal: f.6,
        },
    })
}

/// Predicts every record that has the numbers to compare. The weights are the log's
/// "Model loading took" (what vLLM counts on that GPU); everything else is estimated.
pub fn rows(dir: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(dir.join("vllm-0.19-h100.jsonl")).unwrap_or_default();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(r) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let rep = &r["reported"];
        let (Some(total), Some(weights), Some(kv), Some(util)) = (
            rep["total_gpu_gib"].as_f64(),
            rep["weights_gib"].as_f64(),
            rep["kv_cache_gib"].as_f64(),
            r["gpu_memory_utilization"].as_f64(),
        ) else {
            continue;
        };
        let Some(model) = model_of(&r) else { continue };
        let _ = KvDtype::Auto;
        let total_b = Bytes::from_gib_f64(total).unwrap_or_default();
        let requested = (total_b.0 as f64 * util).ceil() as u64;
        let (seqs, mnbt) = serve_defaults(Arch::Hopper, Some(total_b));
        let e = estimate(
            &model,
            &Settings {
                tp: r["tp"].as_u64().unwrap_or(1),
                pp: r["pp"].as_u64().unwrap_or(1),
                version: Version::new(0, 19),
                engine: Engine::V1,
                max_model_len: r["max_model_len"].as_u64().unwrap_or(8192),
                max_num_seqs: seqs,
                max_num_batched_tokens: mnbt,
                requested,
            },
        );
        let w = Bytes::from_gib_f64(weights).unwrap_or_default().0 as f64;
        let g = |overhead: u64| (requested as f64 - w - overhead as f64) / GIB as f64;
        out.push(Row {
            id: r["id"]
                .as_str()
                .unwrap_or("?")
                .trim_start_matches("llmd-h100-")
                .to_string(),
            tp: r["tp"].as_u64().unwrap_or(1),
            pp: r["pp"].as_u64().unwrap_or(1),
            reported: kv,
            predicted: g(e.subtracted().0),
            low: g(e.high().0),
            high: g(e.low().0),
            fixed1: g(GIB),
            fixed2: g(2 * GIB),
        });
    }
    out
}

/// Share of rows whose |relative error| is at most `tol`.
pub fn within(rows: &[&Row], tol: f64, err: impl Fn(&Row) -> f64) -> (usize, usize) {
    (
        rows.iter().filter(|r| err(r).abs() <= tol).count(),
        rows.len(),
    )
}
