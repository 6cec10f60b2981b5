//! What the page hands to its second module, a Web Worker loaded on first use, and what comes
//! back. Both sides are plain text, so the page's first load carries no JSON parser: the worker
//! reads a `config.json`; the page reads the answer, whose model travels as the page's own URL
//! query (which the page already reads).
//!
//! A request names its job on its first line. An answer starts with `ok` or `err`. The worker keeps
//! one [`Session`]: the last log it read, which later requests compare against each scenario.

pub mod log;
pub mod sglang;
pub mod wire;

use crate::calc::{self, Outcome};
use crate::config;
use crate::model::ModelSpec;
use crate::query;
use crate::report_json::kv_report;
use crate::scenario::{ModelChoice, PageScenario};
use crate::units::GIB;
use crate::vllm::logparse::ParsedLog;
use crate::{pyjson, seed};

/// The request that imports `text` as a config.json named `name`.
pub fn import_request(name: &str, text: &str) -> String {
    format!("import\n{}\n{text}", one_line(name))
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

/// Runs a request that needs no kept log (an import, SGLang's figures, the texts) and returns the
/// answer.
pub fn answer(request: &str) -> String {
    Session::default().answer(request)
}

/// The request that reads a startup log (vLLM or SGLang) and keeps it for later requests.
pub fn log_request(text: &str) -> String {
    format!("log\n{text}")
}

/// The request about the kept log (for the scenario `query`): `log_view`, `log_adopt`,
/// `log_align`, `log_report` (the course lab's kv_report.json; a vLLM log) or `log_status` (its
/// sentence again, in the request's language; no query).
pub fn log_question(job: &str, query: &str) -> String {
    format!("{job}\n{query}")
}

/// The version of this text protocol: the worker says `ready <PROTOCOL>` when it starts, and the
/// page refuses a worker of another version (a stale copy from a cache, after a new release).
pub const PROTOCOL: &str = "kvbudget-8";

/// The request for the Chinese texts (the page's first load carries English only).
pub const TEXTS_REQUEST: &str = "texts";

/// Reads the answer to [`TEXTS_REQUEST`]: (English, Chinese) pairs.
pub fn read_texts(answer: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let body = read_text(answer)?;
    let pairs: Vec<(String, String)> = body
        .lines()
        .map(|l| {
            let f = wire::Fields::of(l);
            (f.text(0), f.text(1))
        })
        .collect();
    if pairs.is_empty() {
        return Err(crate::t!(HO_NO_TEXTS).into());
    }
    Ok(pairs)
}

/// What the worker keeps between requests.
#[derive(Default)]
pub struct Session {
    log: Option<log::Loaded>,
}

impl Session {
    /// Runs a request and returns the answer.
    pub fn answer(&mut self, request: &str) -> String {
        let (job, rest) = request.split_once('\n').unwrap_or((request, ""));
        let no_log = || err_answer(crate::t!(HO_NO_LOG));
        match job {
            "texts" => {
                let lines: Vec<String> = crate::i18n::zh_pairs()
                    .into_iter()
                    .map(|(en, zh)| wire::record(&[en, zh]))
                    .collect();
                ok_answer(&lines.join("\n"))
            }
            "import" => import(rest),
            "sglang" => {
                let (s, _) = query::decode(rest);
                ok_answer(&sglang::write_view(&sglang::sglang_view(&s)))
            }
            "log" => {
                let (status, loaded) = log::read_log(rest);
                self.log = loaded;
                ok_answer(&log::write_status(&status))
            }
            "log_view" | "log_adopt" | "log_align" | "log_report" | "log_status" => {
                let Some(loaded) = &self.log else {
                    return no_log();
                };
                let (s, _) = query::decode(rest);
                match job {
                    "log_view" => ok_answer(&log::write_view(&log::log_view(&s, loaded))),
                    "log_adopt" => {
                        let (s, notes) = log::adopt_log(&s, loaded);
                        let q = match checked_query(&s) {
                            Ok(q) => q,
                            Err(cause) => return err_answer(&crate::tf!(LG_NOT_ADOPTED, cause)),
                        };
                        let mut lines = vec!["ok".to_string(), q];
                        lines.extend(notes.iter().map(|n| one_line(n)));
                        lines.join("\n")
                    }
                    "log_align" => match checked_query(&log::align_log(&s, loaded)) {
                        Ok(q) => ok_answer(&q),
                        Err(cause) => err_answer(&crate::tf!(LG_NOT_ALIGNED, cause)),
                    },
                    "log_report" => report(&s, loaded),
                    _ => ok_answer(&log::write_status(&log::status(loaded))),
                }
            }
            _ => err_answer(crate::t!(HO_UNKNOWN_JOB)),
        }
    }
}

/// The lab's kv_report.json of the scenario beside the kept vLLM log.
fn report(s: &PageScenario, log: &log::Loaded) -> String {
    let log::Loaded::Vllm(parsed) = log else {
        return err_answer(crate::t!(HO_NO_REPORT));
    };
    let report = calc::evaluate(s)
        .ok()
        .and_then(|o| lab_report(s, &o, parsed));
    match report {
        Some(json) => ok_answer(&json),
        None => err_answer(crate::t!(HO_NO_REPORT)),
    }
}

/// The scenario as the query the page reads, or why the page would not take it whole (a value
/// past a field's range, which a URL would fall back from): then nothing is changed.
fn checked_query(s: &PageScenario) -> std::result::Result<String, String> {
    let q = query::encode(s);
    match query::decode(&q).1.into_iter().next() {
        Some(n) => Err(n.cause),
        None => Ok(q),
    }
}

fn import(rest: &str) -> String {
    let (name, text) = rest.split_once('\n').unwrap_or((rest, ""));
    match config::import(text, name) {
        Ok(m) => {
            let s = PageScenario {
                model: ModelChoice::Custom(m.spec.clone()),
                ..PageScenario::default()
            };
            let q = match checked_query(&s) {
                Ok(q) => q,
                Err(cause) => return err_answer(&crate::tf!(IM_NOT_TAKEN, cause)),
            };
            let mut lines = vec![
                "ok".to_string(),
                q,
                m.default_max_model_len.to_string(),
                one_line(&m.summary()),
            ];
            lines.extend(m.notes.iter().map(|n| one_line(n)));
            lines.join("\n")
        }
        Err(e) => err_answer(&e.to_string()),
    }
}

/// Reads an answer that carries a scenario and notes (the log adopted or aligned): the scenario,
/// and the notes.
pub fn read_scenario(answer: &str) -> std::result::Result<(PageScenario, Vec<String>), String> {
    let body = read_text(answer)?;
    let mut lines = body.split('\n');
    let (s, notices) = query::decode(lines.next().unwrap_or_default());
    if let Some(n) = notices.first() {
        return Err(n.message.clone());
    }
    Ok((s, lines.map(str::to_string).collect()))
}

/// A config.json as the worker read it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportAnswer {
    /// The model.
    pub spec: ModelSpec,
    /// vLLM's derived `max_model_len`.
    pub default_max_model_len: u64,
    /// What was read, in one sentence.
    pub summary: String,
    /// What was read or assumed.
    pub notes: Vec<String>,
}

/// An answer that carries `text` (what [`read_text`] gives back).
pub fn ok_answer(text: &str) -> String {
    format!("ok\n{text}")
}

/// An answer that says why there is none (what [`read_text`] gives back as the error).
pub fn err_answer(why: &str) -> String {
    format!("err\n{why}")
}

/// A text as one line of a request or an answer.
pub fn one_line(text: &str) -> String {
    text.replace('\n', " ")
}

/// Reads the worker's answer to a kv_report request: the JSON, or the error the worker met.
pub fn read_text(answer: &str) -> std::result::Result<String, String> {
    match answer.split_once('\n') {
        Some(("ok", text)) => Ok(text.to_string()),
        Some(("err", e)) => Err(e.to_string()),
        _ => Err(crate::t!(HO_UNREADABLE).into()),
    }
}

/// Reads the worker's answer to an import: the model, or the error the worker met.
pub fn read_import(answer: &str) -> std::result::Result<ImportAnswer, String> {
    let body = read_text(answer)?;
    let mut lines = body.split('\n');
    let bad = |what: &str| crate::tf!(HO_MISSING, what);
    let q = lines.next().ok_or_else(|| bad("model"))?;
    let (s, notices) = query::decode(q);
    if let Some(n) = notices.first() {
        return Err(n.message.clone());
    }
    let ModelChoice::Custom(spec) = s.model else {
        return Err(bad("custom model"));
    };
    let default_max_model_len = lines
        .next()
        .and_then(|l| l.parse().ok())
        .ok_or_else(|| bad("length"))?;
    let summary = lines.next().ok_or_else(|| bad("summary"))?.to_string();
    Ok(ImportAnswer {
        spec,
        default_max_model_len,
        summary,
        notes: lines.map(str::to_string).collect(),
    })
}
