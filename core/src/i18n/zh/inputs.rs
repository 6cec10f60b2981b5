//! 中文文本：场景输入。

pub const IN_NAME: &str = "名称";
pub const IN_LAYERS: &str = "层数";
pub const IN_HEADS: &str = "注意力头数";
pub const IN_KV_HEADS: &str = "KV 头数";
pub const IN_WEIGHTS: &str = "权重";
pub const IN_GPU_GIB: &str = "vLLM 看到的显存";
pub const IN_BW: &str = "显存带宽";
pub const IN_TFLOPS: &str = "稠密 BF16 算力（TFLOPS）";
pub const IN_TP: &str = "张量并行（TP）规模";
pub const IN_PP: &str = "流水线并行（PP）规模";
pub const IN_OVERHEAD: &str = "权重之外的开销";
pub const IN_PROMPT: &str = "提示词 token 数";
pub const IN_TRACE: &str = "推理过程 token 数";
pub const IN_TFLOPS_HINT: &str = "0：未知";
pub const IN_UTIL_HINT: &str = "0–1；留空：该版本的默认值";
pub const IN_TOKENS: &str = "token";
pub const IN_SEQS_HINT: &str = "留空：vLLM 默认值";
pub const IN_OVERHEAD_HINT: &str = "GiB；留空：kvbudget 的估计值";
pub const IN_MFS_HINT: &str = "0–1；留空：SGLang 针对该 GPU 的默认值";
pub const IN_PAGE_HINT: &str = "token；留空：1";
pub const IN_CHUNKED_HINT: &str = "token，-1：关闭；留空：SGLang 默认值";
pub const IN_MNBT_HINT: &str = "留空：vLLM 默认值";
pub const IN_DCP: &str = "解码上下文并行（DCP）规模";
pub const IN_DCP_HINT: &str = "一个请求的 token 分散到的 rank 数；留空：1";
pub const IN_OFFLOAD: &str = "CPU 卸载";
pub const IN_OFFLOAD_HINT: &str = "每块 GPU 的 GiB；留空：不卸载";
pub const IN_LORAS: &str = "GPU 上同时加载的 LoRA 适配器数（max_loras）";
pub const IN_LORAS_HINT: &str = "留空：不用 LoRA";
pub const IN_LORA_RANK_HINT: &str = "启用 LoRA 时";
pub const IN_SPEC: &str = "推测 token 数";
pub const IN_SPEC_HINT: &str = "留空：不做推测解码";
pub const IN_DRAFT_LAYERS: &str = "草稿模型注意力层数";
pub const IN_DRAFT_LAYERS_HINT: &str = "1：EAGLE 头";
pub const IN_DRAFT_WEIGHTS: &str = "草稿模型权重";
pub const IN_PLAN: &str = "按这么多条序列做规划";
pub const IN_PLAN_HINT: &str = "留空：不做规划";
pub const IN_CUSTOM_GEOMETRY: &str = "自定义结构…";
pub const IN_CUSTOM: &str = "自定义…";
pub const IN_MODEL: &str = "模型";
pub const IN_UNIT: &str = "单位";
pub const IN_GIB_OPTION: &str = "GiB（2³⁰ 字节）";
pub const IN_GB_OPTION: &str = "GB（10⁹ 字节）";
pub const IN_KV_DTYPE: &str = "KV 缓存数据类型";
pub const IN_GPU: &str = "GPU";
pub const IN_ENGINE: &str = "推理引擎";
pub const IN_SGLANG_VERSION: &str = "SGLang 版本";
pub const IN_SGLANG_NOTE: &str = "SGLang 把 max_model_len 当作 --context-length，并沿用上面的 KV 数据类型、TP 和 PP；空闲显存由 GPU 与权重推算。";
pub const IN_VLLM: &str = "vLLM";
pub const IN_VLLM_VERSION: &str = "vLLM 版本";
pub const IN_MORE_FLAGS: &str = "更多 vLLM 参数";
pub const IN_EAGER: &str = "--enforce-eager（不使用 CUDA Graph）";
pub const IN_PREFIX: &str = "--enable-prefix-caching（复用整块；混合架构模型要多保留状态）";
pub const IN_NO_PREFIX: &str =
    "--no-enable-prefix-caching（vLLM 0.28 起混合架构模型默认开启前缀缓存）";
pub const IN_USE_SEED_OVERHEAD: &str = "采用课程实验的 1 GiB";
pub const IN_USE_ESTIMATE: &str = "采用 kvbudget 的估计值";
pub const IN_REQUESTS: &str = "请求";
pub const IN_REQUESTS_NOTE: &str = "每条序列容纳其提示词加推理过程；留空：按 max_model_len 计。";
pub const IN_RESET: &str = "恢复默认值";
pub const IN_SGLANG_DEFAULT: &str = "SGLang 默认值";
pub const IN_PAGE_DEFAULT: &str = "1（SGLang 默认值）";
pub const IN_OVERHEAD_ESTIMATE: &str = "估计值";
pub const IN_FULL_ATTENTION: &str = "全注意力";
pub const IN_VOCAB_UNKNOWN: &str = "词表大小未知";
pub const IN_TFLOPS_UNKNOWN: &str = "算力未知（不画算力上限）";
pub fn in_util_placeholder(util: &str, version: &str) -> String {
    format!("{util}（vLLM {version} 默认值）")
}
pub fn in_seqs_placeholder(seqs: u64) -> String {
    format!("{seqs}（此处 vLLM 的默认值）")
}
pub fn in_overhead_placeholder(gib: &str, spread: &str) -> String {
    format!("估计值：{gib} GiB ± {spread}")
}
pub fn in_sglang_placeholder(value: &str, version: &str) -> String {
    format!("{value}（此处 SGLang {version} 的默认值）")
}
pub fn in_newest(v: &str) -> String {
    format!("{v}（已知最新）")
}
pub fn in_v0(v: &str) -> String {
    format!("{v}（V0 引擎）")
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
        format!("，FP8 {fp8}")
    };
    format!("标称 {marketed} GB（10⁹ 字节）；vLLM 看到 {gib} GiB（{bytes} 字节）；带宽 {bw} GB/s；稠密 BF16 算力 {tflops} TFLOPS{fp8}。")
}
pub fn in_gpu_seen_custom(gib: &str, bytes: &str, bw: &str, tflops: &str) -> String {
    let compute = if tflops.is_empty() {
        super::IN_TFLOPS_UNKNOWN.to_string()
    } else {
        format!("稠密 BF16 算力 {tflops} TFLOPS")
    };
    format!("vLLM 看到 {gib} GiB（{bytes} 字节）；带宽 {bw} GB/s；{compute}。")
}
pub fn in_sliding(window: &str, sliding: u64, layers: u64) -> String {
    format!("{layers} 层中有 {sliding} 层为滑动窗口注意力（窗口 {window}）")
}
pub fn in_mla(latent: u64, indexer: u64) -> String {
    if indexer == 0 {
        format!("MLA 潜在维度 {latent}")
    } else {
        format!("MLA 潜在维度 {latent}，索引器 {indexer}")
    }
}
pub fn in_chunked(chunk: &str, local: u64, layers: u64) -> String {
    format!("{layers} 层中有 {local} 层为分块局部注意力（块长 {chunk}）")
}
pub fn in_vocab(v: &str) -> String {
    format!("词表 {v}")
}
pub fn in_default_len(len: &str) -> String {
    format!("；默认 max_model_len {len}")
}
pub fn in_state_layers(state: u64, layers: u64, kind: &str) -> String {
    format!("；{layers} 层中有 {state} 层是 {kind}，每个请求保留固定大小的状态")
}
