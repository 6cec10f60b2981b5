//! Reading the query's keys, and the checks that span keys once every key is read: each falls
//! back as a bad key does, with its notice, so that the page always opens on a scenario it can
//! show.

use super::{is_known, Notice, Params};
use crate::calc::{checked_context, checked_pp, evaluate};
use crate::error::truncate;
use crate::model::Attention;
use crate::scenario::{ModelChoice, PageScenario};
use crate::tf;

/// A check's notice: what was wrong (`cause`), and the default used instead (`default`).
fn note(notes: &mut Vec<Notice>, param: &str, cause: String, default: &str) {
    notes.push(Notice {
        param: param.into(),
        message: tf!(Q_USING_DEFAULT, cause, default),
        cause,
    });
}

/// A notice that is its own cause (a key kvbudget does not know, or gives twice).
fn notice(param: String, message: String) -> Notice {
    Notice {
        param,
        cause: message.clone(),
        message,
    }
}

pub(super) fn settle(s: &mut PageScenario, notes: &mut Vec<Notice>) {
    if let Some(c) = s.model.custom_mut() {
        if c.kv_heads > c.attention_heads {
            let cause = tf!(Q_KV_HEADS, c.kv_heads, c.attention_heads);
            let default = tf!(Q_KV_HEADS_DEFAULT, c.attention_heads);
            c.kv_heads = c.attention_heads;
            note(notes, "kv_heads", cause, &default);
        } else if !matches!(c.attention, Attention::Mla { .. })
            && c.attention_heads % c.kv_heads.max(1) != 0
        {
            // Groups of unequal size: the largest count below that divides the heads, so the
            // rest of the model is kept.
            let cause = crate::error::KvError::Invalid {
                field: "KV heads",
                message: tf!(ERR_KV_UNEVEN, c.attention_heads, c.kv_heads),
            }
            .to_string();
            let d = crate::capacity::largest_divisor(c.attention_heads, c.kv_heads);
            let default = tf!(Q_KV_HEADS_DIVISOR, d, c.kv_heads);
            c.kv_heads = d;
            note(notes, "kv_heads", cause, &default);
        }
    }
    // More stages than layers (`?pp=37` on Qwen3-8B's 36).
    if let Err(e) = checked_pp(s) {
        note(notes, "pp", e.to_string(), "1");
        s.pp = 1;
    }
    // Prompt and trace are each valid alone but must add up to a request vLLM accepts: when they
    // do not, both take their default (the context is then max_model_len), as a bad field does.
    if let (true, Err(e)) = (s.prompt.is_some() || s.trace.is_some(), checked_context(s)) {
        let named: Vec<&str> = [("prompt", s.prompt), ("trace", s.trace)]
            .iter()
            .filter(|g| g.1.is_some())
            .map(|g| g.0)
            .collect();
        note(
            notes,
            &named.join(", "),
            e.to_string(),
            crate::t!(D_CTX_NONE),
        );
        s.prompt = None;
        s.trace = None;
    }
    // A custom model whose every number is in range but whose products are not (a sequence's
    // bytes past 2⁶⁴): the default model.
    if let (ModelChoice::Custom(_), Err(e)) = (&s.model, evaluate(s)) {
        let default = PageScenario::default().model;
        note(notes, "model", e.to_string(), &default.spec().id);
        s.model = default;
    }
}

/// The query's keys and values, the last of a repeated key counting, with a notice for each
/// unknown or repeated key (one per key however often it is given).
pub(super) fn read_keys(q: &str) -> (Params, Vec<Notice>) {
    let mut notes = Vec::new();
    let mut params = Params::new();
    // The keys that have their notice: one per key however often it is given (hashed, so a query
    // of thousands of keys is read in linear time; a map of the same type as `params`, which
    // costs the page no more code).
    let mut noted = Params::new();
    // Unknown keys past the first few are counted in one notice, not listed (a URL of thousands).
    const LISTED: usize = 10;
    let mut unknown = 0usize;
    for (k, v) in form_urlencoded::parse(q.as_bytes()).into_owned() {
        if k.is_empty() {
            continue;
        }
        if !is_known(&k) {
            if noted.insert(k.clone(), String::new()).is_none() {
                unknown += 1;
                if unknown <= LISTED {
                    notes.push(notice(truncate(&k, 40), crate::t!(Q_UNKNOWN).into()));
                }
            }
            continue;
        }
        // A key given twice: the last value counts, as a form would send it, and the notice says so.
        let repeated = params.insert(k.clone(), v).is_some();
        if repeated && noted.insert(k.clone(), String::new()).is_none() {
            notes.push(notice(truncate(&k, 40), crate::t!(Q_REPEATED).into()));
        }
    }
    if unknown > LISTED {
        notes.push(notice(
            "…".into(),
            tf!(
                Q_MORE_UNKNOWN,
                crate::units::thousands((unknown - LISTED) as u64)
            ),
        ));
    }
    (params, notes)
}
