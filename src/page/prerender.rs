//! The page as it first shows, written into `index.html` at build time (`kvbudget-prerender`, run
//! by Trunk after each build): the default scenario's answer, figures, charts and tables in
//! English, so the first paint needs only the HTML and the CSS. The app replaces it with the
//! live page once the wasm has run (`app::start`); a URL whose scenario or language differs shows
//! only its skeleton until then (`index.html`'s start script, `style/main.css`).

use super::{
    answer_bar_html, chart_box_id, chart_shown, chart_svg, engine_answer, figure_html, log_lines,
    page_html, primer_html, repertoire_html, results_bottom, results_top, Prefill, CHARTS,
};
use kvbudget_core::calc::evaluate;
use kvbudget_core::chart_data;
use kvbudget_core::explain::explain;
use kvbudget_core::i18n::Lang;
use kvbudget_core::scenario::{Embed, PageScenario};

/// Writes `inner` into the empty box `id="{id}"` of `html`. Returns whether the box was there.
fn fill(html: &mut String, id: &str, inner: &str) -> bool {
    let open = format!(r#"id="{id}">"#);
    match html.find(&open) {
        Some(at) => {
            html.insert_str(at + open.len(), inner);
            true
        }
        None => false,
    }
}

/// The full page showing `s` in English, its charts drawn `width` pixels wide; none when `s`
/// does not evaluate (then the page is written by the app alone).
pub fn prerender(s: &PageScenario, width: u32) -> Option<String> {
    let o = evaluate(s).ok()?;
    let words = explain(s, &o);
    let mut html = page_html(Lang::En, Some(&Prefill::of(s, Some(&o))));
    let (answer, refused) = engine_answer(s, &o, None);
    let lines = log_lines(&o.chosen.report);
    let charts = chart_data::build(s, &o).ok()?;
    let mut parts = vec![
        ("p-answer".to_string(), answer_bar_html(&answer, refused)),
        (
            "p-top".into(),
            results_top(s, &o, &words, "", None, &lines, false),
        ),
        ("p-primer".into(), primer_html()),
        (
            "p-bottom".into(),
            results_bottom(&o, &words, &words.serve_command),
        ),
        ("p-repertoire".into(), repertoire_html(s)),
    ];
    for c in CHARTS.iter().filter(|c| chart_shown(c, Embed::Full)) {
        let svg = chart_svg(c, &charts, width);
        let figure = figure_html(c, &(c.value)(&o), &(c.summary)(&o, &charts), &svg);
        parts.push((chart_box_id(c), figure));
    }
    for (id, inner) in &parts {
        if !fill(&mut html, id, inner) {
            return None;
        }
    }
    // The actions show once there is an answer (the app shows them the same way).
    Some(html.replacen(r#"id="actions" hidden"#, r#"id="actions""#, 1))
}
