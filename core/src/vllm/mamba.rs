//! Hybrids with Mamba2 or Gated DeltaNet layers, as each vLLM release treats them
//! (VLLM-HYBRID §a): the cache mode prefix caching picks, the attention block size raised until
//! one attention page covers a state page (and the state page padded to match), and the blocks a
//! state layer holds per request. Sources: vLLM 0.10.1–0.33.0 wheels, `model_executor/models/
//! config.py` (`HybridAttentionMambaModelConfig`, ≤ 0.19), `platforms/interface.py`
//! (`_align_hybrid_block_size`, 0.20+), `v1/kv_cache_interface.py` (`MambaSpec`),
//! `config/cache.py` (`mamba_cache_mode`, 0.15+), `engine/arg_utils.py` (prefix-caching default).

use super::report::Scenario;
use super::version::Version;
use super::version::{
    GDN_CONV_SPEC, GDN_PREFILL_CHECKPOINT, GRANULE_AT_LEAST_BLOCK, HYBRID_PREFIX_CACHING_ON,
    MAMBA2_PREFILL_CHECKPOINT, MAMBA2_SPEC_ALIGN, MAMBA_ALL_SPEC, MAMBA_CACHE_MODES,
    MAMBA_PREFIX_CACHING, MLA_GRANULE_128, MLA_GRANULE_64, NEMOTRON_CONV_SPEC,
};
use crate::capacity;
use crate::error::Result;
use crate::model::{Attention, StateKind};
use crate::presets::Arch;

/// How a hybrid's state pages line up with its attention pages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MambaAlign {
    /// The state of one layer for one request before padding.
    pub state_page: u64,
    /// The block size vLLM sets ("Setting attention block size to N tokens"), when it raised it.
    pub raised_to: Option<u64>,
    /// The padding of the Mamba page to the attention page, in percent ("Padding mamba page
    /// size by x%"), when there is any.
    pub padding_pct: Option<f64>,
}

/// `mamba_cache_mode`: which states a request keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MambaMode {
    /// The running state only: one block per state group (plus one per speculative token from
    /// 0.15). Always without prefix caching.
    None,
    /// Prefix caching (0.15+): a second block keeps the state at the last block-aligned prefix;
    /// a third for the prefill checkpoint of Mamba2 from 0.32 and of GDN on FlashInfer from 0.33.
    Align,
    /// Prefix caching on a Mamba2 model that caches every block's state (0.11.1–0.31):
    /// `⌈len / block⌉` state blocks, the block aligned to the scan's chunk.
    All,
}

fn v(s: &Scenario) -> Version {
    s.version
}

/// Speculative tokens, which the state counts from 0.15 (conv window from 0.17).
fn spec(s: &Scenario) -> u64 {
    s.knobs.speculative.map_or(0, |x| x.num_tokens)
}

/// The mode vLLM picks. Prefix caching is off for hybrids by default up to 0.27
/// (`default_prefix_caching` excludes them) and on from 0.28; `--enable-prefix-caching` turns it
/// on and `--no-enable-prefix-caching` off. With it on, Mamba2 models (which support per-block state caching) get `all` up to 0.27
/// (`align` with speculative decoding in 0.20–0.21) and GDN models `align`; from 0.28 every
/// hybrid gets `align`. 0.10–0.11.0 force prefix caching off; 0.11.1–0.14 keep it only for Mamba2.
pub(super) fn mode(s: &Scenario) -> MambaMode {
    let Some(st) = s.model.state.filter(|st| st.layers > 0) else {
        return MambaMode::None;
    };
    let v = v(s);
    let prefix =
        (s.knobs.prefix_caching || v >= HYBRID_PREFIX_CACHING_ON) && !s.knobs.no_prefix_caching;
    let mamba2 = st.kind == StateKind::Mamba2;
    if !prefix || v < MAMBA_PREFIX_CACHING {
        MambaMode::None
    } else if v < MAMBA_CACHE_MODES {
        if mamba2 {
            MambaMode::All
        } else {
            MambaMode::None
        }
    } else if v < HYBRID_PREFIX_CACHING_ON && mamba2 {
        let spec_align = (MAMBA2_SPEC_ALIGN..MAMBA_ALL_SPEC).contains(&v) && spec(s) > 0;
        if spec_align {
            MambaMode::Align
        } else {
            MambaMode::All
        }
    } else {
        MambaMode::Align
    }
}

/// The kernel granule `a` the raised block size is a multiple of: 16 for attention; for MLA 16
/// up to 0.11.0, 64 from 0.11.1, 128 from 0.27. From 0.20 it is at least the block size already
/// set (`--block-size`).
fn granule(s: &Scenario, block_size: u64, mode: MambaMode) -> u64 {
    let v = v(s);
    let a = match s.model.attention {
        Attention::Mla { .. } if v >= MLA_GRANULE_128 => 128,
        Attention::Mla { .. } if v >= MLA_GRANULE_64 => 64,
        _ => 16,
    };
    let a = if v >= GRANULE_AT_LEAST_BLOCK {
        a.max(block_size)
    } else {
        a
    };
    // 0.33 in `align` mode also aligns the block to the prefill checkpoint: 64 tokens for GDN on
    // FlashInfer's prefill, which Hopper runs (`get_mamba_prefill_checkpoint_alignment`,
    // platforms/interface.py 0.33.0).
    let gdn = s
        .model
        .state
        .is_some_and(|st| st.kind == StateKind::GatedDeltaNet);
    if v >= GDN_PREFILL_CHECKPOINT && mode == MambaMode::Align && gdn && s.arch == Arch::Hopper {
        a / gcd(a, 64) * 64
    } else {
        a
    }
}

/// Speculative tokens the convolution state holds: GDN from 0.10.2, Nemotron-H's Mamba2 from
/// 0.17; the other Mamba2 models never (`get_mamba_state_shape_from_config` per model).
fn conv_spec(s: &Scenario, st: &crate::model::StateLayers) -> u64 {
    let v = v(s);
    let counts = match st.kind {
        StateKind::GatedDeltaNet => v >= GDN_CONV_SPEC,
        StateKind::Mamba2 => {
            st.family == crate::model::StateFamily::NemotronH && v >= NEMOTRON_CONV_SPEC
        }
    };
    if counts {
        spec(s)
    } else {
        0
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The block size a hybrid runs with and its alignment (None without state layers). The block
/// is only ever raised, even over `--block-size`; a larger one is kept and the state page padded
/// up to it.
pub(super) fn align(
    s: &Scenario,
    block_size: u64,
    mode: MambaMode,
) -> Result<Option<(u64, MambaAlign)>> {
    let Some(st) = s.model.state.filter(|st| st.layers > 0) else {
        return Ok(None);
    };
    let state_page = st.page_bytes(s.model.dtype, s.tp, conv_spec(s, &st));
    if s.model.attention_layers() == 0 {
        let none = MambaAlign {
            state_page,
            raised_to: None,
            padding_pct: None,
        };
        return Ok(Some((block_size, none)));
    }
    let per_token = capacity::bytes_per_token_per_layer(&s.model, s.kv_dtype, s.tp)?.max(1);
    let a = granule(s, block_size, mode);
    let needed = if mode == MambaMode::All {
        // The block is a whole number of the scan's chunks (256 when the config does not say).
        let chunk = if st.chunk_size > 0 {
            st.chunk_size
        } else {
            256
        };
        let unit = chunk / gcd(chunk, a) * a;
        unit * state_page.div_ceil(per_token).div_ceil(unit)
    } else {
        a * state_page.div_ceil(a * per_token)
    };
    let (block, raised_to) = if needed > block_size {
        (needed, Some(needed))
    } else {
        (block_size, None)
    };
    let attn_page = block.saturating_mul(per_token);
    let padding_pct = (attn_page > state_page && state_page > 0)
        .then(|| (attn_page - state_page) as f64 / state_page as f64 * 100.0);
    Ok(Some((
        block,
        MambaAlign {
            state_page,
            raised_to,
            padding_pct,
        },
    )))
}

/// The state blocks one request holds per state group: `(fixed, grows)`, where `grows` adds
/// `⌈len / block⌉` (mode `all`). `MambaSpec.max_memory_usage_bytes`: one block up to 0.14 (the
/// speculative tokens ignored), `1 + spec` / `2 + spec` from 0.15, plus the prefill checkpoint
/// block in `align` mode (Mamba2 from 0.32; GDN from 0.33 on FlashInfer's prefill, taken here for
/// Hopper); `all` counts `⌈len / block⌉`, plus `spec` from 0.22.
pub(super) fn state_blocks(s: &Scenario, mode: MambaMode) -> (u64, bool) {
    let v = v(s);
    let Some(st) = s.model.state else {
        return (0, false);
    };
    if v < MAMBA_CACHE_MODES {
        return match mode {
            MambaMode::All => (0, true),
            _ => (1, false),
        };
    }
    let spec = spec(s);
    match mode {
        MambaMode::None => (1 + spec, false),
        MambaMode::Align => {
            let checkpoint = match st.kind {
                StateKind::Mamba2 => v >= MAMBA2_PREFILL_CHECKPOINT,
                StateKind::GatedDeltaNet => v >= GDN_PREFILL_CHECKPOINT && s.arch == Arch::Hopper,
            };
            (2 + spec + u64::from(checkpoint), false)
        }
        MambaMode::All => (if v >= MAMBA_ALL_SPEC { spec } else { 0 }, true),
    }
}
