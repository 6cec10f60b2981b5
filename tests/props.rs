//! Properties over generated inputs: the block invariant, and no panic anywhere.

use kvbudget::core::capacity;
use kvbudget::core::model::{Attention, KvDtype, ModelDtype, ModelSpec};
use kvbudget::core::presets::Arch;
use kvbudget::core::query;
use kvbudget::core::seed;
use kvbudget::core::units::{py_float_repr, Bytes};
use kvbudget::core::vllm::logparse;
use kvbudget::core::vllm::Overhead;
use kvbudget::core::vllm::{self, Engine, KvMemory, Scenario, Version};
use proptest::prelude::*;

fn arb_attention() -> impl Strategy<Value = Attention> {
    prop_oneof![
        Just(Attention::Full),
        (1u64..200_000, 0u64..200)
            .prop_map(|(window, sliding_layers)| Attention::sliding(window, sliding_layers)),
        (1u64..2048).prop_map(|latent| Attention::Mla { latent, indexer: 0 }),
    ]
}

fn arb_model() -> impl Strategy<Value = ModelSpec> {
    (
        1u64..200,
        1u64..128,
        1u64..16,
        1u64..1024,
        arb_attention(),
        prop_oneof![
            Just(ModelDtype::Bf16),
            Just(ModelDtype::F16),
            Just(ModelDtype::F32)
        ],
    )
        .prop_map(|(layers, heads, group, head_dim, attention, dtype)| {
            let attention = match attention {
                Attention::SlidingWindow {
                    window,
                    sliding_layers,
                    ..
                } => Attention::sliding(window, sliding_layers.min(layers)),
                a => a,
            };
            ModelSpec {
                id: "generated".into(),
                layers,
                attention_heads: heads * group,
                kv_heads: heads,
                head_dim,
                attention,
                dtype,
                max_position: 0,
                vocab: 0,
                weights: Bytes(0),
                extras: Default::default(),
                state: None,
            }
        })
}

fn arb_version() -> impl Strategy<Value = Version> {
    (4u32..=33).prop_map(|m| Version::new(0, m))
}

fn arb_kv() -> impl Strategy<Value = KvDtype> {
    proptest::sample::select(KvDtype::ALL.to_vec())
}

/// Cases per property: `PROPTEST_CASES` when set (ARCHITECTURE.md's long run uses 1,000,000),
/// else a CI-sized 2,000.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// num_blocks × (page × layers per block) ≤ available < (num_blocks + 1) × (page × layers per block).
    #[test]
    fn blocks_fill_the_pool_without_overshoot(
        model in arb_model(), kv in arb_kv(), v in arb_version(),
        tp in 1u64..9, avail in 0u64..(1u64 << 42), len in 1u64..65_536,
    ) {
        let s = Scenario {
            model, kv_dtype: kv, tp, pp: 1, block_size: None, max_model_len: Some(len),
            max_num_seqs: None, max_num_batched_tokens: None, version: v, engine: v.default_engine(),
            memory: KvMemory::Available(Bytes(avail)), arch: Arch::Other, gpu_total: None, knobs: Default::default(),
        };
        let r = vllm::report(&s).unwrap();
        if let Some(n) = r.num_gpu_blocks {
            let per_block = r.page_bytes as u128 * match r.groups { Some(g) => g.group_size, None => r.stage_layers } as u128;
            prop_assert!(n as u128 * per_block <= avail as u128);
            prop_assert!(avail as u128 <= (n as u128 + 1) * per_block);
            prop_assert!(r.error.is_none() || matches!(vllm::family(v, Engine::V0), vllm::Family::V0));
        } else {
            prop_assert!(r.error.is_some(), "no blocks and no error");
        }
    }

    /// The seed formula never exceeds the pool: N × S × B_tok ≤ M_kv < (N + 1) × S × B_tok.
    #[test]
    fn seed_formula_brackets_the_pool(pool in 1i64..i64::MAX, ctx in 1u64..(1 << 24), btok in 1u64..(1 << 24)) {
        let n = capacity::max_sequences(pool as i128, ctx, Bytes(btok)) as u128;
        let per = ctx as u128 * btok as u128;
        prop_assert!(n * per <= pool as u128);
        prop_assert!(pool as u128 <= (n + 1) * per);
    }

    /// Any numbers at all, valid or not: an answer or an error, never a panic.
    #[test]
    fn report_never_panics(
        layers in any::<u64>(), kv_heads in any::<u64>(), heads in any::<u64>(), head_dim in any::<u64>(),
        attention in prop_oneof![
            Just(Attention::Full),
            (any::<u64>(), any::<u64>()).prop_map(|(window, sliding_layers)| Attention::sliding(window, sliding_layers)),
            any::<u64>().prop_map(|latent| Attention::Mla { latent, indexer: 0 }),
        ],
        tp in any::<u64>(), pp in any::<u64>(), block in proptest::option::of(any::<u64>()),
        len in proptest::option::of(any::<u64>()), mnbt in proptest::option::of(any::<u64>()),
        seqs in proptest::option::of(any::<u64>()), v in arb_version(), kv in arb_kv(),
        total in any::<u64>(), util in any::<f64>(), weights in any::<u64>(), overhead in any::<u64>(),
        which in 0u8..3, blocks in any::<u64>(), max_pos in any::<u64>(),
    ) {
        let model = ModelSpec {
            id: "x".into(), layers, attention_heads: heads, kv_heads, head_dim, attention,
            dtype: ModelDtype::Bf16, max_position: max_pos, vocab: 0, weights: Bytes(weights), extras: Default::default(), state: None,
        };
        let memory = match which {
            0 => KvMemory::Budget { gpu_total: Bytes(total), util, weights: Bytes(weights), overhead: Overhead::Fixed(Bytes(overhead)) },
            1 => KvMemory::Available(Bytes(total)),
            _ => KvMemory::Blocks(blocks),
        };
        let s = Scenario {
            model, kv_dtype: kv, tp, pp, block_size: block, max_model_len: len, max_num_seqs: seqs,
            max_num_batched_tokens: mnbt, version: v, engine: v.default_engine(), memory,
            arch: Arch::Hopper, gpu_total: Some(Bytes(total)), knobs: Default::default(),
        };
        if let Ok(r) = vllm::report(&s) {
            for l in &r.lines {
                prop_assert!(!l.contains("inf") && !l.contains("NaN"), "{l}");
            }
        }
        let _ = capacity::bytes_per_sequence(&s.model, kv, tp, pp, len.unwrap_or(0));
        let _ = capacity::bytes_per_token_mha(&s.model, kv);
    }

    /// The seed twin takes any numbers without panicking.
    #[test]
    fn seed_predict_never_panics(
        l in any::<i64>(), k in any::<i64>(), h in any::<i64>(), b in any::<f64>(), pool in any::<f64>(), ctx in any::<i64>(),
    ) {
        let _ = seed::predict(l, k, h, b, pool, ctx);
    }

    /// The log parser takes any text.
    #[test]
    fn parser_never_panics(text in ".{0,400}") {
        let _ = logparse::parse(&text);
    }

    /// Lines that look almost like vLLM's.
    #[test]
    fn parser_survives_near_misses(
        prefix in "[ -~]{0,20}",
        marker in proptest::sample::select(vec![
            "GPU KV cache size:", "# GPU blocks:", "# cuda blocks:", "Maximum concurrency for ", "tokens per request:",
            "Available KV cache memory:", "Model loading took", "max seq len (", "), (", "available KV cache memory (",
            "stored in KV cache (", "total_gpu_memory (", ") = ", "estimated maximum model length is",
        ]),
        tail in "[0-9,.x() a-zA-Z-]{0,30}",
    ) {
        let line = format!("{prefix}{marker}{tail}");
        let _ = logparse::parse(&line);
        let _ = logparse::parse(&format!("{line} KV cache is needed, which is larger than the available KV cache memory ({tail}"));
    }

    /// Any query string at all decodes to a scenario (with notices), never a panic, and the
    /// scenario evaluates to numbers or an error.
    #[test]
    fn url_query_never_panics(q in "[ -~]{0,200}") {
        let (s, _) = query::decode(&q);
        let _ = kvbudget::core::calc::evaluate(&s);
    }

    /// Queries built from the real keys with arbitrary values: decoding keeps what is valid,
    /// encoding what was decoded and decoding again gives the same scenario.
    #[test]
    fn url_query_round_trips(
        pairs in proptest::collection::vec((
            proptest::sample::select(vec!["model", "kv", "gpu", "util", "ctx", "seqs", "tp", "vllm", "prompt", "trace",
                "overhead_gib", "name", "layers", "heads", "kv_heads", "head_dim", "weights_gib", "gpu_gib", "bw_gbs", "embed",
                "attn", "window", "sliding_layers", "latent", "dtype", "max_pos", "vocab", "hidden", "inter", "experts_per_tok",
                "moe_inter", "experts", "routed_gib", "encoder_gib", "mm", "pp", "kv_bytes", "theme", "more", "tflops", "mnbt", "eager", "half", "prefix", "no_prefix", "dcp", "offload_gib", "loras",
                "lora_rank", "spec_tokens", "draft_layers", "draft_gib", "plan"]),
            prop_oneof![
                "[0-9]{1,25}", "-?[0-9]{0,6}\\.[0-9]{0,6}", "(custom|Qwen/Qwen3-8B|rtx-4090|fp8|auto|0\\.11|NaN|inf|1e308|sliding|mla|full|float16)",
                ".{0,20}",
            ],
        ), 0..12),
    ) {
        let q: String = pairs.iter().map(|(k, v)| format!("{k}={}", v.replace('&', "%26").replace('#', "%23"))).collect::<Vec<_>>().join("&");
        let (s, _) = query::decode(&q);
        let again = query::encode(&s);
        let (s2, notes) = query::decode(&again);
        prop_assert!(notes.is_empty(), "{again}: {notes:?}");
        prop_assert_eq!(&s2, &s);
        if let Ok(o) = kvbudget::core::calc::evaluate(&s) {
            for (_, d) in &kvbudget::core::explain::explain(&s, &o).derivations {
                prop_assert!(!d.contains("NaN") && !d.contains("inf"), "{d}");
            }
        }
    }

    /// repr round-trips like Python's.
    #[test]
    fn float_repr_round_trips(x in any::<f64>().prop_filter("finite", |x| x.is_finite())) {
        let s = py_float_repr(x);
        let back: f64 = s.parse().unwrap();
        prop_assert_eq!(back, x);
    }
}

#[test]
fn an_extreme_custom_mixture_of_experts_does_not_overflow() {
    // Found by `url_query_round_trips`: 400,000 query heads (hidden 400,000 × 128) and 90,000,000
    // experts per token make the MoE workspace saturate at 2⁶⁴ − 1 bytes, and the activation sum
    // overflowed (a panic in a debug build, a wrapped and wrong estimate in a release build).
    let (s, _) = query::decode("?heads=400000&experts_per_tok=90000000&model=custom");
    let o = kvbudget::core::calc::evaluate(&s).expect("evaluates");
    let e = o.chosen.report.overhead.expect("an estimate");
    assert_eq!(e.activation.0, u64::MAX);
    // Nothing fits next to an activation peak that large: vLLM would not start.
    assert!(o.chosen.report.refusal.is_some());
}
