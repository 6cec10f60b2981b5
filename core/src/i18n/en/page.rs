//! The page's frame: title, header, footer, the language switch.

pub const DOCUMENT_TITLE: &str = "kvbudget — KV cache budget for vLLM";
pub const LANGUAGE: &str = "Language";
pub const SKIP_TO_RESULTS: &str = "Skip to the results";
pub const LEDE: &str = "How many sequences of what context fit next to these weights on this GPU — and what vLLM prints at startup.";
pub const SCENARIO: &str = "Scenario";
pub const FOOTER: &str = "Exact integer arithmetic, computed in your browser; vLLM's accounting per version. The non-KV overhead is estimated from the model and settings (calibrated on published vLLM logs), or the course lab's single figure if you give one.";
pub const LIST_SEP: &str = "; ";
pub const LIST_COMMA: &str = ", ";
