//! The vectors of VLLM-ACCOUNTING §8 and the rules of §0–§4, each derived by hand.

use kvbudget::core::model::{Attention, KvDtype, ModelDtype, ModelSpec};
use kvbudget::core::presets::{self, Arch};
use kvbudget::core::units::{fixed2, Bytes, GIB};
use kvbudget::core::vllm::Overhead;
use kvbudget::core::vllm::{
    printed_tokens, report, Engine, Family, KvMemory, RefusalKind, Report, Scenario, Version,
};

mod common;

fn scenario(id: &str, memory: KvMemory, len: u64, v: (u32, u32)) -> Scenario {
    let model = presets::model(id).unwrap().spec();
    common::vllm_scenario(model, Version::new(v.0, v.1), memory, len)
}

fn run(s: &Scenario) -> Report {
    report(s).unwrap()
}

#[test]
fn qwen3_14b_at_6_51_gib_on_0_11() {
    // ⌊6.51 × 2³⁰⌋ = 6,990,059,274 B; page = 2 × 16 × 8 × 128 × 2 = 65,536 B per layer;
    // 6,990,059,274 // 65,536 = 106,659; // 40 layers = 2,666 blocks; × 16 = 42,656 tokens;
    // 2,666 / ⌈32,768 / 16⌉ = 2,666 / 2,048 = 1.3018 → "1.30x".
    let s = scenario(
        "Qwen/Qwen3-14B",
        KvMemory::Available(Bytes::from_gib_f64(6.51).unwrap()),
        32_768,
        (0, 11),
    );
    let r = run(&s);
    assert_eq!(r.num_gpu_blocks, Some(2666));
    assert_eq!(
        r.lines,
        [
            "Available KV cache memory: 6.51 GiB",
            "GPU KV cache size: 42,656 tokens",
            "Maximum concurrency for 32,768 tokens per request: 1.30x"
        ]
    );
    assert_eq!(r.error, None);
}

#[test]
fn one_line_form_from_0_28() {
    // Same numbers; 0.28+ prints them on one line. int(2666 / 2048 × 32768) = 42,656 exactly.
    let s = scenario(
        "Qwen/Qwen3-14B",
        KvMemory::Available(Bytes::from_gib_f64(6.51).unwrap()),
        32_768,
        (0, 33),
    );
    let r = run(&s);
    assert_eq!(
        r.lines[1],
        "GPU KV cache size: 42,656 tokens, Maximum concurrency for 32,768 tokens per request: 1.30x"
    );
    // 0.8–0.9 print the same two lines as 0.10–0.27 for a uniform model.
    let s = scenario(
        "Qwen/Qwen3-14B",
        KvMemory::Available(Bytes::from_gib_f64(6.51).unwrap()),
        32_768,
        (0, 9),
    );
    assert_eq!(run(&s).lines[1], "GPU KV cache size: 42,656 tokens");
}

#[test]
fn available_memory_text_by_version() {
    // 4.4 GiB exactly prints "4.40" with %.2f (≤ 0.29) and "4.4" with round(x, 2) (0.30+).
    let b = Bytes(44 * GIB / 10 + 1);
    let s = scenario("Qwen/Qwen3-8B", KvMemory::Available(b), 4096, (0, 26));
    assert_eq!(run(&s).lines[0], "Available KV cache memory: 4.40 GiB");
    let s = scenario("Qwen/Qwen3-8B", KvMemory::Available(b), 4096, (0, 30));
    assert_eq!(run(&s).lines[0], "Available KV cache memory: 4.4 GiB");
}

#[test]
fn llama_on_a_3090_v0() {
    // 1,952 blocks × 16 = 31,232 tokens; 31,232 / 20,000 = 1.5616 → "1.56x" (no thousands separator in V0).
    // CPU blocks: 4 GiB swap / (16 × 32 layers × 2 × 8 × 128 × 2 = 2 MiB) = 2,048.
    let s = scenario(
        "meta-llama/Llama-3.1-8B-Instruct",
        KvMemory::Blocks(1952),
        20_000,
        (0, 6),
    );
    let r = run(&s);
    assert_eq!(
        r.lines,
        [
            "# GPU blocks: 1952, # CPU blocks: 2048",
            "Maximum concurrency for 20000 tokens per request: 1.56x"
        ]
    );
    assert_eq!(r.gpu_kv_cache_tokens, Some(31_232));
    assert_eq!(r.error, None);
}

#[test]
fn llama_at_29000_does_not_fit_v0() {
    // 1,478 blocks × 16 = 23,648 tokens < 29,000 → V0's error.
    let s = scenario(
        "meta-llama/Llama-3.1-8B-Instruct",
        KvMemory::Blocks(1478),
        29_000,
        (0, 6),
    );
    let r = run(&s);
    assert_eq!(
        r.error.as_deref(),
        Some(
            "The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache \
             (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
        )
    );
}

#[test]
fn llama_at_29000_does_not_fit_v1() {
    // Needed: ⌈29,000 / 16⌉ = 1,813 blocks × 65,536 B × 32 layers = 3,802,136,576 B = 3.54 GiB.
    // Available: 1,478 blocks × 2 MiB = 3,099,590,656 B = 2.89 GiB; the longest request that fits
    // is 1,478 × 16 = 23,648 tokens. "models's" is vLLM's own typo up to 0.21.
    let s = scenario(
        "meta-llama/Llama-3.1-8B-Instruct",
        KvMemory::Blocks(1478),
        29_000,
        (0, 11),
    );
    let r = run(&s);
    assert_eq!(
        r.error.as_deref(),
        Some(
            "To serve at least one request with the models's max seq len (29000), (3.54 GiB KV cache is needed, which is \
             larger than the available KV cache memory (2.89 GiB). Based on the available memory, the estimated maximum \
             model length is 23648. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when \
             initializing the engine."
        )
    );
    assert_eq!(r.num_gpu_blocks, None);
    let s = scenario(
        "meta-llama/Llama-3.1-8B-Instruct",
        KvMemory::Blocks(1478),
        29_000,
        (0, 23),
    );
    assert!(run(&s)
        .error
        .unwrap()
        .contains("with the model's max seq len (29000)"));
}

fn blocks(n: u64, len: u64, v: (u32, u32)) -> Report {
    run(&scenario(
        "meta-llama/Llama-3.1-8B-Instruct",
        KvMemory::Blocks(n),
        len,
        v,
    ))
}

#[test]
fn float_truncation_from_0_21() {
    // These request lengths do not fit one request, so vLLM would stop at its fit check; the
    // printing rule is tested on its own. ⌈L / 16⌉ blocks per request.
    let p = |fam, n, len: u64| printed_tokens(fam, n, len.div_ceil(16), 1, 16, len);
    // L = 32,000 → 2,000 blocks per request; 1,001 / 2,000 = 0.5005 (stored as 0.50049999…);
    // × 32,000 = 16,015.99… → int → 16,015 from 0.21; 0.10–0.20 print 1,001 × 16 = 16,016.
    assert_eq!(p(Family::V1Late, 1001, 32_000).0, 16_015);
    assert_eq!(p(Family::V1OneLine, 1001, 32_000).0, 16_015);
    assert_eq!(p(Family::V1Mid, 1001, 32_000).0, 16_016);
    assert_eq!(fixed2(p(Family::V1Late, 1001, 32_000).1), "0.50");
    // L = 100,000 → 6,250 blocks per request; 7 / 6,250 × 100,000 = 111.99… → 111.
    assert_eq!(p(Family::V1Late, 7, 100_000).0, 111);
    // L = 10,001 → 626 blocks per request; 5,000 / 626 × 10,001 = 79,880.56 → 79,880; 7.987 → "7.99x".
    let r = blocks(5000, 10_001, (0, 25));
    assert_eq!(r.lines[0], "GPU KV cache size: 79,880 tokens");
    assert_eq!(
        r.lines[1],
        "Maximum concurrency for 10,001 tokens per request: 7.99x"
    );
}

#[test]
fn concurrency_ties_round_to_even() {
    // 2,304 blocks / 2,048 per request = 1.125 exactly → "1.12x" (Python's %.2f).
    let r = blocks(2304, 32_768, (0, 11));
    assert_eq!(
        r.lines[1],
        "Maximum concurrency for 32,768 tokens per request: 1.12x"
    );
}

#[test]
fn seed_lab_log() {
    // 2,960 blocks × 16 = 47,360 tokens ("# GPU blocks: 2960" ≡ "GPU KV cache size: 47,360 tokens").
    let r = run(&scenario(
        "Qwen/Qwen3-14B-AWQ",
        KvMemory::Blocks(2960),
        8192,
        (0, 11),
    ));
    assert_eq!(r.lines[0], "GPU KV cache size: 47,360 tokens");
    // 2,960 / 512 blocks per 8K request = 5.78 → 5 whole sequences.
    assert_eq!(r.max_seqs_capped, Some(5));
}

#[test]
fn budget_path_on_an_rtx_4090() {
    // Qwen3-14B-AWQ on an RTX 4090 at util 0.90, v0.11 (float product):
    // total = ⌊23.55 × 2³⁰⌋ = 25,286,619,955 B; × 0.9 = 22,757,957,959.5 → 22,757,957,959;
    // − weights ⌊9.44 × 2³⁰⌋ = 10,136,122,818 − overhead 1 GiB 1,073,741,824 = 11,548,093,317 B;
    // FP8 page = 2 × 16 × 8 × 128 × 1 = 32,768 B; 11,548,093,317 // 32,768 = 352,419; // 40 = 8,810 blocks;
    // 8,810 × 16 = 140,960 tokens; 8,810 / 512 = 17.207 → "17.21x".
    let gpu = presets::gpu("rtx-4090").unwrap();
    let mut s = scenario(
        "Qwen/Qwen3-14B-AWQ",
        KvMemory::Budget {
            gpu_total: gpu.total,
            util: 0.9,
            weights: presets::model("Qwen/Qwen3-14B-AWQ").unwrap().spec.weights,
            overhead: Overhead::SEED,
        },
        8192,
        (0, 11),
    );
    s.kv_dtype = KvDtype::Fp8;
    let r = run(&s);
    assert_eq!(gpu.total.0, 25_286_619_955);
    assert_eq!(r.available_kv_bytes, Some(11_548_093_317));
    assert_eq!(r.num_gpu_blocks, Some(8810));
    assert_eq!(r.lines[1], "GPU KV cache size: 140,960 tokens");
    assert_eq!(
        r.lines[2],
        "Maximum concurrency for 8,192 tokens per request: 17.21x"
    );
}

#[test]
fn no_memory_left() {
    // Weights larger than the card (61.02 GiB on 23.55 GiB) never load: out of memory while
    // loading, not vLLM's "No available memory" error (which needs the weights loaded first).
    let budget = |weights: u64| KvMemory::Budget {
        gpu_total: presets::gpu("rtx-4090").unwrap().total,
        util: 0.9,
        weights: Bytes(weights),
        overhead: Overhead::SEED,
    };
    let r = run(&scenario(
        "Qwen/Qwen3-32B",
        budget(65_524_246_528),
        8192,
        (0, 11),
    ));
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::WeightsDoNotFit);
    assert!(r.lines.is_empty());
    // 22 GiB of weights load (22 + 0.5 ≤ 23.55 GiB) but exceed ⌊25,286,619,955 × 0.9⌋ =
    // 22,757,957,959 B requested: vLLM's own error.
    let r = run(&scenario("Qwen/Qwen3-32B", budget(22 << 30), 8192, (0, 11)));
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::NoKvMemory);
    assert_eq!(
        r.error.as_deref(),
        Some("No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.")
    );
}

#[test]
fn gemma2_sliding_window_groups() {
    // gemma-2-9b: 21 sliding (window 4,096) + 21 full layers → 2 groups of 21, no padding.
    // page = 2 × 16 × 8 × 256 × 2 = 131,072 B. 10 GiB // 131,072 = 81,920; // 21 = 3,900 blocks.
    // 0.11: tokens = 3,900 // 2 groups × 16 = 31,200.
    // Per 8,192-token request: full ⌈8192/16⌉ = 512; sliding ⌈min(4095 + 2048, 8192)/16⌉ + 1 = 384 + 1 = 385;
    // 3,900 / 897 = 4.348 → "4.35x".
    let s = scenario(
        "google/gemma-2-9b-it",
        KvMemory::Available(Bytes(10 * GIB)),
        8192,
        (0, 11),
    );
    let r = run(&s);
    let g = r.groups.unwrap();
    assert_eq!(
        (
            g.group_size,
            g.full_groups,
            g.sliding_groups,
            g.padding_layers
        ),
        (21, 1, 1, 0)
    );
    assert_eq!(r.num_gpu_blocks, Some(3900));
    assert_eq!(r.blocks_per_request, 897);
    assert_eq!(r.lines[1], "GPU KV cache size: 31,200 tokens");
    assert_eq!(
        r.lines[2],
        "Maximum concurrency for 8,192 tokens per request: 4.35x"
    );
    // From 0.26 the sliding layers keep 2 × max_num_batched_tokens: ⌈min(4095 + 4096, 8192)/16⌉ + 1 = 513;
    // 3,900 / 1,025 = 3.80488 → int(3.80488 × 8,192 = 31,169.56) = 31,169 tokens, "3.80x".
    let s = scenario(
        "google/gemma-2-9b-it",
        KvMemory::Available(Bytes(10 * GIB)),
        8192,
        (0, 26),
    );
    let r = run(&s);
    assert_eq!(r.blocks_per_request, 1025);
    assert_eq!(r.lines[1], "GPU KV cache size: 31,169 tokens");
    assert_eq!(
        r.lines[2],
        "Maximum concurrency for 8,192 tokens per request: 3.80x"
    );
    // Before 0.10 there is no hybrid allocator: all 42 layers are full.
    // 81,920 // 42 = 1,950 blocks × 16 = 31,200 tokens; 31,200 / 8,192 = 3.81x.
    let s = scenario(
        "google/gemma-2-9b-it",
        KvMemory::Available(Bytes(10 * GIB)),
        8192,
        (0, 9),
    );
    let r = run(&s);
    assert_eq!(r.num_gpu_blocks, Some(1950));
    assert_eq!(
        r.lines[2],
        "Maximum concurrency for 8,192 tokens per request: 3.81x"
    );
}

fn gemma3(layers: u64, sliding: u64) -> ModelSpec {
    ModelSpec {
        id: "gemma-3".into(),
        layers,
        attention_heads: 32,
        kv_heads: 16,
        head_dim: 128,
        attention: Attention::sliding(1024, sliding),
        dtype: ModelDtype::Bf16,
        max_position: 131_072,
        vocab: 262_208,
        weights: Bytes(0),
        extras: Default::default(),
        state: None,
    }
}

#[test]
fn gemma3_padding_layers() {
    // Gemma-3-27B: 62 layers, every 6th full → 10 full + 52 sliding. Groups of 10: 1 full group,
    // ⌈52/10⌉ = 6 sliding groups = 60 slots → 8 padding layers; 8 / 52 = 15.38 %. 62 → 70 slots.
    let mut s = scenario(
        "Qwen/Qwen3-8B",
        KvMemory::Available(Bytes(20 * GIB)),
        8192,
        (0, 11),
    );
    s.model = gemma3(62, 52);
    let r = run(&s);
    let g = r.groups.unwrap();
    assert_eq!(
        (
            g.group_size,
            g.full_groups,
            g.sliding_groups,
            g.padding_layers
        ),
        (10, 1, 6, 8)
    );
    assert_eq!(g.group_size * (g.full_groups + g.sliding_groups), 70);
    assert_eq!(
        r.lines[1],
        "Add 8 padding layers, may waste at most 15.38% KV cache memory"
    );
    // Gemma-3-4B: 34 layers → 5 full + 29 sliding; groups of 5: 1 + 6 → 35 slots, 1 padding layer.
    s.model = gemma3(34, 29);
    let g = run(&s).groups.unwrap();
    assert_eq!(
        (
            g.padding_layers,
            g.group_size * (g.full_groups + g.sliding_groups)
        ),
        (1, 35)
    );
}

#[test]
fn mla_latent_and_block_size() {
    // DeepSeek-V2-Lite: 27 × 576 × 2 = 31,104 B/token; not split by TP.
    let mut s = scenario(
        "deepseek-ai/DeepSeek-V2-Lite",
        KvMemory::Available(Bytes(10 * GIB)),
        8192,
        (0, 11),
    );
    let r = run(&s);
    assert_eq!(r.bytes_per_token.0, 31_104);
    assert_eq!(r.block_size, 16);
    s.tp = 2;
    assert_eq!(run(&s).bytes_per_token.0, 31_104);
    // On Hopper FlashMLA forces 64-token blocks: page = 64 × 576 × 2 = 73,728 B per layer.
    s.arch = Arch::Hopper;
    let r = run(&s);
    assert_eq!((r.block_size, r.page_bytes), (64, 73_728));
    // 10 GiB // 73,728 // 27 = 5,393 blocks × 64 = 345,152 tokens.
    assert_eq!(r.num_gpu_blocks, Some(5393));
    assert_eq!(r.lines[1], "GPU KV cache size: 345,152 tokens");
}

#[test]
fn tensor_and_pipeline_parallel() {
    // Qwen3-14B, TP 2: 8 KV heads / 2 = 4 per rank → 2 × 40 × 4 × 128 × 2 = 81,920 B/token per GPU.
    let mut s = scenario(
        "Qwen/Qwen3-14B",
        KvMemory::Available(Bytes(10 * GIB)),
        32_768,
        (0, 11),
    );
    s.tp = 2;
    assert_eq!(run(&s).bytes_per_token.0, 81_920);
    // TP 16 > 8 KV heads: one (replicated) head per rank → 2 × 40 × 1 × 128 × 2 = 20,480 B.
    s.tp = 16;
    assert_eq!(run(&s).bytes_per_token.0, 20_480);
    // PP 3 over 40 layers: [13, 14, 13]; the 14-layer stage sets the cache:
    // 10 GiB // 65,536 // 14 = 11,702 blocks → 187,232 tokens.
    s.tp = 1;
    s.pp = 3;
    let r = run(&s);
    assert_eq!(r.stage_layers, 14);
    assert_eq!(r.num_gpu_blocks, Some(11_702));
    assert_eq!(r.lines[1], "GPU KV cache size: 187,232 tokens");
}

#[test]
fn ceil_of_the_request_from_0_14() {
    // total 1,000,000,001 B × 0.3 = 300,000,000.3 → 300,000,000 (0.11) vs 300,000,001 (0.14).
    let b = |v: (u32, u32)| {
        let s = scenario(
            "Qwen/Qwen3-8B",
            KvMemory::Budget {
                gpu_total: Bytes(1_000_000_001),
                util: 0.3,
                weights: Bytes(0),
                overhead: Overhead::Fixed(Bytes(0)),
            },
            16,
            v,
        );
        run(&s).available_kv_bytes
    };
    assert_eq!(b((0, 11)), Some(300_000_000));
    assert_eq!(b((0, 14)), Some(300_000_001));
}

#[test]
fn util_default_follows_version() {
    assert_eq!(Version::new(0, 19).default_util(), 0.90);
    assert_eq!(Version::new(0, 20).default_util(), 0.92);
    assert_eq!(Version::new(0, 7).default_engine(), Engine::V0);
    assert_eq!(Version::parse("v0.19.0").unwrap(), Version::new(0, 19));
    assert!(Version::parse("0.99").is_err());
    assert!(Version::parse("banana").is_err());
}

#[test]
fn max_model_len_beyond_the_model() {
    let s = scenario(
        "Qwen/Qwen3-8B",
        KvMemory::Available(Bytes(10 * GIB)),
        65_536,
        (0, 19),
    );
    assert!(run(&s).error.unwrap().starts_with(
        "User-specified max_model_len (65536) is greater than the derived max_model_len"
    ));
}

#[test]
fn budget_weights_split_over_gpus() {
    // Qwen3-14B (⌊27.52 × 2³⁰⌋ = 29,549,374,996 B of weights) on two H100s (⌊79.22 × 2³⁰⌋ = 85,061,827,297 B),
    // TP 2, util 0.9, v0.19 (ceil): ⌈85,061,827,297 × 0.9⌉ = 76,555,644,568;
    // − ⌈29,549,374,996 / 2⌉ = 14,774,687,498 − 1 GiB 1,073,741,824 = 60,707,215,246 B per GPU.
    let h100 = presets::gpu("h100-sxm").unwrap();
    let mut s = scenario(
        "Qwen/Qwen3-14B",
        KvMemory::Budget {
            gpu_total: h100.total,
            util: 0.9,
            weights: presets::model("Qwen/Qwen3-14B").unwrap().spec.weights,
            overhead: Overhead::SEED,
        },
        32_768,
        (0, 19),
    );
    s.tp = 2;
    assert_eq!(h100.total.0, 85_061_827_297);
    assert_eq!(run(&s).available_kv_bytes, Some(60_707_215_246));
}

#[test]
fn the_quiet_count_equals_the_full_reports() {
    // `whole_sequences` (what the charts' curves ask about fifty times per dtype on every edit)
    // skips the printed lines and messages; its count must be the full report's, refusals
    // included: every preset, KV dtype and version family, pools from nothing to 40 GiB, lengths
    // from 16 tokens to 1M (past every model's limit).
    use kvbudget::core::vllm::whole_sequences;
    let mut checked = 0;
    for m in kvbudget::core::presets::MODELS.iter() {
        for kv in [KvDtype::Auto, KvDtype::Fp8] {
            for v in [(0, 6), (0, 10), (0, 11), (0, 19), (0, 28), (0, 33)] {
                for gib in [0.0, 0.5, 6.51, 40.0] {
                    for len in [16, 4_096, 40_000, 131_072, 1 << 20] {
                        let mut s = scenario(
                            m.id(),
                            KvMemory::Available(Bytes::from_gib_f64(gib).unwrap()),
                            len,
                            v,
                        );
                        s.kv_dtype = kv;
                        let full = report(&s).map(|r| r.whole_sequences()).unwrap_or(0);
                        assert_eq!(
                            whole_sequences(&s),
                            full,
                            "{} {kv:?} {v:?} {gib} GiB {len}",
                            m.id()
                        );
                        checked += usize::from(full > 0);
                    }
                }
            }
        }
    }
    // Not only zeros: many of these fit.
    assert!(checked > 500, "{checked}");
}
