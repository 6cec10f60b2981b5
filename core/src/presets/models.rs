//! The model presets: Hugging Face ids with their config.json facts and weights figures.

use super::{gib_hundredths, ModelPreset};
use crate::model::{
    Attention, Embeddings, Extras, ModelDtype, ModelSpec, NoFloat16, StateFamily, StateKind,
    StateLayers,
};
use crate::units::Bytes;
use std::borrow::Cow;

/// An MoE's routed bytes as its logged `weights` less the `read_in_full` bytes the config gives
/// for everything but the routed experts (kvbudget's config import: embeddings, attention or
/// mixers, dense and shared MLPs, routers, norms): what the checkpoint holds beyond those (an MTP
/// layer vLLM skips, a vision encoder, vLLM's padding of the experts) goes with the experts.
pub(super) const fn all_but(weights: Bytes, read_in_full: u64) -> Bytes {
    Bytes(weights.0 - read_in_full)
}

/// Qwen3.5's Gated DeltaNet layers: 16 key heads × 128, `value_heads` × 128, kernel 4, the
/// temporal state in float32 (`mamba_ssm_dtype`).
const fn gdn(layers: u64, value_heads: u64) -> StateLayers {
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

/// The models of VLLM-ACCOUNTING §6, then the 2026 families of VLLM-HYBRID.
pub const MODELS: [ModelPreset; 26] = [
    // config.json: 36 layers, 32 q / 8 kv heads, head_dim 128, vocab 151936, max_pos 40960, bf16.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3-8B"),
            layers: 36,
            attention_heads: 32,
            kv_heads: 8,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 40960,
            vocab: 151936,
            weights: gib_hundredths(1527),
            extras: Extras {
                hidden: 4096,
                intermediate: 12288,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM log: Model loading took 15.27 GiB (checkpoint 16,381,470,720 B)
    },
    // config.json: 40 layers, 40 q / 8 kv heads, head_dim 128, vocab 151936, max_pos 40960, bf16.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3-14B"),
            layers: 40,
            attention_heads: 40,
            kv_heads: 8,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 40960,
            vocab: 151936,
            weights: gib_hundredths(2752),
            extras: Extras {
                hidden: 5120,
                intermediate: 17408,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM log: Model loading took 27.52 GiB (checkpoint 29,536,614,400 B)
    },
    // AWQ w4 g128; activations and KV in fp16. Geometry as Qwen3-14B.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3-14B-AWQ"),
            layers: 40,
            attention_heads: 40,
            kv_heads: 8,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::F16,
            max_position: 40960,
            vocab: 151936,
            weights: gib_hundredths(944),
            extras: Extras {
                hidden: 5120,
                intermediate: 17408,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM log: Model loading took 9.44 GiB (checkpoint ≈ 9.98 GB)
    },
    // config.json: 28 layers, 28 q / 4 kv heads, head_dim 128 (3584/28), vocab 152064, max_pos 32768.
    // `sliding_window` is present but `use_sliding_window: false`: full attention.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen2.5-7B-Instruct"),
            layers: 28,
            attention_heads: 28,
            kv_heads: 4,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 32768,
            vocab: 152064,
            weights: gib_hundredths(1425),
            extras: Extras {
                hidden: 3584,
                intermediate: 18944,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM log: Model loading took 14.25 GiB (checkpoint 15,231,233,024 B)
    },
    // AWQ (fp16); geometry as Qwen2.5-7B-Instruct.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen2.5-7B-Instruct-AWQ"),
            layers: 28,
            attention_heads: 28,
            kv_heads: 4,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::F16,
            max_position: 32768,
            vocab: 152064,
            weights: gib_hundredths(543),
            extras: Extras {
                hidden: 3584,
                intermediate: 18944,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM logs: Model loading took 5.29–5.43 GiB; the higher figure (checkpoint
        // ≈ 5.57 GB)
    },
    // config.json: 32 layers, 32 q / 8 kv heads, head_dim 128, vocab 128256, max_pos 131072.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("meta-llama/Llama-3.1-8B-Instruct"),
            layers: 32,
            attention_heads: 32,
            kv_heads: 8,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 131072,
            vocab: 128256,
            weights: gib_hundredths(1499),
            extras: Extras {
                hidden: 4096,
                intermediate: 14336,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM log: Model loading took 14.99 GiB (checkpoint 16,060,522,496 B)
    },
    // config.json: 32 layers, 32 q / 8 kv heads, head_dim 128, vocab 32768, max_pos 32768.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("mistralai/Mistral-7B-Instruct-v0.3"),
            layers: 32,
            attention_heads: 32,
            kv_heads: 8,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 32768,
            vocab: 32768,
            weights: Bytes(14_496_047_104),
            extras: Extras {
                hidden: 4096,
                intermediate: 14336,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: checkpoint safetensors bytes (no vLLM log figure known)
    },
    // config.json: 42 layers alternating sliding (window 4096) and full, 16 q / 8 kv heads,
    // head_dim 256 (not 3584/16 = 224), vocab 256000, max_pos 8192. vLLM runs its float32 config in bf16.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("google/gemma-2-9b-it"),
            layers: 42,
            attention_heads: 16,
            kv_heads: 8,
            head_dim: 256,
            attention: Attention::sliding(4096, 21),
            dtype: ModelDtype::Bf16,
            max_position: 8192,
            vocab: 256000,
            weights: Bytes(18_483_411_968),
            extras: Extras {
                hidden: 3584,
                intermediate: 14336,
                experts_per_token: 0,
                moe_intermediate: 0,
                embeddings: Embeddings::EveryStage,
                no_float16: NoFloat16::Gemma2,
                f32_checkpoint: true, // (its config names float32)
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: checkpoint safetensors bytes (no vLLM log figure known)
    },
    // config.json: 27 layers, 16 heads, MLA kv_lora_rank 512 + qk_rope_head_dim 64, vocab 102400, max_pos 163840.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("deepseek-ai/DeepSeek-V2-Lite"),
            layers: 27,
            attention_heads: 16,
            kv_heads: 16,
            head_dim: 576,
            attention: Attention::Mla {
                latent: 576,
                indexer: 0,
            },
            dtype: ModelDtype::Bf16,
            max_position: 163840,
            vocab: 102400,
            weights: Bytes(31_412_968_448),
            extras: Extras {
                hidden: 2048,
                intermediate: 10944,
                experts_per_token: 6,
                moe_intermediate: 1408,
                experts: 64,
                // 26 MoE layers (first_k_dense_replace 1) × 64 routed experts × 3 matrices of 2048 × 1408, BF16.
                routed: Bytes(26 * 64 * 3 * 2048 * 1408 * 2),
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: checkpoint safetensors bytes (no vLLM log figure known)
    },
    // config.json: 64 layers, 64 q / 8 kv heads, head_dim 128 (not 5120/64 = 80), vocab 151936, max_pos 40960.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3-32B"),
            layers: 64,
            attention_heads: 64,
            kv_heads: 8,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 40960,
            vocab: 151936,
            weights: Bytes(65_524_246_528),
            extras: Extras {
                hidden: 5120,
                intermediate: 25600,
                experts_per_token: 0,
                moe_intermediate: 0,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: checkpoint safetensors bytes (no vLLM log figure known)
    },
    // config.json: 48 layers, 32 q / 4 kv heads, head_dim 128 (not 2048/32 = 64), MoE 128 experts, 8 active.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3-30B-A3B"),
            layers: 48,
            attention_heads: 32,
            kv_heads: 4,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 40960,
            vocab: 151936,
            weights: Bytes(61_064_245_248),
            extras: Extras {
                hidden: 2048,
                // The config's intermediate_size (6,144) sizes no layer: every layer is MoE
                // (decoder_sparse_step 1, mlp_only_layers empty), as the config import reads it.
                intermediate: 0,
                experts_per_token: 8,
                moe_intermediate: 768,
                experts: 128,
                // 48 MoE layers × 128 experts × 3 matrices of 2048 × 768, BF16.
                routed: Bytes(48 * 128 * 3 * 2048 * 768 * 2),
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: checkpoint safetensors bytes (no vLLM log figure known)
    },
    // The 2026 families (VLLM-HYBRID). Qwen3.5-9B config.json (text_config): 32 layers, every 4th
    // full attention (8) with 16 q / 4 kv heads × 256; 24 Gated DeltaNet layers (16 key heads ×
    // 128, 32 value heads × 128, kernel 4, mamba_ssm_dtype float32); vocab 248320, max_pos 262144.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3.5-9B"),
            layers: 32,
            attention_heads: 16,
            kv_heads: 4,
            head_dim: 256,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 262144,
            vocab: 248320,
            weights: gib_hundredths(1766),
            extras: Extras {
                hidden: 4096,
                intermediate: 12288,
                experts_per_token: 0,
                moe_intermediate: 0,
                multimodal: true,
                vision_heads: 16,
                ..Extras::DENSE
            },
            state: Some(gdn(24, 32)),
        },
        // Weights: vLLM 0.19 log (L40S): Model loading took 17.66 GiB
    },
    // Qwen3.5-27B: 64 layers (16 attention, 24 q / 4 kv heads × 256; 48 GDN with 48 value heads),
    // hidden 5120, MLP 17408, vocab 248320, max_pos 262144.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3.5-27B"),
            layers: 64,
            attention_heads: 24,
            kv_heads: 4,
            head_dim: 256,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 262144,
            vocab: 248320,
            weights: Bytes(55_560_000_000),
            extras: Extras {
                hidden: 5120,
                intermediate: 17408,
                experts_per_token: 0,
                moe_intermediate: 0,
                multimodal: true,
                vision_heads: 16,
                ..Extras::DENSE
            },
            state: Some(gdn(48, 48)),
        },
        // Weights: checkpoint ≈ 55.56 GB (27.78 B parameters in bf16, with the vision encoder and the MTP layer vLLM skips; no vLLM log figure known)
    },
    // Qwen3.5-35B-A3B: 40 layers (10 attention, 16 q / 2 kv heads × 256; 30 GDN with 32 value
    // heads), hidden 2048, 256 experts × 512 (8 active) and a shared expert of 512.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3.5-35B-A3B"),
            layers: 40,
            attention_heads: 16,
            kv_heads: 2,
            head_dim: 256,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 262144,
            vocab: 248320,
            weights: gib_hundredths(6697),
            extras: Extras {
                hidden: 2048,
                intermediate: 512,
                experts_per_token: 8,
                moe_intermediate: 512,
                experts: 256,
                // 40 MoE layers × 256 experts × 3 matrices of 2048 × 512, BF16.
                // The routed experts as the weights less what every step reads in full
                // (embeddings, attention, shared parts, norms: 4,896,690,176 B from the config),
                // leaving the vision encoder and the MTP layer with the bytes a step may skip.
                routed: all_but(gib_hundredths(6697), 4_896_690_176),
                multimodal: true,
                vision_heads: 16,
                ..Extras::DENSE
            },
            state: Some(gdn(30, 32)),
        },
        // Weights: checkpoint safetensors 66.97 GiB (35.95 B parameters, with the vision encoder and the MTP layer vLLM skips; no vLLM log figure known)
    },
    // Qwen3-Next-80B-A3B-Instruct: 48 layers, full_attention_interval 4 (12 attention, 16 q / 2 kv
    // heads × 256; 36 GDN, state in bf16), hidden 2048, 512 experts × 512 (10 active), shared 512.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("Qwen/Qwen3-Next-80B-A3B-Instruct"),
            layers: 48,
            attention_heads: 16,
            kv_heads: 2,
            head_dim: 256,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 262144,
            vocab: 151936,
            weights: gib_hundredths(15149),
            extras: Extras {
                hidden: 2048,
                intermediate: 512,
                experts_per_token: 10,
                moe_intermediate: 512,
                experts: 512,
                // 48 MoE layers × 512 experts × 3 matrices of 2048 × 512, BF16.
                // The routed experts as the weights less what every step reads in full
                // (embeddings, attention, shared parts, norms: 4,729,933,824 B from the config),
                // leaving the MTP layer with the bytes a step may skip.
                routed: all_but(gib_hundredths(15149), 4_729_933_824),
                ..Extras::DENSE
            },
            state: Some(StateLayers {
                ssm_dtype: None,
                family: StateFamily::Generic,
                ..gdn(36, 32)
            }),
        },
        // Weights: checkpoint safetensors 151.49 GiB (81.32 B parameters with the MTP layer; no vLLM log figure known)
    },
    // gpt-oss-20b: 24 layers alternating sliding (window 128, sinks) and full, 64 q / 8 kv heads
    // × 64, 32 MXFP4 experts (4 active) of 2880, vocab 201088, max_pos 131072.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("openai/gpt-oss-20b"),
            layers: 24,
            attention_heads: 64,
            kv_heads: 8,
            head_dim: 64,
            attention: Attention::sliding(128, 12),
            dtype: ModelDtype::Bf16,
            max_position: 131072,
            vocab: 201088,
            weights: gib_hundredths(1347),
            extras: Extras {
                hidden: 2880,
                experts_per_token: 4,
                moe_intermediate: 2880,
                experts: 32,
                // 24 MoE layers × 32 experts × 3 matrices of 2880 × 2880 in MXFP4 (4 bits and a
                // 1-byte scale per 32: 17/32 B), with BF16 biases (2 × 2880 + 2880).
                // The routed experts as the weights less what every step reads in full
                // (embeddings, attention, shared parts, norms: 3,628,813,952 B from the config),
                // leaving the experts' padding in vLLM's layout with the bytes a step may skip.
                routed: all_but(gib_hundredths(1347), 3_628_813_952),
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM 0.11 log (H100): Model loading took 13.47 GiB (MXFP4 experts)
    },
    // gpt-oss-120b: 36 layers (18 sliding), 128 experts, otherwise as gpt-oss-20b.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("openai/gpt-oss-120b"),
            layers: 36,
            attention_heads: 64,
            kv_heads: 8,
            head_dim: 64,
            attention: Attention::sliding(128, 18),
            dtype: ModelDtype::Bf16,
            max_position: 131072,
            vocab: 201088,
            weights: gib_hundredths(6438),
            extras: Extras {
                hidden: 2880,
                experts_per_token: 4,
                moe_intermediate: 2880,
                experts: 128,
                // 36 MoE layers × 128 experts, each as gpt-oss-20b's.
                // The routed experts as the weights less what every step reads in full
                // (embeddings, attention, shared parts, norms: 4,288,080,512 B from the config),
                // leaving the experts' padding in vLLM's layout with the bytes a step may skip.
                routed: all_but(gib_hundredths(6438), 4_288_080_512),
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM 0.11 log (H100): Model loading took 64.38 GiB (MXFP4 experts)
    },
    // gemma-3-12b-it (text_config): 48 layers, 5 sliding (window 1024) : 1 full, 16 q / 8 kv
    // heads × 256, vocab 262208, max_pos 131072.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("google/gemma-3-12b-it"),
            layers: 48,
            attention_heads: 16,
            kv_heads: 8,
            head_dim: 256,
            attention: Attention::sliding(1024, 40),
            dtype: ModelDtype::Bf16,
            max_position: 131072,
            vocab: 262208,
            weights: gib_hundredths(2331),
            extras: Extras {
                hidden: 3840,
                intermediate: 15360,
                experts_per_token: 0,
                moe_intermediate: 0,
                multimodal: true,
                embeddings: Embeddings::EveryStage,
                vision_heads: 16,
                // SigLIP: patch embedding 3 × 14² × 1,152 + 1,152, positions 64² × 1,152, 27 layers of
                // 15,239,504 (two LayerNorms, q/k/v/o with biases, 1,152 ↔ 4,304 MLP), a final
                // LayerNorm: 416,866,032; the projector 1,152 × 3,840 and its norm of 1,152: in BF16.
                encoder: Bytes(842_581_728),
                no_float16: NoFloat16::Gemma3,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM 0.19 log (H100): Model loading took 23.31 GiB
    },
    // gemma-3-27b-it (text_config): 62 layers (52 sliding, 10 full), 32 q / 16 kv heads × 128.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("google/gemma-3-27b-it"),
            layers: 62,
            attention_heads: 32,
            kv_heads: 16,
            head_dim: 128,
            attention: Attention::sliding(1024, 52),
            dtype: ModelDtype::Bf16,
            max_position: 131072,
            vocab: 262208,
            weights: gib_hundredths(5145),
            extras: Extras {
                hidden: 5376,
                intermediate: 21504,
                experts_per_token: 0,
                moe_intermediate: 0,
                multimodal: true,
                embeddings: Embeddings::EveryStage,
                vision_heads: 16,
                // SigLIP: patch embedding 3 × 14² × 1,152 + 1,152, positions 64² × 1,152, 27 layers of
                // 15,239,504 (two LayerNorms, q/k/v/o with biases, 1,152 ↔ 4,304 MLP), a final
                // LayerNorm: 416,866,032; the projector 1,152 × 5,376 and its norm of 1,152: in BF16.
                encoder: Bytes(846_120_672),
                no_float16: NoFloat16::Gemma3,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM 0.19 log (H100): Model loading took 51.45 GiB
    },
    super::gemma4::E2B,
    super::gemma4::E4B,
    super::gemma4::A26B,
    super::gemma4::B31,
    // Llama-4-Scout-17B-16E-Instruct (text_config): 48 layers, every 4th global (NoPE), the other
    // 36 chunked local (attention_chunk_size 8192), 40 q / 8 kv heads × 128, 16 experts (1
    // active) of 8192 and a shared expert of 8192 (intermediate_size_mlp, 16384, sizes only the
    // dense layers Maverick interleaves), vocab 202048, max_pos 10485760.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("meta-llama/Llama-4-Scout-17B-16E-Instruct"),
            layers: 48,
            attention_heads: 40,
            kv_heads: 8,
            head_dim: 128,
            attention: Attention::ChunkedLocal {
                chunk: 8192,
                local_layers: 36,
            },
            dtype: ModelDtype::Bf16,
            max_position: 10485760,
            vocab: 202048,
            weights: gib_hundredths(4 * 5312),
            extras: Extras {
                hidden: 5120,
                // The shared expert of every MoE layer, as wide as a routed one (Llama4TextMoe).
                intermediate: 8192,
                experts_per_token: 1,
                moe_intermediate: 8192,
                experts: 16,
                // 48 MoE layers (interleave_moe_layer_step 1) × 16 experts × 3 matrices of 5120 × 8192, BF16.
                // The routed experts as the weights less what every step reads in full
                // (embeddings, attention, shared parts, norms: 22,266,193,920 B from the config),
                // leaving the vision encoder with the bytes a step may skip.
                routed: all_but(gib_hundredths(4 * 5312), 22_266_193_920),
                multimodal: true,
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: vLLM 0.19 log (4 × H100, TP 4): Model loading took 53.12 GiB per GPU
    },
    // DeepSeek-V3.2: 61 layers, 128 heads, MLA kv_lora_rank 512 + rope 64 with the sparse
    // indexer (index_head_dim 128), 256 experts × 2048 (8 active), FP8 weights, max_pos 163840.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("deepseek-ai/DeepSeek-V3.2"),
            layers: 61,
            attention_heads: 128,
            kv_heads: 128,
            head_dim: 576,
            attention: Attention::Mla {
                latent: 576,
                indexer: 128,
            },
            dtype: ModelDtype::Bf16,
            max_position: 163840,
            vocab: 129280,
            weights: gib_hundredths(64213),
            extras: Extras {
                hidden: 7168,
                intermediate: 18432,
                experts_per_token: 8,
                moe_intermediate: 2048,
                experts: 256,
                // 58 MoE layers (first_k_dense_replace 3) × 256 experts × 3 matrices of 7168 × 2048 in
                // FP8 (1 B) with a float32 scale per 128 × 128 block.
                // The routed experts as the weights less what every step reads in full
                // (embeddings, attention, shared parts, norms: 19,823,257,600 B from the config),
                // leaving the MTP layer with the bytes a step may skip.
                routed: all_but(gib_hundredths(64213), 19_823_257_600),
                ..Extras::DENSE
            },
            state: None,
        },
        // Weights: checkpoint safetensors 642.13 GiB (FP8, with the MTP layer; no vLLM log figure known)
    },
    // NVIDIA-Nemotron-3-Nano-30B-A3B-BF16: hybrid_override_pattern of 52 layers, 23 Mamba2 (64
    // heads × 64, state 128, 8 groups, kernel 4, mamba_ssm_cache_dtype float32), 6 attention (32 q
    // / 2 kv heads × 128) and 23 MoE (128 experts × 1856, 6 active); only Mamba and attention
    // layers are counted here. vocab 131072, max_pos 262144.
    ModelPreset {
        spec: ModelSpec {
            id: Cow::Borrowed("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
            layers: 29,
            attention_heads: 32,
            kv_heads: 2,
            head_dim: 128,
            attention: Attention::Full,
            dtype: ModelDtype::Bf16,
            max_position: 262144,
            vocab: 131072,
            weights: Bytes(63_287_547_648),
            extras: Extras {
                hidden: 2688,
                // Its shared expert's width (n_shared_experts 1 × 3,712): no layer is a dense MLP.
                intermediate: 3712,
                experts_per_token: 6,
                moe_intermediate: 1856,
                experts: 128,
                // 23 MoE layers × 128 experts × 2 matrices (relu², no gate) of 2688 × 1856, BF16.
                routed: Bytes(23 * 128 * 2 * 2688 * 1856 * 2),
                ungated_experts: true,
                ..Extras::DENSE
            },
            state: Some(StateLayers {
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
            }),
        },
        // Weights: estimate from config.json: 31.64 B parameters × 2 B (no vLLM log figure or checkpoint size known)
    },
];
