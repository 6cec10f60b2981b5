//! The page's frame: title, header, footer, the language switch.

crate::texts! {
    DOCUMENT_TITLE: "kvbudget — KV cache budget for vLLM",
    LANGUAGE: "Language",
    SKIP_TO_RESULTS: "Skip to the results",
    LEDE: "How many sequences of what context fit next to these weights on this GPU — and what vLLM prints at startup.",
    SCENARIO: "Scenario",
    FOOTER: "Exact integer arithmetic, computed in your browser; vLLM's accounting per version. The non-KV overhead is estimated from the model and settings (calibrated on published vLLM logs), or the course lab's single figure if you give one.",
    LIST_SEP: "; ",
    LIST_COMMA: ", ",
    SENTENCE_SEP: " ",
}
