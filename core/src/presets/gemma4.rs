//! Gemma 4's presets (E2B, E4B, 26B-A4B, 31B): sliding layers 256 wide beside full layers 512 wide
//! with KV heads of their own, and on E2B/E4B the last layers sharing a cache. Their config.json
//! facts are transformers' converter's (`convert_gemma4_weights.py`, `_VARIANTS`), as the fixtures
//! in tests/fixtures/configs have them.

use super::models::all_but;
use super::{gib_hundredths, ModelPreset};
use crate::model::{Attention, Embeddings, Extras, HeadShape, ModelDtype, ModelSpec, SharedKv};
use std::borrow::Cow;

/// Gemma 4's layers: `window` on `sliding` layers (the sliding shape is the spec's), the full
/// layers' `(kv_heads, head_dim)`, and the `(sliding, full)` layers that share a cache.
const fn gemma4(window: u64, sliding: u64, full: (u64, u64), shared: (u64, u64)) -> Attention {
    Attention::SlidingWindow {
        window,
        sliding_layers: sliding,
        full: Some(HeadShape {
            kv_heads: full.0,
            head_dim: full.1,
        }),
        shared: SharedKv {
            sliding: shared.0,
            full: shared.1,
        },
    }
}

/// Gemma 4's extras: multimodal with a vision tower of `vision_heads`, embeddings built on every
/// stage, and the prefix LM's largest item (`mm_item`, 0 for E2B/E4B).
const fn gemma4_extras(hidden: u64, intermediate: u64, vision_heads: u64, mm_item: u64) -> Extras {
    Extras {
        hidden,
        intermediate,
        multimodal: true,
        embeddings: Embeddings::EveryStage,
        vision_heads,
        mm_item_tokens: mm_item,
        ..Extras::DENSE
    }
}

/// gemma-4-E2B-it (text_config): 35 layers, (4 sliding (window 512) + 1 full) × 7, 8 q / 1 kv
/// head, sliding 256 wide, full 512 (global_head_dim); the last 20 layers (16 sliding, 4 full)
/// share a cache; per-layer inputs 256 wide; vocab 262144, max_pos 131072.
pub(super) const E2B: ModelPreset = ModelPreset {
    spec: ModelSpec {
        id: Cow::Borrowed("google/gemma-4-E2B-it"),
        layers: 35,
        attention_heads: 8,
        kv_heads: 1,
        head_dim: 256,
        attention: gemma4(512, 28, (1, 512), (16, 4)),
        dtype: ModelDtype::Bf16,
        max_position: 131072,
        vocab: 262144,
        weights: gib_hundredths(889),
        extras: gemma4_extras(1536, 6144, 12, 0),
        state: None,
    },
    // Weights: vLLM log (T4, L4): Model loading took 8.89 GiB
};

/// gemma-4-E4B-it (text_config): 42 layers, (5 sliding + 1 full) × 7, 8 q / 2 kv heads, the
/// last 18 (15 sliding, 3 full) share a cache; otherwise as E2B.
pub(super) const E4B: ModelPreset = ModelPreset {
    spec: ModelSpec {
        id: Cow::Borrowed("google/gemma-4-E4B-it"),
        layers: 42,
        attention_heads: 8,
        kv_heads: 2,
        head_dim: 256,
        attention: gemma4(512, 35, (2, 512), (15, 3)),
        dtype: ModelDtype::Bf16,
        max_position: 131072,
        vocab: 262144,
        weights: gib_hundredths(1479),
        extras: gemma4_extras(2560, 10240, 12, 0),
        state: None,
    },
    // Weights: 7,941 M parameters (transformers 5.10's Gemma4ForConditionalGeneration, towers
    // included) × 2 B; no vLLM log known
};

/// gemma-4-26B-A4B-it (text_config): 30 layers, (5 sliding (window 1024) + 1 full) × 5, 16 q /
/// 8 kv heads × 256 sliding, the full layers 2 kv heads × 512 (attention_k_eq_v); 128 experts
/// (8 active) of 704 beside a dense MLP of 2112; vocab 262144, max_pos 262144.
pub(super) const A26B: ModelPreset = ModelPreset {
    spec: ModelSpec {
        id: Cow::Borrowed("google/gemma-4-26B-A4B-it"),
        layers: 30,
        attention_heads: 16,
        kv_heads: 8,
        head_dim: 256,
        attention: gemma4(1024, 25, (2, 512), (0, 0)),
        dtype: ModelDtype::Bf16,
        max_position: 262144,
        vocab: 262144,
        weights: gib_hundredths(4850),
        extras: Extras {
            experts_per_token: 8,
            moe_intermediate: 704,
            experts: 128,
            // The routed experts as the weights less what every step reads in full
            // (4,818,091,520 B from the config), the vision tower going with them.
            routed: all_but(gib_hundredths(4850), 4_818_091_520),
            ..gemma4_extras(2816, 2112, 16, 2496)
        },
        state: None,
    },
    // Weights: vLLM 0.19 log (A100 80GB, myoceane.fr): Model loading took 48.5 GiB
};

/// gemma-4-31B-it (text_config): 60 layers, (5 sliding (window 1024) + 1 full) × 10, 32 q / 16
/// kv heads × 256 sliding, the full layers 4 kv heads × 512; vocab 262144, max_pos 262144.
pub(super) const B31: ModelPreset = ModelPreset {
    spec: ModelSpec {
        id: Cow::Borrowed("google/gemma-4-31B-it"),
        layers: 60,
        attention_heads: 32,
        kv_heads: 16,
        head_dim: 256,
        attention: gemma4(1024, 50, (4, 512), (0, 0)),
        dtype: ModelDtype::Bf16,
        max_position: 262144,
        vocab: 262144,
        weights: gib_hundredths(5825),
        extras: gemma4_extras(5376, 21504, 16, 2496),
        state: None,
    },
    // Weights: 31,273 M parameters (transformers 5.10's Gemma4ForConditionalGeneration, the
    // vision tower included) × 2 B; no vLLM log known
};
