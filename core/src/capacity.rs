//! The seeds' arithmetic: bytes per token, the pool, sequences that fit, and the decode ceiling.

use crate::error::{KvError, Result};
use crate::model::{Attention, Embeddings, HeadShape, KvDtype, ModelSpec};
use crate::units::Bytes;

/// KV bytes one token costs on one attention layer of one GPU (tensor-parallel rank):
/// `2 × max(1, kv_heads / tp) × head_dim × bytes`, or for MLA `latent × bytes` (not split by TP).
/// MLA with DeepSeek-V3.2's indexer adds the indexer's key, `index_head_dim` FP8 bytes plus a
/// 4-byte scale per 128 (132 B), and with an FP8 cache stores the latent as `fp8_ds_mla`: the
/// 512-wide latent in FP8, four float32 scales and the 64-wide rope part in bf16, 656 B
/// (VLLM-HYBRID §d; vllm/v1/attention/backends/mla/flashmla_sparse.py, 0.11+).
pub fn bytes_per_token_per_layer(model: &ModelSpec, kv: KvDtype, tp: u64) -> Result<u64> {
    let b = kv.bytes(model.dtype);
    let v = match model.attention {
        Attention::Mla { latent, indexer } if indexer > 0 => {
            let index = indexer + indexer.div_ceil(128) * 4;
            let latent_bytes = if b == 1 {
                let rank = latent.saturating_sub(64);
                Some(rank + rank.div_ceil(128) * 4 + (latent - rank) * 2)
            } else {
                latent.checked_mul(b)
            };
            latent_bytes.and_then(|l| l.checked_add(index))
        }
        Attention::Mla { latent, .. } => latent.checked_mul(b),
        _ => shape_bytes(model.shape(), b, tp),
    };
    v.ok_or(KvError::Overflow("bytes per token"))
}

/// `2 × max(1, kv_heads / tp) × head_dim × bytes`: one token's K and V on one layer of `shape`.
fn shape_bytes(shape: HeadShape, b: u64, tp: u64) -> Option<u64> {
    let heads = (shape.kv_heads / tp.max(1)).max(1);
    2u64.checked_mul(heads)
        .and_then(|x| x.checked_mul(shape.head_dim))
        .and_then(|x| x.checked_mul(b))
}

/// KV bytes one token costs on one full-attention layer: [`bytes_per_token_per_layer`], or with
/// the full layers' own shape (Gemma 4: `global_head_dim`, and with `attention_k_eq_v` its
/// global KV heads; K and V both cached).
pub fn bytes_per_token_full_layer(model: &ModelSpec, kv: KvDtype, tp: u64) -> Result<u64> {
    match model.attention {
        Attention::SlidingWindow { full: Some(f), .. } => {
            shape_bytes(f, kv.bytes(model.dtype), tp).ok_or(KvError::Overflow("bytes per token"))
        }
        _ => bytes_per_token_per_layer(model, kv, tp),
    }
}

/// The attention layers with a cache of their own on the largest of `pp` stages, by kind: (full,
/// windowed: sliding or chunked local). Layers that share another's cache (Gemma 4) keep none.
pub fn cached_layers(model: &ModelSpec, pp: u64) -> (u64, u64) {
    let share = |n: u64| stage_share(n, model.layers, pp);
    let shared = model.kv_shared();
    let attention = share(model.attention_layers() - shared.total());
    let windowed = match model.attention {
        Attention::SlidingWindow { .. } => model.sliding_layers() - shared.sliding,
        Attention::ChunkedLocal { .. } => model.local_layers(),
        _ => 0,
    };
    let windowed = share(windowed).min(attention);
    (attention - windowed, windowed)
}

/// `part` of a model's `layers` on the largest of `pp` stages, in proportion, rounded up (exact
/// at PP = 1, where it is `part`).
pub fn stage_share(part: u64, layers: u64, pp: u64) -> u64 {
    let stage = max_stage_layers(layers, pp);
    ((part as u128 * stage as u128).div_ceil(layers.max(1) as u128) as u64).min(stage)
}

/// A hybrid's fixed state for one request on one GPU: every recurrent layer of the largest stage
/// keeps one convolution and one temporal state, whatever the context (0 for a transformer).
pub fn state_bytes_per_sequence(model: &ModelSpec, tp: u64, pp: u64) -> Bytes {
    match &model.state {
        Some(st) => Bytes(
            st.page_bytes(model.dtype, tp, 0)
                .saturating_mul(stage_share(st.layers, model.layers, pp)),
        ),
        None => Bytes(0),
    }
}

/// The largest pipeline-parallel size kvbudget accepts.
pub const MAX_PP: u64 = 1024;

/// How vLLM splits `layers` over `pp` pipeline stages (`get_pp_indices`): equal shares, the
/// remainder going one each to the stages before the last, from the second-to-last backwards.
/// `pp` is clamped to `1..=min(layers, MAX_PP)`.
pub fn layers_per_stage(layers: u64, pp: u64) -> Vec<u64> {
    let pp = pp.clamp(1, layers.clamp(1, MAX_PP));
    let base = layers / pp;
    let rem = layers % pp; // < pp, so stages pp-2 … pp-1-rem all exist
    (0..pp)
        .map(|i| base + u64::from(i + 1 + rem >= pp && i + 1 < pp))
        .collect()
}

/// Refuses more pipeline stages than layers (every stage holds one at least): the one check of
/// vLLM's layout, SGLang's profile and the page's field, `field` naming the setting.
pub fn check_stages(field: &'static str, pp: u64, layers: u64) -> Result<u64> {
    if pp > layers {
        return Err(KvError::Invalid {
            field,
            message: crate::tf!(ERR_EXCEED_LAYERS, layers),
        });
    }
    Ok(pp)
}

/// The most layers any pipeline stage holds: the stage that sets the cache size
/// (`⌈layers / pp⌉`, since the remainder is spread one layer per stage).
pub fn max_stage_layers(layers: u64, pp: u64) -> u64 {
    let pp = pp.clamp(1, layers.max(1));
    layers.div_ceil(pp)
}

/// The seeds' `B_tok` per GPU: `2 × L × H_kv × d_h × b` over the layers of the largest pipeline
/// stage, with KV heads divided by tensor parallelism (at least one per rank).
/// At TP = PP = 1 this is exactly the course formula (Qwen3-8B bf16: 2 × 36 × 8 × 128 × 2 = 147,456 B).
/// A hybrid's recurrent layers keep no per-token cache: `L` counts the attention layers only.
pub fn bytes_per_token(model: &ModelSpec, kv: KvDtype, tp: u64, pp: u64) -> Result<Bytes> {
    let (full, windowed) = cached_layers(model, pp);
    let per_full = bytes_per_token_full_layer(model, kv, tp)? as u128;
    let per_layer = bytes_per_token_per_layer(model, kv, tp)? as u128;
    u64::try_from(full as u128 * per_full + windowed as u128 * per_layer)
        .map(Bytes)
        .map_err(|_| KvError::Overflow("bytes per token"))
}

/// The same model if every KV head were a query head (plain MHA), TP = 1: `2 × L × H_q × d_h × b`.
/// The seeds' "GQA bought 4×" (Qwen3-8B, 576 KiB) and "7×" (Qwen2.5-7B, 392 KiB).
pub fn bytes_per_token_mha(model: &ModelSpec, kv: KvDtype) -> Result<Bytes> {
    let b = kv.bytes(model.dtype);
    if model.split_kv() {
        // Gemma 4: each layer with a cache at its own head dimension, every head a KV head.
        let (full, sliding) = cached_layers(model, 1);
        let heads = model.attention_heads as u128;
        let per = |layers: u64, dim: u64| layers as u128 * 2 * heads * dim as u128 * b as u128;
        return u64::try_from(
            per(full, model.full_shape().head_dim) + per(sliding, model.head_dim),
        )
        .map(Bytes)
        .map_err(|_| KvError::Overflow("MHA bytes per token"));
    }
    2u64.checked_mul(model.attention_layers())
        .and_then(|x| x.checked_mul(model.attention_heads))
        .and_then(|x| x.checked_mul(model.head_dim))
        .and_then(|x| x.checked_mul(b))
        .map(Bytes)
        .ok_or(KvError::Overflow("MHA bytes per token"))
}

/// KV bytes one sequence of `ctx` tokens holds on one GPU. Full layers keep every token;
/// sliding-window layers keep at most `window` tokens, chunked local layers at most one chunk;
/// a hybrid's recurrent layers add their fixed state.
pub fn bytes_per_sequence(
    model: &ModelSpec,
    kv: KvDtype,
    tp: u64,
    pp: u64,
    ctx: u64,
) -> Result<Bytes> {
    let per_layer = bytes_per_token_per_layer(model, kv, tp)? as u128;
    let per_full = bytes_per_token_full_layer(model, kv, tp)? as u128;
    let window = match model.attention {
        Attention::SlidingWindow { window, .. } => window,
        Attention::ChunkedLocal { chunk, .. } => chunk,
        _ => 0,
    };
    // Layers on the largest stage, in proportion (exact at PP = 1). Each factor is below 2⁶⁴,
    // so the products of two fit in u128; the rest is checked.
    let (full, windowed) = cached_layers(model, pp);
    let total = (full as u128 * ctx as u128)
        .checked_mul(per_full)
        .zip((windowed as u128 * ctx.min(window) as u128).checked_mul(per_layer))
        .and_then(|(f, w)| f.checked_add(w));
    total
        .and_then(|t| t.checked_add(state_bytes_per_sequence(model, tp, pp).0 as u128))
        .and_then(|t| u64::try_from(t).ok())
        .map(Bytes)
        .ok_or(KvError::Overflow("bytes per sequence"))
}

/// `⌊M_kv / (S_ctx × B_tok)⌋`: the seed's sequences that fit (0 when the pool is empty or negative).
pub fn max_sequences(pool: i128, ctx: u64, per_token: Bytes) -> u64 {
    let per_seq = ctx as u128 * per_token.0 as u128;
    if pool <= 0 || per_seq == 0 {
        return 0;
    }
    (pool as u128 / per_seq).min(u64::MAX as u128) as u64
}

/// Sequences that fit when each one's bytes are given (sliding-window aware).
pub fn max_sequences_for(pool: i128, per_sequence: Bytes) -> u64 {
    if pool <= 0 || per_sequence.0 == 0 {
        return 0;
    }
    (pool as u128 / per_sequence.0 as u128).min(u64::MAX as u128) as u64
}

/// `⌊M_kv / B_tok⌋`: tokens the pool holds.
pub fn total_tokens(pool: i128, per_token: Bytes) -> u64 {
    max_sequences(pool, 1, per_token)
}

/// The inverse: the longest context each of `n` sequences can have, `⌊M_kv / (n × B_tok)⌋`.
pub fn longest_context(pool: i128, n: u64, per_token: Bytes) -> u64 {
    max_sequences(pool, n.max(1), per_token)
}

/// The weights one GPU holds: the model split evenly over `tp × pp` GPUs, rounded up.
pub fn weights_per_gpu(weights: Bytes, tp: u64, pp: u64) -> Bytes {
    Bytes(weights.0.div_ceil(tp.max(1).saturating_mul(pp.max(1))))
}

/// The weights the heaviest GPU of `tp × pp` holds. Pipeline stages split the layers as
/// [`layers_per_stage`] and hold the embeddings as [`Embeddings`] says (`vocab × hidden × 2 B`
/// each: embeddings stay BF16/FP16 in quantized checkpoints), all split over TP. Untied, the first
/// stage also holds the input embedding and the last the lm_head: at PP 2 with an even layer count
/// that is half the model per stage, as an even split gives; at PP 4 the end stages hold half an
/// embedding more. Tied, the checkpoint counts the matrix once, but the first and last stages each
/// build it; Gemma builds it on every stage. Without `hidden` or `vocab`, or at PP 1, the even
/// split. With a remainder of layers, the middle stages hold one more layer (and, untied or tied,
/// no embedding); the cache is sized by the most layers ([`max_stage_layers`]) and these weights,
/// the worst of both, so the pool may come out a layer's weights small there.
///
/// A vision encoder of known bytes (`extras.encoder`) is not split: the first stage holds it all,
/// and up to vLLM 0.32 every other stage too (`encoder_every_stage`, from
/// `Version::encoder_every_stage`). The model files build it unconditionally (gemma3_mm.py, qwen3_vl.py, mllama4.py in 0.10.2, 0.11.0, 0.19.1; 0.19.1
/// swaps it for a `StageMissingLayer` only when no image is allowed) and only the first stage
/// runs it; 0.33's Model Runner V2, its default, skips it on the later stages (interfaces.py
/// `_mark_tower_model`: `use_v2_model_runner and not get_pp_group().is_first_rank`).
pub fn stage_weights_per_gpu(
    model: &ModelSpec,
    weights: Bytes,
    tp: u64,
    pp: u64,
    encoder_every_stage: bool,
) -> Bytes {
    let Some(st) = Stages::of(model, pp) else {
        return weights_per_gpu(weights, tp, pp);
    };
    let embed = st.embed.min(weights.0 / 2);
    let encoder = model.extras.encoder.0.min(weights.0 - st.copies * embed);
    // ⌈body × l / layers⌉ without overflow (l ≤ layers).
    let body = weights.0 - st.copies * embed - encoder;
    let share = |l: u64| body / st.layers * l + (body % st.layers * l).div_ceil(st.layers);
    // The first stage outweighs the last; a middle stage holds at most one layer more (and an
    // embedding only on Gemma).
    let first = share(st.first) + embed + encoder;
    let middle = share(st.middle)
        + if st.every { embed } else { 0 }
        + if encoder_every_stage { encoder } else { 0 };
    Bytes(first.max(middle).div_ceil(tp.max(1)))
}

/// How `pp ≥ 2` pipeline stages split a model with a known embedding ([`layers_per_stage`]).
struct Stages {
    layers: u64,
    /// One embedding's bytes, `vocab × hidden × 2`.
    embed: u64,
    /// The embeddings the checkpoint counts: two untied, one tied.
    copies: u64,
    /// The first stage's layers: one more than the base only when every stage but the last has
    /// one more.
    first: u64,
    /// The most layers a middle stage holds.
    middle: u64,
    /// The embedding is on every stage (Gemma).
    every: bool,
}

impl Stages {
    fn of(model: &ModelSpec, pp: u64) -> Option<Self> {
        let layers = model.layers.max(1);
        let pp = pp.clamp(1, layers.min(MAX_PP));
        let embed = (model.vocab.saturating_mul(model.extras.hidden)).saturating_mul(2);
        if pp < 2 || embed == 0 {
            return None;
        }
        let (base, rem) = (layers / pp, layers % pp);
        Some(Stages {
            layers,
            embed,
            copies: if model.extras.embeddings == Embeddings::Untied {
                2
            } else {
                1
            },
            first: base + u64::from(rem + 1 == pp),
            middle: base + u64::from(rem > 0),
            every: model.extras.embeddings == Embeddings::EveryStage,
        })
    }
}

/// The inverse of [`stage_weights_per_gpu`] for the first stage, whose memory vLLM's rank 0 logs
/// ("Model loading took"): the whole model whose first stage holds `per_gpu` on each of its `tp`
/// GPUs. Its layers' share is `per_gpu × tp − embedding` over the first stage's layers.
pub fn whole_weights(model: &ModelSpec, per_gpu: Bytes, tp: u64, pp: u64) -> Bytes {
    let stage = per_gpu.0.saturating_mul(tp.max(1));
    // The first stage holds the whole vision encoder, in every version.
    let encoder = model.extras.encoder.0;
    match Stages::of(model, pp) {
        Some(st) if stage > st.embed + encoder => {
            let body = (stage - st.embed - encoder) as u128 * st.layers as u128 / st.first as u128;
            Bytes(
                body.saturating_add(st.copies as u128 * st.embed as u128 + encoder as u128)
                    .min(u64::MAX as u128) as u64,
            )
        }
        _ => Bytes(stage.saturating_mul(pp.clamp(1, model.layers.clamp(1, MAX_PP)))),
    }
}

/// The KV pool: `requested − weights − overhead`, signed (negative means nothing is left).
pub fn pool(requested: u64, weights: Bytes, overhead: Bytes) -> i128 {
    requested as i128 - weights.0 as i128 - overhead.0 as i128
}

/// Decode ceilings from the roofline: every step reads the weights once plus each sequence's cache.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecodeCeiling {
    /// One sequence alone at context `t`: `BW / (W + t × B_tok)` tokens/s.
    pub per_sequence: f64,
    /// `n` sequences at context `t` together: `n × BW / (W + n × t × B_tok)` tokens/s.
    pub aggregate: f64,
    /// Per-sequence rate when `n` share the card: `BW / (W + n × t × B_tok)` tokens/s.
    pub per_sequence_in_batch: f64,
}

/// The decode ceiling at context `t` for `n` sequences, bandwidth in GB/s (10⁹ bytes/s): the
/// seed's `BW / (W + n × t × B_tok)`.
pub fn decode_ceiling(
    bandwidth_gbs: f64,
    weights: Bytes,
    t: u64,
    per_token: Bytes,
    n: u64,
) -> DecodeCeiling {
    let w = weights.0 as f64;
    decode_ceiling_moving(bandwidth_gbs, (w, w), t as f64 * per_token.0 as f64, n)
}

/// The same with the weights a step reads for one sequence and for `n` (they differ for an MoE:
/// [`decode_weights`]) and the bytes each sequence moves per step given whole (`moved`, as
/// [`decode_read_per_sequence`] counts them): `BW / (W₁ + moved)` alone, `BW / (Wₙ + n × moved)`
/// per sequence of `n`.
pub fn decode_ceiling_moving(
    bandwidth_gbs: f64,
    (w_one, w_batch): (f64, f64),
    moved: f64,
    n: u64,
) -> DecodeCeiling {
    let bw = bandwidth_gbs * 1e9;
    let n = n.max(1) as f64;
    let one = bw / (w_one + moved);
    let batch_step = bw / (w_batch + n * moved);
    DecodeCeiling {
        per_sequence: one,
        aggregate: n * batch_step,
        per_sequence_in_batch: batch_step,
    }
}

/// The routed experts a decode step of `n` sequences touches per MoE layer, on average, when each
/// token picks `k` of `E` at random: one token misses a given expert with probability `1 − k/E`,
/// so `n` touch `E × (1 − (1 − k/E)ⁿ)` (k for one sequence, towards E as `n` grows). None for a
/// dense model (no `experts` or no routed bytes).
pub fn experts_touched(model: &ModelSpec, n: u64) -> Option<f64> {
    let e = model.extras;
    if e.experts == 0 || routed_bytes(model) == 0 || e.experts_per_token == 0 {
        return None;
    }
    let (k, all) = (e.experts_per_token.min(e.experts) as f64, e.experts as f64);
    Some(all * (1.0 - (1.0 - k / all).powi(n.clamp(1, i32::MAX as u64) as i32)))
}

/// The routed experts' bytes, at most the weights: as given (a preset, a config's estimate), else
/// from the geometry, every layer an MoE layer of `experts` × (3 matrices, 2 ungated) × hidden ×
/// `moe_intermediate` in the model's dtype (a URL that gives `experts` but not `routed_gib`). A
/// geometry that comes to the weights or more (quantized experts, layers that are not all MoE)
/// says nothing of what a step leaves unread: 0, and the step reads every weight.
pub fn routed_bytes(model: &ModelSpec) -> u64 {
    let e = model.extras;
    if e.routed.0 > 0 {
        return e.routed.0.min(model.weights.0);
    }
    let matrices = if e.ungated_experts { 2 } else { 3 };
    let estimate = [
        model.layers,
        e.experts,
        matrices,
        e.hidden,
        e.moe_intermediate,
    ]
    .iter()
    .fold(model.dtype.bytes(), |a, &x| a.saturating_mul(x));
    if estimate < model.weights.0 {
        estimate
    } else {
        0
    }
}

/// The weight bytes a decode step of `n` sequences reads on one GPU of `tp` (experts split over
/// TP like the rest): all of them for a dense model; for an MoE, everything but the routed experts
/// and the share of those its tokens touch ([`experts_touched`]): `W − X × (1 − touched / E)`.
pub fn decode_weights(model: &ModelSpec, tp: u64, n: u64) -> f64 {
    let all = weights_per_gpu(model.weights, tp, 1).0 as f64;
    let Some(touched) = experts_touched(model, n) else {
        return all;
    };
    let routed = weights_per_gpu(Bytes(routed_bytes(model)), tp, 1).0 as f64;
    all - routed * (1.0 - touched / model.extras.experts as f64)
}

/// The bytes one sequence moves in a decode step at context `t` on one GPU of `tp`: the KV it
/// holds ([`bytes_per_sequence`]: a sliding-window layer reads at most its window, a chunked local
/// layer at most its chunk) and a hybrid's recurrent state, which is also written back.
pub fn decode_read_per_sequence(model: &ModelSpec, kv: KvDtype, tp: u64, t: u64) -> Result<Bytes> {
    let held = bytes_per_sequence(model, kv, tp, 1, t)?;
    held.0
        .checked_add(state_bytes_per_sequence(model, tp, 1).0)
        .map(Bytes)
        .ok_or(KvError::Overflow("bytes per sequence"))
}

/// Multiply–adds of one decode step per token, excluding attention over the context: the
/// projections and MLP of every layer (the routed experts' share for an MoE) and the LM head.
/// From the geometry: `hidden` defaults to `heads × head_dim`, a dense MLP of unknown width to
/// 3.5 × hidden (three gated matrices each). An estimate for the compute roof, not a weights count.
pub fn active_params(model: &ModelSpec) -> u64 {
    let e = model.extras;
    // Saturating throughout: a custom geometry may be as large as its fields allow.
    let q = model.attention_heads.saturating_mul(model.head_dim);
    let hidden = if e.hidden > 0 { e.hidden } else { q };
    let kv = match model.attention {
        Attention::Mla { latent, .. } => latent,
        _ => model
            .kv_heads
            .saturating_mul(model.head_dim)
            .saturating_mul(2),
    };
    let attention = hidden.saturating_mul(q.saturating_mul(2).saturating_add(kv));
    let dense = if e.intermediate > 0 || e.experts_per_token > 0 {
        e.intermediate
    } else {
        hidden.saturating_mul(7) / 2
    };
    let experts = e.experts_per_token.saturating_mul(e.moe_intermediate);
    let mlp = hidden
        .saturating_mul(3)
        .saturating_mul(dense.saturating_add(experts));
    model
        .layers
        .saturating_mul(attention.saturating_add(mlp))
        .saturating_add(hidden.saturating_mul(model.vocab.max(1)))
}

/// FLOPs to decode one token of a sequence at context `t`: 2 per multiply–add of the weights
/// ([`active_params`]) plus attention over the cached tokens, `2 × 2 × heads × head_dim × t` per
/// layer (QKᵀ and AV), sliding layers attending to at most their window.
pub fn decode_flops_per_token(model: &ModelSpec, t: u64) -> f64 {
    let per_layer = 4.0 * (model.attention_heads * model.head_dim) as f64;
    let attended = match model.attention {
        Attention::SlidingWindow { window, .. } => {
            model.full_layers() as f64 * t as f64
                + model.sliding_layers() as f64 * t.min(window) as f64
        }
        Attention::ChunkedLocal { chunk, .. } => {
            model.full_layers() as f64 * t as f64
                + model.local_layers() as f64 * t.min(chunk) as f64
        }
        _ => model.attention_layers() as f64 * t as f64,
    };
    2.0 * active_params(model) as f64 + per_layer * attended
}

/// The largest divisor of `n` that is at most `at_most` (1 when `at_most` is 0): a KV-head count
/// the heads split into evenly, a decode-context-parallel size a TP group splits into.
pub fn largest_divisor(n: u64, at_most: u64) -> u64 {
    (1..=at_most).rev().find(|d| n % d == 0).unwrap_or(1)
}

/// The vocabulary padded to 64 rows, as the parallel embedding divides it over TP (vLLM's
/// `VocabParallelEmbedding`, which SGLang's copies).
pub fn padded_vocab(model: &ModelSpec) -> u64 {
    model.vocab.div_ceil(64).saturating_mul(64)
}

/// Whether a layer's bare asserts pass at `tp` (vLLM's and SGLang's attention and MLP classes):
/// the KV heads split over TP or TP over them (MLA caches one latent: its KV heads do not count),
/// and a dense MLP's `intermediate_size` splits over TP.
pub fn layers_split(model: &ModelSpec, tp: u64) -> bool {
    let tp = tp.max(1);
    let kv = model.kv_heads.max(1);
    let kv_split = matches!(model.attention, Attention::Mla { .. }) || kv.max(tp) % kv.min(tp) == 0;
    kv_split && model.extras.intermediate % tp == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn active_params_saturate_for_the_largest_geometry_the_fields_allow() {
        // Every dimension at 2^20 (the fields' ceiling): the products exceed 2^64, and the
        // estimate saturates instead of overflowing.
        let big = 1 << 20;
        let mut m = crate::presets::MODELS[0].spec.clone();
        (m.layers, m.attention_heads, m.kv_heads, m.head_dim) = (big, big, big, big);
        m.extras.hidden = big;
        m.extras.intermediate = big;
        m.extras.experts_per_token = big;
        m.extras.moe_intermediate = big;
        assert_eq!(active_params(&m), u64::MAX);
        // Qwen3-8B's own: a few billion multiply-adds per token.
        let q = &crate::presets::model("Qwen/Qwen3-8B").unwrap().spec;
        assert!((5_000_000_000..10_000_000_000).contains(&active_params(q)));
    }

    #[test]
    fn pp_split_matches_vllm() {
        // 30 layers over 4 stages: 7 each, remainder 2 to stages [-2] and [-3] → [7, 8, 8, 7].
        assert_eq!(layers_per_stage(30, 4), vec![7, 8, 8, 7]);
        assert_eq!(layers_per_stage(36, 1), vec![36]);
        assert_eq!(layers_per_stage(40, 2), vec![20, 20]);
        // 27 layers over 2: 13 each, one extra to stage [-2] → [14, 13].
        assert_eq!(layers_per_stage(27, 2), vec![14, 13]);
    }

    #[test]
    fn qwen3_8b_decodes_with_about_eight_billion_multiply_adds() {
        // Qwen3-8B: hidden 4,096, 32 q heads × 128, 8 KV heads × 128, MLP 12,288, vocab 151,936.
        // Per layer: 4,096 × (2 × 4,096 + 2,048) + 3 × 4,096 × 12,288 = 41,943,040 + 150,994,944
        // = 192,937,984; × 36 = 6,945,767,424; + LM head 4,096 × 151,936 = 622,329,856
        // → 7,568,097,280 (the checkpoint's 8.2 B less the embedding table and norms).
        let m = crate::presets::model("Qwen/Qwen3-8B").unwrap().spec();
        assert_eq!(active_params(&m), 7_568_097_280);
        // At 8,192 tokens: 2 × 7,568,097,280 + 4 × 4,096 × 36 × 8,192 = 15,136,194,560 + 4,831,838,208.
        assert_eq!(decode_flops_per_token(&m, 8192), 19_968_032_768.0);
    }

    #[test]
    fn weights_split_over_every_gpu() {
        // ⌊15.27 × 2³⁰⌋ = 16,396,037,652 B over TP 2 × PP 2: ⌈16,396,037,652 / 4⌉ = 4,099,009,413 B.
        let w = Bytes(1527 * crate::units::GIB / 100);
        assert_eq!(w.0, 16_396_037_652);
        assert_eq!(weights_per_gpu(w, 2, 2), Bytes(4_099_009_413));
        assert_eq!(weights_per_gpu(w, 1, 1), w);
    }

    #[test]
    fn the_end_stages_hold_the_embeddings() {
        // Qwen3-8B: 36 layers, vocab 151,936 × hidden 4,096 × 2 B = 1,244,659,712 B per embedding.
        let m = crate::presets::model("Qwen/Qwen3-8B").unwrap().spec();
        let w = Bytes(16_396_037_652);
        let e = 151_936u64 * 4_096 * 2;
        assert_eq!(e, 1_244_659_712);
        // PP 2 (18 + 18 layers): each end holds half the body and one embedding = half the model,
        // ⌈16,396,037,652 / 2⌉ = 8,198,018,826 B, as the even split.
        assert_eq!(
            stage_weights_per_gpu(&m, w, 1, 2, true),
            Bytes(8_198_018_826)
        );
        // PP 4 (9 layers each): the body 16,396,037,652 − 2 × 1,244,659,712 = 13,906,718,228 B,
        // a quarter 3,476,679,557 B (rounded up) + one embedding = 4,721,339,269 B on the first
        // and last stages, against 4,099,009,413 B for an even split (+ half an embedding).
        assert_eq!(
            stage_weights_per_gpu(&m, w, 1, 4, true),
            Bytes(4_721_339_269)
        );
        // Over TP 2 as well: ⌈4,721,339,269 / 2⌉ = 2,360,669,635 B.
        assert_eq!(
            stage_weights_per_gpu(&m, w, 2, 4, true),
            Bytes(2_360_669_635)
        );
        // 30 layers over PP 4 are [7, 8, 8, 7]: the first stage holds ⌈13,906,718,228 × 7 / 30⌉ =
        // 3,244,900,920 B + the embedding = 4,489,560,632 B, a middle one ⌈… × 8 / 30⌉ =
        // 3,708,458,195 B; the first is the heavier.
        let mut m30 = m.clone();
        m30.layers = 30;
        assert_eq!(
            stage_weights_per_gpu(&m30, w, 1, 4, true),
            Bytes(4_489_560_632)
        );
        // With a hidden size of 1 the embedding is 303,872 B and the middle stage, one layer more,
        // is heavier: the body 16,395,429,908 B × 8 / 30 = 4,372,114,643 B (rounded up).
        m30.extras.hidden = 1;
        assert_eq!(
            stage_weights_per_gpu(&m30, w, 1, 4, true),
            Bytes(4_372_114_643)
        );
        // The inverse: the first stage's 4,721,339,269 B at PP 4 (9 of 36 layers) gives the body
        // (4,721,339,269 − 1,244,659,712) × 36 / 9 = 13,906,718,228 B, + 2 embeddings = the model.
        assert_eq!(whole_weights(&m, Bytes(4_721_339_269), 1, 4), w);
        // Over TP 2 the rounded-up half, 2,360,669,635 B × 2 = 4,721,339,270 B, is 1 B more, which
        // the inverse carries into the body 4 times: 16,396,037,656 B.
        assert_eq!(
            whole_weights(&m, Bytes(2_360_669_635), 2, 4),
            Bytes(16_396_037_656)
        );
        assert_eq!(whole_weights(&m, Bytes(1000), 2, 1), Bytes(2000));
        // Tied (the checkpoint counts the matrix once: the body is 16,396,037,652 − 1,244,659,712 =
        // 15,151,377,940 B), the first and last stages still build it: ⌈15,151,377,940 × 9 / 36⌉ =
        // 3,787,844,485 B + 1,244,659,712 B = 5,032,504,197 B; the inverse gives the model back.
        let mut tied = m.clone();
        tied.extras.embeddings = Embeddings::Tied;
        assert_eq!(
            stage_weights_per_gpu(&tied, w, 1, 4, true),
            Bytes(5_032_504_197)
        );
        assert_eq!(whole_weights(&tied, Bytes(5_032_504_197), 1, 4), w);
        // Gemma builds it on every stage: over 30 layers [7, 8, 8, 7] a middle stage is the
        // heaviest, ⌈15,151,377,940 × 8 / 30⌉ = 4,040,367,451 B + the embedding = 5,285,027,163 B.
        let mut every = m30.clone();
        every.extras.hidden = 4096;
        every.extras.embeddings = Embeddings::EveryStage;
        assert_eq!(
            stage_weights_per_gpu(&every, w, 1, 4, true),
            Bytes(5_285_027_163)
        );
        // PP 1, or a model without its hidden size: the even split.
        assert_eq!(
            stage_weights_per_gpu(&m, w, 2, 1, true),
            weights_per_gpu(w, 2, 1)
        );
        let mut bare = m.clone();
        bare.extras.hidden = 0;
        assert_eq!(
            stage_weights_per_gpu(&bare, w, 1, 4, true),
            weights_per_gpu(w, 1, 4)
        );
    }
}
