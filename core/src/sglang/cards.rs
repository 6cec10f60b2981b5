//! What SGLang reads about the hardware and the checkpoint besides the geometry: the GPU's
//! capacity as `nvidia-smi` reports it (which only the defaults use), the free memory before
//! loading predicted from it, and the architecture name its log prints.

use crate::units::{Bytes, GIB, MIB};

/// `nvidia-smi --query-gpu=memory.total` in MiB for a GPU preset slug (SGLANG-ACCOUNTING §6;
/// RTX 5080 from its preset's note). `None` for a card kvbudget has no such figure for.
pub fn nvidia_smi_mib(slug: &str) -> Option<u64> {
    Some(match slug.trim().to_ascii_lowercase().as_str() {
        "h100-sxm" | "h100-pcie" => 81_559,
        "a100-80gb" => 81_920,
        "a100-40gb" => 40_960,
        "h200" => 143_771,
        "l40s" => 46_068,
        "l4" => 23_034,
        "a10g" => 23_028,
        "t4" => 15_360,
        "rtx-4090" => 24_564,
        "rtx-3090" => 24_576,
        "rtx-5090" => 32_607,
        "rtx-5080" => 16_303,
        _ => return None,
    })
}

/// The first entry of `architectures` in a preset's config.json (what `type=` prints).
pub fn architecture(model_id: &str) -> Option<&'static str> {
    Some(match model_id.trim().to_ascii_lowercase().as_str() {
        "qwen/qwen3-8b" | "qwen/qwen3-14b" | "qwen/qwen3-14b-awq" | "qwen/qwen3-32b" => {
            "Qwen3ForCausalLM"
        }
        "qwen/qwen2.5-7b-instruct" | "qwen/qwen2.5-7b-instruct-awq" => "Qwen2ForCausalLM",
        "meta-llama/llama-3.1-8b-instruct" => "LlamaForCausalLM",
        "mistralai/mistral-7b-instruct-v0.3" => "MistralForCausalLM",
        "google/gemma-2-9b-it" => "Gemma2ForCausalLM",
        "deepseek-ai/deepseek-v2-lite" => "DeepseekV2ForCausalLM",
        "qwen/qwen3-30b-a3b" => "Qwen3MoeForCausalLM",
        "qwen/qwen3-next-80b-a3b-instruct" => "Qwen3NextForCausalLM",
        // Two pools in SGLang (`HYBRID_SWA_ARCHS`): without the name, one pool over every layer.
        "openai/gpt-oss-20b" | "openai/gpt-oss-120b" => "GptOssForCausalLM",
        "meta-llama/llama-4-scout-17b-16e-instruct" => "Llama4ForConditionalGeneration",
        "google/gemma-3-12b-it" | "google/gemma-3-27b-it" => "Gemma3ForConditionalGeneration",
        _ => return None,
    })
}

/// The quantization a preset's checkpoint declares (`quant=` in 0.5.10+ logs).
pub fn quantization(model_id: &str) -> Option<&'static str> {
    let id = model_id.trim().to_ascii_lowercase();
    if id.ends_with("-awq") {
        Some("quant=awq, bits=4")
    } else {
        None
    }
}

/// Architectures SGLang sizes with two pools, full and sliding-window
/// (`configs/model_config.py::is_hybrid_swa_model`, 0.4.10–0.5.23). Every other model with a
/// sliding window — Gemma 2 and 3, Mistral — gets one pool over all its layers.
pub const HYBRID_SWA_ARCHS: [&str; 10] = [
    "Llama4ForConditionalGeneration",
    "GptOssForCausalLM",
    "MiMoV2FlashForCausalLM",
    "Step3p5ForCausalLM",
    "Gemma4ForCausalLM",
    "Gemma4ForConditionalGeneration",
    "LagunaForCausalLM",
    "MellumForCausalLM",
    "InklingForConditionalGeneration",
    "DeepseekV4ForCausalLM",
];

/// kvbudget's estimate of what a GPU keeps before the weights load (CUDA context, NCCL,
/// the display on desktop cards): the free memory SGLang measures is `total − this`.
/// From the shared logs: H100 81,559 MiB → 78.81 free (0.84 GiB kept), RTX 4090 24,564 MiB →
/// 23.0 (0.99), H200 143,771 MiB → 139.6 (0.80), a 16 GB card → 15.33 (0.67).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextEstimate {
    /// The point estimate.
    pub point: Bytes,
    /// The least a GPU was seen to keep.
    pub low: Bytes,
    /// The most.
    pub high: Bytes,
}

/// The context estimate: 0.85 GiB (0.6–1.1 GiB) on one GPU, 0.3 GiB more with several
/// (NCCL's buffers).
pub fn context_estimate(gpus: u64) -> ContextEstimate {
    let extra = if gpus > 1 { 300 * MIB } else { 0 };
    ContextEstimate {
        point: Bytes(GIB * 85 / 100 + extra),
        low: Bytes(GIB * 60 / 100 + extra),
        high: Bytes(GIB * 110 / 100 + extra),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_and_names() {
        assert_eq!(nvidia_smi_mib("RTX-4090"), Some(24_564));
        assert_eq!(nvidia_smi_mib("mi300x"), None);
        assert_eq!(architecture("Qwen/Qwen3-8B"), Some("Qwen3ForCausalLM"));
        assert_eq!(architecture("custom"), None);
        assert_eq!(
            quantization("Qwen/Qwen3-14B-AWQ"),
            Some("quant=awq, bits=4")
        );
        let c = context_estimate(1);
        assert!(c.low < c.point && c.point < c.high);
        assert_eq!(context_estimate(2).point.0 - c.point.0, 300 * MIB);
    }
}
