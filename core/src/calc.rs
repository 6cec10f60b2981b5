//! Everything the calculator page shows for one scenario, with derivations spelled out.

use crate::capacity::{self, DecodeCeiling, Overhead};
use crate::error::{KvError, Result};
use crate::model::{Attention, KvDtype, ModelDtype, ModelSpec};
use crate::query::{GpuChoice, ModelChoice, PageScenario};
use crate::units::{fixed2, thousands, Bytes};
use crate::vllm::{self, KvMemory, Report, Scenario};

/// The numbers for one KV dtype.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// The dtype.
    pub kv: KvDtype,
    /// KV bytes per token on one GPU.
    pub bytes_per_token: Bytes,
    /// KV bytes of one sequence at the scenario's context.
    pub bytes_per_sequence: Bytes,
    /// The pool on one GPU (negative: nothing left).
    pub pool: i128,
    /// The seed's `⌊M_kv / (S × B_tok)⌋` at the context.
    pub seed_max: u64,
    /// Whole sequences vLLM's blocks hold at the context.
    pub vllm_max: u64,
    /// `vllm_max` capped by `max_num_seqs`.
    pub capped: u64,
    /// vLLM's report at `max_model_len`.
    pub report: Report,
}

/// One band of the memory-split chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// What it is.
    pub label: String,
    /// Bytes.
    pub bytes: u64,
    /// Kind, for colouring: `weights`, `overhead`, `seq`, `kv-free`, `unclaimed`.
    pub kind: &'static str,
}

/// The data behind the three charts.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartData {
    /// GPU total (the bar length) on one GPU.
    pub total: Bytes,
    /// Memory split for 16-bit and FP8 KV: (label, segments).
    pub memory: Vec<(String, Vec<Segment>)>,
    /// Context values (x) shared by the curves.
    pub contexts: Vec<u64>,
    /// Sequences that fit at each context, 16-bit and FP8: (label, values).
    pub concurrency: Vec<(String, Vec<u64>)>,
    /// `max_num_seqs`.
    pub cap: u64,
    /// The operating point (context, sequences).
    pub point: (u64, u64),
    /// Decode ceiling per sequence alone at each context, tokens/s.
    pub roofline_single: Vec<f64>,
    /// Aggregate decode ceiling with the sequences that fit (capped), tokens/s.
    pub roofline_aggregate: Vec<f64>,
    /// The model's and GPU's names, for titles.
    pub title: String,
}

/// The low and high ends of the estimate's range (None with a fixed overhead).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// Pool bytes: (least, most).
    pub pool: (i128, i128),
    /// vLLM's printed tokens: (least, most).
    pub tokens: (u64, u64),
    /// Sequences that fit at the context, capped: (least, most).
    pub seqs: (u64, u64),
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The spread of the overhead estimate, when it is used.
    pub range: Option<Range>,
    /// The chosen dtype's numbers.
    pub chosen: Side,
    /// 16-bit and FP8, for the comparisons.
    pub pair: [Side; 2],
    /// Tokens each sequence holds.
    pub context: u64,
    /// The same model as plain MHA.
    pub mha_bytes_per_token: Bytes,
    /// Longest context for `max_num_seqs` sequences (vLLM blocks).
    pub longest_context: u64,
    /// The same by the seed formula.
    pub longest_context_seed: u64,
    /// Decode ceilings at the context with the capped sequences.
    pub decode: DecodeCeiling,
    /// (what, derivation) lines with this scenario's numbers.
    pub derivations: Vec<(&'static str, String)>,
    /// `vllm serve …` for the scenario.
    pub serve_command: String,
    /// Charts.
    pub charts: ChartData,
    /// Warnings about the scenario.
    pub warnings: Vec<String>,
    /// When vLLM would refuse to start: what would fit instead.
    pub instead: Vec<String>,
}

/// The vLLM scenario behind the page's scenario, for `model` and `kv` at `len` tokens.
pub(crate) fn vllm_scenario(
    s: &PageScenario,
    model: &ModelSpec,
    kv: KvDtype,
    len: u64,
) -> Scenario {
    vllm_scenario_with(
        s,
        model,
        kv,
        len,
        s.overhead
            .map(Overhead::Fixed)
            .unwrap_or(Overhead::ESTIMATE),
    )
}

fn vllm_scenario_with(
    s: &PageScenario,
    model: &ModelSpec,
    kv: KvDtype,
    len: u64,
    overhead: Overhead,
) -> Scenario {
    Scenario {
        model: model.clone(),
        kv_dtype: kv,
        tp: s.tp,
        pp: 1,
        block_size: None,
        max_model_len: Some(len),
        max_num_seqs: Some(s.seqs()),
        max_num_batched_tokens: None,
        version: s.version,
        engine: s.version.default_engine(),
        memory: match s.kv_memory {
            Some(b) => KvMemory::Available(b),
            None => KvMemory::Budget {
                gpu_total: s.gpu.total(),
                util: s.util(),
                weights: model.weights,
                overhead,
            },
        },
        arch: s.gpu.arch(),
        gpu_total: Some(s.gpu.total()),
    }
}

/// Whole sequences of `len` tokens vLLM's blocks hold (0 when one does not fit).
fn vllm_fit(s: &PageScenario, model: &ModelSpec, kv: KvDtype, len: u64) -> u64 {
    vllm::report(&vllm_scenario(s, model, kv, len))
        .map(|r| whole_sequences(&r))
        .unwrap_or(0)
}

/// Whole max-length requests a report's blocks hold (0 when vLLM would not start).
fn whole_sequences(r: &Report) -> u64 {
    if r.error.is_some() {
        0
    } else {
        r.num_gpu_blocks.unwrap_or(0) / r.blocks_per_request.max(1)
    }
}

fn side(s: &PageScenario, model: &ModelSpec, kv: KvDtype, context: u64) -> Result<Side> {
    let report = vllm::report(&vllm_scenario(s, model, kv, s.ctx))?;
    let bpt = capacity::bytes_per_token(model, kv, s.tp, 1)?;
    let bps = capacity::bytes_per_sequence(model, kv, s.tp, 1, context)?;
    let pool = report.available_kv_bytes.unwrap_or(0);
    let vllm_max = if context == s.ctx {
        whole_sequences(&report)
    } else {
        vllm_fit(s, model, kv, context)
    };
    Ok(Side {
        kv,
        bytes_per_token: bpt,
        bytes_per_sequence: bps,
        pool,
        seed_max: capacity::max_sequences_for(pool, bps),
        vllm_max,
        capped: vllm_max.min(s.seqs()),
        report,
    })
}

/// Labels a dtype for people: `auto` says what it resolves to.
pub fn kv_label(kv: KvDtype, model: ModelDtype) -> String {
    match kv {
        KvDtype::Auto => format!(
            "{} (auto)",
            match model {
                ModelDtype::F32 => "FP32",
                ModelDtype::F16 => "FP16",
                ModelDtype::Bf16 => "BF16",
            }
        ),
        KvDtype::Bfloat16 => "BF16".into(),
        KvDtype::Float16 => "FP16".into(),
        KvDtype::Float32 => "FP32".into(),
        KvDtype::Fp8 => "FP8".into(),
        KvDtype::Fp8E4m3 => "FP8 e4m3".into(),
        KvDtype::Fp8E5m2 => "FP8 e5m2".into(),
    }
}

/// A byte count with its binary-unit form: `1,207,959,552 B = 1.12 GiB`.
fn both(b: u64) -> String {
    format!("{} B = {}", thousands(b), Bytes(b))
}

/// `1 sequence`, `4 sequences`, with thousands separators.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", thousands(n))
    }
}

fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/-:@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Context values for the curves: log-spaced from 512 to `max`, plus `extra` points, sorted.
fn contexts(max: u64, extra: &[u64]) -> Vec<u64> {
    let (lo, hi) = (512f64.ln(), (max.max(1024) as f64).ln());
    let n = 48;
    let mut v: Vec<u64> = (0..=n)
        .map(|i| (lo + (hi - lo) * i as f64 / n as f64).exp().round() as u64)
        .collect();
    v.extend(
        extra
            .iter()
            .copied()
            .filter(|&x| (512..=max.max(1024)).contains(&x)),
    );
    v.sort_unstable();
    v.dedup();
    v
}

/// Computes the page for `s`.
pub fn evaluate(s: &PageScenario) -> Result<Outcome> {
    let model = s.model.spec();
    model.validate()?;
    let context = s.context();
    let mut warnings = Vec::new();
    if context == 0 {
        return Err(KvError::Invalid {
            field: "prompt + trace tokens",
            message: "add up to 0; give at least one token".into(),
        });
    }
    if context > s.ctx {
        return Err(KvError::Invalid {
            field: "prompt + trace tokens",
            message: format!("add up to {} tokens, more than max_model_len ({}); vLLM would reject such a request", thousands(context), thousands(s.ctx)),
        });
    }
    let sixteen = if model.dtype.bytes() == 2 {
        KvDtype::Auto
    } else {
        KvDtype::Bfloat16
    };
    let pair = [
        side(s, &model, sixteen, context)?,
        side(s, &model, KvDtype::Fp8, context)?,
    ];
    let chosen = side(s, &model, s.kv, context)?;
    let mha = capacity::bytes_per_token_mha(&model, s.kv)?;
    let seqs = s.seqs();
    let r = &chosen.report;
    let bs = r.block_size;
    let longest = r.num_gpu_blocks.map(|b| b / seqs.max(1) * bs).unwrap_or(0);
    let longest_seed = capacity::longest_context(chosen.pool, seqs, chosen.bytes_per_token);
    let weights_gpu = Bytes(model.weights.0.div_ceil(s.tp));
    let bw = s.gpu.bandwidth_gbs();
    let decode = capacity::decode_ceiling(
        bw,
        weights_gpu,
        context,
        chosen.bytes_per_token,
        chosen.capped.max(1),
    );

    // Derivations, with this scenario's numbers.
    let b = s.kv.bytes(model.dtype);
    let heads_gpu = (model.kv_heads / s.tp).max(1);
    let heads_text = if s.tp > 1 {
        format!("({} KV heads / TP {} = {heads_gpu})", model.kv_heads, s.tp)
    } else {
        model.kv_heads.to_string()
    };
    let bpt = chosen.bytes_per_token.0;
    let mut d: Vec<(&'static str, String)> = Vec::new();
    d.push((
        "KV per token",
        match model.attention {
            Attention::Mla { latent } => format!(
                "{} layers × {latent} latent × {b} B = {} per token",
                model.layers,
                both(bpt)
            ),
            _ => format!(
                "2 × {} × {heads_text} × {} × {b} = {} per token",
                model.layers,
                model.head_dim,
                both(bpt)
            ),
        },
    ));
    if !matches!(model.attention, Attention::Mla { .. }) && model.attention_heads != model.kv_heads
    {
        d.push((
            "as plain MHA",
            format!(
                "2 × {} × {} × {} × {b} = {} per token: GQA saves {}×",
                model.layers,
                model.attention_heads,
                model.head_dim,
                both(mha.0),
                model.attention_heads / model.kv_heads.max(1)
            ),
        ));
    }
    let ctx_text = match (s.prompt, s.trace) {
        (None, None) => format!("{} tokens (max_model_len)", thousands(context)),
        (p, t) => format!(
            "{} prompt + {} trace = {} tokens",
            thousands(p.unwrap_or(0)),
            thousands(t.unwrap_or(0)),
            thousands(context)
        ),
    };
    d.push(("context per sequence", ctx_text));
    d.push((
        "KV per sequence",
        format!(
            "{} × {} B = {}",
            thousands(context),
            thousands(bpt),
            both(chosen.bytes_per_sequence.0)
        ),
    ));
    let total = s.gpu.total();
    let overhead_bytes = match (s.overhead, r.overhead) {
        (Some(b), _) => b,
        (None, Some(e)) => e.subtracted(),
        (None, None) => Bytes(0),
    };
    let (open, close) = if s.version.rounding() == capacity::Rounding::Ceil {
        ("⌈", "⌉")
    } else {
        ("⌊", "⌋")
    };
    if let Some(k) = s.kv_memory {
        d.push((
            "KV pool",
            format!("taken as given (from a vLLM log): {}", both(k.0)),
        ));
    } else {
        d.push((
            "KV pool",
            format!(
                "{open}{} GiB × {}{close} − {} GiB weights{} − {} GiB overhead = {}",
                fixed2(total.as_gib()),
                s.util(),
                fixed2(weights_gpu.as_gib()),
                if s.tp > 1 {
                    format!(" (÷ TP {})", s.tp)
                } else {
                    String::new()
                },
                fixed2(overhead_bytes.as_gib()),
                if chosen.pool > 0 {
                    both(chosen.pool as u64)
                } else {
                    format!("{} B: nothing left for the KV cache", chosen.pool)
                }
            ),
        ));
    }
    d.push((
        "sequences (formula)",
        format!(
            "⌊{} / {}⌋ = {}",
            thousands(chosen.pool.max(0) as u64),
            thousands(chosen.bytes_per_sequence.0),
            chosen.seed_max
        ),
    ));
    if let Some(blocks) = r.num_gpu_blocks {
        let per_req = context.div_ceil(bs);
        d.push((
            "sequences (vLLM)",
            format!(
                "{} // ({} × {bs} tokens × {} layers) = {} blocks of {bs} tokens; ⌊{} / ⌈{} / {bs}⌉ = {per_req}⌋ = {}",
                thousands(chosen.pool.max(0) as u64),
                thousands(bpt / r.stage_layers.max(1)),
                r.stage_layers,
                thousands(blocks),
                thousands(blocks),
                thousands(context),
                chosen.vllm_max
            ),
        ));
        d.push((
            "after the cap",
            format!(
                "min({}, max_num_seqs {}) = {}",
                chosen.vllm_max, seqs, chosen.capped
            ),
        ));
        d.push((
            "longest context for max_num_seqs",
            format!(
                "⌊{} blocks / {seqs}⌋ × {bs} = {} tokens each",
                thousands(blocks),
                thousands(longest)
            ),
        ));
    }
    d.push((
        "decode ceiling",
        format!(
            "{bw} GB/s / ({} GiB weights + {} tokens × {} B) = {:.1} tokens/s for one sequence; {} together: {:.1} tokens/s",
            fixed2(weights_gpu.as_gib()),
            thousands(context),
            thousands(bpt),
            decode.per_sequence,
            plural(chosen.capped.max(1), "sequence"),
            decode.aggregate
        ),
    ));

    if r.error.is_none() && chosen.vllm_max == 0 {
        warnings.push(format!(
            "Not one sequence of {} tokens fits; shorten the context or free memory.",
            thousands(context)
        ));
    }
    if chosen.vllm_max > seqs {
        warnings.push(format!(
            "max_num_seqs ({seqs}) caps concurrency below the {} sequences that fit.",
            chosen.vllm_max
        ));
    }

    // The estimate's range, and its parts spelled out.
    let range = match (s.overhead, r.overhead) {
        (None, Some(e)) => {
            let at = |m: capacity::Margin| -> (i128, u64, u64) {
                let t = vllm_scenario_with(s, &model, s.kv, s.ctx, Overhead::Estimated(m));
                let rep = vllm::report(&t).ok();
                let pool = rep.as_ref().and_then(|r| r.available_kv_bytes).unwrap_or(0);
                let tokens = rep
                    .as_ref()
                    .and_then(|r| r.gpu_kv_cache_tokens)
                    .unwrap_or(0);
                let c = vllm_scenario_with(s, &model, s.kv, context, Overhead::Estimated(m));
                let fit = vllm::report(&c).map(|r| whole_sequences(&r)).unwrap_or(0);
                (pool, tokens, fit.min(seqs))
            };
            let (lo, hi) = (at(capacity::Margin::High), at(capacity::Margin::Low));
            let graphs = if e.graphs_counted {
                format!(" + CUDA graphs {}", Bytes(e.cuda_graphs.0))
            } else {
                String::new()
            };
            d.push((
                "overhead (estimate)",
                format!(
                    "activation {} + non-torch {}{graphs} = {} (± {})",
                    Bytes(e.activation.0),
                    Bytes(e.non_torch.0),
                    Bytes(e.subtracted().0),
                    Bytes(e.spread.0)
                ),
            ));
            d.push((
                "activation peak",
                format!(
                    "forward buffers {} + max(sampler {} rows × {} vocab × 14 B = {}, dense MLP {}){}{}",
                    Bytes(e.base.0),
                    thousands(e.sampler_rows),
                    thousands(if model.vocab > 0 { model.vocab } else { 128_256 }),
                    Bytes(e.sampler.0),
                    Bytes(e.dense.0),
                    if e.moe.0 > 0 { format!(" + MoE workspace {}", Bytes(e.moe.0)) } else { String::new() },
                    if e.encoder.0 > 0 { format!(" + encoder {}", Bytes(e.encoder.0)) } else { String::new() },
                ),
            ));
            if !e.graphs_counted {
                warnings.push(format!(
                    "vLLM {} keeps CUDA graphs (about {}) outside gpu_memory_utilization: the GPU needs that much more than util × total.",
                    s.version,
                    Bytes(e.cuda_graphs.0)
                ));
            }
            Some(Range {
                pool: (lo.0, hi.0),
                tokens: (lo.1, hi.1),
                seqs: (lo.2, hi.2),
            })
        }
        _ => None,
    };

    // What would fit instead, when vLLM would refuse.
    let mut instead = Vec::new();
    if r.error.is_some() {
        if let Some(len) = r.estimated_max_len.filter(|&l| l > 0) {
            instead.push(format!(
                "--max-model-len {len}: one sequence of {} tokens fits in this pool",
                thousands(len)
            ));
        }
        if s.kv.bytes(model.dtype) > 1 && pair[1].report.error.is_none() {
            instead.push(format!(
                "--kv-cache-dtype fp8: {} of {} tokens fit",
                plural(pair[1].capped, "sequence"),
                thousands(context)
            ));
        }
        if chosen.pool <= 0 || r.estimated_max_len == Some(0) {
            let fits: Vec<&str> = crate::presets::GPUS
                .iter()
                .filter(|g| {
                    let mut t = s.clone();
                    t.gpu = GpuChoice::Preset(g);
                    side(&t, &model, s.kv, context)
                        .map(|x| x.capped > 0)
                        .unwrap_or(false)
                })
                .map(|g| g.name)
                .collect();
            if fits.is_empty() {
                instead.push("no single GPU preset holds these weights with this overhead; raise the tensor-parallel size".into());
            } else {
                instead.push(format!(
                    "GPUs where at least one sequence fits at this utilization: {}",
                    fits.join(", ")
                ));
            }
        }
    }

    // vllm serve …
    let name = match &s.model {
        ModelChoice::Preset(p) => p.id.to_string(),
        ModelChoice::Custom(c) => c.name.clone(),
    };
    let mut cmd = format!(
        "vllm serve {} --max-model-len {} --gpu-memory-utilization {}",
        shell_word(&name),
        s.ctx,
        s.util()
    );
    if s.kv != KvDtype::Auto {
        cmd.push_str(&format!(" --kv-cache-dtype {}", s.kv.name()));
    }
    cmd.push_str(&format!(" --max-num-seqs {seqs}"));
    if s.tp > 1 {
        cmd.push_str(&format!(" --tensor-parallel-size {}", s.tp));
    }

    // Charts.
    let requested = capacity::requested_bytes(total, s.util(), s.version.rounding())?;
    let memory = pair
        .iter()
        .map(|p| {
            let mut segs = vec![
                Segment {
                    label: "weights".into(),
                    bytes: weights_gpu.0.min(total.0),
                    kind: "weights",
                },
                Segment {
                    label: "overhead".into(),
                    bytes: overhead_bytes.0,
                    kind: "overhead",
                },
            ];
            let n = p.seed_max.min(p.vllm_max.max(p.seed_max));
            let used =
                (n as u128 * p.bytes_per_sequence.0 as u128).min(p.pool.max(0) as u128) as u64;
            if n > 0 {
                segs.push(Segment {
                    label: format!("{n} × {} sequences", thousands(context)),
                    bytes: used,
                    kind: "seq",
                });
            }
            let free = (p.pool.max(0) as u64).saturating_sub(used);
            segs.push(Segment {
                label: "KV left over".into(),
                bytes: free,
                kind: "kv-free",
            });
            segs.push(Segment {
                label: "not claimed (1 − util)".into(),
                bytes: total.0.saturating_sub(requested),
                kind: "unclaimed",
            });
            (kv_label(p.kv, model.dtype), segs)
        })
        .collect();
    let xmax = if model.max_position > 0 {
        model.max_position.max(s.ctx)
    } else {
        s.ctx.max(32_768)
    };
    let xs = contexts(xmax, &[context]);
    let concurrency: Vec<(String, Vec<u64>)> = pair
        .iter()
        .map(|p| {
            (
                kv_label(p.kv, model.dtype),
                xs.iter().map(|&x| vllm_fit(s, &model, p.kv, x)).collect(),
            )
        })
        .collect();
    let chosen_curve: Vec<u64> = if s.kv == pair[0].kv {
        concurrency[0].1.clone()
    } else if s.kv == pair[1].kv {
        concurrency[1].1.clone()
    } else {
        xs.iter().map(|&x| vllm_fit(s, &model, s.kv, x)).collect()
    };
    let roofline_single = xs
        .iter()
        .map(|&t| {
            capacity::decode_ceiling(bw, weights_gpu, t, chosen.bytes_per_token, 1).per_sequence
        })
        .collect();
    let roofline_aggregate = xs
        .iter()
        .zip(&chosen_curve)
        .map(|(&t, &n)| {
            let n = n.min(seqs);
            if n == 0 {
                0.0
            } else {
                capacity::decode_ceiling(bw, weights_gpu, t, chosen.bytes_per_token, n).aggregate
            }
        })
        .collect();
    let gpu_name = match &s.gpu {
        GpuChoice::Preset(g) => g.name.to_string(),
        GpuChoice::Custom { total, .. } => format!("custom GPU ({} GiB)", fixed2(total.as_gib())),
    };
    let charts = ChartData {
        total,
        memory,
        contexts: xs,
        concurrency,
        cap: seqs,
        point: (context, chosen.capped),
        roofline_single,
        roofline_aggregate,
        title: format!("{} on {gpu_name}", s.model.name()),
    };
    Ok(Outcome {
        range,
        chosen,
        pair,
        context,
        mha_bytes_per_token: mha,
        longest_context: longest,
        longest_context_seed: longest_seed,
        decode,
        derivations: d,
        serve_command: cmd,
        charts,
        warnings,
        instead,
    })
}
