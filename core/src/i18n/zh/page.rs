//! 页面框架：标题、页眉、页脚、语言切换。

crate::texts! {
    DOCUMENT_TITLE: "kvbudget — vLLM 的 KV 缓存预算",
    LANGUAGE: "语言",
    SKIP_TO_RESULTS: "跳到计算结果",
    LEDE: "这块 GPU 上，模型权重之外还能容纳多少条、多长上下文的序列？vLLM 启动时又会打印什么？",
    SCENARIO: "场景",
    FOOTER: "精确的整数运算，全部在你的浏览器中完成；按 vLLM 各版本的实际逻辑计算显存。非 KV 开销由模型与配置估算（以公开的 vLLM 启动日志校准），也可以填入课程实验中的单一数值。",
    LIST_SEP: "；",
    LIST_COMMA: "，",
    SENTENCE_SEP: "",
}
