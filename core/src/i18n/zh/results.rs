//! 中文文本：结果面板、答案栏与 SGLang 数据。

pub const RS_VLLM_WONT_START: &str = "vLLM 无法启动";
pub const RS_SGLANG_WONT_START: &str = "SGLang 无法启动";
pub const RS_SGLANG_PENDING: &str = "正在计算 SGLang 的数据…";
pub const RS_DISMISS: &str = "关闭";
pub const RS_ENTER_VALID: &str = "请输入有效的场景。";
pub const RS_NO_FIX: &str = "这里没有哪种预设 GPU、TP 规模或设置能让它启动。";
pub const RS_WOULD_REFUSE: &str = "vLLM 将拒绝启动。";
pub const RS_WHAT_MAKES_IT_START: &str = "怎样才能启动";
pub const RS_EACH_CHECKED: &str = "（每项都已验证，点一下即可应用）：";
pub const RS_RANGE_NOTE: &str = "范围来自开销估计的不确定性（激活值 ±10 %、NCCL 与 CUDA Graph 缓冲区）以及约 1 % 的启动间波动；同一配置启动两次，结果可能相差几个百分点。";
pub const RS_PRIMER_TITLE: &str = "一分钟了解 KV 缓存";
pub const RS_HOW: &str = "推导过程";
pub const RS_FORMULA_VS_VLLM: &str = "公式与 vLLM 对比";
pub const RS_SERVE_IT: &str = "部署命令";
pub const RS_REFUSED_COMMAND: &str =
    "按这些设置 vLLM 会拒绝启动（见上文）；下面的命令是修正之后要运行的。";
pub const RS_COPY_COMMAND: &str = "复制命令";
pub const RS_COPY_LINK: &str = "复制链接";
pub const RS_EMBED: &str = "嵌入…";
pub const RS_USE_BUDGET: &str = "改用预算，而非日志中的 KV 显存";
pub const RS_COMMAND: &str = "命令";
pub const RS_LINK: &str = "链接";
pub const RS_SNIPPET: &str = "代码片段";
pub const RS_STAT_SEQS: &str = "可容纳的序列数";
pub const RS_STAT_BPT: &str = "每 token 的 KV";
pub const RS_STAT_POOL: &str = "KV 缓存池";
pub const RS_STAT_VLLM_KV: &str = "vLLM 的 KV 缓存";
pub const RS_NONE_LEFT: &str = "无剩余";
pub const RS_FROM_LOG: &str = "取自 vLLM 日志";
pub const RS_SEED_OVERHEAD: &str = "课程实验的单一开销数值";
pub const RS_ENGINE: &str = "引擎";
pub const RS_TOKENS_IN_KV: &str = "KV 缓存中的 token 数";
pub const RS_SEQS_AT_CTX: &str = "该上下文下的序列数";
pub const RS_HOW_POOL: &str = "缓存池的计算方式";
pub const RS_REFUSES: &str = "—（拒绝启动）";
pub const RS_EACH_MODEL_BUDGET: &str = "（按各模型自己的预算，而非日志中的 KV 显存）";
pub const RS_WEIGHTS_NO_LOAD_SHORT: &str = "权重无法加载";
pub const RS_NO_KV_SHORT: &str = "没有 KV 显存";
pub const RS_TOO_LONG_SHORT: &str = "max_model_len 过长";
pub const RS_TP_INVALID_SHORT: &str = "TP 无效";
pub const RS_REFUSE_WEIGHTS: &str = "这块 GPU 放不下模型权重：vLLM 在加载权重时就会显存不足（OOM），根本到不了分配 KV 缓存那一步。调显存利用率或 KV 数据类型都无济于事；只能换更小的检查点、更多 GPU 或更大的 GPU。";
pub const RS_REFUSE_NO_KV: &str =
    "权重能加载，但在总显存 × 利用率中扣除权重和 profile 运行的占用后，已没有留给 KV 缓存的空间。";
pub const RS_REFUSE_TOO_LONG: &str =
    "一个长度为 max_model_len 的请求放不下：vLLM 启动前会检查至少能容纳一个满长度的请求。";
pub const RS_REFUSE_TP: &str = "vLLM 无法把这个模型的注意力头平均分到这么多块 GPU 上。";
pub const RS_PLAN_NOTE: &str = "利用率和最长长度都带有开销估计的范围；--kv-cache-memory（vLLM 0.11 及以上）可跳过估计，精确得到这些块。";
pub const RS_PRIMER_1: &str = "Transformer 会为每个请求的每个 token，在每一层为每个 KV 头保存一个 key 向量和一个 value 向量，这就是 KV 缓存。一个 token 占用 2（K 和 V）× 层数 × KV 头数 × head_dim × 每个元素的字节数。";
pub const RS_PRIMER_2: &str = "vLLM 先占用 GPU 总显存 × gpu_memory_utilization，加载权重，做一次 profile 运行测量开销，再把剩下的按每块 16 个 token 分给 KV 缓存（即 KV 缓存池）。";
pub const RS_PRIMER_3: &str = "可容纳的序列数 = 缓存池 ÷（上下文长度 × 每 token 字节数），按整块向下取整：上下文翻倍，能放下的序列数减半。FP8 KV 把字节数减半，序列数翻倍。";
pub const RS_PRIMER_4: &str = "解码的每一步都要读一遍权重和所有运行中序列的 KV 缓存，因此显存带宽决定了每秒 token 数的上限；序列越多，分摊一次权重读取的序列就越多。";
pub const RS_SG_STAT_SEQS: &str = "可容纳的序列数（SGLang）";
pub const RS_SG_STAT_KV: &str = "SGLang 的 KV 缓存";
pub const RS_AS_GIVEN: &str = "按给定值";
pub fn rs_fit(sequences: &str, _n: u64, context: &str) -> String {
    format!("可容纳 {sequences} 条 {context} token 的序列")
}
pub fn rs_under_sglang(fit: &str, version: &str, rest: &str) -> String {
    if fit.starts_with("SGLang") {
        format!("{fit}（SGLang {version}）· {rest}")
    } else {
        format!("SGLang {version} 下{fit} · {rest}")
    }
}
pub fn rs_url_notice(param: &str, message: &str) -> String {
    format!("URL 参数“{param}”：{message}")
}
pub fn rs_invalid_kept(e: &str) -> String {
    format!("{e}——仍显示上一个有效场景。")
}
pub fn rs_copied(what: &str) -> String {
    format!("已复制{what}。")
}
pub fn rs_clipboard_refused(what: &str) -> String {
    format!("浏览器拒绝访问剪贴板：请手动选中{what}并复制。")
}
pub fn rs_formula_vs_vllm(seed: u64, block: u64, vllm: u64) -> String {
    format!("公式给出 {seed} 条序列；按 vLLM 每块 {block} 个 token 的整块计算为 {vllm} 条")
}
pub fn rs_lines_heading(engine: &str, version: &str) -> String {
    format!("{engine} {version} 启动时打印的内容")
}
pub fn rs_vllm_stats_heading(vllm: &str, sglang: &str) -> String {
    format!("vLLM {vllm} 下的结果（SGLang {sglang} 见下文）")
}
pub fn rs_compare_caption(model: &str, gpu: &str, context: &str) -> String {
    format!("同一块 GPU，两种引擎：{model} 跑在 {gpu} 上，每条序列 {context} 个 token")
}
pub fn rs_embed_headline(
    model: &str,
    gpu: &str,
    kv: &str,
    seqs: &str,
    context: &str,
    bpt: &str,
) -> String {
    format!("{model} 跑在 {gpu} 上（{kv} KV）：可容纳 {seqs} 条 {context} token 的序列 · 每 token {bpt} 字节")
}
pub fn rs_repertoire_caption(gpu: &str, context: &str, from_log: &str) -> String {
    format!("课程模型清单在 {gpu} 上、{context} 个 token 时的结果{from_log}（点选一行即可载入）")
}
pub fn rs_of_tokens_each(context: &str) -> String {
    format!("每条 {context} 个 token")
}
pub fn rs_range(low: &str, high: &str) -> String {
    format!(" · 范围 {low}–{high}")
}
pub fn rs_pool_range(low: &str, high: &str) -> String {
    format!("范围 {low} – {high}")
}
pub fn rs_as_mha(bpt: &str, mha: &str) -> String {
    format!("{bpt} · 若为 MHA 则是 {mha}")
}
pub fn rs_pool_sub(bytes: &str, range: &str) -> String {
    format!("单卡 {bytes} 字节；{range}")
}
pub fn rs_tokens(n: &str) -> String {
    format!("{n} 个 token")
}
pub fn rs_blocks_of(blocks: &str, block: u64, range: &str) -> String {
    format!("{blocks} 个块，每块 {block} 个 token{range}")
}
pub fn rs_sg_seqs_sub(context: &str, cap: &str) -> String {
    format!("每条 {context} 个 token · max_running_requests {cap}")
}
pub fn rs_sg_tokens_sub(cell: &str, range: &str) -> String {
    format!("max_total_num_tokens · 每 token {cell} 字节{range}")
}
pub fn rs_sg_default_reserved(version: &str, reserved: &str, total: &str) -> String {
    format!("SGLang {version} 的默认值：在 {total} MiB 中预留 {reserved} MiB")
}
pub fn rs_sg_default(version: &str) -> String {
    format!("SGLang {version} 的默认值")
}
pub fn rs_sg_not_accepted(e: &str) -> String {
    format!("SGLang 不接受这些设置：{e}")
}
