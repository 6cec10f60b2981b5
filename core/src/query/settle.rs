//! The checks that span keys, once every key is read: each falls back as a bad key does, with its
//! notice, so that the page always opens on a scenario it can show.

use super::Notice;
use crate::calc::{checked_context, checked_pp, evaluate};
use crate::scenario::{ModelChoice, PageScenario};
use crate::tf;

fn note(notes: &mut Vec<Notice>, param: &str, message: String) {
    notes.push(Notice {
        param: param.into(),
        message,
    });
}

pub(super) fn settle(s: &mut PageScenario, notes: &mut Vec<Notice>) {
    if let Some(c) = s.model.custom_mut() {
        if c.kv_heads > c.attention_heads {
            let message = tf!(Q_KV_HEADS, c.kv_heads, c.attention_heads);
            c.kv_heads = c.attention_heads;
            note(notes, "kv_heads", message);
        }
    }
    // More stages than layers (`?pp=37` on Qwen3-8B's 36).
    if let Err(e) = checked_pp(s) {
        note(notes, "pp", tf!(Q_USING_DEFAULT, e, 1));
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
            tf!(Q_USING_DEFAULT, e, crate::t!(D_CTX_NONE)),
        );
        s.prompt = None;
        s.trace = None;
    }
    // A custom model whose every number is in range but whose products are not (a sequence's
    // bytes past 2⁶⁴): the default model.
    if let (ModelChoice::Custom(_), Err(e)) = (&s.model, evaluate(s)) {
        let default = PageScenario::default().model;
        note(notes, "model", tf!(Q_USING_DEFAULT, e, default.spec().id));
        s.model = default;
    }
}
