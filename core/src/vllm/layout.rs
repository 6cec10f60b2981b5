//! The settings vLLM runs with once its defaults apply, and how the layers of the largest
//! pipeline stage share KV blocks: pages, hybrid groups with their padding, and the blocks one
//! request needs (VLLM-ACCOUNTING §0, §3).

use super::report::{Groups, Scenario};
use super::version::{family, serve_defaults, Family, Version};
use crate::capacity;
use crate::error::{check_range, KvError, Result};
use crate::model::Attention;
use crate::presets::Arch;
use crate::units::Bytes;

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
    if s.pp > s.model.layers {
        return Err(KvError::Invalid {
            field: "pipeline-parallel size",
            message: format!("must not exceed the number of layers ({})", s.model.layers),
        });
    }
    let fam = family(s.version, s.engine);
    let is_mla = matches!(s.model.attention, Attention::Mla { .. });
    let block_size = match s.block_size {
        Some(b) => check_range(
            "block size",
            b,
            1,
            1 << 20,
            "a whole number of tokens from 1 to 1,048,576",
        )?,
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
                message: "is required when the model has no max_position_embeddings".into(),
            })
        }
    };
    let (def_seqs, def_mnbt) = serve_defaults(s.arch, s.gpu_total);
    let max_num_seqs = match s.max_num_seqs {
        Some(n) => check_range(
            "max_num_seqs",
            n,
            1,
            1 << 32,
            "a whole number from 1 to 2^32",
        )?,
        None => def_seqs,
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
    Ok(Resolved {
        family: fam,
        block_size,
        max_model_len,
        max_num_seqs,
        max_num_batched_tokens,
    })
}

/// How the layers of the largest stage share blocks, and what one request needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// Bytes of one block on one layer.
    pub(super) page_bytes: u64,
    pub(super) stage_layers: u64,
    pub(super) bytes_per_token: Bytes,
    /// Full-attention and sliding layers as the version treats them, and the window.
    pub(super) full: u64,
    pub(super) sliding: u64,
    pub(super) window: u64,
    /// Scheduled tokens a sliding layer keeps beyond its window.
    pub(super) lookahead: u64,
    pub(super) groups: Option<Groups>,
    /// Layers that share one block (the divisor of the pool).
    pub(super) slots_per_block: u64,
    pub(super) num_groups: u64,
    pub(super) blocks_per_request: u64,
}

impl Layout {
    pub(super) fn of(s: &Scenario, r: &Resolved) -> Result<Layout> {
        let per_layer_token = capacity::bytes_per_token_per_layer(&s.model, s.kv_dtype, s.tp)?;
        let page_bytes = per_layer_token
            .checked_mul(r.block_size)
            .ok_or(KvError::Overflow("block size in bytes"))?;
        let stage_layers = capacity::max_stage_layers(s.model.layers, s.pp);
        let bytes_per_token = capacity::bytes_per_token(&s.model, s.kv_dtype, s.tp, s.pp)?;

        // Layer kinds on the largest stage. V0 and V1 before 0.10 turn a mix of sliding and full
        // layers into full attention (no hybrid allocator); a model that only slides keeps its window.
        let (mut full, mut sliding, window) = match s.model.attention {
            Attention::SlidingWindow {
                window,
                sliding_layers,
            } => {
                let sl = (sliding_layers as u128 * stage_layers as u128)
                    .div_ceil(s.model.layers as u128) as u64;
                let sl = sl.min(stage_layers);
                (stage_layers - sl, sl, window)
            }
            _ => (stage_layers, 0, 0),
        };
        let hybrid_allocator = !matches!(r.family, Family::V0 | Family::V1Early);
        if (sliding > 0 && full > 0 && !hybrid_allocator) || r.family == Family::V0 {
            // V0 sizes every layer for the whole context.
            full += sliding;
            sliding = 0;
        }
        // Scheduled tokens a sliding layer must keep beyond its window: max_num_batched_tokens,
        // doubled from 0.26 (async scheduling keeps one step ahead).
        let lookahead = if s.version >= Version::new(0, 26) {
            r.max_num_batched_tokens.saturating_mul(2)
        } else {
            r.max_num_batched_tokens
        };
        let mut layout = Layout {
            page_bytes,
            stage_layers,
            bytes_per_token,
            full,
            sliding,
            window,
            lookahead,
            groups: groups(full, sliding),
            slots_per_block: stage_layers,
            num_groups: 1,
            blocks_per_request: 0,
        };
        let full_blocks = ceil_div(r.max_model_len, r.block_size);
        let sliding_blocks = layout.sliding_blocks(r.max_model_len, r.block_size);
        (
            layout.slots_per_block,
            layout.num_groups,
            layout.blocks_per_request,
        ) = match layout.groups {
            Some(g) => (
                g.group_size,
                g.full_groups + g.sliding_groups,
                g.full_groups * full_blocks + g.sliding_groups * sliding_blocks,
            ),
            None if sliding > 0 => (stage_layers, 1, sliding_blocks),
            None => (stage_layers, 1, full_blocks),
        };
        Ok(layout)
    }

    /// Blocks a sliding layer holds for a request of `len` tokens.
    fn sliding_blocks(&self, len: u64, block_size: u64) -> u64 {
        ceil_div(
            self.window
                .saturating_sub(1)
                .saturating_add(self.lookahead)
                .min(len),
            block_size,
        ) + 1
    }

    /// KV bytes one request of `len` tokens needs, as the fit check sums them over real layers.
    pub(super) fn needed_for(&self, len: u64, block_size: u64) -> u128 {
        let fb = ceil_div(len, block_size) as u128;
        let sb = self.sliding_blocks(len, block_size) as u128;
        self.page_bytes as u128 * (self.full as u128 * fb + self.sliding as u128 * sb)
    }

    /// Bytes of one block over the layers that share it.
    pub(super) fn block_bytes(&self) -> u128 {
        self.page_bytes as u128 * self.slots_per_block as u128
    }
}

/// The hybrid allocator's groups when layers of both kinds are present: equal groups of
/// `min(full, sliding)` layers, padded where a kind does not divide evenly.
fn groups(full: u64, sliding: u64) -> Option<Groups> {
    if full == 0 || sliding == 0 {
        return None;
    }
    let g = full.min(sliding);
    let fg = ceil_div(full, g);
    let sg = ceil_div(sliding, g);
    let pad_full = fg * g - full;
    let pad_sliding = sg * g - sliding;
    let padded_kinds =
        (if pad_full > 0 { full } else { 0 }) + (if pad_sliding > 0 { sliding } else { 0 });
    let padding = pad_full + pad_sliding;
    Some(Groups {
        group_size: g,
        full_groups: fg,
        sliding_groups: sg,
        padding_layers: padding,
        padding_waste_pct: if padded_kinds > 0 {
            padding as f64 / padded_kinds as f64 * 100.0
        } else {
            0.0
        },
    })
}
