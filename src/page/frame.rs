//! The page's frame as HTML text, drawn once per language: the skip link, the header with the
//! language switch (its `<select>` handled by the page's change handler), and the footer.

use super::html_escape as esc;
use kvbudget_core::i18n::Lang;
use kvbudget_core::t;
use std::fmt::Write;

/// The skip link and the header; the switch shows `lang`, each language named in itself.
pub fn header_html(lang: Lang) -> String {
    let mut out = format!(
        r##"<a class="skip" href="#results-title">{}</a><header class="top"><h1>kvbudget</h1><p class="lede">{}</p><div class="lang"><label for="lang" class="sr-only">{}</label><select id="lang" data-testid="lang">"##,
        esc(t!(SKIP_TO_RESULTS)),
        esc(t!(LEDE)),
        esc(t!(LANGUAGE))
    );
    for l in Lang::ALL {
        let _ = write!(
            out,
            r#"<option value="{0}" lang="{0}"{1}>{2}</option>"#,
            l.key(),
            if l == lang { " selected" } else { "" },
            l.name()
        );
    }
    out + "</select></div></header>"
}

/// The footer.
pub fn footer_html() -> String {
    format!(
        r#"<footer class="foot"><p>{}</p></footer>"#,
        esc(t!(FOOTER))
    )
}
