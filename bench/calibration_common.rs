// Shared by `bench/calibration.rs` and `tests/calibration.rs`: reads every shared vLLM startup log
// with the numbers to compare (`../shared/calibration/`: the 0.19 H100 set, `vllm-more.jsonl` and
// `vllm-modern.jsonl`), predicts each one's available KV memory with kvbudget's overhead estimate,
// and cross-validates: leave one GPU out, leave one version family out.
//
// Model sizes that the logs do not print (vocab, hidden and intermediate sizes, MoE routing,
// multimodal encoders, layers) are the published values of each model's config.json.
// A record is used when it prints (or its source states) the weights vLLM counted, the KV memory,
// the utilization and the GPU's total, for a model whose sizes are known; every other record is
// listed with the reason it was left out. Nothing here names a record's answer.

#![allow(dead_code)]

use kvbudget::core::model::{Attention, Extras, ModelDtype, ModelSpec};
use kvbudget::core::presets::Arch;
use kvbudget::core::units::{Bytes, GIB};
use kvbudget::core::vllm::overhead::{estimate_with, Fitted, Settings};
use kvbudget::core::vllm::{serve_defaults, Engine, Version};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// (lower-case substring of the model id, vocab, hidden, intermediate, experts per token,
/// moe intermediate, multimodal, layers). First match wins, so longer keys come first.
pub type Fact = (&'static str, u64, u64, u64, u64, u64, bool, u64);

#[rustfmt::skip]
pub const FACTS: &[Fact] = &[
    ("codellama-7b", 32_016, 4096, 11_008, 0, 0, false, 32),
    ("deepseek-v2-lite", 102_400, 2048, 10_944, 6, 1408, false, 27),
    ("llama-3.3-70b", 128_256, 8192, 28_672, 0, 0, false, 80),
    ("llama3-70b-awq", 128_256, 8192, 28_672, 0, 0, false, 80),
    ("qwen2.5-72b", 152_064, 8192, 29_568, 0, 0, false, 80),
    ("kimi-dev-72b", 152_064, 8192, 29_568, 0, 0, false, 80),
    ("qwen2.5-vl-7b-instruct-4bit-bnb-languageonly", 152_064, 3584, 18_944, 0, 0, false, 28),
    ("qwen2.5-vl-7b", 152_064, 3584, 18_944, 0, 0, true, 28),
    ("qwen2.5-7b", 152_064, 3584, 18_944, 0, 0, false, 28),
    ("qwen2-7b", 152_064, 3584, 18_944, 0, 0, false, 28),
    ("qwen2.5-3b", 151_936, 2048, 11_008, 0, 0, false, 36),
    ("qwen2.5-0.5b", 151_936, 896, 4864, 0, 0, false, 24),
    ("gemma-2-27b", 256_000, 4608, 36_864, 0, 0, false, 46),
    ("gemma-2-2b", 256_000, 2304, 9216, 0, 0, false, 26),
    ("gemma-2-9b", 256_000, 3584, 14_336, 0, 0, false, 42),
    ("gemma-3-12b", 262_208, 3840, 15_360, 0, 0, true, 48),
    ("gemma-3-27b", 262_208, 5376, 21_504, 0, 0, true, 62),
    ("gemma-3-4b", 262_208, 2560, 10_240, 0, 0, true, 34),
    ("gemma-7b", 256_000, 3072, 24_576, 0, 0, false, 28),
    ("granite-vision", 49_156, 2048, 8192, 0, 0, true, 40),
    ("granite-3.1-2b", 49_155, 2048, 8192, 0, 0, false, 40),
    ("granite-3.1-8b", 49_155, 4096, 12_800, 0, 0, false, 40),
    ("granite-3.3-8b", 49_159, 4096, 12_800, 0, 0, false, 40),
    ("llama-4-scout", 202_048, 5120, 8192, 1, 8192, true, 48),
    ("llama-3.2-11b-vision", 128_256, 4096, 14_336, 0, 0, true, 40),
    ("llama-3.1-8b", 128_256, 4096, 14_336, 0, 0, false, 32),
    ("llama-3-8b", 128_256, 4096, 14_336, 0, 0, false, 32),
    ("llama-3.2-3b", 128_256, 3072, 8192, 0, 0, false, 28),
    ("llama-3.2-1b", 128_256, 2048, 8192, 0, 0, false, 16),
    ("mistral-7b", 32_768, 4096, 14_336, 0, 0, false, 32),
    ("phi-2", 51_200, 2560, 10_240, 0, 0, false, 32),
    ("phi-1_5", 51_200, 2048, 8192, 0, 0, false, 24),
    ("phi-4", 100_352, 5120, 17_920, 0, 0, false, 40),
    ("mistral-small-3.1-24b", 131_072, 5120, 32_768, 0, 0, true, 40),
    ("mistral-small-3.2-24b", 131_072, 5120, 32_768, 0, 0, true, 40),
    ("mixtral-8x7b", 32_000, 4096, 0, 2, 14_336, false, 32),
    ("kimi-vl-a3b", 163_840, 2048, 11_264, 6, 1408, true, 27),
    ("gpt-oss-120b", 201_088, 2880, 0, 4, 2880, false, 36),
    ("gpt-oss-20b", 201_088, 2880, 0, 4, 2880, false, 24),
    ("qwen1.5-moe-a2.7b", 151_936, 2048, 5632, 4, 1408, false, 24),
    ("qwen3-235b-a22b", 151_936, 4096, 0, 8, 1536, false, 94),
    ("qwen3-30b-a3b", 151_936, 2048, 0, 8, 768, false, 48),
    // Qwen3.5-9B's text_config (a Gated DeltaNet hybrid: the estimate's parts do not depend on
    // the layer kinds, so its sizes are all the estimate reads).
    ("qwen3.5-9b", 248_320, 4096, 12_288, 0, 0, true, 32),
    ("qwen3-8b", 151_936, 4096, 12_288, 0, 0, false, 36),
    ("qwen3-4b", 151_936, 2560, 9728, 0, 0, false, 36),
    ("opt-125m", 50_272, 768, 3072, 0, 0, false, 12),
    ("rho-1b", 32_000, 2048, 5632, 0, 0, false, 22),
];

/// One log, ready to predict.
#[derive(Clone, Debug)]
pub struct Case {
    pub id: String,
    /// The GPU model (the leave-one-GPU-out key).
    pub gpu: &'static str,
    /// The version family (the leave-one-family-out key).
    pub family: &'static str,
    /// Where the log was published (the leave-one-source-out key: [`source_of`]).
    pub source: String,
    pub tp: u64,
    pub pp: u64,
    pub util: f64,
    pub total: Bytes,
    pub weights: Bytes,
    /// vLLM's printed KV memory (GiB).
    pub reported: f64,
    pub model: ModelSpec,
    pub settings: Settings,
    /// vLLM's printed decomposition, where it printed one (GiB): activation, non-torch, graphs.
    pub printed_activation: Option<f64>,
    pub printed_non_torch: Option<f64>,
    pub printed_graphs: Option<f64>,
}

impl Case {
    pub fn single_gpu(&self) -> bool {
        self.tp * self.pp == 1
    }
}

/// One log's prediction (GiB).
#[derive(Clone, Debug)]
pub struct Row {
    pub id: String,
    pub gpu: &'static str,
    pub family: &'static str,
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
    pub fn inside(&self) -> bool {
        self.low <= self.reported && self.reported <= self.high
    }
    /// The range's width relative to the prediction.
    pub fn width(&self) -> f64 {
        (self.high - self.low) / self.predicted.abs().max(1e-9)
    }
}

pub fn calibration_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/calibration");
    d.join("vllm-0.19-h100.jsonl").is_file().then_some(d)
}

/// The version family whose profiling differs (see `core/src/vllm/overhead.rs`).
pub fn family_of(v: Version, engine: Engine) -> &'static str {
    match (engine, v.minor) {
        (Engine::V0, m) if m <= 6 => "V0 ≤0.6",
        (Engine::V0, _) => "V0 0.7–0.9",
        (_, m) if m < 10 => "V1 0.8–0.9",
        (_, m) if m < 17 => "V1 0.10–0.16",
        (_, m) if m < 20 => "V1 0.17–0.19",
        _ => "V1 ≥0.20",
    }
}

/// The GPU's name and its total as vLLM sees it: printed (record or GPU string), else the model's known total.
fn gpu_of(r: &Value) -> Option<(&'static str, f64, Arch)> {
    let g = r["gpu"].as_str().unwrap_or("").to_ascii_lowercase();
    let printed = r["reported"]["total_gpu_gib"].as_f64().or_else(|| {
        // "NVIDIA L4 (22.16 GiB)", "Max memory: 22.161 GB" (Unsloth prints GiB as GB), "total=14.56 GiB".
        for pat in ["max memory: ", "total=", "/", "("] {
            if let Some(i) = g.find(pat) {
                let t: String = g[i + pat.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                if let Ok(x) = t.parse::<f64>() {
                    if x > 4.0 && x < 400.0 && (g[i..].contains("gib") || pat == "max memory: ") {
                        return Some(x);
                    }
                }
            }
        }
        None
    });
    let (name, known, arch) = if g.contains("h100") {
        ("H100", 79.18, Arch::Hopper)
    } else if g.contains("h200") {
        ("H200", 139.8, Arch::Hopper)
    } else if g.contains("b200") {
        ("B200", 178.35, Arch::Other)
    } else if g.contains("a100") && (g.contains("80g") || g.contains("80 g")) {
        ("A100 80GB", 79.15, Arch::A100)
    } else if g.contains("a100") && g.contains("40") {
        ("A100 40GB", 39.39, Arch::A100)
    } else if g.contains("l40s") {
        ("L40S", 44.39, Arch::Other)
    } else if g.contains("l4") {
        ("L4", 22.06, Arch::Other)
    } else if g.contains("t4") {
        ("T4", 14.74, Arch::T4)
    } else if g.contains("4090") {
        ("RTX 4090", 23.55, Arch::Other)
    } else if g.contains("3090") {
        ("RTX 3090", 23.58, Arch::Other)
    } else if g.contains("5060 ti") {
        // nvidia-smi 16,311 MiB; CUDA reports about 1.8 % less (VLLM-ACCOUNTING §7): ≈ 15.64 GiB.
        ("RTX 5060 Ti", 15.64, Arch::Other)
    } else if g.contains("1080") {
        ("GTX 1080", 7.92, Arch::Other)
    } else {
        return None;
    };
    Some((name, printed.unwrap_or(known), arch))
}

fn model_of(r: &Value) -> Option<ModelSpec> {
    let id = r["model"].as_str()?.to_ascii_lowercase();
    let f = FACTS.iter().find(|f| id.contains(f.0))?;
    let a = &r["check"]["arch"];
    let layers = a["layers"].as_u64().unwrap_or(f.7);
    let kv_heads = a["kv_heads"].as_u64().unwrap_or(8);
    let head_dim = a["head_dim"].as_u64().unwrap_or(128);
    let mla = a["attention"].as_str().unwrap_or("").starts_with("MLA");
    // The records carry no query-head count. Each log started, so its TP split the heads: a
    // multiple of TP stands in (it only enters vLLM's TP check; hidden sizes come from FACTS).
    let tp = r["tp"].as_u64().unwrap_or(1).max(1);
    let dtype = r["dtype"].as_str().unwrap_or("");
    Some(ModelSpec {
        id: id.into(),
        layers,
        attention_heads: kv_heads.max(1) * tp,
        kv_heads,
        head_dim,
        attention: if mla {
            Attention::Mla {
                latent: 576,
                indexer: 0,
            }
        } else {
            Attention::Full
        },
        dtype: match dtype {
            "float32" => ModelDtype::F32,
            "float16" => ModelDtype::F16,
            _ if r["model"].as_str().unwrap_or("").contains("(fp16)") => ModelDtype::F16,
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
            experts: 0,
            routed: Bytes(0),
            multimodal: f.6,
            ungated_experts: false,
            // (Records run at PP 1, where the embeddings' placement does not matter.)
            embeddings: Default::default(),
            encoder: Bytes(0),
            vision_heads: 0,
            no_float16: Default::default(),
            f32_checkpoint: false,
            mm_item_tokens: 0,
        },
        state: None,
    })
}

/// "0.8.5.post1", "~0.6.6.post1+ (…)", "0.19.0 (printed …)" → 0.Y.
fn version_of(r: &Value) -> Option<Version> {
    let s = r["vllm_version"].as_str()?;
    let t = s.trim_start_matches('~');
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let mut p = t[..end].split('.');
    let major: u32 = p.next()?.parse().ok()?;
    let minor: u32 = p.next()?.parse().ok()?;
    Some(Version::new(major, minor))
}

fn flag(r: &Value, key: &str) -> Option<bool> {
    let x = r["extra_args"].get(key).or_else(|| r.get(key))?;
    match x {
        Value::Bool(b) => Some(*b),
        Value::String(s) => {
            Some(s.to_ascii_lowercase().starts_with("true") || s.starts_with("enabled"))
        }
        _ => None,
    }
}

/// A record as a case, or the reason it cannot be one.
fn case_of(r: &Value) -> Result<Case, String> {
    let id = r["id"]
        .as_str()
        .unwrap_or("?")
        .trim_start_matches("llmd-h100-");
    let rep = &r["reported"];
    let notes = r["notes"].as_str().unwrap_or("").to_ascii_lowercase();
    if id.contains("uvm-fail") || notes.contains("pathological") {
        return Err("memory oversubscription breaks the accounting (README: keep out)".into());
    }
    if r["model"].as_str().unwrap_or("").contains("11B-Vision") {
        // 36.63 GiB of activation: mllama's cross-attention states for 128 dummy image prompts.
        return Err(
            "encoder-decoder (mllama) profile: its cross-attention states are not modelled".into(),
        );
    }
    if r["vllm_version"].as_str().unwrap_or("").contains("custom")
        || r["quality"].as_str().unwrap_or("").contains("patched")
    {
        return Err("a patched vLLM build".into());
    }
    let kv = rep["kv_cache_gib"].as_f64().ok_or("no printed KV memory")?;
    if kv <= 0.0 {
        return Err("vLLM refused (negative KV memory): no relative error".into());
    }
    let weights = rep["weights_gib"].as_f64().ok_or("no printed weights")?;
    let mut util = r["gpu_memory_utilization"]
        .as_f64()
        .ok_or("utilization unknown")?;
    // Unsloth passes a finer utilization than vLLM's "%.2f" echo: "actual GPU utilization = 69.34%".
    let note = r["util_note"].as_str().unwrap_or("");
    if let Some(i) = note.find("utilization = ") {
        let t: String = note[i + 14..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        if let Ok(p) = t.parse::<f64>() {
            util = p / 100.0;
        }
    }
    let (gpu, total, arch) = gpu_of(r).ok_or("GPU total neither printed nor known")?;
    if r["gpu"].as_str().unwrap_or("").contains("implies") {
        return Err("the GPU was inferred from the KV memory itself".into());
    }
    let model = model_of(r).ok_or("model sizes not in the table")?;
    let version = version_of(r).ok_or("version unknown")?;
    let engine = match r["engine"].as_str() {
        Some("V0") => Engine::V0,
        _ if version < Version::new(0, 8) => Engine::V0,
        _ => Engine::V1,
    };
    let tp = r["tp"].as_u64().ok_or("TP unknown")?.max(1);
    let pp = r["pp"].as_u64().unwrap_or(1).max(1);
    let mml = r["max_model_len"].as_u64().ok_or("max_model_len unknown")?;
    let args_note = r["extra_args"]["note"].as_str().unwrap_or("");
    if args_note.contains("max_num_seqs not shown") {
        return Err("max_num_seqs set by the author and not shown".into());
    }
    let total_b = Bytes::from_gib_f64(total).unwrap_or_default();
    let chunked = flag(r, "chunked_prefill")
        .or(flag(r, "enable_chunked_prefill"))
        .unwrap_or(engine == Engine::V1);
    let fam = kvbudget::core::vllm::family(version, engine);
    let (def_seqs, def_mnbt) = serve_defaults(version, fam, arch, Some(total_b));
    let max_num_seqs = r["max_num_seqs"]
        .as_u64()
        .unwrap_or(if engine == Engine::V0 { 256 } else { def_seqs });
    let mnbt = r["max_num_batched_tokens"].as_u64().unwrap_or(if chunked {
        // V0's chunked prefill defaulted to 512 tokens (EngineArgs); V1 to the GPU's default.
        if engine == Engine::V0 {
            512
        } else {
            def_mnbt
        }
    } else {
        mml.max(2048)
    });
    let requested = (total_b.0 as f64 * util).ceil() as u64;
    Ok(Case {
        id: id.to_string(),
        gpu,
        family: family_of(version, engine),
        source: source_of(r["source"].as_str().unwrap_or_default()),
        tp,
        pp,
        util,
        total: total_b,
        weights: Bytes::from_gib_f64(weights).unwrap_or_default(),
        reported: kv,
        settings: Settings {
            tp,
            pp,
            version,
            engine,
            max_model_len: mml,
            max_num_seqs,
            max_num_batched_tokens: mnbt,
            requested,
            chunked_prefill: chunked,
            enforce_eager: flag(r, "enforce_eager").unwrap_or(false),
            arch,
            gpu_total: total_b,
            lora: None,
            spec_tokens: 0,
        },
        model,
        printed_activation: rep["activation_peak_gib"]
            .as_f64()
            .or(rep["peak_activation_gib"].as_f64()),
        printed_non_torch: rep["non_torch_gib"].as_f64(),
        printed_graphs: rep["cudagraph_est_gib"].as_f64(),
    })
}

/// Every shared record: the usable cases and, for the rest, why not.
pub fn cases(dir: &Path) -> (Vec<Case>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for file in [
        "vllm-0.19-h100.jsonl",
        "vllm-more.jsonl",
        "vllm-modern.jsonl",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(mut r) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if file == "vllm-0.19-h100.jsonl" {
                r["engine"] = Value::from("V1");
            }
            match case_of(&r) {
                Ok(c) => out.push(c),
                Err(why) => skipped.push((r["id"].as_str().unwrap_or("?").to_string(), why)),
            }
        }
    }
    (out, skipped)
}

/// Predicts one case with the given constants. The weights are the log's "Model loading took"
/// (what vLLM counts on that GPU); everything else is estimated.
pub fn predict(c: &Case, fit: &Fitted) -> Row {
    let e = estimate_with(&c.model, &c.settings, fit);
    let w = c.weights.0 as f64;
    let req = c.settings.requested as f64;
    let g = |overhead: u64| (req - w - overhead as f64) / GIB as f64;
    Row {
        id: c.id.clone(),
        gpu: c.gpu,
        family: c.family,
        tp: c.tp,
        pp: c.pp,
        reported: c.reported,
        predicted: g(e.subtracted().0),
        low: g(e.high().0),
        high: g(e.low().0),
        fixed1: g(GIB),
        fixed2: g(2 * GIB),
    }
}

/// Share of rows whose |relative error| is at most `tol`.
pub fn within(rows: &[&Row], tol: f64, err: impl Fn(&Row) -> f64) -> (usize, usize) {
    (
        rows.iter().filter(|r| err(r).abs() <= tol).count(),
        rows.len(),
    )
}

/// The figures of a set of rows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Figures {
    pub n: usize,
    pub within5: usize,
    pub within2: usize,
    pub inside: usize,
    pub median_abs_error: f64,
    pub median_width: f64,
    /// The error in GiB (a small pool's percent is large for a small miss).
    pub median_abs_error_gib: f64,
    pub max_abs_error_gib: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

pub fn figures(rows: &[&Row]) -> Figures {
    Figures {
        n: rows.len(),
        within5: within(rows, 0.05, |r| r.error()).0,
        within2: within(rows, 0.02, |r| r.error()).0,
        inside: rows.iter().filter(|r| r.inside()).count(),
        median_abs_error: median(rows.iter().map(|r| r.error().abs()).collect()),
        median_width: median(rows.iter().map(|r| r.width()).collect()),
        median_abs_error_gib: median(
            rows.iter()
                .map(|r| (r.predicted - r.reported).abs())
                .collect(),
        ),
        max_abs_error_gib: rows
            .iter()
            .map(|r| (r.predicted - r.reported).abs())
            .fold(0.0, f64::max),
    }
}

/// Cross-validated predictions: each case predicted with constants fitted without its group.
pub fn cross_validate(
    all: &[Case],
    key: impl for<'a> Fn(&'a Case) -> &'a str,
    fit: impl Fn(&[&Case]) -> Fitted,
) -> Vec<Row> {
    let mut groups: Vec<&str> = all.iter().map(&key).collect();
    groups.sort_unstable();
    groups.dedup();
    let mut rows = Vec::new();
    for g in groups {
        let train: Vec<&Case> = all.iter().filter(|c| key(c) != g).collect();
        let f = fit(&train);
        if std::env::var_os("CALIBRATION_FOLDS").is_some() {
            eprintln!("without {g}: {f:?}");
        }
        rows.extend(all.iter().filter(|c| key(c) == g).map(|c| predict(c, &f)));
    }
    rows
}

/// The loss the point constants minimise: relative errors, each capped at 20 % so that a log
/// no rule explains does not drag the rest.
fn loss(train: &[&Case], f: &Fitted) -> f64 {
    train
        .iter()
        .map(|c| {
            let mut l = predict(c, f).error().abs().min(0.2);
            // Where vLLM printed its parts, each part's miss counts too (in KV-memory terms).
            let e = estimate_with(&c.model, &c.settings, f);
            let gib = |b: Bytes| b.0 as f64 / GIB as f64;
            if let Some(a) = c.printed_activation {
                l += 0.5 * ((gib(e.activation) - a).abs() / c.reported).min(0.2);
            }
            if let Some(n) = c.printed_non_torch {
                l += 0.5 * ((gib(e.non_torch) - n).abs() / c.reported).min(0.2);
            }
            l
        })
        .sum()
}

/// Fits the open constants on `train`, starting from the prior (VLLM-ACCOUNTING §5): a
/// coordinate search over the point constants, a least-squares line through the printed CUDA
/// graph estimates, then the smallest spread factor that puts 97 % of `train` inside its range.
/// A constant no training log depends on keeps its prior value.
pub fn fit(train: &[&Case]) -> Fitted {
    let mut v = Fitted::PRIOR.to_vec();
    // Graphs: least squares of printed estimate on layers per GPU.
    let pts: Vec<(f64, f64)> = train
        .iter()
        .filter_map(|c| {
            c.printed_graphs
                .map(|g| (c.model.layers.div_ceil(c.pp) as f64, g))
        })
        .collect();
    if pts.len() >= 5 {
        let n = pts.len() as f64;
        let (sx, sy) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
        let (mx, my) = (sx / n, sy / n);
        let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
        let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        if sxx > 0.0 {
            let slope = (sxy / sxx).max(0.0);
            v[9] = (my - slope * mx).max(0.0);
            v[10] = slope * 1024.0;
        }
    }
    // Point constants 1..=8 (the light sampler is the source's 14 B): coordinate search.
    let steps = [0.5, 0.7, 0.85, 0.93, 0.97, 1.03, 1.07, 1.15, 1.3, 1.5, 2.0];
    let mut best = loss(train, &Fitted::from_vec(v));
    for _round in 0..6 {
        let mut improved = false;
        for i in 1..9 {
            let mut best_here = v[i];
            for s in steps {
                let mut t = v;
                t[i] = v[i] * s;
                let l = loss(train, &Fitted::from_vec(t));
                if l < best - 1e-9 {
                    best = l;
                    best_here = t[i];
                    improved = true;
                }
            }
            v[i] = best_here;
        }
        if !improved {
            break;
        }
    }
    // Spread factor: the 97th percentile of |miss| / spread over the training logs.
    v[11] = 1.0;
    let f = Fitted::from_vec(v);
    let mut need: Vec<f64> = train
        .iter()
        .map(|c| {
            let r = predict(c, &f);
            let half = (r.high - r.low) / 2.0;
            (r.predicted - r.reported).abs() / half.max(1e-9)
        })
        .collect();
    need.sort_by(f64::total_cmp);
    if !need.is_empty() {
        let k = need[((need.len() as f64 * 0.97).ceil() as usize).min(need.len()) - 1];
        v[11] = k.max(1.0);
    }
    Fitted::from_vec(v)
}

/// The source a record's log was published in, the unit a leave-one-source-out split holds out
/// together: a repository's issue or pull request (`owner/repo#N`), else the repository
/// (`owner/repo`), else the record's description up to its first `:` or `(`. Logs of one
/// benchmark run, blog or thread share their setup and their biases, so they are held out as one.
pub fn source_of(text: &str) -> String {
    let head = text.split([':', '(']).next().unwrap_or_default();
    let words: Vec<&str> = head.split_whitespace().collect();
    let repo = words.iter().find(|w| {
        let name = w.split('#').next().unwrap_or_default();
        !w.starts_with("http") && name.split('/').count() == 2 && !name.ends_with('/')
    });
    let Some(repo) = repo else {
        return head.trim().chars().take(40).collect();
    };
    let (name, attached) = repo.split_once('#').unwrap_or((repo, ""));
    let number = if attached.is_empty() {
        words
            .iter()
            .find_map(|w| w.strip_prefix('#'))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            .unwrap_or_default()
    } else {
        attached.trim_matches(|c: char| !c.is_ascii_digit())
    };
    match number {
        "" => name.to_string(),
        n => format!("{name}#{n}"),
    }
}
