//! What the config import decides: ids and adopting an import. (The log check runs in the
//! worker: `kvbudget_core::handoff::log`.)

use kvbudget_core::handoff::ImportView;
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
pub fn import_done_html(m: &ImportView) -> String {
    let esc = super::html_escape;
    let mut out = format!(r#"<div class="import-ok"><p>{}</p>"#, esc(&m.summary));
    if let Some(p) = &m.preset {
        out += &format!(
            r#"<p>{}<button type="button" class="linkish" data-testid="config-use-preset" data-use-preset="{}">{}</button></p>"#,
            esc(&t!(im_same_preset(p))),
            esc(p),
            esc(t!(IM_USE_PRESET))
        );
    }
    out + r#"<ul class="hint">"# + &super::list_items_html(&m.notes) + "</ul></div>"
}

/// Adopts the worker's import into `s` (see [`adopt_import`]); returns what the import said as
/// HTML text.
pub fn adopt_import_view(s: &mut PageScenario, m: &ImportView) -> String {
    adopt_import(s, m.model(), m.default_max_model_len);
    import_done_html(m)
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
