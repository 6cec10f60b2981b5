//! What the config import decides: ids and adopting an import. (The log check runs in the
//! worker: `kvbudget_core::handoff::log`.)

use kvbudget_core::config::matching_preset;
use kvbudget_core::handoff::{err_answer, ok_answer, one_line, ImportAnswer};
use kvbudget_core::query::{decode, encode};
use kvbudget_core::scenario::{ModelChoice, PageScenario};
use kvbudget_core::t;

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

/// An imported config becomes the custom model (`model`); `max_model_len` is lowered to the
/// model's default length (`default_len`, 0: none) when it exceeds it.
pub fn adopt_import(s: &mut PageScenario, model: ModelChoice, default_len: u64) {
    s.set_model(model);
    if default_len > 0 && s.ctx > default_len {
        s.ctx = default_len;
    }
}

/// What an import said, as HTML text: its summary, the preset of the same geometry (a button,
/// `data-use-preset`: the preset's id) and its notes.
pub fn import_done_html(m: &ImportAnswer) -> String {
    let esc = super::html_escape;
    let mut out = format!(r#"<div class="import-ok"><p>{}</p>"#, esc(&m.summary));
    if let Some(p) = matching_preset(&m.spec) {
        out += &format!(
            r#"<p>{}<button type="button" class="linkish" data-testid="config-use-preset" data-use-preset="{}">{}</button></p>"#,
            esc(&t!(im_same_preset(p.id()))),
            esc(p.id()),
            esc(t!(IM_USE_PRESET))
        );
    }
    out + r#"<ul class="hint">"# + &super::list_items_html(&m.notes) + "</ul></div>"
}

/// The worker's answer to an import for the page: the model as a URL query, vLLM's derived
/// `max_model_len`, and what the import said as HTML text (one line each).
pub fn import_page_answer(m: &ImportAnswer) -> String {
    let mut s = PageScenario::default();
    s.set_model(ModelChoice::Custom(m.spec.clone()));
    ok_answer(&format!(
        "{}\n{}\n{}",
        encode(&s),
        m.default_max_model_len,
        one_line(&import_done_html(m))
    ))
}

/// Reads [`import_page_answer`] into `s` (see [`adopt_import`]); returns what the import said,
/// or why it failed.
pub fn adopt_import_answer(s: &mut PageScenario, answer: &str) -> Result<String, String> {
    let body = kvbudget_core::handoff::read_text(answer)?;
    let mut lines = body.splitn(3, '\n');
    let model = decode(lines.next().unwrap_or_default()).0.model;
    let default_len = lines.next().and_then(|l| l.parse().ok()).unwrap_or(0);
    adopt_import(s, model, default_len);
    Ok(lines.next().unwrap_or_default().to_string())
}

/// Where the Hugging Face Hub serves a model's config.json (`id`: `owner/name`).
pub fn hub_config_url(id: &str) -> String {
    format!("https://huggingface.co/{id}/resolve/main/config.json")
}

/// What fetching config.json from the Hub gave: the HTTP status and, for 200, the body as text;
/// or no answer (`Err(true)`: the browser is offline, `Err(false)`: the request did not complete).
pub type HubFetch = Result<(u16, Option<String>), bool>;

/// The worker's answer to an import from the Hub (`id`), given what the fetch gave: the import
/// of the text (`import`: the core's import, for the page), or why there is none.
pub fn hub_answer(id: &str, fetched: HubFetch, import: impl FnOnce(&str) -> String) -> String {
    let failed = match fetched {
        Ok((200, Some(text))) => return import(&text),
        Err(true) => t!(IM_OFFLINE).to_string(),
        Err(false) => t!(IM_BLOCKED).to_string(),
        Ok((200, None)) => t!(IM_NOT_TEXT).to_string(),
        Ok((404, _)) => t!(im_404(id)),
        Ok((code @ (401 | 403), _)) => t!(im_gated(id, code)),
        Ok((code, _)) => t!(im_http(code, id)),
    };
    err_answer(&failed)
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
