//! The page's markup as HTML text, drawn once per language: the full page and the embedded views,
//! with an empty box (by id) for each part that an edit rewrites (`app::parts`). Every control
//! here is handled by the page's one handler per event type (`app::events`).

use super::{chart_shown, html_escape as esc};
use super::{
    drop_fields_html, embed_pickers_html, footer_html, form_gpu_html, form_head_html,
    form_model_rest_html, form_rest_html, header_html, hf_field_html, Chart, Prefill, CHARTS,
};
use kvbudget_core::config::MAX_CONFIG_BYTES;
use kvbudget_core::i18n::Lang;
use kvbudget_core::scenario::Embed;
use kvbudget_core::t;
use std::fmt::Write;

/// The largest log read (real startup logs are well under a megabyte).
pub const MAX_LOG_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// The two panels that take a pasted, chosen or dropped file: their `<details>` class, text area,
/// file input and the largest file each reads.
pub struct DropPanel {
    pub class: &'static str,
    pub text_id: &'static str,
    pub file_id: &'static str,
    pub max_bytes: f64,
}

/// The config import (in the form) and the log check.
pub const IMPORT_PANEL: DropPanel = DropPanel {
    class: "import",
    text_id: "config-text",
    file_id: "config-file",
    max_bytes: MAX_CONFIG_BYTES as f64,
};
pub const LOG_PANEL: DropPanel = DropPanel {
    class: "verify",
    text_id: "log-text",
    file_id: "log-file",
    max_bytes: MAX_LOG_BYTES,
};

/// The box a chart's figure is written into.
pub fn chart_box_id(chart: &Chart) -> String {
    format!("p-{}", chart.testid)
}

/// The charts' section, with a box for each chart the view `embed` shows (the full page's
/// first chart, the memory split, sits under the answer instead: [`page_html`]).
fn charts_html(out: &mut String, embed: Embed) {
    let _ = write!(
        out,
        r#"<section class="charts" aria-label="{}">"#,
        esc(t!(CH_CHARTS))
    );
    let lead = (embed == Embed::Full).then_some(CHARTS[0].testid);
    for c in CHARTS
        .iter()
        .filter(|c| chart_shown(c, embed) && Some(c.testid) != lead)
    {
        let _ = write!(out, r#"<div class="part" id="{}"></div>"#, chart_box_id(c));
    }
    out.push_str("</section>");
}

/// The preview of the embed builder: the embedded view of `url` in a frame (drawn only while the
/// builder is open: a frame costs a browsing context).
pub fn embed_preview_html(url: &str) -> String {
    format!(
        r#"<iframe class="embed-preview" title="{}" src="{}"></iframe>"#,
        esc(t!(EM_PREVIEW_TITLE)),
        esc(url)
    )
}

/// The calculator in `lang`: header, form, results, panels, charts, tables, footer; the form's
/// controls empty (the app writes them), or showing `pre` (the page prerendered at build time).
pub fn page_html(lang: Lang, pre: Option<&Prefill>) -> String {
    let mut out = String::with_capacity(24_000);
    let _ = write!(
        out,
        r#"<div class="part">{}</div><div class="part" id="p-notices"></div><div class="part" id="p-answer"></div><main class="layout"><form class="inputs"{} aria-label="{}"><fieldset><legend>{}</legend>{}<details class="import"><summary>{}</summary>{}<div class="field">{}</div><div role="status" data-testid="import-status" id="import-status"></div></details>{}{}</fieldset>{}</form>"#,
        header_html(lang),
        // (Prefilled, the page is the one written at build time: its form takes no typing until the
        // app replaces it, so nothing typed is lost.)
        if pre.is_some() { " inert" } else { "" },
        esc(t!(SCENARIO)),
        esc(t!(IN_FIRST)),
        form_head_html(pre),
        esc(t!(IM_SUMMARY)),
        drop_fields_html(
            ("config-text", t!(IM_TEXT_LABEL), "config-text"),
            (t!(IM_IMPORT), "config-import"),
            ("config-file", ".json,application/json"),
        ),
        hf_field_html(),
        form_model_rest_html(pre),
        form_gpu_html(pre),
        form_rest_html(pre)
    );
    let _ = write!(
        out,
        r#"<div class="outputs"><section class="results" aria-labelledby="results-title"><div class="part" id="p-top"></div></section><div class="charts"><div class="part" id="{}"></div></div><section class="results results--how" aria-label="{}"><div class="part" id="p-primer"></div><div class="part" id="p-bottom"></div><div class="actions" id="actions" hidden>{}<span class="copied" role="status" data-testid="copy-status" id="copy-status"></span></div><div class="embed-box" id="embed-box" hidden>{}<textarea id="embed-code" readonly rows="5" data-testid="embed-snippet"></textarea><button type="button" data-action="copy-snippet">{}</button><p class="hint">{}</p><div class="part" id="embed-preview"></div></div></section><div class="part" id="p-plan"></div>"#,
        chart_box_id(&CHARTS[0]),
        esc(t!(RS_HOW)),
        actions_html(),
        embed_pickers_html(),
        esc(t!(EM_COPY_SNIPPET)),
        esc(t!(EM_PREVIEW))
    );
    let _ = write!(
        out,
        r#"<details class="verify"><summary>{}</summary>{}<div class="part" id="p-log-status"></div><div class="part" id="p-log-compare"></div><ul class="hint" data-testid="log-adopted" id="log-adopted"></ul></details>"#,
        esc(t!(LC_SUMMARY)),
        drop_fields_html(
            ("log-text", t!(LC_TEXT_LABEL), "log-text"),
            (t!(LC_COMPARE), "log-read"),
            ("log-file", ".log,.txt,text/plain"),
        )
    );
    charts_html(&mut out, Embed::Full);
    let _ = write!(
        out,
        r#"<div class="part" id="p-repertoire"></div><details class="repertoire gpus"><summary><h2 id="gpus-title">{}</h2></summary><div class="table-wrap" id="p-gpus"></div></details></div></main><div class="part">{}</div>"#,
        esc(t!(GP_TITLE)),
        footer_html()
    );
    out
}

/// An embedded view: the headline with its link to the full page, the card (`embed=1`) and the
/// charts it shows.
pub fn embed_html(embed: Embed) -> String {
    let mut out = String::from(
        r#"<main class="embed"><h1 class="embed__head" id="p-embed-head"></h1><div class="part" id="p-notices"></div><div class="part" id="p-card"></div>"#,
    );
    charts_html(&mut out, embed);
    out + "</main>"
}

/// The results' action buttons as HTML text (each names its `data-action`; "Use the GPU's
/// budget" is shown only while the scenario starts from a fixed KV memory).
pub fn actions_html() -> String {
    format!(
        r#"<button type="button" data-action="copy-command">{}</button><button type="button" data-testid="copy-link" data-action="copy-link">{}</button><button type="button" aria-expanded="false" data-action="embed">{}</button><button type="button" id="use-budget" data-testid="use-budget" data-action="use-budget" data-when="use-budget" hidden>{}</button>"#,
        esc(t!(RS_COPY_COMMAND)),
        esc(t!(RS_COPY_LINK)),
        esc(t!(RS_EMBED)),
        esc(t!(RS_USE_BUDGET))
    )
}
