//! Embedding: the views' scenarios and the `<iframe>` snippet, escaped.

use kvbudget_core::scenario::{Embed, PageScenario};

/// Text made safe to place inside HTML text or a quoted attribute.
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The `<iframe>` a course page pastes to embed `url`.
pub fn embed_snippet(url: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"100%\" height=\"720\" style=\"border:0\" loading=\"lazy\" title=\"kvbudget: KV cache budget\"></iframe>",
        html_escape(url)
    )
}

/// The scenario as the compact embedded view.
pub fn embedded(s: &PageScenario) -> PageScenario {
    PageScenario {
        embed: Embed::Compact,
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
