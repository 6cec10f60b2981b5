//! The settings vLLM runs with once its defaults apply, and how the layers of the largest
//! pipeline stage share KV blocks: pages, hybrid groups with their padding, and the blocks one
//! request needs (VLLM-ACCOUNTING §0, §3).

use super::mamba::{self, MambaAlign, MambaMode};
use super::report::{Groups, Scenario};
use super::version::{default_max_num_seqs, family, serve_defaults, Family, Version};
use super::version::{
    CHUNKED_LOCAL_HYBRID, DECODE_CONTEXT_PARALLEL, FIT_CHECK_ALL_GROUPS, FIT_CHECK_BY_GROUPS,
    GROUPS_UP_TO_1_25, GROUPS_UP_TO_1_5, MM_ITEM_BATCH, QWEN35_MODELS, SPLIT_KV_MODELS,
    TWO_STEPS_IN_FLIGHT,
};
use crate::capacity;
use crate::error::{check_range, KvError, Result};
use crate::model::{Attention, StateFamily};
use crate::presets::Arch;
use crate::units::{thousands, Bytes};

fn ceil_div(a: u64, b: u64) -> u64 {
    a.div_ceil(b.max(1))
}

/// The settings in force once vLLM's defaults are applied.
#[derive(Clone, Copy, Debug)]
pub(super) struct Resolved {
    pub(super) family: Family,
    pub(super) block_size: u64,
    pub(super) max_model_len: u64,
    pub(super) max_num_seqs: u64,
    pub(super) max_num_batched_tokens: u64,
    /// A hybrid's state page and the block size raise.
    pub(super) mamba: Option<MambaAlign>,
    pub(super) mamba_mode: MambaMode,
}

/// Validates the scenario and applies vLLM's defaults.
pub(super) fn resolve(s: &Scenario) -> Result<Resolved> {
    s.model.validate()?;
    check_range(
        "tensor-parallel size",
        s.tp,
        1,
        1024,
        "a whole number from 1 to 1,024",
    )?;
    check_range(
        "pipeline-parallel size",
        s.pp,
        1,
        1024,
        "a whole number from 1 to 1,024",
    )?;
    crate::capacity::check_stages("pipeline-parallel size", s.pp, s.model.layers)?;
    // Model classes newer than the release: Gemma 4's layers (full ones of their own shape,
    // layers sharing a cache) and Qwen3.5's.
    let qwen35 = s
        .model
        .state
        .is_some_and(|st| st.family == StateFamily::Qwen35);
    let first = match () {
        _ if s.model.split_kv() && s.version < SPLIT_KV_MODELS => {
            Some((crate::t!(VL_SPLIT_KV).to_string(), SPLIT_KV_MODELS))
        }
        _ if qwen35 && s.version < QWEN35_MODELS => Some(("Qwen3.5".into(), QWEN35_MODELS)),
        _ => None,
    };
    if let Some((what, since)) = first {
        return Err(KvError::Unsupported(crate::tf!(
            VL_MODEL_FIRST,
            s.version,
            what,
            since
        )));
    }
    let fam = family(s.version, s.engine);
    let is_mla = matches!(s.model.attention, Attention::Mla { .. });
    // Sparse MLA (an indexer) runs on FlashMLA-sparse, whose block is 64 on every GPU.
    let sparse_mla = matches!(s.model.attention, Attention::Mla { indexer, .. } if indexer > 0);
    let block_size = match s.block_size {
        Some(b) => check_range(
            "block size",
            b,
            1,
            1 << 20,
            "a whole number of tokens from 1 to 1,048,576",
        )?,
        None if sparse_mla && fam != Family::V0 => 64,
        None if is_mla && s.arch == Arch::Hopper && fam != Family::V0 => 64,
        None => 16,
    };
    let max_model_len = match s.max_model_len {
        Some(l) => check_range(
            "max_model_len",
            l,
            1,
            1 << 40,
            "a whole number of tokens from 1 to 2^40",
        )?,
        None if s.model.max_position > 0 => s.model.max_position,
        None => {
            return Err(KvError::Invalid {
                field: "max_model_len",
                message: crate::t!(ERR_NEED_LEN).into(),
            })
        }
    };
    let def_mnbt = serve_defaults(s.version, fam, s.arch, s.gpu_total).1;
    // A prefix-LM's largest multimodal item is scheduled whole: vLLM raises the default to it
    // ("Raising max_num_batched_tokens …", `_set_default_max_num_seqs_and_batched_tokens_args`,
    // engine/arg_utils.py, from 0.22).
    let def_mnbt = if s.version >= MM_ITEM_BATCH {
        def_mnbt.max(s.model.extras.mm_item_tokens)
    } else {
        def_mnbt
    };
    let given_seqs = match s.max_num_seqs {
        Some(n) => Some(check_range(
            "max_num_seqs",
            n,
            1,
            1 << 32,
            "a whole number from 1 to 2^32",
        )?),
        None => None,
    };
    let max_num_batched_tokens = match s.max_num_batched_tokens {
        Some(n) => check_range(
            "max_num_batched_tokens",
            n,
            1,
            1 << 40,
            "a whole number from 1 to 2^40",
        )?,
        None => def_mnbt,
    };
    let max_num_seqs = given_seqs.unwrap_or_else(|| {
        default_max_num_seqs(
            s.version,
            fam,
            s.arch,
            s.gpu_total,
            Some(max_num_batched_tokens),
        )
    });
    let mamba_mode = mamba::mode(s);
    let (block_size, mamba) = match mamba::align(s, block_size, mamba_mode)? {
        Some((b, m)) => (b, Some(m)),
        None => (block_size, None),
    };
    Ok(Resolved {
        family: fam,
        block_size,
        max_model_len,
        max_num_seqs,
        max_num_batched_tokens,
        mamba,
        mamba_mode,
    })
}

/// How the layers of the largest stage share blocks, and what one request needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// Bytes of one block on one layer (every kind's page is the same once a hybrid's state
    /// page is padded).
    pub(super) page_bytes: u64,
    /// How many times the block holds the scenario's block size of tokens on the full and on
    /// the sliding layers: 1, or 2 on the kind with the smaller page of a model whose full layers
    /// have a shape of their own (Gemma 4).
    pub(super) scale: [u64; 2],
    /// Layers with a cache on the largest stage (attention and state).
    pub(super) stage_layers: u64,
    pub(super) bytes_per_token: Bytes,
    /// Layers of each kind as the version treats them on the largest stage.
    pub(super) kinds: Kinds,
    /// Scheduled tokens a sliding or local layer keeps beyond its window.
    pub(super) lookahead: u64,
    /// Blocks a state layer holds per request (plus `⌈len / block⌉` when `state_grows`).
    pub(super) state_blocks: u64,
    pub(super) state_grows: bool,
    /// Attention layers registered before state layers (Falcon-H1): group 0 is attention's.
    pub(super) attention_first: bool,
    /// Decode context parallelism: the ranks a request's tokens are spread over (1: none).
    pub(super) dcp: u64,
    pub(super) groups: Option<Groups>,
    /// Layers that share one block (the divisor of the pool).
    pub(super) slots_per_block: u64,
    pub(super) num_groups: u64,
    pub(super) blocks_per_request: u64,
}

/// Layers of each kind on the largest stage.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Kinds {
    pub(super) full: u64,
    pub(super) sliding: u64,
    pub(super) window: u64,
    pub(super) local: u64,
    pub(super) chunk: u64,
    pub(super) state: u64,
}

impl Layout {
    pub(super) fn of(s: &Scenario, r: &Resolved) -> Result<Layout> {
        let per_layer_token = capacity::bytes_per_token_per_layer(&s.model, s.kv_dtype, s.tp)?;
        let page_bytes = match (s.model.attention_layers(), r.mamba) {
            (0, Some(m)) => m.state_page,
            _ => per_layer_token
                .checked_mul(r.block_size)
                .ok_or(KvError::Overflow("block size in bytes"))?,
        };
        let m = &s.model;
        let share = |n: u64| capacity::stage_share(n, m.layers, s.pp);
        let state = share(m.state_layers());
        // Layers that read another layer's cache keep none (Gemma 4's KV sharing).
        let (cached_full, cached_windowed) = capacity::cached_layers(m, s.pp);
        let attention = cached_full + cached_windowed;
        let stage_layers = attention + state;
        let bytes_per_token = capacity::bytes_per_token(m, s.kv_dtype, s.tp, s.pp)?;

        let mut k = Kinds {
            state,
            ..Kinds::default()
        };
        match m.attention {
            Attention::SlidingWindow { window, .. } => {
                k.sliding = cached_windowed;
                k.window = window;
            }
            Attention::ChunkedLocal { chunk, .. } => {
                k.local = cached_windowed;
                k.chunk = chunk;
            }
            _ => {}
        }
        k.full = cached_full;
        let hybrid_allocator = !matches!(r.family, Family::V0 | Family::V1Early);
        if (k.sliding > 0 && k.full > 0 && !hybrid_allocator) || r.family == Family::V0 {
            // V0 and V1 before 0.10 size a mix of sliding and full layers for the whole context;
            // a model that only slides keeps its window.
            k.full += k.sliding;
            k.sliding = 0;
        }
        // Chunked local attention keeps the hybrid allocator off unless
        // VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE is set, "0" up to 0.13 and "1" from
        // 0.14 (vllm/envs.py): without it local layers are full-attention layers.
        if k.local > 0 && (!hybrid_allocator || s.version < CHUNKED_LOCAL_HYBRID) {
            k.full += k.local;
            k.local = 0;
        }
        // Full layers of their own shape (Gemma 4): vLLM makes every page the largest by raising
        // the block of the kinds with a smaller page (`unify_kv_cache_spec_page_size`,
        // v1/core/kv_cache_utils.py 0.19–0.34).
        let (page_bytes, scale) = if m.split_kv() && k.full > 0 && k.sliding > 0 {
            let full = capacity::bytes_per_token_full_layer(m, s.kv_dtype, s.tp)?
                .checked_mul(r.block_size)
                .ok_or(KvError::Overflow("block size in bytes"))?;
            let page = full.max(page_bytes);
            if page % full != 0 || page % page_bytes != 0 {
                return Err(KvError::Unsupported(crate::tf!(
                    VL_PAGES_UNEVEN,
                    thousands(page_bytes),
                    thousands(full)
                )));
            }
            (page, [page / full, page / page_bytes])
        } else {
            (page_bytes, [1, 1])
        };
        let lookahead = lookahead(s.version, r.max_num_batched_tokens);
        let (state_blocks, state_grows) = mamba::state_blocks(s, r.mamba_mode);
        let mut layout = Layout {
            page_bytes,
            scale,
            stage_layers,
            bytes_per_token,
            kinds: k,
            lookahead,
            state_blocks,
            state_grows,
            attention_first: m
                .state
                .is_some_and(|st| st.family == crate::model::StateFamily::FalconH1),
            dcp: if s.version >= DECODE_CONTEXT_PARALLEL {
                s.knobs.dcp.max(1)
            } else {
                1
            },
            groups: groups(&k, s.version),
            slots_per_block: stage_layers,
            num_groups: 1,
            blocks_per_request: 0,
        };
        let per_kind = layout.blocks_per_kind(r.max_model_len, r.block_size);
        (
            layout.slots_per_block,
            layout.num_groups,
            layout.blocks_per_request,
        ) = match layout.groups {
            Some(g) => {
                let counts = g.counts();
                (
                    g.group_size,
                    counts.iter().sum(),
                    counts.iter().zip(per_kind).map(|(c, b)| c * b).sum(),
                )
            }
            None => {
                // One kind: every layer shares the block.
                let i = [k.full, k.sliding, k.local, k.state]
                    .iter()
                    .position(|&n| n > 0)
                    .unwrap_or(0);
                (stage_layers.max(1), 1, per_kind[i])
            }
        };
        Ok(layout)
    }

    /// Blocks one request of `len` tokens holds on one layer of each kind: full, sliding,
    /// chunked local, state (`max_memory_usage_bytes` of each spec, v1/kv_cache_interface.py).
    fn blocks_per_kind(&self, len: u64, block_size: u64) -> [u64; 4] {
        let k = &self.kinds;
        let sliding = ceil_div(
            k.window
                .saturating_sub(1)
                .saturating_add(self.lookahead)
                .min(len),
            block_size.saturating_mul(self.scale[1]),
        ) + 1;
        let local = ceil_div(k.chunk.saturating_add(self.lookahead).min(len), block_size);
        let full = ceil_div(
            ceil_div(len, self.dcp),
            block_size.saturating_mul(self.scale[0]),
        );
        let state = self.state_blocks + if self.state_grows { full } else { 0 };
        [full, sliding, local, state]
    }

    /// KV bytes one request of `len` tokens needs as release `v`'s fit check counts them
    /// (`check_enough_kv_cache_memory`, v1/core/kv_cache_utils.py): every layer's own blocks up
    /// to 0.13; with groups, 0.14–0.18 count only group 0's blocks (the kind of layer 0: the
    /// state, sliding or local layers in every hybrid family) for a whole group of layers, and
    /// 0.19+ every group's blocks over a group's layers (padding layers included).
    pub(super) fn needed_by(&self, len: u64, block_size: u64, v: Version) -> u128 {
        let Some(g) = self.groups.filter(|_| v >= FIT_CHECK_BY_GROUPS) else {
            return self.needed_for(len, block_size);
        };
        let per_kind = self.blocks_per_kind(len, block_size);
        let counts = g.counts();
        let blocks: u128 = if v < FIT_CHECK_ALL_GROUPS {
            // Group 0: the kind of layer 0 — the state, sliding or local layers in every family
            // but Falcon-H1, whose attention comes first.
            let order = if self.attention_first {
                [0usize, 3, 1, 2]
            } else {
                [3, 1, 2, 0]
            };
            order
                .into_iter()
                .find(|&i| counts[i] > 0)
                .map_or(0, |i| per_kind[i] as u128)
        } else {
            counts
                .iter()
                .zip(per_kind)
                .map(|(&c, b)| c as u128 * b as u128)
                .sum()
        };
        self.page_bytes as u128 * g.group_size as u128 * blocks
    }

    /// KV bytes one request of `len` tokens needs, summed over real layers.
    fn needed_for(&self, len: u64, block_size: u64) -> u128 {
        let k = &self.kinds;
        let b = self.blocks_per_kind(len, block_size);
        let layers = [k.full, k.sliding, k.local, k.state];
        let blocks: u128 = layers
            .iter()
            .zip(b)
            .map(|(&n, b)| n as u128 * b as u128)
            .sum();
        self.page_bytes as u128 * blocks
    }

    /// Bytes of one block over the layers that share it.
    pub(super) fn block_bytes(&self) -> u128 {
        self.page_bytes as u128 * self.slots_per_block as u128
    }
}

/// The hybrid allocator's groups when layers of more than one kind are present
/// (`_get_kv_cache_groups_uniform_page_size`, v1/core/kv_cache_utils.py): groups of the smallest
/// kind's layer count (of the largest when it is under 1.5 × the smallest), each kind padded
/// up to whole groups.
fn groups(k: &Kinds, v: Version) -> Option<Groups> {
    let counts = [k.full, k.sliding, k.local, k.state];
    let present: Vec<u64> = counts.iter().copied().filter(|&n| n > 0).collect();
    if present.len() < 2 {
        return None;
    }
    let min = *present.iter().min()?;
    let max = *present.iter().max()?;
    // The smallest kind's count up to 0.11; from 0.12 the largest's when it is under 1.25 × the
    // smallest (1.5 × from 0.18).
    let factor = if v >= GROUPS_UP_TO_1_5 {
        Some(1.5)
    } else if v >= GROUPS_UP_TO_1_25 {
        Some(1.25)
    } else {
        None
    };
    let g = match factor {
        Some(f) if (max as f64) < min as f64 * f => max,
        _ => min,
    };
    let n_groups = |n: u64| ceil_div(n, g);
    let mut padding = 0;
    let mut padded_kinds = 0;
    for &n in &present {
        let pad = n_groups(n) * g - n;
        if pad > 0 {
            padding += pad;
            padded_kinds += n;
        }
    }
    Some(Groups {
        group_size: g,
        full_groups: n_groups(k.full),
        sliding_groups: n_groups(k.sliding),
        local_groups: n_groups(k.local),
        state_groups: n_groups(k.state),
        padding_layers: padding,
        padding_waste_pct: if padded_kinds > 0 {
            padding as f64 / padded_kinds as f64 * 100.0
        } else {
            0.0
        },
    })
}

/// Scheduled tokens a windowed layer must keep beyond its window: `max_num_batched_tokens`,
/// doubled from 0.26 (async scheduling keeps one step ahead).
pub fn lookahead(v: Version, max_num_batched_tokens: u64) -> u64 {
    if v >= TWO_STEPS_IN_FLIGHT {
        max_num_batched_tokens.saturating_mul(2)
    } else {
        max_num_batched_tokens
    }
}

/// Blocks one request of `len` tokens takes under `s`'s layout (over all groups).
pub fn blocks_per_request(s: &Scenario, len: u64) -> Result<u64> {
    let mut t = s.clone();
    t.max_model_len = Some(len.max(1));
    let r = resolve(&t)?;
    Ok(Layout::of(&t, &r)?.blocks_per_request)
}

/// The longest context each of `seqs` requests can hold at once in `blocks` blocks: the largest
/// `len` with `seqs × blocks_per_request(len) ≤ blocks` (for one group of full-attention layers,
/// `⌊blocks / seqs⌋ × block_size`). 0 when not even one token each fits.
pub fn longest_context(s: &Scenario, blocks: u64, seqs: u64) -> u64 {
    let fits = |len: u64| {
        blocks_per_request(s, len)
            .map(|b| b.saturating_mul(seqs.max(1)) <= blocks)
            .unwrap_or(false)
    };
    if !fits(1) {
        return 0;
    }
    // Every request takes at least one block per 2⁴⁰ tokens of context at most: bound the search.
    let (mut lo, mut hi) = (1u64, blocks.saturating_mul(1 << 20).clamp(1, 1 << 40));
    if fits(hi) {
        return hi;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}
