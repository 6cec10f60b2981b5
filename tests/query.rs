//! The URL query codec: every scenario round-trips, bad values fall back one field at a time,
//! and every key is listed once.

use kvbudget::core::model::{
    Attention, Embeddings, Extras, KvDtype, ModelDtype, ModelSpec, NoFloat16,
};
use kvbudget::core::query::{all_params, decode, encode};
use kvbudget::core::scenario::{
    custom_start, Engine, GpuChoice, ModelChoice, PageScenario, SglangKnobs,
};
use kvbudget::core::units::Bytes;
use kvbudget::core::vllm::Version;
use kvbudget::core::vllm::{Knobs, Lora, Speculative};

#[test]
fn round_trip() {
    let s = PageScenario {
        model: ModelChoice::Custom(ModelSpec {
            id: "a&b=c <x>".into(),
            attention: Attention::sliding(4096, 21),
            dtype: ModelDtype::F16,
            max_position: 8192,
            vocab: 256_000,
            extras: Extras {
                hidden: 3584,
                intermediate: 14336,
                experts_per_token: 2,
                moe_intermediate: 100,
                experts: 16,
                routed: Bytes(1_234_567_890),
                multimodal: true,
                ungated_experts: false,
                embeddings: Embeddings::Tied,
                encoder: Bytes(987_654_321),
                vision_heads: 16,
                no_float16: NoFloat16::Glm4,
                f32_checkpoint: true,
                mm_item_tokens: 2496,
            },
            state: None,
            ..custom_start()
        }),
        gpu: GpuChoice::Custom {
            total: Bytes(17_000_000_000),
            bw_gbs: 936.5,
            tflops: 165.2,
        },
        util: Some(0.875),
        pp: 2,
        mnbt: Some(4096),
        plan: Some(12),
        knobs: Knobs {
            enforce_eager: true,
            cpu_offload_gb: 2.5,
            lora: Some(Lora {
                max_loras: 2,
                max_rank: 64,
            }),
            speculative: Some(Speculative {
                num_tokens: 3,
                draft_weights: Bytes::gib(1),
                draft_layers: 2,
            }),
            prefix_caching: true,
            ..Knobs::default()
        },
        prompt: Some(1000),
        trace: Some(4000),
        overhead: Bytes::from_gib_f64(1.37),
        engine: Engine::Sglang,
        sglang: SglangKnobs {
            version: Some(kvbudget::core::sglang::Version::new(0, 4, 6)),
            mem_fraction_static: Some(0.83),
            page_size: Some(32),
            chunked_prefill_size: Some(2048),
            num_tokens: Some(20_480),
        },
        more: true,
        ..PageScenario::default()
    };
    let q = encode(&s);
    let (back, notes) = decode(&q);
    assert_eq!(notes, vec![]);
    assert_eq!(back, s);
}

#[test]
fn the_forms_other_settings_open_is_remembered_as_more_1() {
    // Open: `more=1` after the view's other keys; closed (the default): no key at all.
    let open = PageScenario {
        more: true,
        ..PageScenario::default()
    };
    assert!(encode(&open).ends_with("more=1"), "{}", encode(&open));
    assert!(!encode(&PageScenario::default()).contains("more"));
    assert!(decode("?more=true").0.more);
    assert!(!decode("?more=0").0.more);
    // A value that is no flag falls back (closed) with a note naming the key.
    let (s, notes) = decode("?more=maybe");
    assert!(!s.more);
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].param, "more");
}

#[test]
fn bad_values_fall_back_one_field_at_a_time() {
    let (s, notes) =
        decode("?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&util=NaN&ctx=-5&bogus=1&vllm=0.11");
    assert_eq!(s.model.name(), "Qwen/Qwen3-14B-AWQ");
    assert_eq!(s.kv, KvDtype::Fp8);
    assert_eq!(s.version, Version::new(0, 11));
    assert_eq!(s.util, None);
    assert_eq!(s.ctx, 8192);
    let params: Vec<&str> = notes.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(params, ["bogus", "util", "ctx"]);
    assert!(
        notes[1].message.contains("gpu_memory_utilization"),
        "{}",
        notes[1].message
    );
    // The version is decoded before the utilization whose default it sets.
    assert!(
        notes[1].message.contains("0.9 for vLLM 0.11"),
        "{}",
        notes[1].message
    );
}

#[test]
fn every_key_once() {
    let keys: Vec<&str> = all_params().map(|p| p.key).collect();
    for (i, k) in keys.iter().enumerate() {
        assert!(!keys[i + 1..].contains(k), "{k} twice");
    }
}

#[test]
fn sliding_window_needs_both_keys() {
    let (s, notes) = decode("model=custom&layers=42&attn=sliding&window=4096");
    assert_eq!(s.model.spec().attention, Attention::Full);
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].param, "attn");
    assert!(notes[0].message.contains("needs window and sliding_layers"));
    let (s, notes) = decode("model=custom&layers=42&attn=sliding&window=4096&sliding_layers=21");
    assert_eq!(notes, vec![]);
    assert_eq!(s.model.spec().attention, Attention::sliding(4096, 21));
}

#[test]
fn a_key_given_twice_takes_the_last_value_and_says_so() {
    let (s, notes) = decode("?ctx=8192&ctx=4096");
    assert_eq!(s.ctx, 4096);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].param, "ctx");
    assert_eq!(
        notes[0].message,
        "given more than once; the last value is used"
    );
    // Three times: still one notice.
    let (s, notes) = decode("?ctx=8192&ctx=4096&ctx=2048");
    assert_eq!((s.ctx, notes.len()), (2048, 1), "{notes:?}");
    // A prompt alone longer than max_model_len: the notice names the prompt only.
    let (s, notes) = decode("?ctx=4096&prompt=5000");
    assert_eq!(s.prompt, None);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].param, "prompt");
    // An unknown key given twice: one notice too.
    let (_, notes) = decode("?colour=red&colour=blue");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].param, "colour");
    // 2,000 distinct unknown keys, each twice, and ctx 2,000 times: the first 10 unknown keys
    // listed, one notice counting the other 1,990 (a list of 2,000 pushed the calculator tens of
    // thousands of pixels down), and one for ctx (repeated from its second value on): 12
    // notices, in the order the keys are met.
    let mut q = String::new();
    for i in 0..2_000 {
        q += &format!("k{i}=1&k{i}=2&ctx={}&", 4096 + i);
    }
    let (s, notes) = decode(&q);
    assert_eq!(s.ctx, 4096 + 1_999);
    assert_eq!(notes.len(), 12, "{notes:?}");
    let params: Vec<&str> = notes.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(
        params,
        ["k0", "k1", "ctx", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "…"]
    );
    assert_eq!(
        notes[11].message,
        "and 1,990 more parameters kvbudget does not know; ignored"
    );
    // Ten unknown keys are all listed.
    let q: String = (0..10).map(|i| format!("k{i}=1&")).collect();
    assert_eq!(decode(&q).1.len(), 10);
}

/// A custom model's name over 120 characters is refused with its length, not shortened: in a
/// URL it falls back with a notice, typed it stays in the field with the message.
#[test]
fn a_name_over_120_characters_is_refused_not_cut() {
    let long = "m".repeat(121);
    let (s, notes) = decode(&format!("?model=custom&layers=32&name={long}"));
    assert_ne!(s.model.name(), long.as_str());
    assert!(!s.model.name().contains('…'), "{}", s.model.name());
    let n = notes
        .iter()
        .find(|n| n.param == "name")
        .expect("a notice for name");
    assert!(
        n.message.contains("has 121 characters; give at most 120"),
        "{}",
        n.message
    );
    // 120 characters are kept whole.
    let ok = "m".repeat(120);
    let (s, notes) = decode(&format!("?model=custom&layers=32&name={ok}"));
    assert_eq!(s.model.name(), ok.as_str());
    assert!(notes.is_empty(), "{notes:?}");
    // Typed: the field says why, and the scenario keeps its name.
    let field = kvbudget::page::all_inputs()
        .find(|i| i.id == "name")
        .unwrap();
    let e = field
        .commit(&s, &long, kvbudget::page::Units::default())
        .unwrap_err();
    assert!(e.contains("has 121 characters; give at most 120"), "{e}");
}

/// A name starting with "-" would be an option to `vllm serve`; a right-to-left override
/// (U+202E) or a control character makes the name read otherwise than it is. Both are refused,
/// in a URL and typed; a "-" inside a name is fine.
#[test]
fn a_name_that_reads_otherwise_than_it_is_is_refused() {
    for bad in [
        "-served-model-name",
        "evil%E2%80%AEtxt.exe",
        "a%07b",
        "a%0Ab",
    ] {
        let (s, notes) = decode(&format!("?model=custom&layers=32&name={bad}"));
        let n = notes
            .iter()
            .find(|n| n.param == "name")
            .unwrap_or_else(|| panic!("{bad}: {notes:?}"));
        assert!(
            n.message.contains("must not start with “-”"),
            "{bad}: {}",
            n.message
        );
        assert!(!s.model.name().starts_with('-') && !s.model.name().contains('\u{202e}'));
    }
    let (s, notes) = decode("?model=custom&layers=32&name=my-model-v2");
    assert_eq!(s.model.name(), "my-model-v2");
    assert!(notes.is_empty(), "{notes:?}");
    let field = kvbudget::page::all_inputs()
        .find(|i| i.id == "name")
        .unwrap();
    let e = field
        .commit(&s, "-x", kvbudget::page::Units::default())
        .unwrap_err();
    assert!(e.contains("must not start with “-”"), "{e}");
}

#[test]
fn the_query_is_form_urlencoded_and_older_spellings_still_read() {
    // Written: `/` as %2F, a space as `+`, `&` and `=` as %26 and %3D; letters, digits and `-._`
    // as they are.
    let (preset, notes) = decode("?model=Qwen%2FQwen3-8B");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(preset.model.name(), "Qwen/Qwen3-8B");
    assert!(
        encode(&preset).starts_with("model=Qwen%2FQwen3-8B&"),
        "{}",
        encode(&preset)
    );
    let (custom, notes) = decode("?model=custom&layers=32&name=a+b%26c%3Dd_1.5");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(custom.model.name(), "a b&c=d_1.5");
    assert!(
        encode(&custom).contains("&name=a+b%26c%3Dd_1.5&"),
        "{}",
        encode(&custom)
    );
    // Read as a link typed or written elsewhere would give them: a bare `/`, a space as %20,
    // lower-case hex.
    assert_eq!(decode("?model=Qwen/Qwen3-8B").0, preset);
    assert_eq!(
        decode("?model=custom&layers=32&name=a%20b%26c%3dd_1.5").0,
        custom
    );
}

#[test]
fn keys_that_only_clash_together_fall_back_and_the_page_has_a_scenario() {
    use kvbudget::core::calc::evaluate;
    // Qwen3-8B has 36 layers: 37 pipeline stages would leave one without a layer. The URL falls
    // back to PP 1 with a notice naming the key, the limit and the default.
    let (s, notes) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&pp=37");
    assert_eq!(s.pp, 1);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].param, "pp");
    assert_eq!(
        notes[0].message,
        "pipeline-parallel size: must not exceed the number of layers (36); using the default (1)"
    );
    assert!(evaluate(&s).is_ok());
    // 36 stages of one layer each are kept; so is PP 40 on Qwen3-32B's 64 layers.
    assert_eq!(decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&pp=36").0.pp, 36);
    assert_eq!(decode("?model=Qwen/Qwen3-32B&gpu=h100-sxm&pp=40").0.pp, 40);
    // A custom model whose numbers are each in range but whose cache per token is not:
    // 2 × 2²⁰ layers × 2²⁰ KV heads × 2²⁰ × 2 B = 2⁶² B per token, × 8,192 tokens past 2⁶⁴.
    // The default model is shown instead, with the reason.
    let q = "?model=custom&name=big&layers=1048576&heads=1048576&kv_heads=1048576&head_dim=1048576&weights_gib=0.001";
    let (s, notes) = decode(q);
    assert!(matches!(s.model, ModelChoice::Preset(p) if p.spec().id == "Qwen/Qwen3-8B"));
    let n = notes
        .iter()
        .find(|n| n.param == "model")
        .expect("a notice for the model");
    assert!(
        n.message.ends_with("using the default (Qwen/Qwen3-8B)"),
        "{}",
        n.message
    );
    assert!(evaluate(&s).is_ok());
}

/// 32 query heads cannot be shared among 7 KV heads in equal groups. The custom model keeps its
/// name and geometry with the largest count below 7 that divides 32, 4 KV heads, and a notice
/// says why (it used to open as 7 KV heads, 2 × 32 layers × 7 × 128 × 2 B = 114,688 B per token).
/// An MLA model caches one latent whatever its KV heads: 20 heads over the form's default 8 KV
/// heads are fine there.
#[test]
fn kv_heads_that_do_not_divide_the_heads_fall_back_with_a_notice() {
    let (s, notes) =
        decode("?model=custom&name=mine&layers=32&heads=32&kv_heads=7&head_dim=128&weights_gib=14");
    assert_eq!(s.model.name(), "mine");
    assert_eq!(s.model.spec().kv_heads, 4);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].param, "kv_heads");
    assert_eq!(
        notes[0].message,
        "KV heads: must divide the attention heads (32) evenly; each KV head serves the same number of query heads, and 32 is not a multiple of 7; using the default (KV heads = 4, the largest count up to 7 that divides the attention heads)"
    );
    let (s, notes) = decode(
        "?model=custom&name=mla&layers=47&heads=20&kv_heads=8&head_dim=128&attn=mla&latent=576&weights_gib=58",
    );
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(s.model.name(), "mla");
}

#[test]
fn a_custom_gpus_memory_reads_mib_as_nvidia_smi_prints_it() {
    use kvbudget::core::fields::parse_gpu_gib;
    // 24,564 MiB × 2²⁰ = 25,757,220,864 B (23.99 GiB); GiB with or without the unit as before.
    assert_eq!(parse_gpu_gib("24564 MiB").unwrap().0, 25_757_220_864);
    assert_eq!(parse_gpu_gib("24,564mib").unwrap().0, 25_757_220_864);
    assert_eq!(parse_gpu_gib("24 GiB").unwrap().0, 24 << 30);
    assert_eq!(parse_gpu_gib("24").unwrap().0, 24 << 30);
    // Out of range either way, with the range named; no panic on a multi-byte ending.
    for bad in ["512 MiB", "5000000 MiB", "0.5", "24中"] {
        assert!(parse_gpu_gib(bad).is_err(), "{bad}");
    }
    let e = parse_gpu_gib("512 MiB").unwrap_err().to_string();
    assert!(
        e.contains("from 1 to 4,096 (or of MiB, with the unit)"),
        "{e}"
    );
}
