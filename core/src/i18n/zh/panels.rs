//! 中文文本：导入 config.json、日志校验、规划、表格与嵌入。

pub const LC_READING_LOG: &str = "正在读取日志…";
pub const LC_ALIGNED: &str = "已将版本、显存利用率、max_model_len、KV 数据类型、并行方式和模型对齐到日志；显存仍是本场景自己的估计值。";
pub const LC_SG_CAPTION: &str = "本场景在 SGLang 下与日志对照";
pub const LC_SCENARIO_SGLANG: &str = "场景（SGLang）";
pub const LC_SCENARIO: &str = "场景";
pub const LC_LOG: &str = "日志";
pub const LC_DIFFERENCE: &str = "差值";
pub const LC_WHY: &str = "原因";
pub const LC_USE_NUMBERS: &str = "采用日志中的数值";
pub const LC_DIFFER_IN: &str = "场景与日志在以下设置上不同：";
pub const LC_ALIGN: &str = "对齐到日志";
pub const LC_CAPTION: &str = "本场景与日志对照（差值 = 日志 − 场景）";
pub const LC_DOWNLOAD: &str = "下载 kv_report.json";
pub const LC_SUMMARY: &str = "对照 vLLM 启动日志校验";
pub const LC_TEXT_LABEL: &str = "serve.log（粘贴或拖入；任何 vLLM 版本均可）";
pub const LC_COMPARE: &str = "对照";
pub const DP_CHOOSE_FILE: &str = "或选择文件";
pub const IM_OFFLINE: &str = "浏览器处于离线状态：请下载 config.json 后拖到这里。";
pub const IM_BLOCKED: &str = "请求未完成：这里连不上 Hugging Face Hub，或被浏览器拦截（CORS）。请下载 config.json 后拖到这里。";
pub const IM_NOT_TEXT: &str = "无法把 Hub 的响应读取为文本";
pub const IM_READING_CONFIG: &str = "正在读取配置…";
pub const IM_BAD_ID: &str = "Hugging Face 模型 id 形如 owner/name（字母、数字、. _ -）";
pub const IM_IDLE: &str = "粘贴 JSON、把文件拖到这里、选择文件，或按 id 获取。";
pub const IM_USE_PRESET: &str = "改用预设（采用 vLLM 日志中的权重大小）";
pub const IM_SUMMARY: &str = "导入 config.json";
pub const IM_TEXT_LABEL: &str = "config.json（粘贴或拖入）";
pub const IM_IMPORT: &str = "导入粘贴的 JSON";
pub const IM_OR_ID: &str = "或填写 Hugging Face 模型 id";
pub const IM_FETCH: &str = "获取 config.json";
pub const BR_NO_WORKER: &str = "此浏览器无法启动页面的后台 Worker";
pub const BR_WORKER_FAILED: &str = "页面的后台 Worker 出错（可能是文件未能加载）；请刷新页面后重试";
pub fn lc_reading(name: &str) -> String {
    format!("正在读取 {name}…")
}
pub fn lc_too_big(e: &str) -> String {
    format!("{e}；请只保留启动部分（最多 64 MiB）")
}
pub fn im_http(code: u16, id: &str) -> String {
    format!("Hub 对 {id} 返回了 HTTP {code}")
}
pub fn im_fetching(id: &str) -> String {
    format!("正在获取 {id}/config.json…")
}
pub fn im_same_preset(id: &str) -> String {
    format!("这就是预设模型 {id}（结构相同）：")
}
pub fn br_file_too_big(name: &str, bytes: u64) -> String {
    format!("{name} 有 {bytes} 字节，超出可读取的上限")
}
pub fn br_not_text(name: &str) -> String {
    format!("无法把 {name} 读取为文本")
}
pub fn im_404(id: &str) -> String {
    format!("Hugging Face Hub 上找不到 {id} 的 config.json（404）：请检查 id。")
}
pub fn im_gated(id: &str, code: u16) -> String {
    format!("{id} 需要授权或是私有模型（{code}）：请在 huggingface.co 上接受其许可协议，下载 config.json 后拖到这里。")
}
pub fn im_too_big(e: &str) -> String {
    format!("{e}；config.json 一般只有几 KB")
}
pub const PL_SAFE_END: &str = "采用保守端";
pub const PL_LOWEST_UTIL: &str = "最低 --gpu-memory-utilization：";
pub const PL_NO_UTIL: &str = "没有可行的显存利用率：";
pub const PL_KV_MEMORY: &str = "--kv-cache-memory ";
pub const PL_USE_IT: &str = "采用";
pub const PL_LONGEST: &str = "满足这些序列的最长 --max-model-len：";
pub const PL_SMALLEST_TP: &str = "最小 --tensor-parallel-size：";
pub const PL_NO_TP: &str = "8 以内都不行";
pub const GP_TITLE: &str = "换用其他 GPU";
pub const GP_MEMORY: &str = "vLLM 看到的显存";
pub const GP_DECODE: &str = "解码总吞吐";
pub const RP_TITLE: &str = "模型清单";
pub const RP_BPT: &str = "每 token 的 KV";
pub const RP_PER_SEQ: &str = "每条序列 GiB";
pub const FG_DOWNLOAD: &str = "下载：";
pub const EM_OPEN: &str = "在 kvbudget 中打开 ↗";
pub const EM_MODE_CARD: &str = "卡片：结论、vLLM 输出和三张图";
pub const EM_MODE_MEMORY: &str = "仅显存分配图";
pub const EM_MODE_CONCURRENCY: &str = "仅并发数与上下文长度图";
pub const EM_MODE_ROOFLINE: &str = "仅解码 Roofline 图";
pub const EM_LIGHT: &str = "浅色";
pub const EM_DARK: &str = "深色";
pub const EM_AUTO: &str = "跟随读者的系统设置";
pub const EM_SHOW: &str = "显示内容";
pub const EM_THEME: &str = "主题";
pub const EM_PASTE: &str = "把这段代码粘贴到课程页面中（框架高度会随页面上报的高度自动调整）：";
pub const EM_COPY_SNIPPET: &str = "复制代码片段";
pub const EM_PREVIEW: &str = "预览：";
pub const EM_PREVIEW_TITLE: &str = "嵌入视图预览";
pub fn pl_title(n: u64, context: &str, version: &str) -> String {
    format!("规划：同时运行 {n} 条 {context} token 的序列（vLLM {version}）")
}
pub fn pl_util_range(low: &str, high: &str) -> String {
    format!("（范围 {low} – {high}；保守端即使开销取估计的上限也能启动）")
}
pub fn pl_kv_bytes(bytes: &str, blocks: &str) -> String {
    format!(" 字节（{bytes}，{blocks} 个整块：恰好是所需的序列数）")
}
pub fn pl_len_range(point: &str, safe: &str, optimistic: &str) -> String {
    format!("（估计值 {point}；范围 {safe} – {optimistic}）")
}
pub fn gp_caption(model: &str, context: &str) -> String {
    format!("{model} 在 {context} 个 token 时，在各预设 GPU 上的结果（点选一行即可载入）")
}
pub fn gp_load(gpu: &str) -> String {
    format!("载入 {gpu}")
}
pub fn gp_rate(rate: &str) -> String {
    format!("{rate} token/s")
}
pub fn rp_load(model: &str, kv: &str) -> String {
    format!("载入 {model}，KV 为 {kv}")
}
