//! Embedding in a course page: the views' scenarios, the `<iframe>` snippet (escaped, with a
//! suggested height, clipboard permission and the few lines that resize the frame to the height
//! the embedded page posts), and that message.

use kvbudget_core::scenario::{Embed, PageScenario, Theme};

pub use crate::html_escape;

/// The message type the embedded page posts to its parent with its height in CSS px.
pub const HEIGHT_MESSAGE: &str = "kvbudget:height";

/// The message posted to the parent: `{"type":"kvbudget:height","height":N}`.
pub fn height_message(height: u32) -> String {
    format!("{{\"type\":\"{HEIGHT_MESSAGE}\",\"height\":{height}}}")
}

/// A starting height for a frame about 700 px wide, before the page posts its own (measured at
/// 700 px for the default scenario: the card 1,878 px, the memory chart 445, one of the other
/// charts 540; the frame then follows its content both ways).
pub fn suggested_height(mode: Embed) -> u32 {
    match mode {
        Embed::Compact => 1900,
        Embed::Full => 3200,
        Embed::Memory => 450,
        Embed::Concurrency | Embed::Roofline => 560,
    }
}

/// The `<iframe>` a course page pastes to embed `url` in `mode`, and the script that resizes it
/// to the height the embedded page posts. Several snippets may share one course page: each
/// message resizes only the frame it came from (matched by `event.source`, not by an id), and
/// the listener is added once however many snippets the page holds.
pub fn embed_snippet(url: &str, mode: Embed) -> String {
    format!(
        "<iframe class=\"kvbudget-frame\" src=\"{}\" width=\"100%\" height=\"{}\" style=\"border:0;display:block\" loading=\"lazy\" allow=\"clipboard-write\" title=\"kvbudget: KV cache budget\"></iframe>\n\
         <script>window.kvbudgetFrames||(window.kvbudgetFrames=1,addEventListener(\"message\",function(e){{\
         var d=e.data;if(d&&d.type===\"{HEIGHT_MESSAGE}\")\
         [].forEach.call(document.querySelectorAll(\"iframe.kvbudget-frame\"),function(f){{\
         if(f.contentWindow===e.source)f.style.height=d.height+\"px\"}})}}));</script>",
        html_escape(url),
        suggested_height(mode)
    )
}

/// The scenario as an embedded view in `mode` with `theme`. An embed shows vLLM's figures (the
/// SGLang emulation is the full page's), so its address asks for vLLM: a card built from an SGLang
/// page must not read as SGLang's answer.
pub fn embedded(s: &PageScenario, mode: Embed, theme: Theme) -> PageScenario {
    PageScenario {
        embed: if mode == Embed::Full {
            Embed::Compact
        } else {
            mode
        },
        theme,
        engine: kvbudget_core::scenario::Engine::Vllm,
        // (An embedded view has no form to open.)
        more: false,
        ..s.clone()
    }
}

/// The scenario as the full page.
pub fn full_page(s: &PageScenario) -> PageScenario {
    PageScenario {
        embed: Embed::Full,
        ..s.clone()
    }
}

/// The embed builder's pickers (what to show: the card, first; the theme: light, first) and the
/// snippet's label, as HTML text.
pub fn embed_pickers_html() -> String {
    use kvbudget_core::t;
    use std::fmt::Write;
    let picker = |out: &mut String, id: &str, label: &str, options: &[(&str, &str)]| {
        let _ = write!(
            out,
            r#"<div class="field"><label for="{id}">{}</label><select id="{id}" data-testid="{id}">"#,
            html_escape(label)
        );
        for (i, (value, text)) in options.iter().enumerate() {
            let selected = if i == 0 { " selected" } else { "" };
            let _ = write!(
                out,
                r#"<option value="{value}"{selected}>{}</option>"#,
                html_escape(text)
            );
        }
        out.push_str("</select></div>");
    };
    let mut out = String::from(r#"<div class="field-row">"#);
    let modes = [
        (Embed::Compact, t!(EM_MODE_CARD)),
        (Embed::Memory, t!(EM_MODE_MEMORY)),
        (Embed::Concurrency, t!(EM_MODE_CONCURRENCY)),
        (Embed::Roofline, t!(EM_MODE_ROOFLINE)),
    ]
    .map(|(m, l)| (m.key().unwrap_or("1"), l));
    picker(&mut out, "embed-mode", t!(EM_SHOW), &modes);
    let themes = [
        (Theme::Light, t!(EM_LIGHT)),
        (Theme::Dark, t!(EM_DARK)),
        (Theme::Auto, t!(EM_AUTO)),
    ]
    .map(|(m, l)| (m.key().unwrap_or("auto"), l));
    picker(&mut out, "embed-theme", t!(EM_THEME), &themes);
    let _ = write!(
        out,
        r#"</div><label for="embed-code">{}</label>"#,
        html_escape(t!(EM_PASTE))
    );
    out
}
