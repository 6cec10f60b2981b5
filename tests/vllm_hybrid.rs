//! The worked examples of VLLM-HYBRID (hybrid, sliding, chunked and MLA models in vLLM ≥ 0.10),
//! each number derived by hand in the comment above it. The models are written out from their
//! config.json fields so that the arithmetic is visible here.

use kvbudget::core::model::{
    Attention, Extras, KvDtype, ModelDtype, ModelSpec, StateFamily, StateKind, StateLayers,
};
use kvbudget::core::presets::Arch;
use kvbudget::core::units::{Bytes, GIB};
use kvbudget::core::vllm::{report, KvMemory, MambaMode, Report, Scenario, Version};

mod common;

fn model(
    id: &'static str,
    layers: u64,
    heads: u64,
    kv_heads: u64,
    head_dim: u64,
    attention: Attention,
    state: Option<StateLayers>,
) -> ModelSpec {
    ModelSpec {
        id: id.into(),
        layers,
        attention_heads: heads,
        kv_heads,
        head_dim,
        attention,
        dtype: ModelDtype::Bf16,
        max_position: 1 << 20,
        vocab: 0,
        weights: Bytes(0),
        extras: Extras::default(),
        state,
    }
}

/// Gated DeltaNet of Qwen3.5 / Qwen3.6: 16 key heads × 128, `nv` value heads × 128, kernel 4,
/// the temporal state in float32 (the config's `mamba_ssm_dtype`).
fn gdn(layers: u64, value_heads: u64) -> StateLayers {
    StateLayers {
        kind: StateKind::GatedDeltaNet,
        layers,
        conv_kernel: 4,
        heads: value_heads,
        head_dim: 128,
        state_dim: 128,
        groups: 16,
        conv_dtype: None,
        ssm_dtype: Some(ModelDtype::F32),
        family: StateFamily::Qwen35,
        chunk_size: 0,
    }
}

/// Qwen3.5-9B: 32 layers, every 4th attention (8) with 16 query / 4 KV heads × 256, 24 GDN.
fn qwen35_9b() -> ModelSpec {
    model(
        "Qwen/Qwen3.5-9B",
        32,
        16,
        4,
        256,
        Attention::Full,
        Some(gdn(24, 32)),
    )
}

fn scenario(m: ModelSpec, kv: KvDtype, memory: KvMemory, len: u64, v: Version) -> Scenario {
    Scenario {
        kv_dtype: kv,
        max_num_batched_tokens: Some(8192),
        ..common::vllm_scenario(m, v, memory, len)
    }
}

fn gib(g: f64) -> KvMemory {
    KvMemory::Available(Bytes::from_gib_f64(g).unwrap())
}

fn run(s: &Scenario) -> Report {
    report(s).unwrap()
}

#[test]
fn example_1_qwen35_9b_on_an_l40s_with_0_19() {
    // Attention: 2 × 4 KV heads × 256 × 2 B = 4,096 B per token per layer.
    // GDN state: conv (2 × 16 × 128 + 32 × 128) × (4 − 1) × 2 B = 49,152 B;
    //            ssm 32 × 128 × 128 × 4 B = 2,097,152 B; together 2,146,304 B.
    // Block size 16 × ⌈2,146,304 / (16 × 4,096)⌉ = 16 × 33 = 528; page 528 × 4,096 = 2,162,688 B,
    // padding (2,162,688 − 2,146,304) / 2,146,304 = 0.763 % → "0.76%".
    // 8 attention + 24 GDN layers: groups of 8, 1 + 3 = 4 groups; a block spans 8 layers,
    // 2,162,688 × 8 = 17,301,504 B. "20.27 GiB" is rounded: [20.265, 20.275) GiB holds
    // 1,257 to 1,258 blocks, and the printed concurrency says 1,258.
    // Tokens (0.10–0.20.0): 1,258 // 4 × 528 = 314 × 528 = 165,792.
    // Per request: ⌈262,144 / 528⌉ = 497 attention blocks + 3 × 1 state blocks = 500;
    // 1,258 / 500 = 2.516 → "2.52x" (1,257 would print 2.51x). The log prints these lines.
    let at = |memory: KvMemory, v: Version| {
        run(&scenario(qwen35_9b(), KvDtype::Auto, memory, 262_144, v))
    };
    let v19 = Version::new(0, 19);
    assert_eq!(at(gib(20.265), v19).num_gpu_blocks, Some(1257));
    // 20.275 GiB less a byte: ⌈20.275 × 2³⁰⌉ − 1 = 21,770,115,481 B // 17,301,504 = 1,258.
    assert_eq!(
        at(KvMemory::Available(Bytes(21_770_115_481)), v19).num_gpu_blocks,
        Some(1258)
    );
    let r = at(KvMemory::Blocks(1258), v19);
    assert_eq!(r.block_size, 528);
    assert_eq!(r.mamba.unwrap().state_page, 2_146_304);
    assert_eq!(r.page_bytes, 2_162_688);
    assert_eq!(r.num_groups, 4);
    assert_eq!(r.blocks_per_request, 500);
    assert_eq!(
        r.lines,
        [
            "Setting attention block size to 528 tokens to ensure that attention page size is >= mamba page size.",
            "Padding mamba page size by 0.76% to ensure that mamba page size and attention page size are exactly equal.",
            "GPU KV cache size: 165,792 tokens",
            "Maximum concurrency for 262,144 tokens per request: 2.52x",
        ]
    );
    // The same 1,258 blocks on 0.20.1: int(1,258 / 500 × 262,144) = int(659,554.3) = 659,554
    // tokens ("~659k" in VLLM-HYBRID), not a multiple of the block; 0.20.0 still prints 165,792.
    let tokens = |v| at(KvMemory::Blocks(1258), v).gpu_kv_cache_tokens;
    assert_eq!(tokens(Version::at(0, 20, 1)), Some(659_554));
    assert_eq!(tokens(Version::new(0, 20)), Some(165_792));
}

#[test]
fn example_2_qwen36_35b_a3b_fp8_with_prefix_caching_on_0_24() {
    // Qwen3.6-35B-A3B: 40 layers, 10 attention (2 KV heads × 256), 30 GDN (32 value heads).
    // FP8 KV: 2 × 2 × 256 × 1 B = 1,024 B per token per layer. The GDN state is 2,146,304 B
    // = 2,096 × 1,024, so the block is 16 × ⌈2,146,304 / 16,384⌉ = 16 × 131 = 2,096: no padding.
    // Groups of 10: 1 + 3. ⌊5.98 × 2³⁰⌋ = 6,420,959,969 // (2,146,304 × 10) = 299 blocks.
    // --enable-prefix-caching on a hybrid (0.19+): align mode, 2 blocks per state group.
    // Per request ⌈131,072 / 2,096⌉ = 63 + 3 × 2 = 69; 299 / 69 = 4.3333 → "4.33x";
    // tokens int(4.3333… × 131,072) = int(567,978.7) = 567,978. The log prints both.
    let m = model(
        "Qwen3.6-35B-A3B",
        40,
        16,
        2,
        256,
        Attention::Full,
        Some(gdn(30, 32)),
    );
    let mut s = scenario(m, KvDtype::Fp8, gib(5.98), 131_072, Version::new(0, 24));
    s.knobs.prefix_caching = true;
    let r = run(&s);
    assert_eq!(r.block_size, 2096);
    assert_eq!(r.mamba.unwrap().padding_pct, None);
    assert_eq!(r.num_gpu_blocks, Some(299));
    assert_eq!(r.blocks_per_request, 69);
    assert_eq!(
        &r.lines[1..],
        [
            "Available KV cache memory: 5.98 GiB",
            "GPU KV cache size: 567,978 tokens",
            "Maximum concurrency for 131,072 tokens per request: 4.33x",
        ]
    );
    // Without prefix caching one state block per group: 63 + 3 = 66 → 299 / 66 = 4.53x.
    s.knobs.prefix_caching = false;
    assert_eq!(run(&s).blocks_per_request, 66);
}

#[test]
fn qwen35_27b_on_an_h20_with_0_19() {
    // Qwen3.5-27B: 64 layers, 16 attention (4 KV heads × 256), 48 GDN (48 value heads).
    // State: conv (2 × 16 × 128 + 48 × 128) × 3 × 2 B = 61,440; ssm 48 × 128 × 128 × 4 = 3,145,728;
    // 3,207,168 B → block 16 × ⌈3,207,168 / 65,536⌉ = 16 × 49 = 784.
    // The log gives no memory line; its 1,487 blocks: tokens 1,487 // 4 × 784 = 371 × 784 = 290,864;
    // per request ⌈32,768 / 784⌉ = 42 + 3 = 45; 1,487 / 45 = 33.04x. Both printed.
    let m = model(
        "Qwen/Qwen3.5-27B",
        64,
        24,
        4,
        256,
        Attention::Full,
        Some(gdn(48, 48)),
    );
    let s = scenario(
        m,
        KvDtype::Auto,
        KvMemory::Blocks(1487),
        32_768,
        Version::new(0, 19),
    );
    let r = run(&s);
    assert_eq!(r.block_size, 784);
    assert_eq!(
        &r.lines[2..],
        [
            "GPU KV cache size: 290,864 tokens",
            "Maximum concurrency for 32,768 tokens per request: 33.04x",
        ]
    );
}

#[test]
fn nemotron_cascade_2_mamba2_hybrid_on_0_20_1() {
    // Nemotron-3-Nano-30B-A3B geometry: 6 attention layers (2 KV heads × 128), 23 Mamba2 layers
    // (64 heads × 64, state 128, 8 groups, kernel 4); the 23 MoE layers keep no cache.
    // FP8 KV: 2 × 2 × 128 × 1 = 512 B per token per layer.
    // Mamba2 state: conv (64 × 64 + 2 × 8 × 128) × 3 × 2 B = 36,864; ssm (float32, asked for)
    // 64 × 64 × 128 × 4 = 2,097,152; 2,134,016 B. Block 16 × ⌈2,134,016 / 8,192⌉ = 16 × 261 = 4,176;
    // page 4,176 × 512 = 2,138,112 (+0.19 %).
    // Groups of 6: 1 attention + ⌈23 / 6⌉ = 4 Mamba groups, 1 padding layer: 1 / 23 = 4.35 %.
    // ⌊3.72 × 2³⁰⌋ = 3,994,319,585 // (2,138,112 × 6) = 311 blocks.
    // Per request ⌈256,000 / 4,176⌉ = 62 + 4 = 66; 311 / 66 = 4.7121 → "4.71x";
    // int(4.7121… × 256,000) = 1,206,303 tokens. The log prints all of it.
    let mamba = StateLayers {
        kind: StateKind::Mamba2,
        layers: 23,
        conv_kernel: 4,
        heads: 64,
        head_dim: 64,
        state_dim: 128,
        groups: 8,
        conv_dtype: None,
        ssm_dtype: Some(ModelDtype::F32),
        family: StateFamily::NemotronH,
        chunk_size: 128,
    };
    let m = model(
        "Nemotron-Cascade-2-30B-A3B",
        29,
        32,
        2,
        128,
        Attention::Full,
        Some(mamba),
    );
    let mut s = scenario(
        m,
        KvDtype::Fp8E4m3,
        gib(3.72),
        256_000,
        Version::parse("0.20.1rc1.dev91+ga749a33d8").unwrap(),
    );
    s.max_num_batched_tokens = Some(32_768);
    let r = run(&s);
    assert_eq!(r.block_size, 4176);
    assert_eq!(r.num_gpu_blocks, Some(311));
    assert_eq!(
        r.lines,
        [
            "Setting attention block size to 4176 tokens to ensure that attention page size is >= mamba page size.",
            "Padding mamba page size by 0.19% to ensure that mamba page size and attention page size are exactly equal.",
            "Available KV cache memory: 3.72 GiB",
            "Add 1 padding layers, may waste at most 4.35% KV cache memory",
            "GPU KV cache size: 1,206,303 tokens",
            "Maximum concurrency for 256,000 tokens per request: 4.71x",
        ]
    );
}

/// Gemma-3-27B: 62 layers, 16 KV heads × 128, 52 sliding (window 1,024) and 10 full.
fn gemma3_27b() -> ModelSpec {
    model(
        "google/gemma-3-27b-it",
        62,
        32,
        16,
        128,
        Attention::sliding(1024, 52),
        None,
    )
}

#[test]
fn example_3_gemma3_27b_sliding_groups_on_0_11() {
    // Page 16 × 2 × 16 × 128 × 2 B = 131,072. Groups of min(10, 52) = 10: 1 full + ⌈52/10⌉ = 6
    // sliding, 8 padding layers: 8 / 52 = 15.38 %. With the 89,994 blocks it printed:
    // tokens 89,994 // 7 × 16 = 12,856 × 16 = 205,696.
    // Per 4,096-token request (max_num_batched_tokens 8,192): full ⌈4,096 / 16⌉ = 256; sliding
    // ⌈min(1,023 + 8,192, 4,096) / 16⌉ + 1 = 257.
    // 256 + 6 × 257 = 1,798; 89,994 / 1,798 = 50.05x. Both printed.
    let s = scenario(
        gemma3_27b(),
        KvDtype::Auto,
        KvMemory::Blocks(89_994),
        4096,
        Version::new(0, 11),
    );
    let r = run(&s);
    assert_eq!(r.page_bytes, 131_072);
    assert_eq!(r.blocks_per_request, 1798);
    assert_eq!(
        r.lines,
        [
            "Add 8 padding layers, may waste at most 15.38% KV cache memory",
            "GPU KV cache size: 205,696 tokens",
            "Maximum concurrency for 4,096 tokens per request: 50.05x",
        ]
    );
}

#[test]
fn example_4_gpt_oss_120b_token_line_from_its_printed_memory() {
    // gpt-oss-120b: 36 layers, 8 KV heads × 64, 18 sliding (window 128) + 18 full: 2 groups of 18.
    // 2 × 8 × 64 × 2 B = 2,048 B per token per layer; a block spans 18 layers: 16 × 2,048 × 18 =
    // 589,824 B. The token line before 0.20.1 is blocks // 2 × 16 = avail / (36 × 2,048 B).
    // It printed 5.38 GiB and 78,384 tokens; 5.38 is rounded to 0.01 GiB, so the tokens must lie
    // between those of 5.375 and 5.385 GiB: 5,771,362,304 // 589,824 = 9,784 → 78,272 and
    // 5,782,099,722 // 589,824 = 9,803 → 78,416.
    let m = model(
        "openai/gpt-oss-120b",
        36,
        64,
        8,
        64,
        Attention::sliding(128, 18),
        None,
    );
    let at = |g: f64| {
        let s = scenario(m.clone(), KvDtype::Auto, gib(g), 8192, Version::new(0, 19));
        run(&s).gpu_kv_cache_tokens.unwrap()
    };
    let (lo, hi) = (at(5.375), at(5.385));
    assert_eq!((lo, hi), (78_272, 78_416));
    assert!((lo..=hi).contains(&78_384));
}

/// Llama-4-Scout: 48 layers, 40 query / 8 KV heads × 128, every 4th layer global: 36 local
/// layers with chunks of 8,192 tokens.
fn scout() -> ModelSpec {
    model(
        "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        48,
        40,
        8,
        128,
        Attention::ChunkedLocal {
            chunk: 8192,
            local_layers: 36,
        },
        None,
    )
}

#[test]
fn example_5_llama4_scout_chunked_local_attention() {
    // TP 4: 2 KV heads per rank, 2 × 2 × 128 × 2 B = 1,024 B per token per layer; 20 GiB.
    // 0.13 (hybrid allocator off for chunked attention): every layer full, a block spans 48 layers:
    // 21,474,836,480 // (16 × 1,024 × 48) = 27,306 blocks → 436,896 tokens; 27,306 / 8,192 = 3.33x.
    let mut s = scenario(
        scout(),
        KvDtype::Auto,
        KvMemory::Available(Bytes(20 * GIB)),
        131_072,
        Version::new(0, 13),
    );
    s.tp = 4;
    let r = run(&s);
    assert_eq!(r.gpu_kv_cache_tokens, Some(436_896));
    assert_eq!(
        r.lines.last().unwrap(),
        "Maximum concurrency for 131,072 tokens per request: 3.33x"
    );
    // 0.19 (allocator on): groups of 12, 1 full + 3 local; a block spans 12 layers:
    // 21,474,836,480 // 196,608 = 109,226 blocks; tokens 109,226 // 4 × 16 = 436,896 again;
    // per request 8,192 + 3 × ⌈min(8,192 + 8,192, 131,072) / 16⌉ = 8,192 + 3,072 = 11,264;
    // 109,226 / 11,264 = 9.697 → "9.70x".
    s.version = Version::new(0, 19);
    let r = run(&s);
    assert_eq!(r.num_gpu_blocks, Some(109_226));
    assert_eq!(r.gpu_kv_cache_tokens, Some(436_896));
    assert_eq!(r.blocks_per_request, 11_264);
    assert_eq!(
        r.lines.last().unwrap(),
        "Maximum concurrency for 131,072 tokens per request: 9.70x"
    );
    // 0.20.1: int(109,226 / 11,264 × 131,072) = int(1,270,993.45) = 1,270,993.
    s.version = Version::at(0, 20, 1);
    assert_eq!(run(&s).gpu_kv_cache_tokens, Some(1_270_993));
}

/// GLM-5.1 DSA: 78 MLA layers (latent 512 + 64) with the V3.2 indexer (128).
fn glm51() -> ModelSpec {
    model(
        "zai-org/GLM-5.1",
        78,
        64,
        64,
        192,
        Attention::Mla {
            latent: 576,
            indexer: 128,
        },
        None,
    )
}

#[test]
fn example_6_glm51_mla_with_the_indexer_at_tp8() {
    // GLM-5.1 DSA: 78 MLA layers (latent 512 + 64) with the V3.2 indexer (128), FP8 cache.
    // fp8_ds_mla: 512 + 4 × 4 + 64 × 2 = 656 B; indexer 128 + 4 = 132 B; 788 B per token per
    // layer, not split by TP: 78 × 788 = 61,464 B per token. Sparse MLA: block 64.
    // ⌊19.55 × 2³⁰⌋ = 20,991,655,116 // (64 × 61,464) = 5,336 blocks → 341,504 tokens;
    // per request ⌈202,752 / 64⌉ = 3,168; 5,336 / 3,168 = 1.684 → "1.68x". Both printed.
    let m = glm51();
    let mut s = scenario(
        m,
        KvDtype::Fp8,
        gib(19.55),
        202_752,
        Version::parse("0.20.2rc1.dev249").unwrap(),
    );
    s.tp = 8;
    let r = run(&s);
    assert_eq!(r.block_size, 64);
    assert_eq!(r.bytes_per_token, Bytes(61_464));
    assert_eq!(r.num_gpu_blocks, Some(5336));
    assert_eq!(
        &r.lines[1..],
        [
            "GPU KV cache size: 341,504 tokens",
            "Maximum concurrency for 202,752 tokens per request: 1.68x",
        ]
    );
}

#[test]
fn a_hybrid_request_too_long_for_its_state_and_blocks_is_refused() {
    // Qwen3.5-9B with 1 GiB: 1,073,741,824 // (2,162,688 × 8) = 62 blocks, but one 262,144-token
    // request needs 497 blocks on each of its 8 attention layers plus one state block on each of
    // its 24 GDN layers, which 0.19 counts over whole groups of 8 layers: (497 + 3) × 8 ×
    // 2,162,688 B = 8,650,752,000 B ≈ 8.06 GiB.
    let s = scenario(
        qwen35_9b(),
        KvDtype::Auto,
        KvMemory::Available(Bytes(GIB)),
        262_144,
        Version::new(0, 19),
    );
    let r = run(&s);
    assert!(r
        .error
        .as_deref()
        .unwrap()
        .contains("(8.06 GiB KV cache is needed"));
    assert_eq!(r.gpu_kv_cache_tokens, None);
}

/// Nemotron-H's Mamba2 layers as in `nemotron_cascade_2…`, with the config's dtype `ssm`.
fn nemotron(ssm: Option<ModelDtype>) -> ModelSpec {
    let mamba = StateLayers {
        kind: StateKind::Mamba2,
        layers: 23,
        conv_kernel: 4,
        heads: 64,
        head_dim: 64,
        state_dim: 128,
        groups: 8,
        conv_dtype: None,
        ssm_dtype: ssm,
        family: StateFamily::NemotronH,
        chunk_size: 128,
    };
    model("nemotron", 29, 32, 2, 128, Attention::Full, Some(mamba))
}

#[test]
fn the_state_dtype_follows_the_release() {
    let state_page = |m: ModelSpec, v: Version| {
        let s = scenario(m, KvDtype::Auto, KvMemory::Blocks(100), 32_768, v);
        run(&s).mamba.unwrap().state_page
    };
    // Qwen3.5 runs from 0.17 (0.16.0's wheel has no qwen3_5.py), with the config's float32
    // temporal state: 49,152 + 32 × 128 × 128 × 4 = 49,152 + 2,097,152 = 2,146,304 B.
    assert_eq!(state_page(qwen35_9b(), Version::new(0, 17)), 2_146_304);
    let s = scenario(
        qwen35_9b(),
        KvDtype::Auto,
        KvMemory::Blocks(100),
        32_768,
        Version::new(0, 16),
    );
    let e = kvbudget::core::vllm::report(&s).unwrap_err().to_string();
    assert!(e.contains("vLLM 0.16 does not run Qwen3.5"), "{e}");
    // Nemotron-H without mamba_ssm_cache_dtype in its config: the model's bf16 before 0.13,
    // float16 in 0.13–0.19 (both 2 B: conv 36,864 + 64 × 64 × 128 × 2 = 1,085,440 B), float32
    // from 0.20 (36,864 + 2,097,152 = 2,134,016 B).
    assert_eq!(state_page(nemotron(None), Version::new(0, 12)), 1_085_440);
    assert_eq!(state_page(nemotron(None), Version::new(0, 19)), 1_085_440);
    assert_eq!(state_page(nemotron(None), Version::new(0, 20)), 2_134_016);
    // With float32 in the config: float32 from 0.13, bf16 before.
    let f32 = Some(ModelDtype::F32);
    assert_eq!(state_page(nemotron(f32), Version::new(0, 13)), 2_134_016);
    assert_eq!(state_page(nemotron(f32), Version::new(0, 12)), 1_085_440);
}

#[test]
fn prefix_caching_picks_the_mamba_mode_by_release() {
    // Nemotron-H, FP8 KV (512 B per token per layer), 256,000 tokens, 1,000 blocks.
    let at = |v: Version, prefix: bool| {
        let mut s = scenario(
            nemotron(Some(ModelDtype::F32)),
            KvDtype::Fp8,
            KvMemory::Blocks(1000),
            256_000,
            v,
        );
        s.knobs.prefix_caching = prefix;
        let r = run(&s);
        (r.mamba_mode, r.block_size, r.blocks_per_request)
    };
    // Off: one state block per group, block 4,176: ⌈256,000 / 4,176⌉ = 62 + 4 groups × 1 = 66.
    assert_eq!(at(Version::new(0, 19), false), (MambaMode::None, 4176, 66));
    // On, 0.15–0.27, a Mamba2 model: `all`. The block is a whole number of 128-token chunks:
    // ⌈2,134,016 / 512⌉ = 4,168 tokens → ⌈4,168 / 128⌉ × 128 = 4,224; every block's state is
    // kept: ⌈256,000 / 4,224⌉ = 61 attention blocks + 4 groups × 61 state blocks = 305.
    assert_eq!(at(Version::new(0, 19), true), (MambaMode::All, 4224, 305));
    // From 0.28 prefix caching is on for hybrids by default and the mode is `align`: 2 state
    // blocks per group, 62 + 8 = 70; from 0.32 Mamba2 adds the prefill checkpoint: 62 + 12 = 74.
    assert_eq!(at(Version::new(0, 28), false), (MambaMode::Align, 4176, 70));
    assert_eq!(at(Version::new(0, 32), false), (MambaMode::Align, 4176, 74));
}

#[test]
fn group_size_rule_by_release() {
    // 10 full + 14 sliding layers (window 512). Up to 0.17 (factor 1.25; pure minimum up to
    // 0.11): 14 ≥ 12.5, groups of 10 → 1 + 2 groups, 6 padding layers (6 / 14 = 42.86 %).
    // From 0.18 (factor 1.5): 14 < 15, groups of 14 → 1 + 1, 4 padding full layers (4 / 10 = 40 %).
    let m = model("mixed", 24, 8, 8, 128, Attention::sliding(512, 14), None);
    let g = |v: Version| {
        let s = scenario(m.clone(), KvDtype::Auto, KvMemory::Blocks(1000), 4096, v);
        let g = run(&s).groups.unwrap();
        (
            g.group_size,
            g.full_groups + g.sliding_groups,
            g.padding_layers,
        )
    };
    assert_eq!(g(Version::new(0, 11)), (10, 3, 6));
    assert_eq!(g(Version::new(0, 17)), (10, 3, 6));
    assert_eq!(g(Version::new(0, 18)), (14, 2, 4));
}

#[test]
fn releases_0_14_to_0_18_check_only_group_0_when_starting() {
    // Qwen3.5-9B with 1 GiB: 1,073,741,824 // 17,301,504 = 62 blocks. 0.14–0.18 check one
    // request against group 0 only (the GDN group: 1 block × 8 layers × 2,162,688 B), so 0.18
    // starts and prints 62 / 500 = 0.12x; 0.19 counts all 500 blocks and refuses.
    let at = |v: Version| {
        run(&scenario(
            qwen35_9b(),
            KvDtype::Auto,
            KvMemory::Available(Bytes(GIB)),
            262_144,
            v,
        ))
    };
    let r = at(Version::new(0, 18));
    assert_eq!(r.error, None);
    assert_eq!(
        r.lines.last().unwrap(),
        "Maximum concurrency for 262,144 tokens per request: 0.12x"
    );
    assert!(at(Version::new(0, 19)).error.is_some());
}

#[test]
fn the_token_line_takes_the_smaller_of_the_block_and_the_length() {
    // Up to 0.20.0 tokens = blocks // groups × the smallest block over the groups; a state group
    // that keeps only the running state has a block of max_model_len. Nemotron-H with BF16 KV
    // (1,024 B per token): block 16 × ⌈2,134,016 / 16,384⌉ = 2,096 tokens; at max_model_len 2,048
    // the state group's block, 2,048, is the smaller: 1,000 // 5 groups × 2,048 = 409,600 tokens.
    let s = scenario(
        nemotron(Some(ModelDtype::F32)),
        KvDtype::Auto,
        KvMemory::Blocks(1000),
        2048,
        Version::new(0, 19),
    );
    let r = run(&s);
    assert_eq!(r.block_size, 2096);
    assert_eq!(r.gpu_kv_cache_tokens, Some(409_600));
    // At 32,768 tokens the attention block is the smaller: 200 × 2,096 = 419,200.
    let mut s = s;
    s.max_model_len = Some(32_768);
    assert_eq!(run(&s).gpu_kv_cache_tokens, Some(419_200));
}

#[test]
fn release_0_33_aligns_a_gdn_block_to_the_prefill_checkpoint_on_hopper() {
    // Prefix caching is on for hybrids from 0.28 (align mode); 0.33 then rounds the granule up to
    // lcm(16, 64) = 64 for GDN on Hopper: 64 × ⌈2,146,304 / (64 × 4,096)⌉ = 64 × 9 = 576 tokens,
    // page 576 × 4,096 = 2,359,296 B, padding (2,359,296 − 2,146,304) / 2,146,304 = 9.92 %.
    let mut s = scenario(
        qwen35_9b(),
        KvDtype::Auto,
        KvMemory::Blocks(1000),
        32_768,
        Version::new(0, 33),
    );
    s.arch = Arch::Hopper;
    let r = run(&s);
    assert_eq!(r.block_size, 576);
    assert_eq!(
        r.lines[1],
        "Padding mamba page size by 9.92% to ensure that mamba page size and attention page size are exactly equal."
    );
    // Elsewhere (no FlashInfer GDN prefill assumed) the block stays 528.
    s.arch = Arch::Other;
    assert_eq!(run(&s).block_size, 528);
}

#[test]
fn no_prefix_caching_turns_the_0_28_default_off() {
    // Qwen3.5-9B on 0.28: prefix caching on by default, align mode, 2 state blocks per group:
    // ⌈32,768 / 528⌉ = 63 + 3 × 2 = 69 blocks per request; --no-enable-prefix-caching: 63 + 3 = 66.
    let mut s = scenario(
        qwen35_9b(),
        KvDtype::Auto,
        KvMemory::Blocks(1000),
        32_768,
        Version::new(0, 28),
    );
    assert_eq!(run(&s).blocks_per_request, 69);
    s.knobs.no_prefix_caching = true;
    assert_eq!(run(&s).blocks_per_request, 66);
}

#[test]
fn falcon_h1_registers_attention_first_for_the_0_14_to_0_18_fit_check() {
    // 8 attention + 8 Mamba2 layers (16 heads × 64, state 128, 1 group, kernel 4, bf16):
    // state (1,024 + 256) × 3 × 2 + 16 × 64 × 128 × 2 = 7,680 + 262,144 = 269,824 B; attention
    // 2 × 2 × 128 × 2 = 1,024 B per token → block 16 × ⌈269,824 / 16,384⌉ = 272, page 278,528 B;
    // groups of 8, a block 2,228,224 B. Ten blocks of memory. 0.16 checks group 0 only: with the
    // state first (1 block) it starts; Falcon-H1's group 0 is attention, ⌈32,768 / 272⌉ = 121
    // blocks, and it refuses.
    let model_of = |family| {
        let st = StateLayers {
            kind: StateKind::Mamba2,
            layers: 8,
            conv_kernel: 4,
            heads: 16,
            head_dim: 64,
            state_dim: 128,
            groups: 1,
            conv_dtype: None,
            ssm_dtype: None,
            family,
            chunk_size: 256,
        };
        model("toy", 16, 8, 2, 128, Attention::Full, Some(st))
    };
    let at = |family| {
        let s = scenario(
            model_of(family),
            KvDtype::Auto,
            KvMemory::Available(Bytes(10 * 2_228_224)),
            32_768,
            Version::new(0, 16),
        );
        run(&s)
    };
    let generic = at(StateFamily::Generic);
    assert_eq!((generic.block_size, generic.error.is_none()), (272, true));
    assert!(at(StateFamily::FalconH1).error.is_some());
}

#[test]
fn example_6_with_decode_context_parallelism_over_8_ranks() {
    // GLM-5.1 DSA at TP 8 with DCP 8: each rank keeps every 8th token, so a 202,752-token request
    // takes ⌈⌈202,752 / 8⌉ / 64⌉ = ⌈25,344 / 64⌉ = 396 blocks per rank. With the 5,314 blocks of
    // the DCP8 log (19.47 GiB): 5,314 / 396 = 13.419 → "13.42x"; tokens on 0.20.0 (× DCP)
    // 5,314 × 64 × 8 = 2,720,768, and on 0.20.1+ int(13.419… × 202,752) = 2,720,768 too.
    let m = glm51();
    let mut s = scenario(
        m,
        KvDtype::Fp8,
        KvMemory::Blocks(5314),
        202_752,
        Version::new(0, 20),
    );
    s.tp = 8;
    s.knobs.dcp = 8;
    let r = run(&s);
    assert_eq!(r.blocks_per_request, 396);
    assert_eq!(
        r.lines,
        [
            "GPU KV cache size: 2,720,768 tokens",
            "Maximum concurrency for 202,752 tokens per request: 13.42x",
        ]
    );
    s.version = Version::at(0, 20, 2);
    assert_eq!(run(&s).gpu_kv_cache_tokens, Some(2_720_768));
}

#[test]
fn a_dcp_size_that_does_not_split_the_tp_group_is_refused() {
    // config/parallel.py: "tp_size=4 must be divisible bydcp_size=8." (0.16–0.25: the two
    // f-strings join without a space), with the space from 0.26.
    let mut s = scenario(
        qwen35_9b(),
        KvDtype::Auto,
        KvMemory::Blocks(1000),
        32_768,
        Version::new(0, 19),
    );
    s.tp = 4;
    s.knobs.dcp = 8;
    assert_eq!(
        run(&s).error_line().as_deref(),
        Some("ValueError: tp_size=4 must be divisible bydcp_size=8.")
    );
    s.version = Version::new(0, 26);
    assert_eq!(
        run(&s).error.as_deref(),
        Some("tp_size=4 must be divisible by dcp_size=8.")
    );
    s.knobs.dcp = 2;
    assert_eq!(run(&s).error, None);
}
