//! The page's state: the scenario every input writes, the last one that evaluated, and what
//! derives from it (memos over the core's pure functions, and SGLang's figures from the worker).

use super::log_check::LogState;
use super::{browser, sglang};
use crate::page::Typed;
use kvbudget_core::calc::{evaluate, Outcome};
use kvbudget_core::chart_data::{self, ChartData};
use kvbudget_core::explain::{explain, Explanation};
use kvbudget_core::handoff::sglang::SglangView;
use kvbudget_core::handoff::{Answer, Request};
use kvbudget_core::i18n::{self, Lang};
use kvbudget_core::query::{decode, Notice};
use kvbudget_core::scenario::{Engine, PageScenario};
use leptos::prelude::*;

/// The scenario signal every input writes.
pub type Scn = RwSignal<PageScenario>;

/// The last scenario that evaluated, with its outcome: what the panels show while an edit is
/// refused.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The scenario.
    pub s: PageScenario,
    /// Its numbers.
    pub o: Outcome,
}

/// An evaluation: the scenario with its numbers, or why it does not evaluate.
type Evaluated = Result<(PageScenario, Outcome), kvbudget_core::error::KvError>;

/// What tells an evaluation from another.
fn evaluation_key(
    r: Option<&Evaluated>,
) -> Option<Result<&PageScenario, &kvbudget_core::error::KvError>> {
    r.map(|r| r.as_ref().map(|x| &x.0))
}

/// What the panels read: the scenario, the last good evaluation and what derives from it.
#[derive(Clone, Copy)]
pub struct State {
    /// The scenario as edited (may not evaluate).
    pub scenario: Scn,
    /// The current evaluation's error, if any.
    pub error: Memo<Option<String>>,
    /// The last scenario that evaluated and its numbers.
    pub shown: Memo<Option<Shown>>,
    /// Its derivations, warnings and serve command.
    pub words: Memo<Option<Explanation>>,
    /// Its charts' data.
    pub charts: Memo<Option<ChartData>>,
    /// SGLang's figures (the worker's latest answer) while SGLang is the engine.
    pub sglang: Memo<Option<SglangView>>,
    /// Whether they are for the scenario shown now (else the worker is computing newer ones).
    pub sglang_current: Memo<bool>,
    /// SGLang's figures only when they are for the scenario shown now: what the answer, the
    /// command and the defaults read (a stale answer is never stated as current).
    pub sglang_now: Memo<Option<SglangView>>,
    /// The interface's language: the scenario's `lang`, else the browser's. Reading it sets the
    /// language texts are produced in, so every memo that produces text reads it first.
    pub lang: Memo<Lang>,
    /// The log check's state (it outlives its panel).
    pub log: LogState,
    /// Text typed into the form but not (yet) committed, and the weights' unit: kept across a
    /// change of language, which draws the form anew.
    pub typed: RwSignal<Typed>,
}

impl State {
    /// The URL's query: the scenario shown (one the page refuses stays out), with the form's
    /// open settings, which the scenario shown leaves out.
    pub fn query(&self) -> String {
        let more = self.scenario.with(|s| s.more);
        let shown = self.shown.with(|x| {
            x.as_ref().map(|x| {
                kvbudget_core::query::encode(&PageScenario {
                    more,
                    ..x.s.clone()
                })
            })
        });
        shown.unwrap_or_else(|| self.scenario.with(kvbudget_core::query::encode))
    }

    pub fn new(scenario: Scn) -> Self {
        // Chinese once its texts are in (they come from the worker on first use); English until.
        let zh_ready = RwSignal::new(i18n::zh_loaded());
        let lang = Memo::new(move |_| {
            let want = scenario.with(wanted_lang);
            let l = if want == Lang::ZhCn && !zh_ready.get() {
                load_zh(move |ok| zh_ready.set(ok));
                Lang::En
            } else {
                want
            };
            i18n::set_lang(l);
            l
        });
        // (Its errors are written in the page's language.) An evaluation is told from the last
        // by its scenario, or its error: the outcome follows from them, and comparing the
        // scenarios costs a fraction of comparing the outcomes.
        let result = Memo::new_with_compare(
            move |_| {
                let _ = lang.get();
                // The form's open settings change no figure: left out, opening them re-asks
                // nothing (the URL takes them from the live scenario).
                let s = scenario.with(|s| PageScenario {
                    more: false,
                    ..s.clone()
                });
                evaluate(&s).map(|o| (s, o))
            },
            |a, b| evaluation_key(a) != evaluation_key(b),
        );
        let error = Memo::new(move |_| {
            let _ = lang.get();
            result.with(|r| r.as_ref().err().map(|e| e.to_string()))
        });
        let shown = Memo::new_with_compare(
            move |prev: Option<&Option<Shown>>| match result.get() {
                Ok((s, o)) => Some(Shown { s, o }),
                Err(_) => prev.cloned().flatten(),
            },
            |a, b| a.map(|x| x.as_ref().map(|x| &x.s)) != b.map(|x| x.as_ref().map(|x| &x.s)),
        );
        // (New whenever the scenario shown or the language changed: no comparison.)
        let words = Memo::new_with_compare(
            move |_| {
                let _ = lang.get();
                shown.with(|x| x.as_ref().map(|x| explain(&x.s, &x.o)))
            },
            |_, _| true,
        );
        let (sglang, sglang_current) = sglang::follow(shown, lang);
        let sglang_now = Memo::new(move |_| sglang_current.get().then(|| sglang.get()).flatten());
        // The chosen engine's: vLLM's computed here, SGLang's once the worker has answered for
        // the scenario shown (an older answer's charts are not this one's).
        let charts = Memo::new_with_compare(
            move |_| {
                let _ = lang.get();
                shown.with(|x| {
                    let x = x.as_ref()?;
                    match x.s.engine {
                        Engine::Sglang => {
                            sglang_now.with(|v| v.as_ref()?.engine.charts.as_deref().cloned())
                        }
                        Engine::Vllm => chart_data::build(&x.s, &x.o).ok(),
                    }
                })
            },
            |_, _| true,
        );
        State {
            scenario,
            error,
            shown,
            words,
            charts,
            sglang,
            sglang_current,
            sglang_now,
            lang,
            log: LogState::new(shown, lang),
            typed: RwSignal::new(Typed::default()),
        }
    }
}

/// The language the scenario asks for: its `lang`, else the browser's.
pub fn wanted_lang(s: &PageScenario) -> Lang {
    s.lang.unwrap_or_else(browser::browser_lang)
}

thread_local! {
    static ZH_ASKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Asks the worker for the Chinese texts (once), loads them and calls `done` with whether they
/// loaded. If the worker cannot be reached the page stays in English, and says why on the console.
pub fn load_zh(done: impl FnOnce(bool) + 'static) {
    if ZH_ASKED.with(|a| a.replace(true)) {
        return;
    }
    // (Before the page mounts, so not through Leptos' executor.)
    wasm_bindgen_futures::spawn_local(async move {
        match browser::ask_worker(Request::Texts).await {
            Ok(Answer::Texts(pairs)) if !pairs.is_empty() => {
                i18n::load_zh(pairs);
                done(true);
            }
            other => {
                let e = other
                    .err()
                    .unwrap_or_else(|| kvbudget_core::t!(HO_NO_TEXTS).into());
                leptos::logging::warn!("the Chinese texts did not load: {e}");
                // Asked again the next time Chinese is chosen.
                ZH_ASKED.with(|a| a.set(false));
                done(false);
            }
        }
    });
}

/// Decodes a query with its notices written in the language it asks for (when those texts are
/// loaded).
pub fn decode_in_its_language(query: &str) -> (PageScenario, Vec<Notice>) {
    let wanted = wanted_lang(&decode(query).0);
    if wanted == Lang::En || kvbudget_core::i18n::zh_loaded() {
        kvbudget_core::i18n::set_lang(wanted);
    }
    decode(query)
}
