//! What the config import and the log check decide: ids, adopting an import, their messages,
//! and the course lab's report.

use kvbudget_core::handoff::ImportAnswer;
use kvbudget_core::scenario::{ModelChoice, PageScenario};
use kvbudget_core::sglang::logparse::ParsedLog as SgLog;
use kvbudget_core::units::thousands;
use kvbudget_core::verify::Verdict;
use kvbudget_core::vllm::logparse::{self, LogError, ParsedLog};

/// A Hugging Face id: `owner/name` of letters, digits, `.`, `_` and `-`.
pub fn valid_hf_id(id: &str) -> bool {
    let mut parts = id.split('/');
    let ok = |p: Option<&str>| {
        p.is_some_and(|p| {
            !p.is_empty()
                && p.len() <= 96
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        })
    };
    ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
}

/// An imported config becomes the custom model; `max_model_len` is lowered to the model's
/// default length when it exceeds it.
pub fn adopt_import(s: &mut PageScenario, m: &ImportAnswer) {
    s.set_model(ModelChoice::Custom(m.spec.clone()));
    let default_len = m.default_max_model_len;
    if default_len > 0 && s.ctx > default_len {
        s.ctx = default_len;
    }
}

/// What the log check says after reading a log, leading with what the log says happened.
pub fn log_status(p: &ParsedLog) -> String {
    let who = match (&p.version, &p.model) {
        (Some(v), Some(m)) => format!("vLLM {v}, {m}"),
        (Some(v), None) => format!("vLLM {v}"),
        (None, Some(m)) => m.clone(),
        (None, None) => "This log".into(),
    };
    match Verdict::of(p) {
        Verdict::NoKvLine => format!(
            "No KV cache figures in this log: looked for {}.",
            logparse::LOOKED_FOR
        ),
        Verdict::Started => {
            let tokens = p.cached_tokens(16).map(thousands).unwrap_or_default();
            format!("{who}: started, with {tokens} tokens of KV cache.")
        }
        Verdict::Refused => format!("{who}: refused to start ({}).", log_error_text(p)),
    }
}

fn log_error_text(p: &ParsedLog) -> String {
    match &p.error {
        Some(LogError::RequestTooLong {
            max_model_len,
            needed_gib,
            available_gib,
            estimated_max_len,
        }) => format!(
            "one request of {} tokens needs {needed_gib} GiB, {available_gib} GiB were available{}",
            thousands(*max_model_len),
            estimated_max_len
                .map(|e| format!("; estimated maximum model length {}", thousands(e)))
                .unwrap_or_default()
        ),
        Some(LogError::V0TooLong {
            max_model_len,
            kv_tokens,
        }) => format!(
            "max_model_len {} exceeds the {} tokens the cache holds",
            thousands(*max_model_len),
            thousands(*kv_tokens)
        ),
        Some(LogError::NoMemory) => "no memory left for the cache blocks".into(),
        None => String::new(),
    }
}

/// What the log check says about an SGLang log: its verdict key and the sentence.
pub fn sglang_log_status(p: &SgLog) -> (&'static str, String) {
    let who = p.model.as_deref().unwrap_or("This SGLang log");
    match (p.refusal.is_some(), p.total_tokens()) {
        (true, _) => ("refused", format!("SGLang, {who}: refused to start.")),
        (false, Some(t)) => (
            "started",
            format!(
                "SGLang, {who}: started, with a pool of {} tokens.",
                thousands(t)
            ),
        ),
        (false, None) => (
            "no-kv-line",
            format!(
                "No KV cache figures in this log: looked for {}.",
                kvbudget_core::sglang::logparse::LOOKED_FOR
            ),
        ),
    }
}

/// The page's SGLang figures beside an SGLang log's: (what, scenario, log).
pub fn sglang_compare(s: &PageScenario, p: &SgLog) -> Vec<(&'static str, String, String)> {
    let o = kvbudget_core::engines::sglang_outcome(s).ok();
    let r = o.as_ref().map(|o| &o.report);
    let or_dash = |x: Option<String>| x.unwrap_or_else(|| "—".into());
    vec![
        (
            "pool (max_total_num_tokens)",
            or_dash(r.and_then(|r| r.max_total_num_tokens).map(thousands)),
            or_dash(p.total_tokens().map(thousands)),
        ),
        (
            "mem_fraction_static",
            or_dash(r.map(|r| r.mem_fraction_static.to_string())),
            or_dash(p.mem_fraction_static.map(|f| f.to_string())),
        ),
        (
            "context_len",
            thousands(s.ctx),
            or_dash(p.context_len.map(thousands)),
        ),
        (
            "max_running_requests",
            or_dash(r.and_then(|r| r.max_running_requests).map(thousands)),
            or_dash(p.max_running_requests.map(thousands)),
        ),
    ]
}
