//! SGLang on the page: its figures for the scenario, computed in the worker (the first load
//! carries no SGLang emulation); the results panel shows them (`page::sglang_panel_html`).

use super::{browser, Shown};
use kvbudget_core::handoff::read_text;
use kvbudget_core::handoff::sglang::{read_view, sglang_request, SglangView};
use kvbudget_core::i18n::Lang;
use kvbudget_core::query::encode;
use kvbudget_core::scenario::Engine;
use leptos::prelude::*;

/// SGLang's figures while SGLang is the engine: asked of the worker each time the shown scenario
/// changes. Returns the latest answer (`None` before the first) and whether it is for the
/// scenario shown now: while the worker computes a newer one, the last stays on the page, dimmed
/// and marked busy, instead of every panel blinking out and back on each keystroke. An answer
/// that arrives after the scenario moved on is dropped.
pub fn follow(
    shown: Memo<Option<Shown>>,
    lang: Memo<Lang>,
) -> (Memo<Option<SglangView>>, Memo<bool>) {
    let got = RwSignal::new(None::<SglangView>);
    // The scenario's query, with the language the texts are asked in (the worker writes them).
    let query = Memo::new(move |_| {
        let l = lang.get().key();
        shown.with(|x| {
            x.as_ref()
                .filter(|x| x.s.engine == Engine::Sglang)
                .map(|x| format!("{l}|{}", encode(&x.s)))
        })
    });
    Effect::new(move |_| {
        let Some(key) = query.get() else { return };
        let q = key.split_once('|').map_or("", |(_, q)| q).to_string();
        if got.with_untracked(|v| v.as_ref().is_some_and(|v| v.query == key)) {
            return;
        }
        leptos::task::spawn_local(async move {
            let answer = browser::ask_worker(sglang_request(&q))
                .await
                .and_then(|a| read_text(&a));
            if query.get_untracked().as_deref() != Some(key.as_str()) {
                return;
            }
            let mut v = match answer {
                Ok(text) => read_view(&text),
                Err(e) => SglangView {
                    answer: format!("SGLang: {e}"),
                    refused: true,
                    lines: e,
                    ..SglangView::default()
                },
            };
            v.query = key;
            got.set(Some(v));
        });
    });
    let latest = Memo::new(move |_| query.with(Option::is_some).then(|| got.get()).flatten());
    let current = Memo::new(move |_| {
        let q = query.get();
        got.with(|v| v.as_ref().is_some_and(|v| Some(&v.query) == q.as_ref()))
    });
    (latest, current)
}
