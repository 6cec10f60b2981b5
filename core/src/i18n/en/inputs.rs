//! English texts: the scenario's inputs.

pub const IN_NAME: &str = "Name";
pub const IN_LAYERS: &str = "Layers";
pub const IN_HEADS: &str = "Attention heads";
pub const IN_KV_HEADS: &str = "KV heads";
pub const IN_WEIGHTS: &str = "Weights";
pub const IN_GPU_GIB: &str = "Memory as vLLM sees it";
pub const IN_BW: &str = "Bandwidth";
pub const IN_TFLOPS: &str = "Dense BF16 TFLOPS";
pub const IN_TP: &str = "Tensor-parallel size";
pub const IN_PP: &str = "Pipeline-parallel size";
pub const IN_OVERHEAD: &str = "Overhead besides weights";
pub const IN_PROMPT: &str = "Prompt tokens";
pub const IN_TRACE: &str = "Reasoning-trace tokens";
pub const IN_TFLOPS_HINT: &str = "0: unknown";
pub const IN_UTIL_HINT: &str = "0–1; empty: the version's default";
pub const IN_TOKENS: &str = "tokens";
pub const IN_SEQS_HINT: &str = "empty: vLLM's default";
pub const IN_OVERHEAD_HINT: &str = "GiB; empty: kvbudget's estimate";
pub const IN_MFS_HINT: &str = "0–1; empty: SGLang's default for the GPU";
pub const IN_PAGE_HINT: &str = "tokens; empty: 1";
pub const IN_CHUNKED_HINT: &str = "tokens, -1: off; empty: SGLang's default";
pub const IN_MNBT_HINT: &str = "empty: vLLM's default";
pub const IN_DCP: &str = "decode-context-parallel size";
pub const IN_DCP_HINT: &str = "ranks a request's tokens are spread over; empty: 1";
pub const IN_OFFLOAD: &str = "CPU offload";
pub const IN_OFFLOAD_HINT: &str = "GiB per GPU; empty: none";
pub const IN_LORAS: &str = "LoRA adapters on the GPU (max_loras)";
pub const IN_LORAS_HINT: &str = "empty: no LoRA";
pub const IN_LORA_RANK_HINT: &str = "with LoRA";
pub const IN_SPEC: &str = "Speculative tokens";
pub const IN_SPEC_HINT: &str = "empty: no speculative decoding";
pub const IN_DRAFT_LAYERS: &str = "Draft attention layers";
pub const IN_DRAFT_LAYERS_HINT: &str = "1: an EAGLE head";
pub const IN_DRAFT_WEIGHTS: &str = "Draft weights";
pub const IN_PLAN: &str = "Plan for this many sequences";
pub const IN_PLAN_HINT: &str = "empty: no plan";
pub const IN_CUSTOM_GEOMETRY: &str = "Custom geometry…";
pub const IN_CUSTOM: &str = "Custom…";
pub const IN_MODEL: &str = "Model";
pub const IN_UNIT: &str = "Unit";
pub const IN_GIB_OPTION: &str = "GiB (2³⁰ B)";
pub const IN_GB_OPTION: &str = "GB (10⁹ B)";
pub const IN_KV_DTYPE: &str = "KV cache dtype";
pub const IN_GPU: &str = "GPU";
pub const IN_ENGINE: &str = "Engine";
pub const IN_SGLANG_VERSION: &str = "SGLang version";
pub const IN_SGLANG_NOTE: &str = "SGLang reads max_model_len as --context-length and the KV dtype, TP and PP above; the free memory is predicted from the GPU and the weights.";
pub const IN_VLLM: &str = "vLLM";
pub const IN_VLLM_VERSION: &str = "vLLM version";
pub const IN_MORE_FLAGS: &str = "More vLLM flags";
pub const IN_EAGER: &str = "--enforce-eager (no CUDA graphs)";
pub const IN_PREFIX: &str =
    "--enable-prefix-caching (reuses whole blocks; hybrids keep more state)";
pub const IN_NO_PREFIX: &str =
    "--no-enable-prefix-caching (hybrids have it on by default from vLLM 0.28)";
pub const IN_USE_SEED_OVERHEAD: &str = "Use the course lab's 1 GiB";
pub const IN_USE_ESTIMATE: &str = "Use kvbudget's estimate";
pub const IN_REQUESTS: &str = "Requests";
pub const IN_REQUESTS_NOTE: &str =
    "Each sequence holds its prompt plus its reasoning trace; empty: max_model_len.";
pub const IN_RESET: &str = "Reset to defaults";
pub const IN_SGLANG_DEFAULT: &str = "SGLang default";
pub const IN_PAGE_DEFAULT: &str = "1 (SGLang default)";
pub const IN_OVERHEAD_ESTIMATE: &str = "estimate";
pub const IN_FULL_ATTENTION: &str = "full attention";
pub const IN_VOCAB_UNKNOWN: &str = "vocab unknown";
pub const IN_TFLOPS_UNKNOWN: &str = "TFLOPS unknown (no compute roof)";
pub fn in_util_placeholder(util: &str, version: &str) -> String {
    format!("{util} (vLLM {version} default)")
}
pub fn in_seqs_placeholder(seqs: u64) -> String {
    format!("{seqs} (vLLM default here)")
}
pub fn in_overhead_placeholder(gib: &str, spread: &str) -> String {
    format!("estimate: {gib} GiB ± {spread}")
}
pub fn in_sglang_placeholder(value: &str, version: &str) -> String {
    format!("{value} (SGLang {version} default here)")
}
pub fn in_newest(v: &str) -> String {
    format!("{v} (newest known)")
}
pub fn in_v0(v: &str) -> String {
    format!("{v} (V0 engine)")
}
pub fn in_gpu_seen_preset(
    marketed: u64,
    gib: &str,
    bytes: &str,
    bw: &str,
    tflops: &str,
    fp8: &str,
) -> String {
    let fp8 = if fp8.is_empty() {
        String::new()
    } else {
        format!(", {fp8} FP8")
    };
    format!("Marketed {marketed} GB (10⁹ B); vLLM sees {gib} GiB ({bytes} B); {bw} GB/s; {tflops} dense BF16 TFLOPS{fp8}.")
}
pub fn in_gpu_seen_custom(gib: &str, bytes: &str, bw: &str, tflops: &str) -> String {
    let compute = if tflops.is_empty() {
        super::IN_TFLOPS_UNKNOWN.to_string()
    } else {
        format!("{tflops} dense BF16 TFLOPS")
    };
    format!("vLLM sees {gib} GiB ({bytes} B); {bw} GB/s; {compute}.")
}
pub fn in_sliding(window: &str, sliding: u64, layers: u64) -> String {
    format!("sliding window {window} on {sliding} of {layers} layers")
}
pub fn in_mla(latent: u64, indexer: u64) -> String {
    if indexer == 0 {
        format!("MLA latent {latent}")
    } else {
        format!("MLA latent {latent}, indexer {indexer}")
    }
}
pub fn in_chunked(chunk: &str, local: u64, layers: u64) -> String {
    format!("chunked local attention ({chunk}) on {local} of {layers} layers")
}
pub fn in_vocab(v: &str) -> String {
    format!("vocab {v}")
}
pub fn in_default_len(len: &str) -> String {
    format!("; default max_model_len {len}")
}
pub fn in_state_layers(state: u64, layers: u64, kind: &str) -> String {
    format!("; {state} of the {layers} layers are {kind} with a fixed state per request")
}
