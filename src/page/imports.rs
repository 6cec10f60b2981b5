//! What the config import decides: ids and adopting an import. (The log check runs in the
//! worker: `kvbudget_core::handoff::log`.)

use kvbudget_core::handoff::ImportAnswer;
use kvbudget_core::scenario::{ModelChoice, PageScenario};

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

/// A drop panel's two inputs as HTML text: the text area (`id`, label, `data-testid`) with the
/// button that takes its text (label, `data-testid`; `data-take` names the text area), and the
/// file input (`id`, what it accepts).
pub fn drop_fields_html(
    (text_id, text_label, text_testid): (&str, &str, &str),
    (button_label, button_testid): (&str, &str),
    (file_id, accept): (&str, &str),
) -> String {
    let esc = super::html_escape;
    format!(
        r#"<div class="field"><label for="{text_id}">{}</label><textarea id="{text_id}" rows="4" spellcheck="false" data-testid="{text_testid}"></textarea><button type="button" data-testid="{button_testid}" data-take="{text_id}">{}</button></div><div class="field"><label for="{file_id}">{}</label><input id="{file_id}" type="file" accept="{accept}"></div>"#,
        esc(text_label),
        esc(button_label),
        esc(kvbudget_core::t!(DP_CHOOSE_FILE))
    )
}

/// The config import's Hugging Face id field and its fetch button, as HTML text.
pub fn hf_field_html() -> String {
    let esc = super::html_escape;
    format!(
        r#"<label for="hf-id">{}</label><input id="hf-id" type="text" placeholder="Qwen/Qwen3-8B" autocomplete="off" spellcheck="false"><button type="button" data-testid="config-fetch" data-fetch="1">{}</button>"#,
        esc(kvbudget_core::t!(IM_OR_ID)),
        esc(kvbudget_core::t!(IM_FETCH))
    )
}
