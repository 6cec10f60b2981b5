//! The answer: notices about the URL, the one-line answer bar, and the results panel with its
//! figures, vLLM's lines, the derivations and the serve command (all HTML text: `page::results_*`).

use super::asks::{apply_button, Asked};
use super::parts::{part, shown_while, Ui};
use super::{browser, dom, State};
use crate::page::{self, html_escape as esc};
use kvbudget_core::handoff::{Answer, Request};
use kvbudget_core::query::encode;
use kvbudget_core::scenario::Engine;
use kvbudget_core::t;
use leptos::prelude::*;

/// The serve command the results show: SGLang's once the worker has it for this scenario,
/// else vLLM's (empty while there is none).
fn shown_command(state: State) -> String {
    state.shown.with_untracked(|x| match x {
        Some(x) if x.s.engine == Engine::Sglang => state
            .sglang_now
            .with_untracked(|v| v.as_ref().map(|v| v.command.clone()))
            .unwrap_or_default(),
        _ => state
            .words
            .with_untracked(|w| w.as_ref().map(|w| w.serve_command.clone()))
            .unwrap_or_default(),
    })
}

/// The results panel as HTML text, above and below the primer: everything but the primer and the
/// action buttons, which stay put.
fn panel_html(state: State, fixes: Asked) -> (String, String) {
    let (Some(x), Some(words)) = (state.shown.get(), state.words.get()) else {
        let nothing = format!("<p>{}</p>", esc(t!(RS_ENTER_VALID)));
        return (nothing, String::new());
    };
    let (s, o) = (&x.s, &x.o);
    let r = &o.chosen.report;
    // Under SGLang: its figures once the worker has them, a pending line until then.
    let sg = (s.engine == Engine::Sglang).then(|| state.sglang.get());
    let busy = sg.is_some() && !state.sglang_current.get();
    let (lines, serve) = match &sg {
        // The lines of an older scenario stay, dimmed; its command is not offered as this one's.
        Some(Some(v)) if busy => (v.lines.clone(), t!(RS_SGLANG_PENDING).to_string()),
        Some(Some(v)) => (v.lines.clone(), v.command.clone()),
        Some(None) => (
            t!(RS_SGLANG_PENDING).to_string(),
            t!(RS_SGLANG_PENDING).to_string(),
        ),
        None => (page::log_lines(r), words.serve_command.clone()),
    };
    // (SGLang's panel, from the worker's figures; an older one is shown dimmed.)
    let sglang_panel = match &sg {
        Some(Some(v)) if v.stats.is_empty() => String::new(),
        Some(Some(v)) if busy => page::dimmed(&page::sglang_panel_html(v)),
        Some(Some(v)) => page::sglang_panel_html(v),
        _ => String::new(),
    };
    // A refusal's fixes, each checked by the worker (the first load carries no fix search).
    let fix_list = match fixes.now() {
        _ if r.refusal.is_none() => String::new(),
        Some(Ok(Answer::Fixes(fixes))) => page::fixes_html(&fixes),
        Some(Ok(_)) => String::new(),
        Some(Err(e)) => format!("<p>{}</p>", esc(&e)),
        None => format!(r#"<p class="hint">{}</p>"#, esc(t!(RS_CHECKING_FIXES))),
    };
    let sg_view = sg.flatten().filter(|_| !busy);
    let top = page::results_top(s, o, &words, &fix_list, sg_view.as_ref(), &lines, busy);
    (top + &sglang_panel, page::results_bottom(o, &words, &serve))
}

/// URL parameters that were refused, and a scenario that does not evaluate.
fn notices_html(state: State, ui: Ui) -> String {
    let (mut items, params) = ui.notices.with(|n| {
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
    format!(
        r#"<div class="notices" data-testid="notice" data-value="{}" role="status"{}><ul>{}</ul><button type="button" class="linkish" data-action="dismiss">{}</button></div>"#,
        esc(&params),
        if items.is_empty() { " hidden" } else { "" },
        page::list_items_html(&items),
        esc(t!(RS_DISMISS))
    )
}

/// The URL's refused parameters and a scenario that does not evaluate, on the full page and in
/// an embedded view alike.
pub fn notices(state: State, ui: Ui) {
    part("p-notices", Box::new(move || notices_html(state, ui)));
}

/// The answer in one line, pinned to the bottom of narrow screens where the results sit below
/// the inputs.
fn answer_html(state: State) -> String {
    let (text, refused) = state.shown.with(|x| {
        x.as_ref()
            .map(|x| {
                state
                    .sglang_now
                    .with(|sg| page::engine_answer(&x.s, &x.o, sg.as_ref()))
            })
            .unwrap_or_default()
    });
    page::answer_bar_html(&text, refused)
}

/// The notices, the answer bar and the results panel: its text is one memo written as HTML
/// (`page::results_top`, `page::results_bottom`), so an edit replaces that text and nothing else;
/// the primer between them and the actions under them are drawn once.
pub fn parts(state: State, ui: Ui) {
    notices(state, ui);
    part("p-answer", Box::new(move || answer_html(state)));
    let fixes = Asked::new(
        state.lang,
        Box::new(move || {
            state.shown.with(|x| {
                x.as_ref()
                    .filter(|x| x.o.chosen.report.refusal.is_some())
                    .map(|x| Request::Fixes {
                        query: kvbudget_core::query::encode(&x.s),
                    })
            })
        }),
    );
    let html = Memo::new(move |_| {
        let _ = state.lang.get();
        panel_html(state, fixes)
    });
    part("p-top", Box::new(move || html.with(|h| h.0.clone())));
    let something = move || state.shown.with(Option::is_some);
    part(
        "p-primer",
        Box::new(move || {
            if something() {
                page::primer_html()
            } else {
                String::new()
            }
        }),
    );
    part("p-bottom", Box::new(move || html.with(|h| h.1.clone())));
    shown_while("actions", Box::new(something));
    let scenario = state.scenario;
    shown_while(
        "use-budget",
        Box::new(move || scenario.with(|s| s.kv_memory.is_some())),
    );
    part("copy-status", Box::new(move || esc(&ui.copied.get())));
}

/// A refusal's fix (`data-fix-index`). Returns whether the click was one.
pub fn click(state: State, ui: Ui, ev: &leptos::ev::MouseEvent) -> bool {
    // (The worker lists the fixes of the scenario shown the same way.)
    let Some(i) = browser::clicked_data(ev, "button[data-fix-index]", "data-fix-index") else {
        return false;
    };
    let Ok(index) = i.parse::<usize>() else {
        return true;
    };
    apply_button(state, ui, |shown, target| Request::FixApply {
        index,
        shown,
        target,
    });
    true
}

/// The results' actions and the notices' dismissal (a button's `data-action`). Returns whether
/// the action was theirs.
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
        "dismiss" => ui.notices.set(Vec::new()),
        _ => return false,
    }
    true
}
