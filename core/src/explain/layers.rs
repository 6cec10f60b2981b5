//! The derivations that depend on the layer kinds: bytes per token (full, MLA with its indexer, a
//! hybrid's attention layers only), a hybrid's fixed state, and the bytes of one sequence with
//! windows, chunks and state; then how vLLM's blocks hold the sequences (groups, the raised block
//! size, blocks per request) and what its token line means for such models.

use super::both;
use crate::calc::Outcome;
use crate::capacity;
use crate::i18n::en;
use crate::model::{Attention, ModelSpec, StateKind};
use crate::scenario::PageScenario;
use crate::units::thousands;
use crate::vllm::{self, Family, MambaMode};
use crate::{t, tf};

/// Attention layers on the GPU that sets the cache size, with the words that say which.
fn attention_layers_text(s: &PageScenario, m: &ModelSpec) -> String {
    let n = capacity::stage_share(m.attention_layers(), m.layers, s.pp);
    let mut text = if s.pp > 1 {
        tf!(EX_LAYERS_PP, n, m.attention_layers(), s.pp)
    } else {
        super::layers(n)
    };
    if let Some(st) = m.state {
        text = tf!(EX_LAYERS_HYBRID, n, st.layers, st.kind.name());
    }
    text
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
                tf!(EX_DS_MLA, per_layer - index, latent.saturating_sub(64))
            } else {
                tf!(EX_LATENT, latent, b)
            };
            tf!(
                EX_MLA_INDEXER,
                layers,
                latent_text,
                index,
                indexer,
                both(bpt)
            )
        }
        Attention::Mla { latent, .. } => tf!(EX_MLA, layers, latent, b, dtype, both(bpt)),
        _ if m.split_kv() => split_per_token(s, m, b, &dtype, bpt),
        _ => {
            tf!(
                EX_KV_PER_TOKEN,
                layers,
                heads_text(m.kv_heads, s.tp),
                m.head_dim,
                b,
                dtype,
                both(bpt)
            )
        }
    }
}

/// Heads on one GPU, with the TP split spelled out when there is one.
fn heads_text(heads: u64, tp: u64) -> String {
    if tp > 1 {
        tf!(EX_HEADS_TP, heads, tp, (heads / tp).max(1))
    } else {
        tf!(EX_HEADS, heads)
    }
}

/// "KV per token" of Gemma 4: the sliding and the full layers with a cache, each at its own
/// shape, and the layers that keep none.
fn split_per_token(s: &PageScenario, m: &ModelSpec, b: u64, dtype: &str, bpt: u64) -> String {
    let (full, sliding) = capacity::cached_layers(m, s.pp);
    let f = m.full_shape();
    let shared = m.kv_shared().total();
    let shared_text = if shared > 0 {
        tf!(EX_SHARED_LAYERS, shared)
    } else {
        String::new()
    };
    tf!(
        EX_KV_PER_TOKEN_SPLIT,
        sliding,
        heads_text(m.kv_heads, s.tp),
        m.head_dim,
        full,
        heads_text(f.kv_heads, s.tp),
        f.head_dim,
        b,
        dtype,
        shared_text,
        both(bpt)
    )
}

/// "state per sequence": a hybrid's convolution and temporal state, whatever the context.
pub(super) fn state_per_sequence(s: &PageScenario, o: &Outcome) -> Option<String> {
    let m = &o.model;
    let st = m.state?;
    let tp = s.tp.max(1);
    let conv_dt = st.conv_dtype.unwrap_or(m.dtype);
    let ssm_dt = st.ssm_dtype.or(st.conv_dtype).unwrap_or(m.dtype);
    let channels = match st.kind {
        StateKind::Mamba2 => tf!(
            EX_MAMBA_CHANNELS,
            st.heads,
            st.head_dim,
            st.groups,
            st.state_dim
        ),
        StateKind::GatedDeltaNet => tf!(
            EX_GDN_CHANNELS,
            st.groups,
            st.state_dim,
            st.heads,
            st.head_dim
        ),
    };
    let per_tp = if tp > 1 {
        format!(" / TP {tp}")
    } else {
        String::new()
    };
    let layers = capacity::stage_share(st.layers, m.layers, s.pp);
    Some(tf!(
        EX_STATE,
        layers,
        st.kind.name(),
        channels,
        per_tp,
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
        Attention::SlidingWindow { window, .. } => {
            Some((m.sliding_layers(), window, t!(EX_SLIDING)))
        }
        Attention::ChunkedLocal { chunk, .. } => Some((m.local_layers(), chunk, t!(EX_LOCAL))),
        _ => None,
    };
    let state = capacity::state_bytes_per_sequence(m, s.tp, s.pp);
    let state_text = if state.0 > 0 {
        tf!(EX_STATE_PLUS, thousands(state.0))
    } else {
        String::new()
    };
    match windowed {
        Some((_, w, _)) if m.split_kv() => {
            let (full, sliding) = capacity::cached_layers(m, s.pp);
            tf!(
                EX_KV_PER_SEQ_SPLIT,
                full,
                thousands(c),
                thousands(capacity::bytes_per_token_full_layer(m, s.kv, s.tp).unwrap_or(0)),
                sliding,
                thousands(c),
                thousands(w),
                thousands(per_layer),
                total
            )
        }
        Some((n, w, what)) => {
            let n = share(n).min(share(m.attention_layers()));
            let full = share(m.attention_layers()) - n;
            tf!(
                EX_KV_PER_SEQ_WINDOWED,
                full,
                thousands(c),
                n,
                what,
                thousands(c),
                thousands(w),
                thousands(per_layer),
                state_text,
                total
            )
        }
        None => tf!(
            EX_KV_PER_SEQ,
            thousands(c),
            thousands(o.chosen.bytes_per_token.0),
            state_text,
            total
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
            en::EX_TERM_BLOCK_SIZE,
            match a.raised_to {
                Some(b) => tf!(
                    EX_BLOCK_RAISED,
                    b,
                    thousands(per_token),
                    thousands(r.page_bytes),
                    thousands(a.state_page),
                    a.padding_pct
                        .map(|p| tf!(EX_BLOCK_PADDED, crate::floatfmt::fixed(p, 2)))
                        .unwrap_or_default()
                ),
                None => tf!(
                    EX_BLOCK_HOLDS,
                    bs,
                    thousands(r.page_bytes),
                    thousands(a.state_page)
                ),
            },
        ));
    }
    // Gemma 4: the kind with the smaller page holds more tokens per block.
    if r.block_scale != [1, 1] {
        let (raised, kind, other) = if r.block_scale[0] > 1 {
            (r.block_scale[0], t!(EX_KIND_FULL), t!(EX_KIND_SLIDING))
        } else {
            (r.block_scale[1], t!(EX_KIND_SLIDING), t!(EX_KIND_FULL))
        };
        d.push((
            en::EX_TERM_BLOCK_SIZE,
            tf!(
                EX_BLOCK_UNIFIED,
                other,
                bs,
                thousands(r.page_bytes),
                kind,
                thousands(r.page_bytes / raised),
                bs * raised
            ),
        ));
    }
    let per_block = tf!(
        EX_PER_BLOCK,
        thousands(r.block_bytes),
        thousands(r.page_bytes),
        super::layers(r.block_bytes / r.page_bytes.max(1))
    );
    if let Some(g) = r.groups {
        let kinds: Vec<String> = [
            (g.full_groups, t!(EX_KIND_FULL)),
            (g.sliding_groups, t!(EX_KIND_SLIDING)),
            (g.local_groups, t!(EX_KIND_LOCAL)),
            (
                g.state_groups,
                m.state.map_or(t!(EX_KIND_STATE), |st| st.kind.name()),
            ),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| tf!(EX_KIND_COUNT, n, what))
        .collect();
        d.push((
            en::EX_TERM_GROUPS,
            tf!(
                EX_GROUPS,
                g.group_size,
                kinds.join(" + "),
                if g.padding_layers > 0 {
                    if g.padding_layers == 1 {
                        t!(EX_GROUPS_PADDING_ONE).into()
                    } else {
                        tf!(EX_GROUPS_PADDING, g.padding_layers)
                    }
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
        tf!(EX_DCP_TOKENS, thousands(o.context), dcp)
    } else {
        thousands(o.context)
    };
    let full_block = bs.max(1) * r.block_scale[0];
    let full = o.context.div_ceil(dcp).div_ceil(full_block);
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
            let mut parts = vec![tf!(
                EX_TAKES_FULL,
                tokens_text,
                full_block,
                thousands(full),
                g.full_groups
            )];
            if g.sliding_groups + g.local_groups > 0 {
                parts.push(tf!(
                    EX_TAKES_WINDOWS,
                    thousands(others),
                    g.sliding_groups + g.local_groups,
                    thousands(vllm::layout::lookahead(s.version, r.max_num_batched_tokens))
                ));
            }
            if g.state_groups > 0 {
                parts.push(tf!(
                    EX_TAKES_STATE,
                    state_each,
                    g.state_groups,
                    match r.mamba_mode {
                        MambaMode::None => t!(EX_MODE_NONE),
                        MambaMode::Align => t!(EX_MODE_ALIGN),
                        MambaMode::All => t!(EX_MODE_ALL),
                    }
                ));
            }
            tf!(
                EX_TAKES_GROUPS,
                parts.join(t!(LIST_COMMA)),
                thousands(per_req)
            )
        }
        None if per_req == full && per_req == 1 => tf!(EX_TAKES_ONE, tokens_text, bs),
        None if per_req == full => tf!(EX_TAKES, tokens_text, bs, thousands(per_req)),
        // Every layer slides, or keeps only a state: fewer blocks than the whole context.
        None => tf!(EX_TAKES_WINDOW_ONLY, thousands(per_req)),
    };
    d.push((
        en::EX_TERM_VLLM_SEQS,
        tf!(
            EX_VLLM_SEQS,
            thousands(chosen.pool.max(0) as u64),
            per_block,
            thousands(blocks),
            thousands(o.context),
            takes,
            thousands(per_req),
            super::sequences(chosen.vllm_max)
        ),
    ));
    if r.groups.is_some() || m.state.is_some() {
        if let Some(tokens) = r.gpu_kv_cache_tokens {
            let formula = match vllm::family(s.version, s.version.engine_on(s.gpu.arch())) {
                Family::V1Mid => tf!(
                    EX_TOKEN_FORMULA_MID,
                    thousands(blocks),
                    r.num_groups,
                    r.token_block()
                ),
                _ => tf!(
                    EX_TOKEN_FORMULA,
                    crate::floatfmt::fixed(r.max_concurrency.unwrap_or(0.0), 4),
                    thousands(r.max_model_len)
                ),
            };
            d.push((
                en::EX_TERM_TOKEN_LINE,
                tf!(
                    EX_TOKEN_LINE,
                    thousands(tokens),
                    formula,
                    super::sequences(chosen.vllm_max),
                    thousands(o.context),
                    thousands(chosen.vllm_max.saturating_mul(o.context))
                ),
            ));
        }
    }
    d
}
