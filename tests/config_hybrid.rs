//! Reading the configs of the 2026 families: Qwen3.5 and Qwen3-Next (Gated DeltaNet), Nemotron-H
//! (Mamba2), gpt-oss and Gemma 3 (sliding windows), DeepSeek-V3.2 and GLM-5.1 (MLA with the
//! indexer). The fixtures are the models' published config.json files (tests/fixtures/configs).

use kvbudget::core::config::import;
use kvbudget::core::model::{Attention, KvDtype, ModelDtype, StateKind};
use kvbudget::core::units::{Bytes, GIB};
use kvbudget::core::vllm::{report, KvMemory, Scenario, Version};

mod common;

fn config(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/configs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn scenario(
    spec: kvbudget::core::model::ModelSpec,
    kv: KvDtype,
    blocks: u64,
    len: u64,
) -> Scenario {
    let memory = KvMemory::Blocks(blocks);
    Scenario {
        kv_dtype: kv,
        max_num_batched_tokens: Some(8192),
        ..common::vllm_scenario(spec, Version::new(0, 19), memory, len)
    }
}

#[test]
fn qwen35_9b_reads_its_gated_deltanet_layers_from_text_config() {
    // text_config: 32 layers, layer_types 24 × linear_attention + 8 × full_attention;
    // linear 16 key heads × 128, 32 value heads × 128, kernel 4; mamba_ssm_dtype float32.
    let m = import(&config("Qwen3.5-9B"), "Qwen/Qwen3.5-9B").unwrap();
    let st = m.spec.state.unwrap();
    assert_eq!(m.spec.layers, 32);
    assert_eq!(m.spec.attention_layers(), 8);
    assert_eq!(
        (
            st.kind,
            st.layers,
            st.groups,
            st.state_dim,
            st.heads,
            st.head_dim,
            st.conv_kernel
        ),
        (StateKind::GatedDeltaNet, 24, 16, 128, 32, 128, 4)
    );
    assert_eq!(st.ssm_dtype, Some(ModelDtype::F32));
    assert_eq!((m.spec.kv_heads, m.spec.head_dim), (4, 256));
    assert!(m.spec.extras.multimodal);
    // Read from the config, the L40S log's layout follows: block 528, 0.76 % padding, 4 groups.
    let r = report(&scenario(m.spec, KvDtype::Auto, 1258, 262_144)).unwrap();
    assert_eq!(
        (r.block_size, r.num_groups, r.blocks_per_request),
        (528, 4, 500)
    );
    assert_eq!(
        r.lines[..2],
        [
            "Setting attention block size to 528 tokens to ensure that attention page size is >= mamba page size.",
            "Padding mamba page size by 0.76% to ensure that mamba page size and attention page size are exactly equal.",
        ]
    );
}

#[test]
fn qwen3_next_counts_its_linear_layers_from_the_interval() {
    // No layer_types: full_attention_interval 4 over 48 layers → 12 attention, 36 GDN layers.
    // No mamba_ssm_dtype: the state stays in the model's bfloat16.
    let m = import(
        &config("Qwen3-Next-80B-A3B-Instruct"),
        "Qwen/Qwen3-Next-80B-A3B-Instruct",
    )
    .unwrap();
    let st = m.spec.state.unwrap();
    assert_eq!((st.layers, m.spec.attention_layers()), (36, 12));
    assert_eq!(st.ssm_dtype, None);
    // State per layer, bf16: conv (2 × 16 × 128 + 32 × 128) × 3 × 2 = 49,152; ssm 32 × 128 × 128
    // × 2 = 1,048,576; 1,097,728 B. Attention 2 × 2 × 256 × 2 = 2,048 B per token:
    // block 16 × ⌈1,097,728 / 32,768⌉ = 16 × 34 = 544.
    assert_eq!(st.page_bytes(ModelDtype::Bf16, 1, 0), 1_097_728);
    let r = report(&scenario(m.spec.clone(), KvDtype::Auto, 1000, 262_144)).unwrap();
    assert_eq!(r.block_size, 544);
    // The checkpoint holds 81.32 B parameters (151.49 GiB of bf16 files, with the MTP layer);
    // the estimate counts the language model without MTP: within 3 % below that.
    let p = m.weights.params as f64;
    assert!(p < 81.32e9 && p > 81.32e9 * 0.97, "{p}");
}

#[test]
fn nemotron_h_reads_its_pattern() {
    // hybrid_override_pattern "MEMEM*E…": 23 M (Mamba2), 6 * (attention), 23 E (MoE), 0 -.
    // Only M and * keep a cache: 29 layers. Mamba2: 64 heads × 64, state 128, 8 groups,
    // kernel 4; mamba_ssm_cache_dtype float32.
    let m = import(
        &config("NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
        "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
    )
    .unwrap();
    let st = m.spec.state.unwrap();
    assert_eq!(
        (m.spec.layers, st.layers, m.spec.attention_layers()),
        (29, 23, 6)
    );
    assert_eq!(
        (
            st.kind,
            st.heads,
            st.head_dim,
            st.state_dim,
            st.groups,
            st.conv_kernel
        ),
        (StateKind::Mamba2, 64, 64, 128, 8, 4)
    );
    assert_eq!(st.ssm_dtype, Some(ModelDtype::F32));
    // The state the Cascade-2 log implies: conv (4,096 + 2 × 8 × 128) × 3 × 2 = 36,864 B and
    // ssm 64 × 64 × 128 × 4 = 2,097,152 B.
    assert_eq!(st.page_bytes(ModelDtype::Bf16, 1, 0), 2_134_016);
    // About 31.6 B parameters in bf16 (the "30B-A3B").
    let p = m.weights.params as f64;
    assert!((30.0e9..33.0e9).contains(&p), "{p}");
}

#[test]
fn gpt_oss_slides_on_every_other_layer() {
    // layer_types alternate sliding_attention (window 128) and full_attention over 24 layers.
    let m = import(&config("gpt-oss-20b"), "openai/gpt-oss-20b").unwrap();
    assert_eq!(m.spec.attention, Attention::sliding(128, 12));
    let m = import(&config("gpt-oss-120b"), "openai/gpt-oss-120b").unwrap();
    assert_eq!(m.spec.sliding_layers(), 18);
}

#[test]
fn gpt_oss_mxfp4_weights_are_within_3_percent_of_vllm_logs() {
    // Marlin's layout: experts 2,880 wide padded to 2,944, hidden 2,880 to 3,072;
    // 24 layers × 32 experts × 3 × 2,944 × 3,072 × 17/32 B = 11,069,816,832 B of expert weights,
    // + 24 × 32 × (2 × 2,944 + 3,072) × 2 B = 13,762,560 B of bf16 biases,
    // + (637,009,920 attention + 2,211,840 router) × 2 B = 1,278,443,520 B,
    // + (2 × 201,088 × 2,880 embeddings and head + 141,120 norms) × 2 B = 2,316,816,000 B,
    // + the YaRN cache 131,072 × 64 × 4 B = 33,554,432 B → 14,712,393,344 B = 13.70 GiB.
    // vLLM logged 13.72 GiB (0.19, A100, Marlin) and 13.47 GiB (0.11, H100, Triton).
    let m = import(&config("gpt-oss-20b"), "openai/gpt-oss-20b").unwrap();
    assert_eq!(m.weights.bytes, Bytes(14_712_393_344));
    let g = m.weights.bytes.as_gib();
    for logged in [13.72, 13.47] {
        assert!((g / logged - 1.0).abs() < 0.03, "{g} vs {logged}");
    }
    // gpt-oss-120b: 65.93 GiB vs 65.97 (0.10.1, H100, Marlin) and 64.38 (0.11, H100, Triton).
    let g = import(&config("gpt-oss-120b"), "openai/gpt-oss-120b")
        .unwrap()
        .weights
        .bytes
        .as_gib();
    for logged in [65.9651, 64.38] {
        assert!((g / logged - 1.0).abs() < 0.03, "{g} vs {logged}");
    }
}

#[test]
fn gemma3_reads_text_config_and_its_pattern() {
    // Gemma-3-27B: 62 layers, sliding_window 1,024, sliding_window_pattern 6 → ⌊62 / 6⌋ = 10
    // full, 52 sliding; 16 KV heads × 128.
    let m = import(&config("gemma-3-27b-it"), "google/gemma-3-27b-it").unwrap();
    assert_eq!(m.spec.attention, Attention::sliding(1024, 52));
    assert_eq!((m.spec.kv_heads, m.spec.head_dim), (16, 128));
    // Gemma-3-12B: 48 layers → 8 full, 40 sliding.
    let m = import(&config("gemma-3-12b-it"), "google/gemma-3-12b-it").unwrap();
    assert_eq!(m.spec.sliding_layers(), 40);
}

#[test]
fn deepseek_v32_and_glm51_cache_the_indexer_key() {
    // kv_lora_rank 512 + qk_rope_head_dim 64 = 576; index_head_dim 128.
    let m = import(&config("DeepSeek-V3.2"), "deepseek-ai/DeepSeek-V3.2").unwrap();
    assert_eq!(
        m.spec.attention,
        Attention::Mla {
            latent: 576,
            indexer: 128
        }
    );
    // DeepSeek-V3.2's FP8 checkpoint: 685.4 B parameters, 642.13 GiB of files. The estimate
    // counts 1 B per linear weight and no MTP layer: within 5 % below the files.
    let g = m.weights.bytes.as_gib();
    assert!(g < 642.13 && g > 642.13 * 0.95, "{g}");
    // GLM-5.1: 78 layers; FP8 cache: fp8_ds_mla 656 B + indexer 132 B = 788 B per layer per
    // token, × 78 = 61,464 B (VLLM-HYBRID example 6).
    let m = import(&config("GLM-5.1"), "zai-org/GLM-5.1").unwrap();
    let s = scenario(m.spec, KvDtype::Fp8, 5336, 202_752);
    let r = report(&s).unwrap();
    assert_eq!((r.bytes_per_token, r.block_size), (Bytes(61_464), 64));
    assert_eq!(r.gpu_kv_cache_tokens, Some(341_504));
}

#[test]
fn state_kvbudget_cannot_model_is_refused_by_name() {
    // Jamba keeps Mamba (v1) state: refused, and the message names what it keeps.
    let e = import(&config("Jamba-v0.1"), "ai21labs/Jamba-v0.1")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not supported") && e.contains("Mamba (v1)"),
        "{e}"
    );
    // A Qwen3-Next config without its linear-attention fields names what is missing.
    let e = import(
        r#"{"model_type":"qwen3_next","num_hidden_layers":48,"num_attention_heads":16,"hidden_size":2048}"#,
        "x",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("linear_num_value_heads"), "{e}");
    // A GDN config with a zero head count names the field.
    let text = config("Qwen3.5-9B").replace(
        "\"linear_num_value_heads\": 32",
        "\"linear_num_value_heads\": 0",
    );
    let e = import(&text, "x").unwrap_err().to_string();
    assert!(e.contains("no linear_num_value_heads"), "{e}");
}

#[test]
fn a_hybrid_at_tp_2_splits_its_state() {
    // Qwen3.5-9B at TP 2: conv (2 × 16 × 128 + 32 × 128) / 2 × 3 × 2 B = 24,576; ssm 16 × 128 ×
    // 128 × 4 = 1,048,576; 1,073,152 B; attention 2 × 2 × 256 × 2 = 2,048 B per token:
    // block 16 × ⌈1,073,152 / 32,768⌉ = 16 × 33 = 528 again.
    let m = import(&config("Qwen3.5-9B"), "Qwen/Qwen3.5-9B").unwrap();
    assert_eq!(
        m.spec.state.unwrap().page_bytes(ModelDtype::Bf16, 2, 0),
        1_073_152
    );
    let mut s = scenario(m.spec, KvDtype::Auto, 1000, 32_768);
    s.tp = 2;
    s.memory = KvMemory::Available(Bytes(10 * GIB));
    assert_eq!(report(&s).unwrap().block_size, 528);
}

#[test]
fn compressed_tensors_scales_follow_the_strategy() {
    // A 2-layer toy: hidden 256, 4 heads × 64 (MHA), MLP 512, vocab 1,000, untied.
    // Linear weights per layer: attention 4 × 256 × 256 = 262,144, MLP 3 × 256 × 512 = 393,216;
    // × 2 layers = 1,310,720. Embeddings 2 × 1,000 × 256 = 512,000, norms 2 × 2 × 256 + 256 = 1,280.
    let config = |strategy: &str| {
        format!(
            r#"{{"model_type":"llama","num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":4,
            "hidden_size":256,"intermediate_size":512,"vocab_size":1000,"torch_dtype":"bfloat16",
            "quantization_config":{{"quant_method":"compressed-tensors","config_groups":{{"group_0":
            {{"weights":{{"num_bits":4,"strategy":"{strategy}","group_size":128}}}}}}}}}}"#
        )
    };
    // W4A16 per group of 128: 1,310,720 × 4 / 8 = 655,360 + 1,310,720 / 128 × 2 = 20,480 scales;
    // + (512,000 + 1,280) × 2 B = 1,026,560 → 1,702,400 B.
    let m = import(&config("group"), "toy").unwrap();
    assert_eq!(m.weights.bytes, Bytes(1_702_400));
    // Per channel: no per-group scales → 655,360 + 1,026,560 = 1,681,920 B.
    let m = import(&config("channel"), "toy").unwrap();
    assert_eq!(m.weights.bytes, Bytes(1_681_920));
}

#[test]
fn nemotron_h_experts_are_ungated_in_the_moe_workspace() {
    // mlp_hidden_act relu²: one up projection per expert, no gate. The profile run's MoE
    // intermediates are then 2 × 1,856 wide (up output and activation) plus the hidden 2,688:
    // 32,768 tokens × 6 experts × (2 × 1,856 + 2,688) × 2 B = 2,516,582,400 B
    // (3 × 1,856 for gated experts would give 3,246,391,296 B).
    let m = import(
        &config("NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
        "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
    )
    .unwrap();
    assert!(m.spec.extras.ungated_experts);
    let mut s = scenario(m.spec, KvDtype::Auto, 0, 32_768);
    s.max_num_batched_tokens = Some(32_768);
    s.memory = KvMemory::Budget {
        gpu_total: Bytes(80 * GIB),
        util: 0.9,
        weights: Bytes(60 * GIB),
        overhead: kvbudget::core::vllm::Overhead::ESTIMATE,
    };
    let e = report(&s).unwrap().overhead.unwrap();
    assert_eq!(e.moe, Bytes(2_516_582_400));
}
