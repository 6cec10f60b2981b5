//! The page's numbers for one scenario: per KV dtype, the bytes, the pool, the sequences that fit
//! by the seed's formula and by vLLM's blocks, and the range of the overhead estimate.
//!
//! Everything here is a number; [`crate::explain`] says how each was derived and
//! [`crate::chart_data`] turns them into the charts' series.

use crate::capacity::{self, DecodeCeiling};
use crate::error::{KvError, Result};
use crate::model::{KvDtype, ModelDtype, ModelSpec};
use crate::scenario::PageScenario;
use crate::units::{thousands, Bytes};
use crate::vllm::{self, requested_bytes, KvMemory, Margin, Overhead, Report, Scenario};

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
    /// Blocks one sequence of the context takes over all groups (0 when vLLM refuses it).
    pub blocks_per_sequence: u64,
    /// `vllm_max` capped by `max_num_seqs`.
    pub capped: u64,
    /// vLLM's report at `max_model_len`.
    pub report: Report,
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
    /// At the low end (the most overhead) vLLM refuses to start although the estimate starts:
    /// a boot may fail.
    pub low_refuses: bool,
}

/// Everything the page shows as a number.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Whether vLLM runs the model in float32 here (a model it will not run in float16, on a GPU
    /// without bfloat16): `model` is then that float32 model.
    pub float32: bool,
    /// The model evaluated.
    pub model: ModelSpec,
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
    /// `total × util` as the version rounds it.
    pub requested: u64,
    /// The weights on the GPU that sets the cache size.
    pub weights_per_gpu: Bytes,
    /// The non-KV overhead besides the weights that the scenario uses (0 when unknown).
    pub overhead: Bytes,
    /// Decode ceilings at the context with the capped sequences, bandwidth- and compute-bound.
    pub decode: DecodeCeiling,
    /// The compute roof at the context: tokens/s all GPUs can compute at most (None when the
    /// GPU's TFLOPS are unknown).
    pub compute_roof: Option<f64>,
}

/// The vLLM scenario behind the page's scenario, for `model` and `kv` at `len` tokens.
pub fn vllm_scenario(s: &PageScenario, model: &ModelSpec, kv: KvDtype, len: u64) -> Scenario {
    vllm_scenario_with(s, model, kv, len, s.overhead_policy())
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
        pp: s.pp,
        block_size: None,
        max_model_len: Some(len),
        // The user's own, so vLLM's defaulting rules apply to the rest (`layout::resolve`).
        max_num_seqs: s.seqs,
        max_num_batched_tokens: s.mnbt,
        version: s.version,
        engine: s.version.engine_on(s.gpu.arch()),
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
        knobs: s.knobs,
    }
}

/// Whole sequences of `len` tokens vLLM's blocks hold (0 when one does not fit).
pub fn vllm_fit(s: &PageScenario, model: &ModelSpec, kv: KvDtype, len: u64) -> u64 {
    vllm::whole_sequences(&vllm_scenario(s, model, kv, len))
}

/// The numbers for `model` with KV dtype `kv` under the page's settings, at `context` tokens.
pub fn side(s: &PageScenario, model: &ModelSpec, kv: KvDtype, context: u64) -> Result<Side> {
    let report = vllm::report(&vllm_scenario(s, model, kv, s.ctx))?;
    // A hybrid's state in the dtypes the chosen release gives it, for the formula's bytes too.
    let model = &model.for_release((s.version.major, s.version.minor));
    let bpt = capacity::bytes_per_token(model, kv, s.tp, s.pp)?;
    let bps = capacity::bytes_per_sequence(model, kv, s.tp, s.pp, context)?;
    let pool = report.available_kv_bytes.unwrap_or(0);
    let (vllm_max, blocks_per_sequence) = if context == s.ctx {
        (report.whole_sequences(), report.blocks_per_request)
    } else {
        vllm::report(&vllm_scenario(s, model, kv, context))
            .map(|r| (r.whole_sequences(), r.blocks_per_request))
            .unwrap_or((0, 0))
    };
    Ok(Side {
        kv,
        bytes_per_token: bpt,
        bytes_per_sequence: bps,
        pool,
        seed_max: capacity::max_sequences_for(pool, bps),
        vllm_max,
        blocks_per_sequence,
        capped: vllm_max.min(s.seqs()),
        report,
    })
}

/// The 16-bit KV dtype for a model: `auto` when the model runs in 16 bits, else bfloat16.
pub fn sixteen_bit(model: &ModelSpec) -> KvDtype {
    if model.dtype.bytes() == 2 {
        KvDtype::Auto
    } else {
        KvDtype::Bfloat16
    }
}

/// The context each sequence holds, refused when it is 0 or longer than `max_model_len`.
pub fn checked_context(s: &PageScenario) -> Result<u64> {
    let context = s.context();
    if context == 0 {
        return Err(KvError::Invalid {
            field: "prompt + trace tokens",
            message: crate::t!(ERR_ZERO_TOKENS).into(),
        });
    }
    if context > s.ctx {
        return Err(KvError::Invalid {
            field: "prompt + trace tokens",
            message: crate::tf!(ERR_OVER_LEN, thousands(context), thousands(s.ctx)),
        });
    }
    Ok(context)
}

/// The pipeline-parallel size, refused when it exceeds the model's layers (as the vLLM check
/// does, `vllm::layout`): the form says so at the field and a URL falls back to 1.
pub fn checked_pp(s: &PageScenario) -> Result<u64> {
    capacity::check_stages("pipeline-parallel size", s.pp, s.model.spec().layers)
}

/// The pool, printed tokens and capped sequences at both ends of the estimate's range.
fn range(s: &PageScenario, model: &ModelSpec, context: u64) -> Range {
    let at = |m: Margin| -> (i128, u64, u64, bool) {
        let t = vllm_scenario_with(s, model, s.kv, s.ctx, Overhead::Estimated(m));
        let rep = vllm::report(&t).ok();
        let refuses = rep.as_ref().is_none_or(|r| r.refusal.is_some());
        let pool = rep.as_ref().and_then(|r| r.available_kv_bytes).unwrap_or(0);
        let tokens = rep
            .as_ref()
            .and_then(|r| r.gpu_kv_cache_tokens)
            .unwrap_or(0);
        let c = vllm_scenario_with(s, model, s.kv, context, Overhead::Estimated(m));
        let fit = vllm::whole_sequences(&c);
        // Where vLLM refuses (its max_model_len request does not fit), no sequence is served,
        // however short the prompt and trace are.
        let seqs = if refuses { 0 } else { fit.min(s.seqs()) };
        (pool, tokens, seqs, refuses || fit == 0)
    };
    let (lo, hi) = (at(Margin::High), at(Margin::Low));
    Range {
        pool: (lo.0, hi.0),
        tokens: (lo.1, hi.1),
        seqs: (lo.2, hi.2),
        low_refuses: lo.3,
    }
}

/// A given (or log-adopted) KV memory that, beside the weights on one GPU, exceeds the GPU's
/// total: (the KV memory, the weights, the total). vLLM would run out of memory there.
pub fn over_gpu(s: &PageScenario, o: &Outcome) -> Option<(Bytes, Bytes, Bytes)> {
    let kv = s.kv_memory?;
    let total = s.gpu.total();
    (o.weights_per_gpu.0.saturating_add(kv.0) > total.0).then_some((kv, o.weights_per_gpu, total))
}

/// Computes the page's numbers for `s`.
pub fn evaluate(s: &PageScenario) -> Result<Outcome> {
    let model = s.model_spec();
    model.validate()?;
    // A hybrid's state in the dtypes the chosen release gives it, and the model in float32 where
    // vLLM runs it so on this GPU (the 16-bit curve is then its float32 `auto`: vLLM before
    // 0.11 has no bfloat16 KV cache, and a T4 no bfloat16).
    let mut model = model.for_release((s.version.major, s.version.minor));
    let float32 = vllm::runs_float32(&model, s.gpu.arch(), s.knobs.dtype_half, s.version);
    let sixteen = if float32 {
        // (Weights a log measured are kept in 16 bits too: `verify::adopt` halves a float32 run's.)
        vllm::to_float32(&mut model);
        KvDtype::Auto
    } else {
        // Named as vLLM runs it: float16 with `--dtype half`, on a T4 from 0.9.0, and for a float32
        // checkpoint before 0.9.1 (the same 2 B as the checkpoint's bfloat16).
        if vllm::runs_in(&model, s.gpu.arch(), s.knobs.dtype_half, s.version) == ModelDtype::F16 {
            model.dtype = ModelDtype::F16;
        }
        sixteen_bit(&model)
    };
    let context = checked_context(s)?;
    let pair = [
        side(s, &model, sixteen, context)?,
        side(s, &model, KvDtype::Fp8, context)?,
    ];
    let chosen = side(s, &model, s.kv, context)?;
    let mha = capacity::bytes_per_token_mha(&model, s.kv)?;
    let seqs = s.seqs();
    let r = &chosen.report;
    let longest = r
        .num_gpu_blocks
        .map(|b| vllm::longest_context(&vllm_scenario(s, &model, s.kv, s.ctx), b, seqs))
        .unwrap_or(0);
    let longest_seed = capacity::longest_context(chosen.pool, seqs, chosen.bytes_per_token);
    let weights_per_gpu = match r.budget {
        Some(b) => b.weights_per_gpu,
        None => capacity::stage_weights_per_gpu(
            &model,
            model.weights,
            s.tp,
            s.pp,
            s.version.encoder_every_stage(),
        ),
    };
    let requested = match r.budget {
        Some(b) => b.requested,
        None => requested_bytes(s.gpu.total(), s.util(), s.version.rounding())?,
    };
    // With KV memory taken from a log, the overhead is the log's, else what the log implies:
    // the budget less the weights and the KV memory.
    let overhead = match (r.budget, s.overhead, s.kv_memory) {
        (Some(b), _, _) => b.overhead,
        (None, Some(o), _) => o,
        (None, None, Some(kv)) => Bytes(
            requested
                .saturating_sub(weights_per_gpu.0)
                .saturating_sub(kv.0),
        ),
        (None, None, None) => Bytes(0),
    };
    let compute_roof = compute_roof(s, &model, context);
    let decode = roofed(
        capacity::decode_ceiling_moving(
            s.gpu.bandwidth_gbs(),
            decode_weights(s, &model, chosen.capped),
            decode_moved(s, &model, s.kv, context),
            chosen.capped.max(1),
        ),
        compute_roof,
    );
    let range = match (s.overhead, r.overhead) {
        (None, Some(_)) if s.kv_memory.is_none() => Some(range(s, &model, context)),
        _ => None,
    };
    Ok(Outcome {
        float32,
        model,
        range,
        chosen,
        pair,
        context,
        mha_bytes_per_token: mha,
        longest_context: longest,
        longest_context_seed: longest_seed,
        requested,
        weights_per_gpu,
        overhead,
        decode,
        compute_roof,
    })
}

/// Tokens/s the GPUs can compute at most at context `t`: `TP × peak FLOPS / FLOPs per token`
/// (dense 16-bit peak; the activations of every model here are 16-bit).
pub fn compute_roof(s: &PageScenario, model: &ModelSpec, t: u64) -> Option<f64> {
    let tflops = s.gpu.bf16_tflops()?;
    Some(s.tp as f64 * tflops * 1e12 / capacity::decode_flops_per_token(model, t))
}

/// The bandwidth ceiling under the compute roof: no rate can exceed what the GPUs compute.
pub fn roofed(d: DecodeCeiling, roof: Option<f64>) -> DecodeCeiling {
    let Some(r) = roof else { return d };
    let aggregate = d.aggregate.min(r);
    let scale = if d.aggregate > 0.0 {
        aggregate / d.aggregate
    } else {
        1.0
    };
    DecodeCeiling {
        per_sequence: d.per_sequence.min(r),
        per_sequence_in_batch: d.per_sequence_in_batch * scale,
        aggregate,
    }
}

/// What one decode step of one sequence moves per GPU: the weights over tensor parallelism, the
/// KV of every layer per token, and a hybrid's state, read and written back. Pipeline stages run
/// one after another for a sequence, so a step reads all of them (at TP 1 and PP 1: the weights
/// and the seed's `B_tok`). What a sequence of `t` tokens moves is [`decode_moved`].
pub fn decode_terms(
    s: &PageScenario,
    model: &ModelSpec,
    kv: KvDtype,
) -> Result<(Bytes, Bytes, Bytes)> {
    Ok((
        capacity::weights_per_gpu(model.weights, s.tp, 1),
        capacity::bytes_per_token(model, kv, s.tp, 1)?,
        Bytes(2 * capacity::state_bytes_per_sequence(model, s.tp, 1).0),
    ))
}

/// The weights a decode step reads for one sequence and for `n` together
/// (`capacity::decode_weights`: the same for a dense model, fewer for one than for many with MoE).
pub fn decode_weights(s: &PageScenario, model: &ModelSpec, n: u64) -> (f64, f64) {
    (
        capacity::decode_weights(model, s.tp, 1),
        capacity::decode_weights(model, s.tp, n),
    )
}

/// The bytes one sequence of `t` tokens moves in a decode step: `t × B_tok` and its state, but a
/// windowed layer reads only its window (`capacity::decode_read_per_sequence`). Past 2⁶⁴: no rate.
pub fn decode_moved(s: &PageScenario, model: &ModelSpec, kv: KvDtype, t: u64) -> f64 {
    capacity::decode_read_per_sequence(model, kv, s.tp, t).map_or(f64::INFINITY, |b| b.0 as f64)
}

/// The plan the scenario asks for (`plan`: N sequences of the context), when it asks for one.
pub fn plan(s: &PageScenario, o: &Outcome) -> Option<Result<crate::vllm::plan::Plan>> {
    let n = s.plan?;
    let mut base = vllm_scenario(s, &o.model, s.kv, o.context);
    // A plan sizes the budget: KV memory taken from a log is the log's, not the plan's.
    if let KvMemory::Available(_) = base.memory {
        base.memory = KvMemory::Budget {
            gpu_total: s.gpu.total(),
            util: s.util(),
            weights: o.model.weights,
            overhead: s.overhead_policy(),
        };
    }
    Some(crate::vllm::plan::plan(
        &base,
        crate::vllm::plan::Need {
            sequences: n,
            context: o.context,
        },
    ))
}
