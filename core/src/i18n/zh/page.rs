//! 页面框架：标题、页眉、页脚、语言切换。

pub const DOCUMENT_TITLE: &str = "kvbudget — vLLM 的 KV 缓存预算";
pub const LANGUAGE: &str = "语言";
pub const SKIP_TO_RESULTS: &str = "跳到计算结果";
pub const LEDE: &str =
    "这块 GPU 上，模型权重之外还能容纳多少条、多长上下文的序列？vLLM 启动时又会打印什么？";
pub const SCENARIO: &str = "场景";
pub const FOOTER: &str = "精确的整数运算，全部在你的浏览器中完成；按 vLLM 各版本的实际逻辑计算显存。非 KV 开销由模型与配置估算（以公开的 vLLM 启动日志校准），也可以填入课程实验中的单一数值。";
pub const LIST_SEP: &str = "；";
pub const LIST_COMMA: &str = "、";
