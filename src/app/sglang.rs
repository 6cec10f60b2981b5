//! SGLang on the page: its figures for the scenario, computed in the worker (the first load
//! carries no SGLang emulation); the results panel shows them (`page::sglang_panel_html`).

use super::asks::Asked;
use super::Shown;
use kvbudget_core::engines::EngineView;
use kvbudget_core::handoff::{Answer, Request, SglangView};
use kvbudget_core::i18n::Lang;
use kvbudget_core::query::encode;
use kvbudget_core::scenario::Engine;
use kvbudget_core::t;
use leptos::prelude::*;

/// SGLang's figures while SGLang is the engine: asked of the worker each time the shown scenario
/// changes. Returns the latest answer (`None` before the first) and whether it is for the
/// scenario shown now: while the worker computes a newer one, the last stays on the page, dimmed
/// and marked busy, instead of every panel blinking out and back on each keystroke.
pub fn follow(
    shown: Memo<Option<Shown>>,
    lang: Memo<Lang>,
) -> (Memo<Option<SglangView>>, Memo<bool>) {
    let asked = Asked::new(
        lang,
        Box::new(move || {
            shown.with(|x| {
                x.as_ref()
                    .filter(|x| x.s.engine == Engine::Sglang)
                    .map(|x| Request::Sglang {
                        query: encode(&x.s),
                    })
            })
        }),
    );
    let latest = Memo::new(move |_| {
        asked.latest().map(|(answer, _)| match answer {
            Ok(Answer::Sglang(v)) => v,
            Ok(_) => failed(t!(HO_UNREADABLE).into()),
            // (Why there are no figures, in kvbudget's words: not in SGLang's lines.)
            Err(e) => failed(e),
        })
    });
    let current = Memo::new(move |_| asked.current());
    (latest, current)
}

/// No figures from the worker, and why.
fn failed(why: String) -> SglangView {
    SglangView {
        engine: EngineView {
            answer: format!("SGLang: {why}"),
            refused: true,
            notes: vec![why],
            ..EngineView::default()
        },
        ..SglangView::default()
    }
}
