//! The answer: notices about the URL, the one-line answer bar, and the results panel with its
//! figures, vLLM's lines, the derivations and the serve command.

use super::{browser, dom, embed::EmbedBox, State};
use crate::page;
use kvbudget_core::fixes::fixes;
use kvbudget_core::query::{encode, Notice};
use kvbudget_core::scenario::Engine;
use kvbudget_core::t;
use leptos::prelude::*;

/// URL parameters that were refused, and a scenario that does not evaluate.
#[component]
pub fn Notices(notices: RwSignal<Vec<Notice>>, state: State) -> impl IntoView {
    let items = move || {
        let mut v: Vec<String> = notices
            .get()
            .into_iter()
            .map(|n| t!(rs_url_notice(&n.param, &n.message)))
            .collect();
        if let Some(e) = state.error.get() {
            v.push(t!(rs_invalid_kept(&e)));
        }
        v
    };
    let params = move || {
        notices
            .get()
            .iter()
            .map(|n| n.param.clone())
            .collect::<Vec<_>>()
            .join(",")
    };
    view! {
        <div class="notices" data-testid="notice" data-value=params role="status" hidden=move || items().is_empty()>
            <ul>{move || items().into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ul>
            <button type="button" class="linkish" on:click=move |_| notices.set(Vec::new())>{t!(RS_DISMISS)}</button>
        </div>
    }
}

/// The answer in one line, pinned to the bottom of narrow screens where the results sit below the inputs.
#[component]
pub fn AnswerBar(state: State) -> impl IntoView {
    let answer = Memo::new(move |_| {
        state.shown.with(|x| {
            x.as_ref()
                .map(|x| {
                    state
                        .sglang_now
                        .with(|sg| page::engine_answer(&x.s, &x.o, sg.as_ref()))
                })
                .unwrap_or_default()
        })
    });
    let text = move || answer.get().0;
    let refused = move || answer.get().1;
    view! {
        <p class="answer" class:answer--refused=refused>
            <a href="#results-title">{text}</a>
        </p>
    }
}

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
fn panel_html(state: State) -> (String, String) {
    let (Some(x), Some(words)) = (state.shown.get(), state.words.get()) else {
        let nothing = format!("<p>{}</p>", page::html_escape(t!(RS_ENTER_VALID)));
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
    let sglang_panel = match &sg {
        Some(Some(v)) if !v.stats.is_empty() => page::sglang_panel_html(s, v, busy),
        _ => String::new(),
    };
    // The fix buttons carry their index in this list; the click handler computes the same list.
    let fix_list = if r.refusal.is_some() {
        fixes(s, o)
    } else {
        Vec::new()
    };
    let sg_view = sg.flatten().filter(|_| !busy);
    let top = page::results_top(s, o, &words, &fix_list, sg_view.as_ref(), &lines, busy);
    (top + &sglang_panel, page::results_bottom(o, &words, &serve))
}

/// The results panel: its text is one memo set as HTML (`page::results_top`, `page::results_bottom`),
/// so an edit replaces that text and nothing else; the primer between them and the actions under
/// them are drawn once.
#[component]
pub fn Results(state: State) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let embed_open = RwSignal::new(false);
    let scenario = state.scenario;
    let link = move || browser::url_for(&scenario.with(encode));
    let html = Memo::new(move |_| {
        let _ = state.lang.get();
        panel_html(state)
    });
    let top = Memo::new(move |_| html.with(|h| h.0.clone()));
    let bottom = Memo::new(move |_| html.with(|h| h.1.clone()));
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(i) = browser::clicked_data(&ev, "button[data-fix-index]", "data-fix-index")
            .and_then(|i| i.parse::<usize>().ok())
        else {
            return;
        };
        let change = state.shown.with_untracked(|x| {
            x.as_ref()
                .filter(|x| x.o.chosen.report.refusal.is_some())
                .and_then(|x| fixes(&x.s, &x.o).get(i).map(|f| f.change))
        });
        if let Some(change) = change {
            scenario.update(|s| change.apply(s));
        }
    };
    let nothing = move || state.shown.with(Option::is_none);
    // The action buttons are HTML text (`page::actions_html`), handled here by their `data-action`.
    let on_action = move |ev: leptos::ev::MouseEvent| {
        match browser::clicked_data(&ev, "button[data-action]", "data-action").as_deref() {
            // (Under SGLang the command is the worker's; while it computes there is none yet.)
            Some("copy-command") => match shown_command(state) {
                c if c.is_empty() => copied.set(t!(RS_SGLANG_PENDING).into()),
                c => browser::copy_reporting(t!(RS_COMMAND), c, copied),
            },
            Some("copy-link") => browser::copy_reporting(t!(RS_LINK), link(), copied),
            Some("embed") => {
                embed_open.update(|v| *v = !*v);
                let open = embed_open.get_untracked().to_string();
                dom::set_attr(r#"[data-action="embed"]"#, "aria-expanded", &open);
            }
            Some("use-budget") => scenario.update(|s| s.kv_memory = None),
            _ => {}
        }
    };
    Effect::new(move |prev: Option<bool>| {
        let fixed_memory = scenario.with(|s| s.kv_memory.is_some());
        if prev != Some(fixed_memory) {
            dom::set_block_shown("use-budget", fixed_memory);
        }
        fixed_memory
    });
    view! {
        <section class="results" aria-labelledby="results-title" on:click=on_click>
            <div class="part" inner_html=move || top.get()></div>
            <div class="part" hidden=nothing inner_html=page::primer_html()></div>
            <div class="part" inner_html=move || bottom.get()></div>
            <div class="actions" hidden=nothing on:click=on_action>
                <div class="part" inner_html=page::actions_html()></div>
                <span class="copied" role="status" data-testid="copy-status">{move || copied.get()}</span>
            </div>
            <Show when=move || embed_open.get()>
                <EmbedBox scenario copied/>
            </Show>
        </section>
    }
}
