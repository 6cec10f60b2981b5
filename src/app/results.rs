//! The answer: notices about the URL, the one-line answer bar, and the results panel with its
//! figures, vLLM's lines, the derivations and the serve command (components: `crate::view`), and
//! the results' actions.

use super::asks::{apply_button, Asked};
use super::parts::{shown_while, watch, Ui};
use super::{browser, dom, views, State};
use crate::page;
use crate::view::{AnswerBar, Notices, Primer, ResultsBottom, ResultsTop};
use kvbudget_core::handoff::{Answer, Request};
use kvbudget_core::query::{encode, Notice};
use kvbudget_core::scenario::Engine;
use kvbudget_core::t;
use leptos::prelude::*;

/// The serve command the results show: SGLang's once the worker has it for this scenario,
/// else vLLM's (empty while there is none).
fn shown_command(state: State) -> String {
    state.shown.with_untracked(|x| match x {
        Some(x) if x.s.engine == Engine::Sglang => state
            .sglang_now
            .with_untracked(|v| v.as_ref().map(|v| v.engine.command.clone()))
            .unwrap_or_default(),
        _ => state
            .words
            .with_untracked(|w| w.as_ref().map(|w| w.serve_command.clone()))
            .unwrap_or_default(),
    })
}

/// The results' fixes as the worker answered (a refusal's fixes are searched on first use).
fn fixes_now(fixes: Asked) -> page::Fixes {
    match fixes.now() {
        None => page::Fixes::Checking,
        Some(Ok(Answer::Fixes(found))) => page::Fixes::Found(found),
        Some(Ok(_)) => page::Fixes::Failed(t!(HO_UNREADABLE).into()),
        Some(Err(e)) => page::Fixes::Failed(e),
    }
}

/// The results' view data: the top (`page::top_view`) and the bottom (`page::bottom_view`) of the
/// scenario shown, with SGLang's figures while it is the engine.
fn views(
    state: State,
    fixes: Asked,
) -> (Memo<Option<page::TopView>>, Memo<Option<page::BottomView>>) {
    // The chosen engine's view as the results read it (SGLang's, through the seam), and whether
    // it is current.
    let sg = move |f: &mut dyn FnMut(page::EngineNow<'_>)| {
        let sglang = state.shown.with(|x| x.as_ref().map(|x| x.s.engine)) == Some(Engine::Sglang);
        if !sglang {
            return f(None);
        }
        let current = state.sglang_current.get();
        state
            .sglang
            .with(|v| f(Some((v.as_ref().map(|v| &v.engine), current))));
    };
    // SGLang's comparison with vLLM, beside its figures.
    let panel = move || {
        state.sglang.with(|v| {
            v.clone().map(|view| page::SglangPanel {
                view,
                stale: !state.sglang_current.get(),
            })
        })
    };
    let top = Memo::new(move |_| {
        let _ = state.lang.get();
        // (Asked only for a refusal.)
        let refused = state.shown.with(|x| {
            x.as_ref()
                .is_some_and(|x| x.o.chosen.report.refusal.is_some())
        });
        let fixes = if refused {
            fixes_now(fixes)
        } else {
            page::Fixes::Checking
        };
        let mut out = None;
        sg(&mut |now| {
            out = state.shown.with(|x| {
                let x = x.as_ref()?;
                state.words.with(|w| {
                    Some(page::top_view(
                        &x.s,
                        &x.o,
                        w.as_ref()?,
                        fixes.clone(),
                        now,
                        panel(),
                    ))
                })
            })
        });
        out
    });
    let bottom = Memo::new(move |_| {
        let _ = state.lang.get();
        let mut out = None;
        sg(&mut |now| {
            out = state.shown.with(|x| {
                let x = x.as_ref()?;
                state.words.with(|w| {
                    let w = w.as_ref()?;
                    Some(page::bottom_view(&x.o, w, now))
                })
            })
        });
        out
    });
    (top, bottom)
}

/// URL parameters that were refused, and a scenario that does not evaluate: the parameters'
/// names and every notice in words.
fn notices_now(state: State, notices: RwSignal<Vec<Notice>>) -> (String, Vec<String>) {
    let _ = state.lang.get();
    let (mut items, params) = notices.with(|n| {
        let items: Vec<String> = n
            .iter()
            .map(|n| t!(rs_url_notice(&n.param, &n.message)))
            .collect();
        let params: Vec<&str> = n.iter().map(|n| n.param.as_str()).collect();
        (items, params.join(","))
    });
    // (Only a scenario shown before can be "kept"; before any, the error alone.)
    if let Some(e) = state.error.get() {
        items.push(match state.shown.with(Option::is_some) {
            true => t!(rs_invalid_kept(&e)),
            false => e,
        });
    }
    (params, items)
}

/// Mounts the notices (on the full page and in an embedded view alike).
pub fn mount_notices(state: State, notices: RwSignal<Vec<Notice>>) {
    let now = Memo::new(move |_| notices_now(state, notices));
    let on_dismiss = Callback::new(move |()| notices.set(Vec::new()));
    views::mount(
        "p-notices",
        move || view! { <Notices notices=now on_dismiss /> },
    );
}

/// Mounts the answer bar and the results panel's components: its top, the primer, its bottom.
/// A fix chosen is applied by the worker; why it could not goes to the status line (`copied`).
pub fn mount(state: State, notices: RwSignal<Vec<Notice>>, copied: RwSignal<String>) {
    mount_notices(state, notices);
    let answer = Memo::new(move |_| {
        state.shown.with(|x| {
            x.as_ref()
                .map(|x| {
                    state
                        .sglang_now
                        .with(|sg| page::engine_answer(&x.s, &x.o, sg.as_ref().map(|v| &v.engine)))
                })
                .unwrap_or_default()
        })
    });
    views::mount("p-answer", move || view! { <AnswerBar answer /> });
    let fixes = Asked::new(
        state.lang,
        Box::new(move || {
            state.shown.with(|x| {
                // (vLLM's refusal, not shown under SGLang.)
                x.as_ref()
                    .filter(|x| x.s.engine == Engine::Vllm)
                    .filter(|x| x.o.chosen.report.refusal.is_some())
                    .map(|x| Request::Fixes {
                        query: kvbudget_core::query::encode(&x.s),
                    })
            })
        }),
    );
    let (top, bottom) = views(state, fixes);
    let on_fix = Callback::new(move |index| {
        apply_button(state, copied, |shown, target| Request::FixApply {
            index,
            shown,
            target,
        })
    });
    views::mount("p-top", move || view! { <ResultsTop top on_fix /> });
    let something = Memo::new(move |_| state.shown.with(Option::is_some));
    views::mount("p-primer", move || {
        move || something.get().then(|| view! { <Primer /> })
    });
    views::mount("p-bottom", move || view! { <ResultsBottom bottom /> });
}

/// The results' actions (shown once there is an answer) and their status line.
pub fn parts(state: State, ui: Ui) {
    let something = move || state.shown.with(Option::is_some);
    shown_while("actions", Box::new(something));
    let scenario = state.scenario;
    shown_while(
        "use-budget",
        Box::new(move || scenario.with(|s| s.kv_memory.is_some())),
    );
    watch(
        "copy-status".into(),
        Box::new(move || ui.copied.get()),
        dom::set_text,
    );
}

/// The results' actions (a button's `data-action`). Returns whether the action was theirs.
pub fn action(state: State, ui: Ui, action: &str) -> bool {
    let scenario = state.scenario;
    match action {
        // (Under SGLang the command is the worker's; while it computes there is none yet.)
        "copy-command" => match shown_command(state) {
            c if c.is_empty() => ui.copied.set(t!(RS_SGLANG_PENDING).into()),
            c => browser::copy_reporting(t!(RS_COMMAND), c, ui.copied),
        },
        "copy-link" => {
            let link = browser::url_for(&scenario.with_untracked(encode));
            browser::copy_reporting(t!(RS_LINK), link, ui.copied);
        }
        "embed" => {
            ui.embed_open.update(|v| *v = !*v);
            let open = ui.embed_open.get_untracked().to_string();
            dom::set_attr(r#"[data-action="embed"]"#, "aria-expanded", &open);
        }
        "use-budget" => scenario.update(|s| s.kv_memory = None),
        _ => return false,
    }
    true
}
