//! The derivations that depend on the layer kinds: bytes per token (full, MLA with its indexer, a
//! hybrid's attention layers only), a hybrid's fixed state, and the bytes of one sequence with
//! windows, chunks and state; then how vLLM's blocks hold the sequences (groups, the raised block
//! size, blocks per request) and what its token line means for such models.

use super::both;
use crate::calc::Outcome;
use crate::capacity;
use crate::model::{Attention, ModelSpec, StateKind};
use crate::scenario::PageScenario;
use crate::units::thousands;
use crate::vllm::{self, Family, MambaMode};

/// Attention layers on the GPU that sets the cache size, with the words that say which.
fn attention_layers_text(s: &PageScenario, m: &ModelSpec) -> String {
    let n = capacity::stage_share(m.attention_layers(), m.layers, s.pp);
    let mut t = if s.pp > 1 {
        format!(
            "{n} layers (of {}, the largest of {} pipeline stages)",
            m.attention_layers(),
            s.pp
        )
    } else {
        format!("{n} layers")
    };
    if let Some(st) = m.state {
        t = format!(
            "{n} attention layers (the {} {} layers keep no per-token cache)",
            st.layers,
            st.kind.name()
        );
    }
    t
}

/// "KV per token": `2 × L × H_kv × d_h × b`, MLA's latent, or MLA with the V3.2 indexer.
pub(super) fn kv_per_token(s: &PageScenario, o: &Outcome) -> String {
    let m = &o.model;
    let b = s.kv.bytes(m.dtype);
    let dtype = s.kv.label(m.dtype);
    let bpt = o.chosen.bytes_per_token.0;
    let layers = attention_layers_text(s, m);
    match m.attention {
        Attention::Mla { latent, indexer } if indexer > 0 => {
            let per_layer = capacity::bytes_per_token_per_layer(m, s.kv, s.tp).unwrap_or(0);
            let index = indexer + indexer.div_ceil(128) * 4;
            let latent_text = if b == 1 {
                format!(
                    "{} B fp8_ds_mla latent (the {} FP8 latent, 4-byte scales, the rope part in BF16)",
                    per_layer - index,
                    latent.saturating_sub(64)
                )
            } else {
                format!("{latent} × {b} B latent")
            };
            format!(
                "{layers} × ({latent_text} + {index} B indexer key: {indexer} FP8 and a 4-byte scale per 128) = {} per token",
                both(bpt)
            )
        }
        Attention::Mla { latent, .. } => format!(
            "{layers} × {latent} latent (one per layer, no separate K and V) × {b} B for {dtype} = {} per token",
            both(bpt)
        ),
        _ => {
            let heads_gpu = (m.kv_heads / s.tp).max(1);
            let heads = if s.tp > 1 {
                format!("({} KV heads / TP {} = {heads_gpu} per GPU)", m.kv_heads, s.tp)
            } else {
                format!("{} KV heads", m.kv_heads)
            };
            format!(
                "2 (K and V) × {layers} × {heads} × {} head_dim × {b} B for {dtype} = {} per token",
                m.head_dim,
                both(bpt)
            )
        }
    }
}

/// "state per sequence": a hybrid's convolution and temporal state, whatever the context.
pub(super) fn state_per_sequence(s: &PageScenario, o: &Outcome) -> Option<String> {
    let m = &o.model;
    let st = m.state?;
    let tp = s.tp.max(1);
    let conv_dt = st.conv_dtype.unwrap_or(m.dtype);
    let ssm_dt = st.ssm_dtype.or(st.conv_dtype).unwrap_or(m.dtype);
    let channels = match st.kind {
        StateKind::Mamba2 => format!(
            "{} heads × {} + 2 × {} groups × {} state",
            st.heads, st.head_dim, st.groups, st.state_dim
        ),
        StateKind::GatedDeltaNet => format!(
            "2 × {} key heads × {} + {} value heads × {}",
            st.groups, st.state_dim, st.heads, st.head_dim
        ),
    };
    let per_tp = if tp > 1 {
        format!(" / TP {tp}")
    } else {
        String::new()
    };
    let layers = capacity::stage_share(st.layers, m.layers, s.pp);
    Some(format!(
        "{layers} {} layers × (convolution ({channels}){per_tp} × ({} − 1) × {} B ({}) = {} B + temporal state {}{per_tp} × {} × {} × {} B ({}) = {} B) = {}, whatever the context",
        st.kind.name(),
        st.conv_kernel,
        conv_dt.bytes(),
        conv_dt.short(),
        thousands(st.conv_bytes(m.dtype, tp, 0)),
        st.heads,
        st.head_dim,
        st.state_dim,
        ssm_dt.bytes(),
        ssm_dt.short(),
        thousands(st.ssm_bytes(m.dtype, tp)),
        both(capacity::state_bytes_per_sequence(m, tp, s.pp).0)
    ))
}

/// "KV per sequence": the context on full layers, at most a window or chunk on the others, and a
/// hybrid's state.
pub(super) fn kv_per_sequence(s: &PageScenario, o: &Outcome) -> String {
    let m = &o.model;
    let c = o.context;
    let total = both(o.chosen.bytes_per_sequence.0);
    let per_layer = capacity::bytes_per_token_per_layer(m, s.kv, s.tp).unwrap_or(0);
    let share = |n: u64| capacity::stage_share(n, m.layers, s.pp);
    let windowed = match m.attention {
        Attention::SlidingWindow { window, .. } => Some((m.sliding_layers(), window, "sliding")),
        Attention::ChunkedLocal { chunk, .. } => Some((m.local_layers(), chunk, "local")),
        _ => None,
    };
    let state = capacity::state_bytes_per_sequence(m, s.tp, s.pp);
    let state_text = if state.0 > 0 {
        format!(" + {} B state", thousands(state.0))
    } else {
        String::new()
    };
    match windowed {
        Some((n, w, what)) => {
            let n = share(n).min(share(m.attention_layers()));
            let full = share(m.attention_layers()) - n;
            format!(
                "({full} full layers × {} tokens + {n} {what} layers × min({}, {}) tokens) × {} B{state_text} = {total}",
                thousands(c),
                thousands(c),
                thousands(w),
                thousands(per_layer)
            )
        }
        None => format!(
            "{} × {} B{state_text} = {total}",
            thousands(c),
            thousands(o.chosen.bytes_per_token.0)
        ),
    }
}

/// How vLLM's blocks hold the sequences: the raised block size, the groups, the blocks one
/// sequence takes, and — where layers of several kinds share the blocks — what the printed
/// "GPU KV cache size" is.
pub(super) fn vllm_blocks(s: &PageScenario, o: &Outcome) -> Vec<(&'static str, String)> {
    let chosen = &o.chosen;
    let r = &chosen.report;
    let Some(blocks) = r.num_gpu_blocks else {
        return Vec::new();
    };
    let m = &o.model;
    let bs = r.block_size;
    let mut d: Vec<(&'static str, String)> = Vec::new();
    if let Some(a) = r.mamba {
        let per_token = r.page_bytes / bs.max(1);
        d.push((
            "block size",
            match a.raised_to {
                Some(b) => format!(
                    "vLLM raises the attention block to {b} tokens so that one attention page, {b} × {} B = {} B, holds one layer's state of {} B{}",
                    thousands(per_token),
                    thousands(r.page_bytes),
                    thousands(a.state_page),
                    a.padding_pct
                        .map(|p| format!(" (the state page padded by {p:.2} %)"))
                        .unwrap_or_default()
                ),
                None => format!(
                    "{bs} tokens: one attention page, {} B, already holds one layer's state of {} B",
                    thousands(r.page_bytes),
                    thousands(a.state_page)
                ),
            },
        ));
    }
    let per_block = format!(
        "{} B per block ({} B per layer × {} layers sharing it)",
        thousands(r.block_bytes),
        thousands(r.page_bytes),
        r.block_bytes / r.page_bytes.max(1)
    );
    if let Some(g) = r.groups {
        let kinds: Vec<String> = [
            (g.full_groups, "full-attention"),
            (g.sliding_groups, "sliding-window"),
            (g.local_groups, "chunked-local"),
            (g.state_groups, m.state.map_or("state", |st| st.kind.name())),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        d.push((
            "layer groups",
            format!(
                "vLLM's hybrid allocator cuts the layers into groups of {}: {} groups{}; one block spans one layer of each group's position, so the pool divides by {}",
                g.group_size,
                kinds.join(" + "),
                if g.padding_layers > 0 {
                    format!(" ({} padding layers)", g.padding_layers)
                } else {
                    String::new()
                },
                per_block
            ),
        ));
    }
    // Blocks one sequence of the context takes, per kind of group.
    let per_req = chosen.blocks_per_sequence;
    // With decode context parallelism each rank keeps every dcp-th token.
    let dcp = s.knobs.dcp.max(1);
    let tokens_text = if dcp > 1 {
        format!("⌈{} / {dcp} ranks⌉", thousands(o.context))
    } else {
        thousands(o.context)
    };
    let full = o.context.div_ceil(dcp).div_ceil(bs.max(1));
    let takes = match r.groups {
        Some(g) => {
            // A state group keeps its fixed blocks, and one per block of context in `all` mode.
            let state_each = r.state_blocks
                + if r.mamba_mode == MambaMode::All {
                    full
                } else {
                    0
                };
            let others = per_req
                .saturating_sub(g.full_groups * full)
                .saturating_sub(g.state_groups * state_each);
            let mut parts = vec![format!(
                "⌈{tokens_text} / {bs}⌉ = {} per full-attention group ({})",
                thousands(full),
                g.full_groups
            )];
            if g.sliding_groups + g.local_groups > 0 {
                parts.push(format!(
                    "{} for the window or chunk groups ({}) together (their tokens plus the scheduler's {} in flight, capped at the context)",
                    thousands(others),
                    g.sliding_groups + g.local_groups,
                    thousands(r.max_num_batched_tokens)
                ));
            }
            if g.state_groups > 0 {
                parts.push(format!(
                    "{state_each} per state group ({}, {})",
                    g.state_groups,
                    match r.mamba_mode {
                        MambaMode::None => "the running state",
                        MambaMode::Align =>
                            "the running state and the last aligned prefix's (prefix caching)",
                        MambaMode::All => "one state per block (prefix caching)",
                    }
                ));
            }
            format!("{}: {} blocks", parts.join(", "), thousands(per_req))
        }
        None if per_req == full => {
            format!("⌈{tokens_text} / {bs}⌉ = {} blocks", thousands(per_req))
        }
        // Every layer slides, or keeps only a state: fewer blocks than the whole context.
        None => format!(
            "{} blocks (its window or state, not the whole context)",
            thousands(per_req)
        ),
    };
    d.push((
        "sequences (vLLM)",
        format!(
            "{} B // {per_block} = {} whole blocks; a sequence of {} tokens takes {takes}, so ⌊{} / {}⌋ = {} sequences",
            thousands(chosen.pool.max(0) as u64),
            thousands(blocks),
            thousands(o.context),
            thousands(blocks),
            thousands(per_req),
            chosen.vllm_max
        ),
    ));
    if r.groups.is_some() || m.state.is_some() {
        if let Some(tokens) = r.gpu_kv_cache_tokens {
            let formula = match vllm::family(s.version, s.version.default_engine()) {
                Family::V1Mid => format!(
                    "{} blocks // {} groups × {}",
                    thousands(blocks),
                    r.num_groups,
                    r.token_block()
                ),
                _ => format!(
                    "int({:.4} concurrency × {} max_model_len)",
                    r.max_concurrency.unwrap_or(0.0),
                    thousands(r.max_model_len)
                ),
            };
            d.push((
                "GPU KV cache size",
                format!(
                    "vLLM prints {} tokens = {formula}: a derived number, not a capacity — with layers of several kinds no sequence can hold that many; {} sequences of {} tokens fit ({} tokens in flight)",
                    thousands(tokens),
                    chosen.vllm_max,
                    thousands(o.context),
                    thousands(chosen.vllm_max.saturating_mul(o.context))
                ),
            ));
        }
    }
    d
}
