//! The log check, run in the worker: it reads a vLLM or SGLang startup log once, keeps what it
//! read, and answers the page's questions about it for each scenario (the comparison, the settings
//! that differ, the scenario with the log's numbers). The page's first load carries no log parser.

use crate::calc::evaluate;
use crate::engines::{adopt_sglang_log, sglang_outcome};
use crate::i18n::{en, tr};
use crate::llamacpp::logparse::{self as lcp, LineCheck};
use crate::scenario::PageScenario;
use crate::sglang::logparse::{self as sglog, ParsedLog as SgLog};
use crate::units::{fixed2, thousands};
use crate::verify::{adopt, align, compare, mismatches, not_this_model, Verdict};
use crate::vllm::logparse::{self, LogError, ParsedLog};
use crate::{t, tf};
use serde::{Deserialize, Serialize};

/// A log the worker has read.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    /// A vLLM log.
    Vllm(ParsedLog),
    /// An SGLang log.
    Sglang(SgLog),
    /// A llama.cpp log: its build and its KV lines beside kvbudget's (or why they cannot be).
    Llamacpp(Option<u64>, std::result::Result<Vec<LineCheck>, String>),
}

/// What reading a log found: which engine's (`vllm`, `sglang`, or `none` without KV figures),
/// the verdict's key and the sentence the page shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogStatus {
    /// `vllm`, `sglang`, `llamacpp` or `none`.
    pub kind: String,
    /// `started`, `refused` or `no-kv-line`.
    pub verdict: String,
    /// The sentence.
    pub message: String,
}

/// One row of the scenario beside the log.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    /// Stable key (for SGLang's rows, the English name).
    pub key: String,
    /// What is compared.
    pub what: String,
    /// The scenario's figure.
    pub predicted: String,
    /// The log's figure.
    pub printed: String,
    /// printed − predicted as a number (vLLM rows), for `data-diff`.
    pub difference: String,
    /// The difference in words.
    pub difference_text: String,
    /// What explains it.
    pub why: String,
}

/// The scenario beside the log: the settings that differ, and the rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogView {
    /// "what: x here, y in the log", for each setting that differs (vLLM logs).
    pub mismatches: Vec<String>,
    /// The comparison.
    pub rows: Vec<LogRow>,
}

/// What the log check says after reading a vLLM log, leading with what the log says happened.
pub fn log_status(p: &ParsedLog) -> String {
    let who = match (&p.version, &p.model) {
        (Some(v), Some(m)) => tf!(LG_VLLM_MODEL, v, m),
        (Some(v), None) => tf!(LG_VLLM, v),
        (None, Some(m)) => m.clone(),
        (None, None) => t!(LG_THIS_LOG).into(),
    };
    match Verdict::of(p) {
        // A capacity line is there but its figure is no count: said first, as the log is not cut
        // short. Else cut short after the memory line (a refusal's log often is): that line is
        // compared.
        Verdict::NoKvLine => match (&p.kv_unreadable, p.available_kv_gib) {
            (Some(line), _) => tf!(LG_KV_NOT_A_COUNT, line),
            (None, Some(a)) => tf!(LG_ENDS_AFTER_AVAILABLE, who, fixed2(a)),
            (None, None) => tf!(LG_NO_KV, logparse::LOOKED_FOR),
        },
        Verdict::Started => {
            let tokens = p.cached_tokens(16).map(thousands).unwrap_or_default();
            tf!(LG_STARTED, who, tokens)
        }
        Verdict::Refused => tf!(LG_REFUSED, who, log_error_text(p)),
    }
}

fn log_error_text(p: &ParsedLog) -> String {
    match &p.error {
        Some(LogError::RequestTooLong {
            max_model_len,
            needed_gib,
            available_gib,
            estimated_max_len,
        }) => tf!(
            LG_TOO_LONG,
            thousands(*max_model_len),
            crate::floatfmt::display(*needed_gib),
            crate::floatfmt::display(*available_gib),
            estimated_max_len
                .map(|e| tf!(LG_ESTIMATED_MAX, thousands(e)))
                .unwrap_or_default()
        ),
        Some(LogError::V0TooLong {
            max_model_len,
            kv_tokens,
        }) => tf!(
            LG_V0_TOO_LONG,
            thousands(*max_model_len),
            thousands(*kv_tokens)
        ),
        Some(LogError::NoMemory) => t!(LG_NO_MEMORY).into(),
        Some(LogError::NoBfloat16) => t!(LG_NO_BF16).into(),
        None => String::new(),
    }
}

/// What the log check says about an SGLang log: its verdict key and the sentence.
pub fn sglang_log_status(p: &SgLog) -> (&'static str, String) {
    let who = p.model.as_deref().unwrap_or(t!(LG_SG_THIS_LOG));
    match (p.refusal.is_some(), p.total_tokens()) {
        (true, _) => ("refused", tf!(LG_SG_REFUSED, who)),
        (false, Some(n)) => ("started", tf!(LG_SG_STARTED, who, thousands(n))),
        (false, None) => (
            "no-kv-line",
            match p.pool_line_not_a_count() {
                Some(line) => tf!(LG_KV_NOT_A_COUNT, line),
                None => tf!(LG_NO_KV, sglog::LOOKED_FOR),
            },
        ),
    }
}

/// The page's SGLang figures beside an SGLang log's: (what, scenario, log).
pub fn sglang_compare(s: &PageScenario, p: &SgLog) -> Vec<(&'static str, String, String)> {
    let o = sglang_outcome(s).ok();
    let r = o.as_ref().map(|o| &o.report);
    let or_dash = |x: Option<String>| x.unwrap_or_else(|| "—".into());
    vec![
        (
            en::LG_SG_POOL,
            or_dash(r.and_then(|r| r.max_total_num_tokens).map(thousands)),
            or_dash(p.total_tokens().map(thousands)),
        ),
        (
            "mem_fraction_static",
            or_dash(r.map(|r| crate::floatfmt::display(r.mem_fraction_static))),
            or_dash(p.mem_fraction_static.map(crate::floatfmt::display)),
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

/// Reads a log (vLLM, SGLang or llama.cpp): what it found, and what to keep for later questions.
pub fn read_log(text: &str) -> (LogStatus, Option<Loaded>) {
    let log = if sglog::is_sglang(text) {
        Loaded::Sglang(sglog::parse(text))
    } else if lcp::is_llamacpp(text) {
        let p = lcp::parse(text);
        Loaded::Llamacpp(p.build, lcp::check_parsed(&p).map_err(|e| e.to_string()))
    } else {
        Loaded::Vllm(logparse::parse(text))
    };
    let status = status(&log);
    (status.clone(), (status.kind != "none").then_some(log))
}

/// What a log says, in the current language: its engine (`none` without KV figures), verdict and
/// sentence. (Asked again when the language changes; the log is not read twice.)
pub fn status(log: &Loaded) -> LogStatus {
    let (kind, verdict, message) = match log {
        Loaded::Sglang(p) => {
            let (verdict, message) = sglang_log_status(p);
            ("sglang", verdict, message)
        }
        Loaded::Vllm(p) => ("vllm", Verdict::of(p).key(), log_status(p)),
        Loaded::Llamacpp(build, checked) => {
            let who = build.map_or_else(|| "llama.cpp".to_string(), |b| format!("llama.cpp b{b}"));
            match checked {
                Ok(rows) => {
                    let differ = rows.iter().filter(|r| r.logged != r.computed).count();
                    let message = match differ {
                        0 => tf!(LG_LC_AGREES, who, rows.len()),
                        d => tf!(LG_LC_DIFFERS, who, d, rows.len()),
                    };
                    ("llamacpp", "started", message)
                }
                Err(e) => ("llamacpp", "no-kv-line", tf!(LG_LC_CANNOT, who, e)),
            }
        }
    };
    let found = match log {
        Loaded::Sglang(_) | Loaded::Llamacpp(..) => verdict != "no-kv-line",
        Loaded::Vllm(p) => p.kv.is_some() || p.error.is_some() || p.available_kv_gib.is_some(),
    };
    LogStatus {
        kind: if found { kind } else { "none" }.into(),
        verdict: verdict.into(),
        message,
    }
}

/// The scenario beside the loaded log.
pub fn log_view(s: &PageScenario, log: &Loaded) -> LogView {
    let mut v = LogView::default();
    match log {
        Loaded::Vllm(p) => {
            // Said first: a log whose count cannot come from this model (with its settings).
            v.mismatches = not_this_model(&align(s, p), p).into_iter().collect();
            v.mismatches.extend(
                mismatches(s, p)
                    .into_iter()
                    .map(|m| tf!(VF_MISMATCH, tr(m.what), m.scenario, m.log)),
            );
            if let Ok(o) = evaluate(s) {
                v.rows = compare(s, &o, p)
                    .into_iter()
                    .map(|r| LogRow {
                        key: r.key.into(),
                        what: tr(r.what).into(),
                        predicted: r.predicted,
                        printed: r.printed,
                        difference: r
                            .difference
                            .map(crate::floatfmt::display)
                            .unwrap_or_default(),
                        difference_text: r.difference_text,
                        why: r.why,
                    })
                    .collect();
            }
        }
        // Each line the log printed beside the one kvbudget computes from its metadata.
        Loaded::Llamacpp(_, checked) => {
            v.rows = checked
                .iter()
                .flatten()
                .enumerate()
                .map(|(i, r)| LogRow {
                    key: format!("line-{}", i + 1),
                    what: (i + 1).to_string(),
                    predicted: r.computed.clone(),
                    printed: r.logged.clone(),
                    difference: if r.computed == r.logged { "0" } else { "1" }.into(),
                    ..LogRow::default()
                })
                .collect();
        }
        Loaded::Sglang(p) => {
            v.rows = sglang_compare(s, p)
                .into_iter()
                .map(|(what, ours, theirs)| LogRow {
                    // The English name keys the row in either language.
                    key: what.into(),
                    what: tr(what).into(),
                    predicted: ours,
                    printed: theirs,
                    ..LogRow::default()
                })
                .collect();
        }
    }
    v
}

/// The scenario with the log's numbers, and what changed.
pub fn adopt_log(s: &PageScenario, log: &Loaded) -> (PageScenario, Vec<String>) {
    match log {
        Loaded::Vllm(p) => {
            let (s, notes) = adopt(s, p);
            let mut lines = vec![t!(LG_ADOPTED).to_string()];
            lines.extend(notes);
            (s, lines)
        }
        Loaded::Sglang(p) => {
            let (s, notes) = adopt_sglang_log(s, p);
            let mut lines = vec![t!(LG_ADOPTED_SG).to_string()];
            lines.extend(notes);
            (s, lines)
        }
        // (The page offers no adoption for it: the scenario is vLLM's or SGLang's.)
        Loaded::Llamacpp(..) => (s.clone(), Vec::new()),
    }
}

/// The scenario aligned to a vLLM log's settings (an SGLang log leaves it as it is).
pub fn align_log(s: &PageScenario, log: &Loaded) -> PageScenario {
    match log {
        Loaded::Vllm(p) => align(s, p),
        Loaded::Sglang(_) | Loaded::Llamacpp(..) => s.clone(),
    }
}
