//! config.json import: fixtures written from the published fields of each preset's config,
//! plus a nested multimodal, an MLA, a sliding-window, a Mamba hybrid and a broken one.

use kvbudget::core::capacity::bytes_per_token;
use kvbudget::core::config::import;
use kvbudget::core::model::{Attention, Embeddings, KvDtype, ModelDtype};
use kvbudget::core::presets;
use kvbudget::core::presets::Arch;
use kvbudget::core::units::GIB;
use kvbudget::core::vllm::{report, Engine, KvMemory, Scenario, Version};
use kvbudget::core::Bytes;

fn config(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/configs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_preset_imports_to_its_geometry() {
    for preset in presets::MODELS {
        let p = &preset.spec;
        let file = p.id.rsplit('/').next().unwrap();
        let m = import(&config(file), &p.id).unwrap_or_else(|e| panic!("{file}: {e}"));
        let s = &m.spec;
        assert_eq!(
            (s.layers, s.attention_heads, s.attention, s.vocab),
            (p.layers, p.attention_heads, p.attention, p.vocab),
            "{file}"
        );
        // MLA caches a latent: its head_dim and KV heads do not size the cache.
        if !matches!(p.attention, Attention::Mla { .. }) {
            assert_eq!((s.kv_heads, s.head_dim), (p.kv_heads, p.head_dim), "{file}");
        }
        assert_eq!(s.dtype, p.dtype, "{file}");
        assert_eq!(
            m.default_max_model_len,
            if p.id.contains("DeepSeek") {
                4096 * 40
            } else {
                p.max_position
            },
            "{file}"
        );
        assert_eq!(s.extras.hidden, p.extras.hidden, "{file}");
        // The routed experts: the same count, and bytes from the config's geometry within 10 % of
        // the preset's (gpt-oss's estimate pads each expert to vLLM's Marlin layout, 3,072 ×
        // 2,944 for 2,880 × 2,880: 9 % more than the preset's H100 figure).
        assert_eq!(s.extras.experts, p.extras.experts, "{file}");
        // Gemma 3's vision encoder, counted from its vision_config as the preset's comment does
        // (gemma-3-27b: 423,060,336 parameters × 2 B); the others' encoders are not counted apart.
        assert_eq!(s.extras.encoder, p.extras.encoder, "{file}");
        // What a step reads of an MoE whatever its tokens pick (all but the routed experts): the
        // preset's and the config's within 3.5 % (Nemotron-H's, which the import counts 3.0 % short
        // of the checkpoint: 4,405,810,944 B for 4,537,931,520 B). Presets whose logged weights
        // hold an MTP layer, a vision encoder or vLLM's padding take it from the config exactly.
        let read_in_full = |m: &kvbudget::core::model::ModelSpec| m.weights.0 - m.extras.routed.0;
        if p.extras.experts > 0 {
            let (got, want) = (read_in_full(s) as f64, read_in_full(p) as f64);
            assert!(
                (got - want).abs() <= want * 0.035,
                "{file}: {got} vs {want}"
            );
        }
        assert_eq!(
            (
                s.extras.intermediate,
                s.extras.moe_intermediate,
                s.extras.experts_per_token
            ),
            (
                p.extras.intermediate,
                p.extras.moe_intermediate,
                p.extras.experts_per_token
            ),
            "{file}"
        );
        let (got, want) = (s.extras.routed.0 as f64, p.extras.routed.0 as f64);
        assert!((got - want).abs() <= want * 0.10, "{file}: {got} vs {want}");
        // Same bytes per token as the preset in both dtypes.
        for kv in [KvDtype::Auto, KvDtype::Fp8] {
            assert_eq!(
                bytes_per_token(s, kv, 1, 1).unwrap(),
                bytes_per_token(p, kv, 1, 1).unwrap(),
                "{file} {kv:?}"
            );
        }
    }
}

#[test]
fn qwen3_32b_head_dim_from_the_config() {
    // head_dim 128 from the config, not 5120 / 64 = 80: 2 × 64 × 8 × 128 × 2 = 262,144 B per token in BF16.
    let m = import(&config("Qwen3-32B"), "Qwen/Qwen3-32B").unwrap();
    assert_eq!(m.spec.head_dim, 128);
    assert_eq!(
        bytes_per_token(&m.spec, KvDtype::Auto, 1, 1).unwrap().0,
        262_144
    );
    assert!(m
        .notes
        .iter()
        .any(|n| n.contains("hidden_size / heads would give 80")));
}

#[test]
fn weights_from_the_config() {
    // Qwen3-8B: embeddings 151,936 × 4,096 = 622,329,856 (× 2 with its own lm_head);
    // per layer: q and o 2 × 4,096 × 4,096, k and v 2 × 4,096 × 1,024, MLP 3 × 4,096 × 12,288,
    // norms 2 × 4,096 → 192,946,176 × 36 = 6,946,062,336; final norm 4,096.
    // 1,244,659,712 + 6,946,062,336 + 4,096 = 8,190,726,144 parameters × 2 B = 16,381,452,288 B
    // (the checkpoint is 16,381,470,720 B; the 18,432-byte gap is the q/k norms, not counted).
    let m = import(&config("Qwen3-8B"), "Qwen/Qwen3-8B").unwrap();
    assert_eq!(m.weights.params, 8_190_726_144);
    assert_eq!(m.weights.bytes.0, 16_381_452_288);
    // The AWQ checkpoint: linear layers at 4 bits + scales and zeros per 128-weight group;
    // vLLM logs 9.44 GiB for Qwen3-14B-AWQ, the file is ≈ 9.98 GB: within 5 % of the log.
    let awq = import(&config("Qwen3-14B-AWQ"), "Qwen/Qwen3-14B-AWQ").unwrap();
    let logged = 9.44 * GIB as f64;
    assert!(
        (awq.weights.bytes.0 as f64 / logged - 1.0).abs() < 0.05,
        "{} vs {logged}",
        awq.weights.bytes.0
    );
    assert_eq!(awq.spec.dtype, ModelDtype::F16);
    // gemma-2-9b ties its embeddings (transformers' default for Gemma): 256,000 × 3,584 once;
    // per layer 2 × 3,584 × 4,096 + 2 × 3,584 × 2,048 + 3 × 3,584 × 14,336 + 2 × 3,584 = 198,188,032
    // × 42 + 917,504,000 embeddings + 3,584 final norm = 9,241,404,928 parameters × 2 B = 18,482,809,856 B;
    // the checkpoint is 18,483,411,968 B (gemma-2's two extra norms per layer, 42 × 7,168, are not counted).
    let g = import(&config("gemma-2-9b-it"), "google/gemma-2-9b-it").unwrap();
    assert_eq!(g.weights.bytes.0, 18_482_809_856);
    // …and vLLM builds that embedding on every pipeline stage (gemma2.py); Qwen3-8B's config says
    // untied; the same config with `tie_word_embeddings: true` is tied (first and last stage).
    assert_eq!(g.spec.extras.embeddings, Embeddings::EveryStage);
    let q = import(&config("Qwen3-8B"), "Qwen/Qwen3-8B").unwrap();
    assert_eq!(q.spec.extras.embeddings, Embeddings::Untied);
    let tied = config("Qwen3-8B").replace(
        "\"tie_word_embeddings\": false",
        "\"tie_word_embeddings\": true",
    );
    let t = import(&tied, "Qwen/Qwen3-8B").unwrap();
    assert_eq!(t.spec.extras.embeddings, Embeddings::Tied);
    // Vision encoders' heads: gemma-3-27b's SigLIP (`num_attention_heads` 16), Qwen3.5-9B's
    // (`num_heads` 16); none for Qwen3-8B.
    let g3 = import(&config("gemma-3-27b-it"), "google/gemma-3-27b-it").unwrap();
    assert_eq!(g3.spec.extras.vision_heads, 16);
    let q35 = import(&config("Qwen3.5-9B"), "Qwen/Qwen3.5-9B").unwrap();
    assert_eq!(q35.spec.extras.vision_heads, 16);
    assert_eq!(q.spec.extras.vision_heads, 0);
}

#[test]
fn gemma2_sliding_window_figures() {
    // The imported gemma-2-9b gives the same vLLM figures as the preset (21 sliding + 21 full layers).
    let m = import(&config("gemma-2-9b-it"), "google/gemma-2-9b-it").unwrap();
    assert_eq!(m.spec.attention, Attention::sliding(4096, 21));
    let scenario = |spec| Scenario {
        model: spec,
        kv_dtype: KvDtype::Auto,
        tp: 1,
        pp: 1,
        block_size: None,
        max_model_len: Some(8192),
        max_num_seqs: None,
        max_num_batched_tokens: None,
        version: Version::new(0, 11),
        engine: Engine::V1,
        memory: KvMemory::Available(Bytes(10 * GIB)),
        arch: Arch::Other,
        gpu_total: None,
        knobs: Default::default(),
    };
    let a = report(&scenario(m.spec)).unwrap();
    let b = report(&scenario(
        presets::model("google/gemma-2-9b-it").unwrap().spec(),
    ))
    .unwrap();
    // tests/vllm_vectors.rs: 3,900 blocks, 31,200 tokens, 4.35x.
    assert_eq!(a.lines, b.lines);
    assert_eq!(a.lines[1], "GPU KV cache size: 31,200 tokens");
}

#[test]
fn nested_multimodal_config() {
    // gemma-3-4b: text_config holds the language model; 34 layers, every 6th full → 5 full, 29 sliding.
    let m = import(&config("gemma-3-4b-it"), "google/gemma-3-4b-it").unwrap();
    assert_eq!(m.spec.layers, 34);
    assert_eq!(m.spec.attention, Attention::sliding(1024, 29));
    assert!(m.spec.extras.multimodal);
    // linear rope scaling × 8 on max_position_embeddings (absent here → 0) leaves no default length.
    assert!(m.notes.iter().any(|n| n.contains("text_config")));
}

#[test]
fn mla_latent() {
    // DeepSeek-V2-Lite: kv_lora_rank 512 + qk_rope_head_dim 64 = 576; 27 × 576 × 2 = 31,104 B per token.
    let m = import(&config("DeepSeek-V2-Lite"), "deepseek-ai/DeepSeek-V2-Lite").unwrap();
    assert_eq!(
        m.spec.attention,
        Attention::Mla {
            latent: 576,
            indexer: 0
        }
    );
    assert_eq!(
        bytes_per_token(&m.spec, KvDtype::Auto, 1, 1).unwrap().0,
        31_104
    );
    // yarn × 40 on the original 4,096 positions.
    assert_eq!(m.default_max_model_len, 163_840);
}

#[test]
fn qwen25_sliding_window_is_off() {
    let m = import(&config("Qwen2.5-7B-Instruct"), "Qwen/Qwen2.5-7B-Instruct").unwrap();
    assert_eq!(m.spec.attention, Attention::Full);
    assert!(m
        .notes
        .iter()
        .any(|n| n.contains("use_sliding_window is false")));
}

#[test]
fn broken_and_odd_configs_say_what_is_wrong() {
    let e = import(&config("broken"), "x").unwrap_err().to_string();
    assert!(e.starts_with("config.json: is not valid JSON"), "{e}");
    let e = import("[1, 2]", "x").unwrap_err().to_string();
    assert_eq!(e, "config.json: is not a JSON object");
    let e = import(
        r#"{"model_type":"llama","num_attention_heads":32,"hidden_size":4096}"#,
        "x",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("has no layer count (looked for num_hidden_layers"),
        "{e}"
    );
    // Present but 0: named as such, not as missing.
    let e = import(
        r#"{"model_type":"llama","num_hidden_layers":32,"num_attention_heads":0,"hidden_size":4096}"#,
        "x",
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "config.json: num_attention_heads is 0; it must be at least 1"
    );
    let e = import(
        r#"{"num_hidden_layers":1e300,"num_attention_heads":32,"hidden_size":4096}"#,
        "x",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("layers"), "{e}");
    let big = " ".repeat(2 << 20);
    assert!(import(&big, "x")
        .unwrap_err()
        .to_string()
        .contains("at most 1 MiB"));
}

#[test]
fn a_config_identical_to_a_preset_is_recognised() {
    // Every preset's own config.json has the preset's geometry, so the page can offer the preset
    // (whose weights are what vLLM logged) instead of the estimate from the config.
    for preset in presets::MODELS {
        let file = preset.id().rsplit('/').next().unwrap();
        let m = import(&config(file), kvbudget::core::config::UNNAMED).unwrap();
        assert_eq!(
            kvbudget::core::config::matching_preset(&m.spec).map(|p| p.id()),
            Some(preset.id()),
            "{file}"
        );
    }
    // A pasted config without an id of its own takes its `_name_or_path`, else the class its
    // `architectures` names or its `model_type`, said as a config ("Qwen3ForCausalLM config": a
    // class is no model id `vllm serve` could load); only a config with none keeps the generic
    // name.
    let named = config("Qwen3-8B").replacen('{', "{\"_name_or_path\": \"Qwen/Qwen3-8B\",", 1);
    let m = import(&named, kvbudget::core::config::UNNAMED).unwrap();
    assert_eq!(m.spec.id, "Qwen/Qwen3-8B");
    let m = import(&config("Qwen3-8B"), kvbudget::core::config::UNNAMED).unwrap();
    assert_eq!(m.spec.id, "Qwen3ForCausalLM config");
    let bare = r#"{"num_hidden_layers": 4, "hidden_size": 512, "num_attention_heads": 8, "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 1000}"#;
    let m = import(bare, kvbudget::core::config::UNNAMED).unwrap();
    assert_eq!(m.spec.id, "imported model");
    let typed = bare.replacen('{', "{\"model_type\": \"llama\",", 1);
    assert_eq!(
        import(&typed, kvbudget::core::config::UNNAMED)
            .unwrap()
            .spec
            .id,
        "llama config"
    );
    // A file's name, given, stays.
    assert_eq!(
        import(&config("Qwen3-8B"), "my-model.json")
            .unwrap()
            .spec
            .id,
        "my-model.json"
    );
}

#[test]
fn counts_that_are_no_counts_are_named_with_their_value() {
    let base = r#""num_attention_heads": 8, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 1000"#;
    let err = |fields: &str| {
        import(&format!("{{{fields}, {base}}}"), "x")
            .unwrap_err()
            .to_string()
    };
    // A negative hidden size is there, and wrong: not "has no hidden_size".
    let e = err(r#""num_hidden_layers": 4, "hidden_size": -4096"#);
    assert_eq!(
        e,
        "config.json: hidden_size is -4096; it must be a whole number from 1"
    );
    // 10²⁰ layers does not fit 64 bits: the file's value, not a saturated 18446744073709551615
    // (the JSON parser reads it as the float 10²⁰).
    let e = err(r#""num_hidden_layers": 99999999999999999999, "hidden_size": 1024"#);
    assert_eq!(
        e,
        "config.json: num_hidden_layers is 100000000000000000000; it must be a whole number from 1"
    );
    // A fraction and a text are named the same way; an absent field is still "has no".
    assert!(err(r#""num_hidden_layers": 4.5, "hidden_size": 1024"#)
        .contains("num_hidden_layers is 4.5;"));
    assert!(err(r#""num_hidden_layers": "32", "hidden_size": 1024"#)
        .contains(r#"num_hidden_layers is "32";"#));
    assert!(err(r#""hidden_size": 1024"#).contains("has no"));
}

#[test]
fn more_kv_heads_than_heads_is_refused() {
    // Grouped-query attention shares each KV head among a group of query heads: 32 KV heads
    // for 8 heads is no model (it used to import as 8 KV heads, silently).
    let text = r#"{"num_hidden_layers": 4, "hidden_size": 4096, "num_attention_heads": 8, "num_key_value_heads": 32, "vocab_size": 1000}"#;
    let e = import(text, "x").unwrap_err().to_string();
    assert!(
        e.starts_with("config.json: has 32 KV heads for 8 attention heads"),
        "{e}"
    );
}

#[test]
fn uneven_head_groups_and_more_routed_experts_than_experts_are_refused() {
    // 32 query heads over 7 KV heads: 32 / 7 is not a whole group (it used to import, and vLLM's
    // attention asserts num_heads % num_kv_heads == 0 while building the model).
    let text = r#"{"num_hidden_layers": 4, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 7, "vocab_size": 1000}"#;
    let e = import(text, "x").unwrap_err().to_string();
    assert!(
        e.starts_with("config.json: has 7 KV heads for 32 attention heads"),
        "{e}"
    );
    // 8 KV heads for 32 is 4 query heads each: imported.
    let fine = text.replace("\"num_key_value_heads\": 7", "\"num_key_value_heads\": 8");
    assert_eq!(import(&fine, "x").unwrap().spec.kv_heads, 8);
    // Each token routed to 16 of 8 experts.
    let moe = r#"{"num_hidden_layers": 4, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 1000, "num_experts": 8, "num_experts_per_tok": 16, "moe_intermediate_size": 768}"#;
    let e = import(moe, "x").unwrap_err().to_string();
    assert!(
        e.starts_with(
            "config.json: routes each token to 16 experts (num_experts_per_tok), but it has only 8"
        ),
        "{e}"
    );
}

#[test]
fn an_mla_config_is_not_held_to_kv_head_groups() {
    // MLA caches one latent per token per layer, whatever num_key_value_heads says: DeepSeek-V3.2
    // with 100 KV heads for its 128 heads imports to the same cache (kv_lora_rank 512 +
    // qk_rope_head_dim 64 = 576 a layer), as the URL and the form take it.
    let text = config("DeepSeek-V3.2").replace(
        "\"num_key_value_heads\": 128",
        "\"num_key_value_heads\": 100",
    );
    let m = import(&text, "x").unwrap();
    assert!(matches!(
        m.spec.attention,
        Attention::Mla { latent: 576, .. }
    ));
}

#[test]
fn llama4_counts_its_shared_expert() {
    // Llama-4-Scout: each of its 48 MoE layers has a shared expert as wide as a routed one,
    // 3 matrices of 5,120 × 8,192: 48 × 3 × 5,120 × 8,192 = 6,039,797,760 parameters,
    // 12,079,595,520 B = 11.25 GiB in BF16. With them the estimate (200.74 GiB) is within 6 % of
    // the 212.48 GiB vLLM loaded over 4 GPUs (4 × 53.12 GiB, the preset's figure); without, 11 %
    // short. (The vision encoder is not counted: the import says so.)
    let m = import(
        &config("Llama-4-Scout-17B-16E-Instruct"),
        "meta-llama/Llama-4-Scout-17B-16E-Instruct",
    )
    .unwrap();
    let preset = presets::model("meta-llama/Llama-4-Scout-17B-16E-Instruct").unwrap();
    let (got, want) = (m.spec.weights.0 as f64, preset.spec.weights.0 as f64);
    assert!(
        (got - want).abs() < want * 0.06,
        "{} vs {}",
        got / GIB as f64,
        want / GIB as f64
    );
    // Its dense width is its shared expert's, intermediate_size (8,192): intermediate_size_mlp
    // (16,384) sizes only the dense layers Maverick interleaves (interleave_moe_layer_step 2).
    assert_eq!(m.spec.extras.intermediate, 8192);
    let maverick = config("Llama-4-Scout-17B-16E-Instruct").replace(
        "\"interleave_moe_layer_step\": 1",
        "\"interleave_moe_layer_step\": 2",
    );
    let m = import(&maverick, "x").unwrap();
    assert_eq!(m.spec.extras.intermediate, 16_384);
}

#[test]
fn a_kv_head_count_or_head_dim_that_is_there_but_wrong_is_refused_not_taken_as_absent() {
    // Qwen3-8B with num_key_value_heads 0, 7.5 or "8" imported as plain multi-head attention
    // (32 KV heads: 589,824 B per token instead of 147,456) with a note that the config had no
    // KV-head count. Each is now refused naming the field and its value; null still means absent.
    let with = |key: &str, value: &str| {
        let mut v: serde_json::Value = serde_json::from_str(&config("Qwen3-8B")).unwrap();
        v[key] = serde_json::from_str(value).unwrap();
        v.to_string()
    };
    let err = |key: &str, value: &str| import(&with(key, value), "x").unwrap_err().to_string();
    assert_eq!(
        err("num_key_value_heads", "0"),
        "config.json: num_key_value_heads is 0; it must be at least 1"
    );
    assert_eq!(
        err("num_key_value_heads", "7.5"),
        "config.json: num_key_value_heads is 7.5; it must be a whole number from 1"
    );
    assert!(err("num_key_value_heads", r#""8""#).contains(r#"num_key_value_heads is "8";"#));
    assert_eq!(
        err("head_dim", "0"),
        "config.json: head_dim is 0; it must be at least 1"
    );
    // null: absent, so plain multi-head attention, as before (32 KV heads × 128 × 36 × 2 × 2 B).
    let m = import(&with("num_key_value_heads", "null"), "x").unwrap();
    assert_eq!(m.spec.kv_heads, 32);
    // And the real file reads its 8 KV heads.
    assert_eq!(import(&config("Qwen3-8B"), "x").unwrap().spec.kv_heads, 8);
}

/// The older families keep their KV heads and lengths where vLLM's `get_total_num_kv_heads` and
/// `_get_and_verify_max_len` look (the keys below are those of the published configs of
/// tiiuae/falcon-7b, bigcode/starcoder, mosaicml/mpt-7b and databricks/dbrx-instruct).
#[test]
fn older_families_as_vllm_reads_them() {
    let kv = |text: &str| {
        let m = import(text, "x").unwrap();
        let per_token = bytes_per_token(&m.spec, KvDtype::Auto, 1, 1).unwrap().0;
        (
            m.spec.kv_heads,
            m.spec.head_dim,
            per_token,
            m.default_max_model_len,
            m.weights.params,
            m.notes,
        )
    };
    // Falcon-7B: `multi_query` is one KV head for 71 heads of 4,544 / 71 = 64:
    // 2 × 32 layers × 1 × 64 × 2 B = 8,192 B per token (71 KV heads would be 581,632 B).
    // No length key: FalconConfig's max_position_embeddings, 2,048.
    // Parameters: tied embeddings 65,024 × 4,544 = 295,469,056; per layer q and o 2 × 4,544²,
    // k and v 2 × 4,544 × 64, a GELU MLP 2 × 4,544 × 18,176, norms 2 × 4,544 = 207,070,080;
    // × 32 + 295,469,056 + 4,544 = 6,921,716,160 (the model card's 6,921,720,704 has a bias
    // of 4,544 in its final LayerNorm).
    let falcon = r#"{"model_type": "falcon", "multi_query": true, "new_decoder_architecture": false,
        "hidden_size": 4544, "num_attention_heads": 71, "num_hidden_layers": 32,
        "parallel_attn": true, "torch_dtype": "bfloat16", "vocab_size": 65024}"#;
    let (k, hd, tok, len, params, notes) = kv(falcon);
    assert_eq!(
        (k, hd, tok, len, params),
        (1, 64, 8_192, 2_048, 6_921_716_160)
    );
    assert!(
        notes[0].starts_with("multi_query: the 71 attention heads share one KV head"),
        "{notes:?}"
    );
    // Falcon-40B's new decoder architecture ignores `multi_query`: num_kv_heads 8 of 64 dims,
    // 2 × 60 × 8 × 64 × 2 = 122,880 B per token.
    let falcon40 = r#"{"model_type": "falcon", "multi_query": true, "new_decoder_architecture": true,
        "hidden_size": 8192, "num_attention_heads": 128, "num_kv_heads": 8, "num_hidden_layers": 60,
        "vocab_size": 65024}"#;
    assert_eq!(kv(falcon40).2, 122_880);
    // FalconConfig's `multi_query` is true when the file leaves it out.
    assert_eq!(kv(&falcon.replace(r#""multi_query": true, "#, "")).0, 1);
    // StarCoder (gpt_bigcode): one KV head of 6,144 / 48 = 128, 2 × 40 × 128 × 2 = 20,480 B per
    // token; n_positions 8,192. Parameters: tied 49,152 × 6,144 = 301,989,888; per layer
    // 2 × 6,144² + 2 × 6,144 × 128 + 2 × 6,144 × 24,576 + 2 × 6,144 = 379,072,512; × 40 +
    // 301,989,888 + 6,144 = 15,464,896,512 (the learned positions and biases, 52.6 M, are not
    // counted: 0.3 % under the published 15.5 B).
    let starcoder = r#"{"model_type": "gpt_bigcode", "multi_query": true, "n_embd": 6144,
        "n_head": 48, "n_inner": 24576, "n_layer": 40, "n_positions": 8192,
        "torch_dtype": "float32", "vocab_size": 49152}"#;
    let (k, hd, tok, len, params, _) = kv(starcoder);
    assert_eq!(
        (k, hd, tok, len, params),
        (1, 128, 20_480, 8_192, 15_464_896_512)
    );
    // MPT-7B: n_heads 32 and no attn_config.kv_n_heads, so 32 KV heads: 2 × 32 × 32 × 128 × 2 =
    // 524,288 B per token; max_seq_len 2,048. Parameters: tied 50,432 × 4,096 = 206,569,472; per
    // layer 4 × 4,096² + 2 × 4,096 × (4 × 4,096) + 2 × 4,096 = 201,334,784; × 32 + 206,569,472 +
    // 4,096 = 6,649,286,656, MPT-7B's count.
    let mpt = r#"{"model_type": "mpt", "attn_config": {"alibi": true, "attn_impl": "torch"},
        "d_model": 4096, "expansion_ratio": 4, "max_seq_len": 2048, "n_heads": 32, "n_layers": 32,
        "vocab_size": 50432}"#;
    let (k, hd, tok, len, params, _) = kv(mpt);
    assert_eq!(
        (k, hd, tok, len, params),
        (32, 128, 524_288, 2_048, 6_649_286_656)
    );
    // DBRX: attn_config.kv_n_heads 8 of 6,144 / 48 = 128: 2 × 40 × 8 × 128 × 2 = 163,840 B per
    // token; max_seq_len 32,768; ffn_config's 16 experts of 10,752, 4 per token. Parameters:
    // embeddings and lm_head 2 × 100,352 × 6,144 = 1,233,125,376; per layer attention
    // 2 × 6,144² + 2 × 6,144 × 1,024 = 88,080,384, experts 16 × 3 × 6,144 × 10,752 =
    // 3,170,893,824, router 6,144 × 16 = 98,304, norms 12,288; × 40 + 1,233,125,376 + 6,144 =
    // 131,596,523,520 (DBRX's "132B total parameters").
    let dbrx = r#"{"model_type": "dbrx", "attn_config": {"kv_n_heads": 8, "rope_theta": 500000},
        "d_model": 6144, "ffn_config": {"ffn_hidden_size": 10752, "moe_num_experts": 16,
        "moe_top_k": 4}, "max_seq_len": 32768, "n_heads": 48, "n_layers": 40,
        "vocab_size": 100352}"#;
    let (k, hd, tok, len, params, _) = kv(dbrx);
    assert_eq!(
        (k, hd, tok, len, params),
        (8, 128, 163_840, 32_768, 131_596_523_520)
    );
    // The smallest length key wins, and Command-R's model_max_length over all of them; none at
    // all is 2,048, with a note.
    let llama = |extra: &str| {
        format!(
            r#"{{"model_type": "llama", "num_hidden_layers": 2, "num_attention_heads": 4,
            "hidden_size": 512, "vocab_size": 1000{extra}}}"#
        )
    };
    let len = |t: &str| import(t, "x").unwrap().default_max_model_len;
    assert_eq!(
        len(&llama(
            r#", "max_position_embeddings": 8192, "seq_length": 4096"#
        )),
        4096
    );
    assert_eq!(
        len(&llama(
            r#", "max_position_embeddings": 8192, "model_max_length": 131072"#
        )),
        131_072
    );
    let none = import(&llama(""), "x").unwrap();
    assert_eq!(none.default_max_model_len, 2048);
    assert!(
        none.notes
            .iter()
            .any(|n| n.contains("2,048 tokens, as vLLM assumes")),
        "{:?}",
        none.notes
    );
}

/// A config that sets a key laying the KV cache out otherwise than kvbudget models is refused by
/// the key's name and value, not sized as if the key were absent. Qwen3-8B's own config (36
/// layers, 8 KV heads of 128: 147,456 B per token) with one such key added each time.
#[test]
fn a_key_that_changes_the_kv_layout_is_refused_by_name() {
    use serde_json::{json, Value};
    let base: Value = serde_json::from_str(&config("Qwen3-8B")).unwrap();
    let with = |key: &str, value: Value| {
        let mut c = base.clone();
        c[key] = value;
        import(&c.to_string(), "x")
    };
    for (key, value, shown) in [
        ("num_kv_shared_layers", json!(4), "4"),
        ("attention_k_eq_v", json!(true), "true"),
        ("global_head_dim", json!(512), "512"),
        ("global_head_dim", json!(512.0), "512"),
        ("num_global_key_value_heads", json!(2), "2"),
        ("use_cla", json!(true), "true"),
        ("swa_head_dim", json!(192), "192"),
        ("swa_num_key_value_heads", json!(4), "4"),
        ("v_head_dim", json!(96), "96"),
        ("compress_ratios", json!([1, 4]), "[…]"),
        ("linear_attn_config", json!({"kda_layers": [1]}), "{…}"),
        ("cross_attention_layers", json!([3, 8]), "[…]"),
        ("block_configs", json!([{}]), "[…]"),
    ] {
        let e = with(key, value).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{key} is {shown}: ")), "{key}: {e}");
        assert!(e.ends_with("not supported"), "{key}: {e}");
    }
    assert_eq!(
        with("num_kv_shared_layers", json!(20)).unwrap_err().to_string(),
        "num_kv_shared_layers is 20: the last layers reuse the KV cache of earlier layers and keep \
         none of their own (Gemma 3n, Gemma 4). kvbudget does not model that layout, so it cannot \
         size this model's KV cache: not supported"
    );
    // The same keys at values that change nothing import as the model without them: no sharing,
    // K apart from V, the head dimension (128) and KV heads (8) the model has, empty lists.
    let plain = import(&config("Qwen3-8B"), "x").unwrap().spec;
    // (2 × 36 layers × 8 KV heads × 128 × 2 B = 147,456 B.)
    assert_eq!(
        bytes_per_token(&plain, KvDtype::Auto, 1, 1).unwrap().0,
        147_456
    );
    for (key, value) in [
        ("num_kv_shared_layers", json!(0)),
        ("attention_k_eq_v", json!(false)),
        ("global_head_dim", json!(128)),
        ("num_global_key_value_heads", json!(8)),
        ("use_cla", json!(false)),
        ("v_head_dim", json!(128)),
        ("cross_attention_layers", json!([])),
        ("compress_ratios", Value::Null),
    ] {
        let spec = with(key, value).unwrap().spec;
        assert_eq!(spec, plain, "{key}");
    }
}
