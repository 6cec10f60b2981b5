//! Gemma 4 as vLLM sizes it: sliding layers 256 wide, full-attention layers 512 wide with KV
//! heads of their own (26B-A4B, 31B: `attention_k_eq_v`), the last layers of E2B/E4B reading an
//! earlier layer's cache (`num_kv_shared_layers`). Fixtures: tests/fixtures/configs (the field
//! values of transformers' Gemma 4 converter). vLLM's rules: `gemma4.py`,
//! `v1/core/kv_cache_utils.py` (`unify_kv_cache_spec_page_size`,
//! `_get_kv_cache_groups_uniform_page_size`, `get_max_concurrency_for_kv_cache_config`), 0.22–0.25.

use kvbudget::core::config::import;
use kvbudget::core::model::{Attention, HeadShape, KvDtype, SharedKv};
use kvbudget::core::units::GIB;
use kvbudget::core::vllm::{report, KvMemory, Scenario, Version};

mod common;

fn config(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/configs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Gemma 4 `name` at 32,768 tokens; `mnbt` None: vLLM's default batch (2,048 on a GPU under
/// 70 GiB, raised by the release where it raises it).
fn scenario(name: &str, version: Version, memory: KvMemory, mnbt: Option<u64>) -> Scenario {
    let model = import(&config(name), name).unwrap().spec;
    Scenario {
        max_num_batched_tokens: mnbt,
        ..common::vllm_scenario(model, version, memory, 32_768)
    }
}

#[test]
fn e2b_reads_its_two_shapes_and_its_shared_layers() {
    // 35 layers, layer_types (4 sliding + 1 full) × 7: 28 sliding, 7 full. The last 20 (layers
    // 15–34) share: layers 19, 24, 29, 34 are full, 16 sliding. Sliding: 1 KV head × 256;
    // full: global_head_dim 512, and without attention_k_eq_v num_key_value_heads (1).
    let m = import(&config("gemma-4-E2B-it"), "google/gemma-4-E2B-it").unwrap();
    assert_eq!(
        m.spec.attention,
        Attention::SlidingWindow {
            window: 512,
            sliding_layers: 28,
            full: Some(HeadShape {
                kv_heads: 1,
                head_dim: 512
            }),
            shared: SharedKv {
                sliding: 16,
                full: 4
            },
        }
    );
    // Per token, the layers with a cache: 12 sliding × 2 × 1 × 256 × 2 B + 3 full × 2 × 1 × 512
    // × 2 B = 12,288 + 6,144 = 18,432 B.
    let per_token =
        kvbudget::core::capacity::bytes_per_token(&m.spec, KvDtype::Auto, 1, 1).unwrap();
    assert_eq!(per_token.0, 18_432);
    // Were every one of the 8 query heads a KV head, on the same 15 layers: 12 × 2 × 8 × 256 × 2
    // + 3 × 2 × 8 × 512 × 2 = 98,304 + 49,152 = 147,456 B.
    let mha = kvbudget::core::capacity::bytes_per_token_mha(&m.spec, KvDtype::Auto).unwrap();
    assert_eq!(mha.0, 147_456);
}

#[test]
fn e2b_weights_count_the_per_layer_embeddings() {
    // Parameters (bf16), from the config: the per-layer embedding 262,144 × 35 × 256 =
    // 2,348,810,240 and its projection 1,536 × 8,960 = 13,762,560; the tied embedding 262,144 ×
    // 1,536 = 402,653,184; attention, 28 sliding layers × (2 × 1,536 × 8 × 256 + 2 × 1,536 × 256)
    // + 7 full × (2 × 1,536 × 8 × 512 + 2 × 1,536 × 512) = 198,180,864 + 99,090,432; MLPs 35
    // layers + 20 double-wide × 3 × 1,536 × 6,144 = 1,557,135,360; per-layer gates 35 × 2 × 1,536
    // × 256 = 27,525,120; norms 35 × 2 × 1,536 + 1,536 = 109,056. Sum 4,647,266,816 × 2 B =
    // 8.66 GiB; the vision and audio towers are not counted (8.89 GiB logged by vLLM on T4/L4).
    let m = import(&config("gemma-4-E2B-it"), "google/gemma-4-E2B-it").unwrap();
    assert_eq!(m.weights.params, 4_647_266_816);
    assert_eq!(m.spec.weights.0, 4_647_266_816 * 2);
}

#[test]
fn e2b_on_vllm_025_from_a_known_kv_memory() {
    // 12.75 GiB = 51/4 × 2³⁰ = 13,690,208,256 B. Pages at block 16: sliding 16 × 2 × 1 × 256 × 2 = 16,384 B,
    // full 16 × 2 × 1 × 512 × 2 = 32,768 B: the sliding block is raised to 32 tokens. Groups of
    // 3 layers (12 sliding, 3 full; 12 ≥ 1.5 × 3): 4 sliding groups and 1 full. Blocks
    // 13,690,208,256 / 32,768 / 3 = 139,264. Per request at 32,768 tokens: full ⌈32,768 / 16⌉ =
    // 2,048; each sliding group ⌈min(511 + 2,048, 32,768) / 32⌉ + 1 = 81, × 4 = 324; 2,372 in all.
    // 139,264 / 2,372 = 58.7116… → "58.71x"; int(58.7116… × 32,768) = 1,923,862.
    let s = scenario(
        "gemma-4-E2B-it",
        Version::new(0, 25),
        KvMemory::Available(kvbudget::core::units::Bytes(51 * GIB / 4)),
        Some(2048),
    );
    let r = report(&s).unwrap();
    assert_eq!(r.num_gpu_blocks, Some(139_264));
    assert_eq!(r.blocks_per_request, 2_372);
    assert_eq!(r.lines[1], "GPU KV cache size: 1,923,862 tokens");
    assert_eq!(
        r.lines[2],
        "Maximum concurrency for 32,768 tokens per request: 58.71x"
    );
}

#[test]
fn a26b_on_vllm_025_gives_the_logged_tokens() {
    // The L40S log (vLLM 0.25, max_model_len 32,768): "Available KV cache memory: 12.75 GiB",
    // "GPU KV cache size: 321,600 tokens", "9.81x". Pages at block 16: sliding 16 × 2 × 8 × 256
    // × 2 = 131,072 B; full (attention_k_eq_v: 2 global KV heads × 512) 65,536 B, so the full
    // block is raised to 32 tokens. Groups of 5 (25 sliding, 5 full): 5 sliding, 1 full.
    // Per request: full ⌈32,768 / 32⌉ = 1,024; sliding ⌈min(1,023 + 2,496, 32,768) / 16⌉ + 1 =
    // 221, × 5 = 1,105; 2,129 in all (2,496: vLLM raises max_num_batched_tokens to one video
    // item, 32 frames × 78 tokens, for this bidirectional-vision model). 20,895 blocks × 5 ×
    // 131,072 B = 12.7533 GiB ("12.75"); 20,895 / 2,129 = 9.8145… → "9.81x";
    // int(9.8145… × 32,768) = 321,600.
    let s = scenario(
        "gemma-4-26B-A4B-it",
        Version::new(0, 25),
        KvMemory::Blocks(20_895),
        Some(2496),
    );
    let r = report(&s).unwrap();
    assert_eq!(r.blocks_per_request, 2_129);
    assert!(
        r.lines
            .contains(&"GPU KV cache size: 321,600 tokens".to_string()),
        "{:?}",
        r.lines
    );
    assert!(r
        .lines
        .contains(&"Maximum concurrency for 32,768 tokens per request: 9.81x".to_string()));
}

#[test]
fn vllm_before_0_19_does_not_know_gemma_4() {
    let s = scenario(
        "gemma-4-E2B-it",
        Version::new(0, 18),
        KvMemory::Blocks(1000),
        Some(2048),
    );
    let e = report(&s).unwrap_err().to_string();
    assert!(e.contains("its model class is first in vLLM 0.19;"), "{e}");
}

#[test]
fn gemma_4_keys_on_another_model_are_still_refused() {
    // Qwen3-8B's config with Gemma 4's KV sharing: not a layout kvbudget reads for Qwen3.
    let mut c: serde_json::Value = serde_json::from_str(&config("Qwen3-8B")).unwrap();
    c["num_kv_shared_layers"] = serde_json::json!(4);
    let e = import(&c.to_string(), "q").unwrap_err().to_string();
    assert!(e.contains("num_kv_shared_layers is 4"), "{e}");
}

#[test]
fn sglang_refuses_gemma_4_by_name() {
    use kvbudget::core::sglang::{report, Scenario, Version};
    let m = import(&config("gemma-4-E2B-it"), "google/gemma-4-E2B-it")
        .unwrap()
        .spec;
    let s = Scenario::new(m, Version::parse("0.5.23").unwrap(), Some(24_564));
    let e = report(&s).unwrap_err().to_string();
    assert!(e.contains("layers sharing a KV cache (Gemma 4)"), "{e}");
}

/// 26B-A4B with 20,895 blocks at 32K under `version`, the default batch (`vllm serve` on a GPU
/// under 70 GiB: 2,048 tokens): the printed token count and concurrency.
fn a26b_default_batch(version: Version) -> (u64, String) {
    let s = scenario(
        "gemma-4-26B-A4B-it",
        version,
        KvMemory::Blocks(20_895),
        None,
    );
    let r = report(&s).unwrap();
    (
        r.gpu_kv_cache_tokens.unwrap(),
        kvbudget::core::floatfmt::fixed(r.max_concurrency.unwrap(), 2),
    )
}

#[test]
fn a26b_across_the_releases_that_run_it() {
    // Sliding blocks per request ⌈min(1,023 + M, 32,768) / 16⌉ + 1, five groups; the full group
    // 1,024. 0.19–0.20.0 print (blocks // groups) × 16 = 20,895 // 6 × 16 = 55,712 tokens
    // (M = 2,048: ⌈3,071 / 16⌉ + 1 = 193, 5 × 193 + 1,024 = 1,989 per request, 10.51x).
    assert_eq!(
        a26b_default_batch(Version::new(0, 19)),
        (55_712, "10.51".into())
    );
    // 0.20.1–0.21 print int(concurrency × 32,768); M is still 2,048: 20,895 / 1,989 = 10.5052…
    // → 344,236 tokens.
    assert_eq!(
        a26b_default_batch(Version::new(0, 21)),
        (344_236, "10.51".into())
    );
    // 0.22 raises M to the 2,496-token video item: 2,129 per request, 321,600 tokens, 9.81x.
    assert_eq!(
        a26b_default_batch(Version::new(0, 22)),
        (321_600, "9.81".into())
    );
    // From 0.26 a sliding layer keeps two steps in flight (2 × 2,496): ⌈(1,023 + 4,992) / 16⌉ + 1
    // = 377, × 5 + 1,024 = 2,909 per request: 20,895 / 2,909 = 7.1829… → 235,368 tokens, 7.18x.
    assert_eq!(
        a26b_default_batch(Version::new(0, 26)),
        (235_368, "7.18".into())
    );
}

#[test]
fn a_config_in_transformers_5_15_form_reads_the_same() {
    // transformers 5.15+ writes the full layers' shape per layer (`per_layer_config`) instead of
    // global_head_dim / num_global_key_value_heads: 26B-A4B's full layers are 5, 11, 17, 23, 29.
    let old = import(&config("gemma-4-26B-A4B-it"), "g").unwrap().spec;
    let mut c: serde_json::Value = serde_json::from_str(&config("gemma-4-26B-A4B-it")).unwrap();
    let t = c["text_config"].as_object_mut().unwrap();
    t.remove("global_head_dim");
    t.remove("num_global_key_value_heads");
    let full = serde_json::json!({"head_dim": 512, "num_key_value_heads": 2});
    let per: serde_json::Map<String, serde_json::Value> = [5, 11, 17, 23, 29]
        .iter()
        .map(|i| (i.to_string(), full.clone()))
        .collect();
    t.insert("per_layer_config".into(), per.clone().into());
    let new = import(&c.to_string(), "g").unwrap().spec;
    assert_eq!(new.attention, old.attention);
    // A sliding layer (0) with a shape of its own is not a layout kvbudget reads: refused by name.
    let mut odd = per;
    odd.insert("0".into(), serde_json::json!({"head_dim": 128}));
    c["text_config"]["per_layer_config"] = odd.into();
    let e = import(&c.to_string(), "g").unwrap_err().to_string();
    assert!(e.starts_with("per_layer_config is"), "{e}");
}

#[test]
fn e4b_and_31b_at_a_known_kv_memory() {
    let tokens = |name: &str, mnbt: u64| {
        let s = scenario(
            name,
            Version::new(0, 25),
            KvMemory::Available(kvbudget::core::units::Bytes(51 * GIB / 4)),
            Some(mnbt),
        );
        let r = report(&s).unwrap();
        (
            r.num_gpu_blocks.unwrap(),
            r.blocks_per_request,
            r.gpu_kv_cache_tokens.unwrap(),
        )
    };
    // E4B: 42 layers, (5 sliding + 1 full) × 7, the last 18 shared (3 full, 15 sliding): 20
    // sliding and 4 full keep a cache. Pages at 16 tokens: sliding 16 × 2 × 2 × 256 × 2 =
    // 32,768 B, full 65,536 B, so the sliding block is raised to 32. Groups of 4: 5 sliding + 1
    // full. 13,690,208,256 / 65,536 / 4 = 52,224 blocks; per request 2,048 + 5 × (⌈2,559 / 32⌉ +
    // 1 = 81) = 2,453; 52,224 / 2,453 = 21.2898… → int(× 32,768) = 697,625.
    assert_eq!(tokens("gemma-4-E4B-it", 2048), (52_224, 2_453, 697_625));
    // 31B: 50 sliding (16 KV heads × 256), 10 full (4 × 512). Pages: 262,144 B and 131,072 B,
    // the full block raised to 32; groups of 10. 13,690,208,256 / 262,144 / 10 = 5,222 blocks;
    // per request 1,024 + 5 × (⌈3,519 / 16⌉ + 1 = 221) = 2,129 (the 2,496-token video batch);
    // 5,222 / 2,129 = 2.4528… → 80,373.
    assert_eq!(tokens("gemma-4-31B-it", 2496), (5_222, 2_129, 80_373));
}

#[test]
fn a26b_on_an_a100_as_a_blog_logged_it() {
    // myoceane.fr's A100 80GB run (vLLM ~0.19, --max-model-len 131072 --enforce-eager
    // --gpu-memory-utilization 0.9): "Model loading took 48.5 GiB", "Available KV cache memory:
    // 21.5 GiB". The estimate from the preset, within 1 % (it gives 21.46 GiB).
    let (s, _) = kvbudget::core::query::decode(
        "model=google/gemma-4-26B-A4B-it&gpu=a100-80gb&vllm=0.19&ctx=131072&util=0.9&eager=1",
    );
    let o = kvbudget::core::calc::evaluate(&s).unwrap();
    let gib = o.chosen.report.available_kv_bytes.unwrap() as f64 / GIB as f64;
    assert!((gib - 21.5).abs() / 21.5 < 0.01, "{gib}");
}

#[test]
fn the_presets_say_both_shapes_and_the_shared_layers() {
    let e2b = kvbudget::core::presets::model("google/gemma-4-E2B-it")
        .unwrap()
        .spec();
    assert_eq!(
        e2b.kinds_text(),
        "1 KV heads × 256, window 512 on 28 layers; full layers 1 KV heads × 512; 20 layers share a cache"
    );
    let a26b = kvbudget::core::presets::model("google/gemma-4-26B-A4B-it")
        .unwrap()
        .spec();
    assert_eq!(
        a26b.kinds_text(),
        "8 KV heads × 256, window 1,024 on 25 layers; full layers 2 KV heads × 512"
    );
}
