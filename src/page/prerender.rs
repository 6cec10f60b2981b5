//! The page as it first shows, written into `index.html` at build time (`kvbudget-prerender`, run
//! by Trunk after each build): the default scenario's answer, figures, charts and tables in
//! English, so the first paint needs only the HTML and the CSS. The app replaces it with the
//! live page once the wasm has run (`app::start`); a URL whose scenario or language differs shows
//! only its skeleton until then (`index.html`'s start script, `style/main.css`).

use super::{
    bottom_view, chart_box_id, chart_shown, chart_svg, engine_answer, figure_html, page_html,
    repertoire_view, top_view, Fixes, Prefill, CHARTS,
};
use crate::view::{self, AnswerBar, Primer, Repertoire, ResultsBottom, ResultsTop};
use kvbudget_core::calc::evaluate;
use kvbudget_core::chart_data;
use kvbudget_core::explain::explain;
use kvbudget_core::i18n::Lang;
use kvbudget_core::scenario::{Embed, PageScenario};
use leptos::prelude::*;

/// The id of the prerendered page's first chart box, whose width the app's first charts take.
pub const BOOT_CHART: &str = "boot-chart";

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

/// Leaves out the content of the closed panel whose `<details …>` tag begins with `open_tag`, up
/// to `close` (the panel's closing tag and what follows it, unique in the page): its summary
/// stays. Nothing in a closed panel shows before the app replaces the page (its form is inert),
/// so its markup would only cost the first load. Returns whether the panel was there.
fn fold(html: &mut String, open_tag: &str, close: &str) -> bool {
    let Some(start) = html.find(open_tag) else {
        return false;
    };
    // (An open panel shows its content: nothing to leave out.)
    if html[start..]
        .split('>')
        .next()
        .is_some_and(|tag| tag.contains(" open"))
    {
        return true;
    }
    let Some(inner) = html[start..].find("</summary>").map(|i| start + i + 10) else {
        return false;
    };
    let Some(end) = html[inner..].find(close).map(|i| inner + i) else {
        return false;
    };
    html.replace_range(inner..end, "");
    true
}

/// The full page showing `s` in English, its charts drawn `width` pixels wide, its form inert
/// until the app replaces it; none when `s` does not evaluate (then the page is written by the app
/// alone). The results are the page's components rendered to HTML.
pub fn prerender(s: &PageScenario, width: u32) -> Option<String> {
    let o = evaluate(s).ok()?;
    let words = explain(s, &o);
    let mut html = page_html(Lang::En, Some(&Prefill::of(s, Some(&o))));
    // The form's other settings, the config import and the log check, all closed: 1,786 +
    // 144 + 159 B of the first load's gzip, measured on the default page.
    let folded = [
        (
            r#"<details class="more-settings""#,
            r#"</details><button type="button" class="linkish" data-action="reset">"#,
        ),
        (r#"<details class="import">"#, "</details>"),
        (r#"<details class="verify">"#, "</details>"),
    ];
    if !folded
        .iter()
        .all(|(open, close)| fold(&mut html, open, close))
    {
        return None;
    }
    let answer = engine_answer(s, &o, None);
    let top = top_view(s, &o, &words, Fixes::Checking, None, None);
    let bottom = bottom_view(&o, &words, None);
    let charts = chart_data::build(s, &o).ok()?;
    let en = |f: &dyn Fn() -> AnyView| view::to_html(Lang::En, f);
    let mut parts = vec![
        (
            "p-answer".to_string(),
            en(&|| view! { <AnswerBar answer=answer.clone() /> }.into_any()),
        ),
        (
            "p-top".into(),
            en(&|| {
                let top = Signal::stored(Some(top.clone()));
                view! { <ResultsTop top on_fix=Callback::new(|_| {}) /> }.into_any()
            }),
        ),
        ("p-primer".into(), en(&|| view! { <Primer /> }.into_any())),
        (
            "p-bottom".into(),
            en(&|| view! { <ResultsBottom bottom=Some(bottom.clone()) /> }.into_any()),
        ),
        (
            "p-repertoire".into(),
            en(&|| {
                view! { <Repertoire table=Some(repertoire_view(s)) on_load=Callback::new(|_| {}) /> }.into_any()
            }),
        ),
    ];
    // The first chart's box is the one the app measures before it draws its own charts.
    for (i, c) in CHARTS
        .iter()
        .filter(|c| chart_shown(c, Embed::Full))
        .enumerate()
    {
        let svg = chart_svg(c, &charts, width);
        let id = (i == 0).then_some(BOOT_CHART);
        let figure = figure_html(c, &(c.value)(&charts), &(c.summary)(&charts), &svg, id);
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
