//! 中文文本：三张图。

pub const CH_MEMORY_TITLE: &str = "单卡显存分配";
pub const CH_MEMORY_SUB: &str = " — 16 位与 FP8 KV 并排对比";
pub const CH_CONC_TITLE: &str = "并发序列数与上下文长度";
pub const CH_CONC_SUB: &str = " — 双曲线，按 vLLM 整块计";
pub const CH_ROOF_TITLE: &str = "解码 Roofline（屋顶线）模型";
pub const CH_ROOF_SUB: &str = " — 带宽 ÷（每步读取的权重 + KV）";
pub const CH_NOTHING_DECODES: &str = "vLLM 无法启动，因此不会解码。";
pub const CH_GIB_AXIS: &str = "单卡 GiB（2³⁰ 字节，按 vLLM 的口径）";
pub const CH_CTX_AXIS: &str = "每条序列的上下文长度（token，对数轴）";
pub const CH_SEQS_AXIS: &str = "可容纳的序列数（对数轴）";
pub const CH_DECODE_AXIS: &str = "解码速度上限 token/s（对数轴）";
pub const CH_NONE_FITS: &str = "图中任何上下文长度下都放不下一条序列";
pub const CH_ONE_ALONE: &str = "单条序列";
pub const CH_ALL_TOGETHER: &str = "所有可容纳的序列（受上限约束）合计";
pub const CH_COMPUTE_ROOF: &str = "算力上限（稠密 BF16 峰值）";
pub const CH_REFUSE_WEIGHTS: &str = "vLLM 无法启动：权重加载不下";
pub const CH_REFUSE_NO_KV: &str = "vLLM 无法启动：没有剩余显存给 KV 缓存";
pub const CH_REFUSE_TOO_LONG: &str = "vLLM 无法启动：放不下一个 max_model_len 长度的请求";
pub const CH_REFUSE_TP: &str = "vLLM 无法启动：TP 无法均分注意力头";
pub const CH_LEG_WEIGHTS: &str = "权重";
pub const CH_LEG_OVERHEAD: &str = "开销（激活值、CUDA、CUDA Graph）";
pub const CH_LEG_SEQUENCES: &str = "每条序列一段";
pub const CH_LEG_STATE: &str = "序列的递归状态";
pub const CH_LEG_KV_FREE: &str = "剩余的 KV 缓存";
pub const CH_LEG_UNCLAIMED: &str = "未占用：(1 − 利用率) × 总显存";
pub const CH_LEG_OVERFLOW: &str = "超出 GPU 的权重";
pub const CH_SEG_WEIGHTS: &str = "权重";
pub const CH_SEG_NO_LOAD: &str = "加载不下";
pub const CH_SEG_OVERHEAD: &str = "开销";
pub const CH_SEG_STATE: &str = "状态";
pub const CH_SEG_KV_FREE: &str = "剩余 KV";
pub const CH_SEG_UNCLAIMED: &str = "未占用（1 − 利用率）";
pub fn ch_memory_summary(bar: &str, parts: &str) -> String {
    format!("{bar} KV：{parts}。")
}
pub fn ch_with_kv(n: u64, kv: &str) -> String {
    format!("{kv} KV 下 {n} 条序列")
}
pub fn ch_conc_summary(context: &str, per: &str, cap: &str) -> String {
    format!("{context} 个 token 时：{per}；max_num_seqs 上限为 {cap}。")
}
pub fn ch_roof_summary(context: &str, one: &str, all: &str, n: u64, roof: &str) -> String {
    let roof = if roof.is_empty() {
        String::new()
    } else {
        format!("（此处算力上限：{roof} token/s）")
    };
    format!("{context} 个 token 时：单条序列 {one} token/s，{n} 条序列合计 {all} token/s{roof}。")
}
pub fn ch_gpu_total(gib: &str) -> String {
    format!("GPU 总显存 {gib} GiB")
}
pub fn ch_kv(label: &str) -> String {
    format!("{label} KV")
}
pub fn ch_cap(cap: &str) -> String {
    format!("超过 max_num_seqs {cap}：不会被同时调度")
}
pub fn ch_point(n: &str, at: &str) -> String {
    format!("本场景：{at} 时 {n} 条")
}
pub fn ch_point_none(at: &str) -> String {
    format!("本场景（{at}）：一条也放不下")
}
pub fn ch_point_rate(rate: &str) -> String {
    format!("本场景：{rate} token/s")
}
pub fn ch_seg_weights_over(gib: &str) -> String {
    format!("权重 {gib} GiB")
}
pub fn ch_seg_sequences(n: u64, context: &str) -> String {
    format!("{n} 条 × {context} token 的序列")
}
