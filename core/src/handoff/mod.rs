//! What the page hands to its second module, a Web Worker loaded on first use, and what comes
//! back: typed requests and answers ([`Request`], [`Answer`]), serde types sent in postcard's
//! compact binary format ([`to_wire`], [`from_wire`]; JSON natively, where the worker answers a
//! request typed by hand). Scenarios travel as the page's own URL query, which both sides read. The worker keeps one [`Session`]: the last log it
//! read, which later requests compare against each scenario.

pub mod log;
pub mod panels;
pub mod sglang;

use crate::calc::{self, Outcome};
use crate::config;
use crate::query;
use crate::report_json::kv_report;
use crate::scenario::{ModelChoice, PageScenario};
use crate::units::GIB;
use crate::vllm::logparse::ParsedLog;
use crate::{pyjson, seed};
use serde::{Deserialize, Serialize};

pub use crate::repertoire::{RepertoireRow, RepertoireView};
pub use log::{LogRow, LogStatus, LogView};
pub use panels::{FixView, GpuRowView, PlanView};
pub use sglang::SglangView;

/// The version of this protocol: the worker says `ready <PROTOCOL>` when it starts, and the page
/// refuses a worker of another version (a stale copy from a cache, after a new release).
pub const PROTOCOL: &str = "kvbudget-12";

/// A message as the bytes that cross to and from the worker: postcard, serde's compact binary
/// format. (The page carries no JSON reader: serde_json's, the derived code's JSON paths and its
/// map cost the page's first load 28,572 B gzip, measured on the release build.)
pub fn to_wire<T: Serialize>(message: &T) -> Option<Vec<u8>> {
    postcard::to_allocvec(message).ok()
}

/// A message read from the bytes that crossed (`None`: not a message of this type).
pub fn from_wire<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    postcard::from_bytes(bytes).ok()
}

/// A request of the page. Scenarios are URL queries (`query::encode`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// The Chinese texts by their English twins (the page's first load carries English only).
    Texts,
    /// Read a config.json (`name`: what to call the model when the config names none).
    Import {
        /// What to call the model when the config names none (the file's name).
        name: String,
        /// The config's text.
        text: String,
    },
    /// Fetch a model's config.json from the Hugging Face Hub and read it (the worker fetches).
    ImportHub {
        /// The model's id on the Hub (`owner/name`).
        id: String,
    },
    /// Read a startup log (vLLM or SGLang) and keep it.
    ReadLog {
        /// The log's text.
        text: String,
    },
    /// Read the startup log in the file sent with the request, and keep it.
    ReadLogFile,
    /// The kept log beside a scenario: its status again (in the request's language) and the
    /// comparison.
    LogPanel {
        /// The scenario.
        query: String,
        /// How many logs the page has had read (a log read again asks anew; the answer is the
        /// kept log's either way).
        reads: u32,
    },
    /// The scenario with the kept log's numbers.
    LogAdopt {
        /// The scenario.
        query: String,
    },
    /// The scenario with the kept log's settings.
    LogAlign {
        /// The scenario.
        query: String,
    },
    /// The course lab's kv_report.json of the scenario beside the kept vLLM log.
    LogReport {
        /// The scenario.
        query: String,
    },
    /// SGLang's figures for a scenario.
    Sglang {
        /// The scenario.
        query: String,
    },
    /// The plan for a scenario's `plan` sequences.
    Plan {
        /// The scenario.
        query: String,
    },
    /// The changes that make a refused scenario start.
    Fixes {
        /// The scenario.
        query: String,
    },
    /// The scenario's model and context on every GPU preset.
    Gpus {
        /// The scenario.
        query: String,
    },
    /// A plan button (`which`) of the scenario shown applied to the scenario as edited (they
    /// differ while an edit is refused).
    PlanApply {
        /// The button.
        which: panels::PlanButton,
        /// The scenario shown.
        shown: String,
        /// The scenario as edited.
        target: String,
    },
    /// The fix at `index` of the scenario shown applied to the scenario as edited.
    FixApply {
        /// The fix's place in the list shown.
        index: usize,
        /// The scenario shown.
        shown: String,
        /// The scenario as edited.
        target: String,
    },
}

/// The worker's answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// (English, Chinese) pairs.
    Texts(Vec<(String, String)>),
    /// A config.json read.
    Imported(ImportView),
    /// What reading a log found (a log without KV figures is not kept).
    LogRead(LogStatus),
    /// The kept log's status and its comparison with the scenario (none when it was not kept).
    LogPanel {
        /// The kept log's status.
        status: LogStatus,
        /// The comparison (none when no log with KV figures is kept).
        view: Option<LogView>,
    },
    /// A scenario (its query) with notes on what changed.
    Scenario {
        /// The scenario.
        query: String,
        /// What changed.
        notes: Vec<String>,
    },
    /// A file's text (kv_report.json).
    Report(String),
    /// SGLang's figures.
    Sglang(SglangView),
    /// The plan (none when the scenario asks for none).
    Plan(Option<PlanView>),
    /// A refusal's fixes, each checked.
    Fixes(Vec<FixView>),
    /// The GPU table's rows.
    Gpus(Vec<GpuRowView>),
    /// Why the worker could not answer.
    Failed(String),
}

/// A request as the page posts it: its number (the answer comes back under it), the language
/// the answer's texts are written in, and the request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// The request's number.
    pub n: u32,
    /// `en` or `zh-CN`.
    pub lang: String,
    /// The request.
    pub request: Request,
}

/// An answer as the worker posts it, under its request's number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    /// The request's number.
    pub n: u32,
    /// The answer.
    pub answer: Answer,
}

/// A config.json as the worker read it, for the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportView {
    /// The model as a page query (`query::encode` of a default scenario with it).
    pub query: String,
    /// vLLM's derived `max_model_len` (0: none).
    pub default_max_model_len: u64,
    /// What was read, in one sentence.
    pub summary: String,
    /// What was read or assumed.
    pub notes: Vec<String>,
    /// The preset of the same geometry, if there is one (its id).
    pub preset: Option<String>,
}

impl ImportView {
    /// The imported model.
    pub fn model(&self) -> ModelChoice {
        query::decode(&self.query).0.model
    }
}

/// The course lab's kv_report.json for the scenario's geometry and pool beside a log: the seed's
/// prediction (a hybrid's attention layers as `L`) and what the log printed.
pub fn lab_report(s: &PageScenario, o: &Outcome, log: &ParsedLog) -> Option<String> {
    let m = &o.model;
    let pred = seed::predict(
        m.attention_layers() as i64,
        m.kv_heads as i64,
        m.head_dim as i64,
        s.kv.bytes(m.dtype) as f64,
        o.chosen.pool.max(0) as f64 / GIB as f64,
        o.context as i64,
    )
    .ok()?;
    Some(
        pyjson::dumps(&kv_report(
            &pred,
            log,
            o.chosen.report.block_size,
            o.context,
        )) + "\n",
    )
}

/// Reads a config.json (`name`: the model's name when the config names none) for the page.
pub fn import(name: &str, text: &str) -> Answer {
    match config::import(text, name) {
        Ok(m) => {
            let s = PageScenario {
                model: ModelChoice::Custom(m.spec.clone()),
                ..PageScenario::default()
            };
            match checked_query(&s) {
                Ok(query) => Answer::Imported(ImportView {
                    query,
                    default_max_model_len: m.default_max_model_len,
                    summary: m.summary(),
                    notes: m.notes.clone(),
                    preset: config::matching_preset(&m.spec).map(|p| p.id().to_string()),
                }),
                Err(cause) => Answer::Failed(crate::tf!(IM_NOT_TAKEN, cause)),
            }
        }
        Err(e) => Answer::Failed(e.to_string()),
    }
}

/// What the worker keeps between requests.
#[derive(Default)]
pub struct Session {
    log: Option<log::Loaded>,
}

impl Session {
    /// Answers a request (all but [`Request::ImportHub`], whose fetch is the worker's, and
    /// [`Request::ReadLogFile`], whose file the worker reads into a [`Request::ReadLog`]).
    pub fn answer(&mut self, request: Request) -> Answer {
        match request {
            Request::Texts => Answer::Texts(
                crate::i18n::zh_pairs()
                    .into_iter()
                    .map(|(en, zh)| (en.to_string(), zh.to_string()))
                    .collect(),
            ),
            Request::Import { name, text } => import(&name, &text),
            Request::ReadLog { text } => {
                let (status, loaded) = log::read_log(&text);
                self.log = loaded;
                Answer::LogRead(status)
            }
            Request::LogPanel { query, .. } => self.with_log(|loaded| {
                let status = log::status(loaded);
                let view = (status.kind != "none")
                    .then(|| log::log_view(&query::decode(&query).0, loaded));
                Answer::LogPanel { status, view }
            }),
            Request::LogAdopt { query } => self.with_log(|loaded| {
                let (s, notes) = log::adopt_log(&query::decode(&query).0, loaded);
                match checked_query(&s) {
                    Ok(query) => Answer::Scenario { query, notes },
                    Err(cause) => Answer::Failed(crate::tf!(LG_NOT_ADOPTED, cause)),
                }
            }),
            Request::LogAlign { query } => self.with_log(|loaded| {
                match checked_query(&log::align_log(&query::decode(&query).0, loaded)) {
                    Ok(query) => Answer::Scenario {
                        query,
                        notes: Vec::new(),
                    },
                    Err(cause) => Answer::Failed(crate::tf!(LG_NOT_ALIGNED, cause)),
                }
            }),
            Request::LogReport { query } => {
                self.with_log(|loaded| report(&query::decode(&query).0, loaded))
            }
            Request::Sglang { query } => {
                Answer::Sglang(sglang::sglang_view(&query::decode(&query).0))
            }
            Request::Plan { query } => panels::plan(&query),
            Request::Fixes { query } => panels::fixes(&query),
            Request::Gpus { query } => panels::gpus(&query),
            Request::PlanApply {
                which,
                shown,
                target,
            } => panels::plan_apply(which, &shown, &target),
            Request::FixApply {
                index,
                shown,
                target,
            } => panels::fix_apply(index, &shown, &target),
            Request::ImportHub { .. } | Request::ReadLogFile => {
                Answer::Failed(crate::t!(HO_UNKNOWN_JOB).into())
            }
        }
    }

    /// `f` of the kept log, or the answer that none has been read.
    fn with_log(&self, f: impl FnOnce(&log::Loaded) -> Answer) -> Answer {
        match &self.log {
            Some(loaded) => f(loaded),
            None => Answer::Failed(crate::t!(HO_NO_LOG).into()),
        }
    }
}

/// The lab's kv_report.json of the scenario beside the kept vLLM log.
fn report(s: &PageScenario, log: &log::Loaded) -> Answer {
    let log::Loaded::Vllm(parsed) = log else {
        return Answer::Failed(crate::t!(HO_NO_REPORT).into());
    };
    let report = calc::evaluate(s)
        .ok()
        .and_then(|o| lab_report(s, &o, parsed));
    match report {
        Some(json) => Answer::Report(json),
        None => Answer::Failed(crate::t!(HO_NO_REPORT).into()),
    }
}

/// The scenario as the query the page reads, or why the page would not take it whole (a value
/// past a field's range, which a URL would fall back from): then nothing is changed.
pub fn checked_query(s: &PageScenario) -> std::result::Result<String, String> {
    let q = query::encode(s);
    match query::decode(&q).1.into_iter().next() {
        Some(n) => Err(n.cause),
        None => Ok(q),
    }
}

/// Reads a scenario answer back: the scenario and the notes, or why there is none.
pub fn read_scenario(answer: Answer) -> std::result::Result<(PageScenario, Vec<String>), String> {
    match answer {
        Answer::Scenario { query, notes } => {
            let (s, notices) = query::decode(&query);
            match notices.into_iter().next() {
                Some(n) => Err(n.message),
                None => Ok((s, notes)),
            }
        }
        Answer::Failed(e) => Err(e),
        _ => Err(crate::t!(HO_UNREADABLE).into()),
    }
}

/// Where the Hugging Face Hub serves a model's config.json (`id`: `owner/name`).
pub fn hub_config_url(id: &str) -> String {
    format!("https://huggingface.co/{id}/resolve/main/config.json")
}

/// What fetching config.json from the Hub gave: the HTTP status and, for 200, the body as text;
/// or no answer (`Err(true)`: the browser is offline, `Err(false)`: the request did not complete).
pub type HubFetch = std::result::Result<(u16, Option<String>), bool>;

/// The answer to an import from the Hub (`id`), given what the fetch gave: the import of the
/// text, or why there is none.
pub fn hub_answer(id: &str, fetched: HubFetch) -> Answer {
    let failed = match fetched {
        Ok((200, Some(text))) => return import(id, &text),
        Err(true) => crate::t!(IM_OFFLINE).to_string(),
        Err(false) => crate::t!(IM_BLOCKED).to_string(),
        Ok((200, None)) => crate::t!(IM_NOT_TEXT).to_string(),
        Ok((404, _)) => crate::t!(im_404(id)),
        Ok((code @ (401 | 403), _)) => crate::t!(im_gated(id, code)),
        Ok((code, _)) => crate::t!(im_http(code, id)),
    };
    Answer::Failed(failed)
}
