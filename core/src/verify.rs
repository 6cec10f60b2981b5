//! A vLLM startup log beside the scenario's prediction: what differs and why, and the scenario
//! that adopts the log's numbers.

use crate::calc::{vllm_scenario, Outcome};
use crate::error::truncate;
use crate::fields::{MAX_CTX, MAX_PP, MAX_TP, MIN_CTX};
use crate::model::KvDtype;
use crate::presets;
use crate::scenario::{GpuChoice, ModelChoice, PageScenario};
use crate::units::{fixed2, thousands, Bytes, GIB};
use crate::vllm::logparse::{KvFigure, ParsedLog};
use crate::vllm::{self, family, KvMemory, Version};

/// One line of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Stable key (for tests and automation).
    pub key: &'static str,
    /// What is compared.
    pub what: &'static str,
    /// The scenario's figure.
    pub predicted: String,
    /// The log's figure.
    pub printed: String,
    /// printed − predicted, when both are numbers.
    pub difference: Option<f64>,
    /// The difference in words with units.
    pub difference_text: String,
    /// What explains a difference.
    pub why: &'static str,
}

fn gib(b: f64) -> String {
    format!("{} GiB", fixed2(b))
}

fn row(
    key: &'static str,
    what: &'static str,
    ours: Option<f64>,
    theirs: Option<f64>,
    unit: &str,
    why: &'static str,
) -> Row {
    let fmt = |x: f64| {
        if unit == "GiB" {
            gib(x)
        } else if unit == "x" {
            format!("{}x", fixed2(x))
        } else {
            thousands(x.max(0.0) as u64)
        }
    };
    // The log prints concurrency with two decimals: compare like with like.
    let ours = if unit == "x" {
        ours.map(|x| fixed2(x).parse().unwrap_or(x))
    } else {
        ours
    };
    let difference = ours.zip(theirs).map(|(a, b)| b - a);
    let difference_text = match difference {
        Some(d) if unit == "GiB" => format!(
            "{}{} GiB",
            if d >= 0.0 { "+" } else { "−" },
            fixed2(d.abs())
        ),
        Some(d) if unit == "x" => {
            format!("{}{}", if d >= 0.0 { "+" } else { "−" }, fixed2(d.abs()))
        }
        Some(d) => format!(
            "{}{}",
            if d >= 0.0 { "+" } else { "−" },
            thousands(d.abs() as u64)
        ),
        None => "—".into(),
    };
    Row {
        key,
        what,
        predicted: ours.map(fmt).unwrap_or_else(|| "—".into()),
        printed: theirs.map(fmt).unwrap_or_else(|| "not in the log".into()),
        difference,
        difference_text,
        why,
    }
}

/// The comparison, row by row (memory in GiB, blocks and tokens as counts).
pub fn compare(o: &Outcome, log: &ParsedLog) -> Vec<Row> {
    let g = |b: u64| b as f64 / GIB as f64;
    let r = &o.chosen.report;
    let e = r.overhead;
    let weights = g(o.weights_per_gpu.0);
    let requested = Some(g(o.requested));
    let printed_requested = log.requested_gib.or_else(|| {
        log.total_gpu_gib
            .zip(log.gpu_memory_utilization)
            .map(|(t, u)| t * u)
    });
    let blocks_printed = match log.kv {
        Some(KvFigure::Blocks(b)) => Some(b as f64),
        Some(KvFigure::Tokens(t)) if r.groups.is_none() && r.block_size > 0 => {
            Some((t / r.block_size) as f64)
        }
        _ => None,
    };
    vec![
        row("weights", "weights", Some(weights), log.model_loading_gib.or(log.weights_gib), "GiB",
            "vLLM counts what it loaded on this GPU; a checkpoint's size differs by quantization scales, tied embeddings and buffers"),
        row("budget", "total × utilization", requested, printed_requested, "GiB",
            "the GPU total as vLLM sees it (1.5–2 % below nvidia-smi) times --gpu-memory-utilization"),
        row("activation", "activation peak", e.map(|e| g(e.activation.0)), log.activation_peak_gib, "GiB",
            "the profile run: sampler rows × vocabulary and the forward pass of max_num_batched_tokens"),
        row("non-torch", "non-torch memory", e.map(|e| g(e.non_torch.0)), log.non_torch_gib, "GiB",
            "CUDA context growth and NCCL buffers (about 2 GiB per GPU with tensor parallelism)"),
        row("cuda-graphs", "CUDA graphs", e.map(|e| g(e.cuda_graphs.0)), log.cudagraph_estimate_gib, "GiB",
            "subtracted from the budget from vLLM 0.20; before, outside it"),
        row("available", "available KV memory", r.available_kv_bytes.map(|b| b as f64 / GIB as f64), log.available_kv_gib.or(log.budget_kv_gib), "GiB",
            "the budget minus all of the above; boots of one configuration vary by several percent"),
        row("blocks", "GPU blocks", r.num_gpu_blocks.map(|b| b as f64), blocks_printed, "count",
            "available memory // (block size × bytes per token per layer × layers)"),
        row("tokens", "cached tokens", r.gpu_kv_cache_tokens.map(|t| t as f64), log.cached_tokens(r.block_size).map(|t| t as f64), "count",
            "blocks × block size (per version: groups, truncation)"),
        row("concurrency", "maximum concurrency", r.max_concurrency, log.max_concurrency.as_ref().map(|c| c.value), "x",
            "blocks ÷ blocks per max_model_len request (compare at the same max_model_len)"),
    ]
}

/// The scenario with the log's numbers: its model (when a preset), version, max_model_len, GPU
/// total and utilization, weights, overhead, and the KV memory that gives its exact block count.
/// Returns notes on what was and was not adopted.
pub fn adopt(current: &PageScenario, log: &ParsedLog) -> (PageScenario, Vec<String>) {
    let mut s = current.clone();
    let mut notes = Vec::new();
    match log.model.as_deref().map(|m| (m, presets::model(m))) {
        Some((_, Some(p))) => s.model = ModelChoice::Preset(p),
        Some((m, None)) => notes.push(format!(
            "the log's model {} is not a preset: kept {}; import its config.json for its geometry",
            truncate(m, 80),
            current.model.name()
        )),
        None => notes.push("the log does not name its model: kept the current one".into()),
    }
    if let Some(k) = log
        .kv_cache_dtype
        .as_deref()
        .and_then(|k| KvDtype::parse(k).ok())
    {
        s.kv = k;
    }
    if let Some(tp) = log
        .tensor_parallel_size
        .filter(|t| (1..=MAX_TP).contains(t))
    {
        s.tp = tp;
    }
    if let Some(pp) = log
        .pipeline_parallel_size
        .filter(|p| (1..=MAX_PP).contains(p))
    {
        s.pp = pp;
    }
    if let Some(v) = log.version.as_deref().and_then(|v| Version::parse(v).ok()) {
        s.version = v;
    }
    if let Some(l) = log.max_model_len {
        s.ctx = l.clamp(MIN_CTX, MAX_CTX);
    }
    if let Some(t) = log.total_gpu_gib.and_then(Bytes::from_gib_f64) {
        s.gpu = GpuChoice::Custom {
            total: t,
            bw_gbs: current.gpu.bandwidth_gbs(),
            tflops: current.gpu.bf16_tflops().unwrap_or(0.0),
        };
    }
    if let Some(u) = log.gpu_memory_utilization.filter(|u| *u > 0.0 && *u <= 1.0) {
        s.util = Some(u);
    }
    if let Some(w) = log
        .model_loading_gib
        .or(log.weights_gib)
        .and_then(Bytes::from_gib_f64)
    {
        let mut c = s.model.spec();
        // vLLM logs one GPU's share; the scenario holds the whole model.
        c.weights = Bytes(w.0.saturating_mul(s.gpus()));
        s.model = ModelChoice::Custom(c);
    }
    if let (Some(a), Some(n)) = (log.activation_peak_gib, log.non_torch_gib) {
        let graphs = if s.version >= Version::new(0, 20) {
            log.cudagraph_estimate_gib.unwrap_or(0.0)
        } else {
            0.0
        };
        s.overhead = Bytes::from_gib_f64(a + n + graphs);
    }
    // The KV memory that reproduces the printed count exactly.
    s.kv_memory = None;
    if let Some(bytes) = kv_memory_for(&s, log) {
        s.kv_memory = Some(bytes);
    } else {
        notes.push("no capacity line to take the KV memory from: the budget stays in force".into());
    }
    if s.prompt.is_some() || s.trace.is_some() {
        s.prompt = None;
        s.trace = None;
        notes.push("prompt and trace cleared: the log's figures are per max_model_len".into());
    }
    (s, notes)
}

/// Bytes of KV memory that make vLLM print the log's block or token count for this scenario.
fn kv_memory_for(s: &PageScenario, log: &ParsedLog) -> Option<Bytes> {
    // The page's own vLLM scenario, probed with one block for its block size and groups.
    let mut probe = vllm_scenario(s, &s.model.spec(), s.kv, s.ctx);
    probe.memory = KvMemory::Blocks(1);
    let r = vllm::report(&probe).ok()?;
    let per_block = r.block_bytes as u128;
    let groups = r.num_groups;
    let fam = family(s.version, s.version.default_engine());
    let blocks = match log.kv? {
        KvFigure::Blocks(b) => b,
        KvFigure::Tokens(t) => {
            // The smallest block count that prints this token count.
            let guess = match fam {
                vllm::Family::V0 | vllm::Family::V1Early => t / r.block_size.max(1),
                vllm::Family::V1Mid => t / r.block_size.max(1) * groups,
                _ => (t as u128 * r.blocks_per_request as u128 / s.ctx.max(1) as u128) as u64,
            };
            let prints = |b: u64| {
                vllm::printed_tokens(fam, b, r.blocks_per_request, groups, r.block_size, s.ctx).0
            };
            (guess.saturating_sub(groups + 2)..=guess + groups + 2)
                .find(|&b| prints(b) == t)
                .unwrap_or(guess)
        }
    };
    u64::try_from(blocks as u128 * per_block).ok().map(Bytes)
}
