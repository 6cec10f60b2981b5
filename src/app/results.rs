//! The answer: notices about the URL, the one-line answer bar, and the results panel with its
//! figures, vLLM's lines, the derivations and the serve command.

use super::{browser, embed::EmbedBox, sglang::SglangPanel, State};
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
                        .sglang
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

/// One figure of a panel: its label, its value (with its exact `data-value`) and, when `sub`, the
/// line under it.
pub fn stat(st: page::Stat, sub: bool) -> impl IntoView {
    view! {
        <div class="stat">
            <p class="stat__label">{st.label}</p>
            <p class="stat__value" data-testid=st.testid data-value=st.value>{st.text}</p>
            {sub.then(|| view! { <p class="stat__sub">{st.sub}</p> })}
        </div>
    }
}

/// The results panel.
#[component]
pub fn Results(state: State) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let embed_open = RwSignal::new(false);
    let scenario = state.scenario;
    let link = move || browser::url_for(&scenario.with(encode));
    move || {
        let (Some(x), Some(words)) = (state.shown.get(), state.words.get()) else {
            return view! { <section class="results"><p>{t!(RS_ENTER_VALID)}</p></section> }
                .into_any();
        };
        let (s, o) = (&x.s, &x.o);
        let r = &o.chosen.report;
        // Under SGLang: its figures once the worker has them, a pending line until then.
        let sg = (s.engine == Engine::Sglang).then(|| state.sglang.get());
        let busy = sg.is_some() && !state.sglang_current.get();
        let (lines, serve) = match &sg {
            Some(Some(v)) => (v.lines.clone(), v.command.clone()),
            Some(None) => (
                t!(RS_SGLANG_PENDING).to_string(),
                t!(RS_SGLANG_PENDING).to_string(),
            ),
            None => (page::log_lines(r), words.serve_command.clone()),
        };
        let lines_value = lines.clone();
        let sglang_panel = match sg {
            Some(Some(sg)) if !sg.stats.is_empty() => Some(view! {
                <div class:stale=busy aria-busy=busy.to_string()><SglangPanel s=s.clone() sg/></div>
            }),
            _ => None,
        };
        let (serve_value, serve_copy) = (serve.clone(), serve.clone());
        let error_box = r.refusal.map(|refusal| {
            let fixes = fixes(s, o);
            let none = fixes.is_empty().then(|| view! { <p>{t!(RS_NO_FIX)}</p> });
            view! {
                <div class="refusal" role="alert" data-testid="refusal" data-value=refusal.kind.key()>
                    <p><strong>{t!(RS_WOULD_REFUSE)}</strong>{page::refusal_summary(refusal.kind)}</p>
                    <p class="refusal__error"><code>{r.error_line()}</code></p>
                    <p><strong>{t!(RS_WHAT_MAKES_IT_START)}</strong>{t!(RS_EACH_CHECKED)}</p>
                    {none}
                    <ul class="fixes">
                        {fixes.into_iter().map(|f| {
                            let change = f.change;
                            view! {
                                <li><button type="button" class="fix" data-testid="fix" data-fix=change.key()
                                    on:click=move |_| scenario.update(|s| change.apply(s))>{f.label}</button></li>
                            }
                        }).collect_view()}
                    </ul>
                </div>
            }
        });
        let refused = r.refusal.is_some();
        let spread_note = o.range.map(|_| {
            view! {
                <p class="hint" data-testid="range-note">
                    {t!(RS_RANGE_NOTE)}
                </p>
            }
        });
        let stats = page::stats(s, o).map(|st| stat(st, true));
        let formula_vs_vllm = t!(rs_formula_vs_vllm(
            o.chosen.seed_max,
            r.block_size,
            o.chosen.vllm_max
        ));
        view! {
            <section class="results" aria-labelledby="results-title">
                <h2 id="results-title">{page::results_title(s, o)}</h2>
                <p class="sr-only" aria-live="polite">{state.sglang.with(|sg| page::engine_answer(s, o, sg.as_ref()).0)}</p>
                {error_box}
                {(s.engine == Engine::Sglang).then(|| view! { <h3 data-testid="stats-engine">{page::vllm_stats_heading(s)}</h3> })}
                <div class="stats">{stats.into_iter().collect_view()}</div>
                {spread_note}
                <ul class="warnings">{words.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}</ul>
                <h3 data-testid="lines-heading">{page::lines_heading(s)}</h3>
                <pre class="log" class:stale=busy data-testid="vllm-lines" data-value=lines_value>{lines}</pre>
                {sglang_panel}
                <details class="primer">
                    <summary>{t!(RS_PRIMER_TITLE)}</summary>
                    {page::primer().into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
                </details>
                <h3>{t!(RS_HOW)}</h3>
                <dl class="derivation" data-testid="derivations">
                    {words.derivations.iter().map(|(k, v)| {
                        let label = kvbudget_core::i18n::tr(k);
                        let term = match page::definition(k) {
                            Some(d) => view! { <span class="term" tabindex="0" title=d>{label}</span> }.into_any(),
                            None => view! { <span>{label}</span> }.into_any(),
                        };
                        view! { <dt>{term}</dt><dd>{v.clone()}</dd> }
                    }).collect_view()}
                    <dt>{t!(RS_FORMULA_VS_VLLM)}</dt>
                    <dd>{formula_vs_vllm}</dd>
                </dl>
                <h3>{t!(RS_SERVE_IT)}</h3>
                {refused.then(|| view! { <p class="hint">{t!(RS_REFUSED_COMMAND)}</p> })}
                <pre class="cmd" data-testid="serve-command" data-value=serve_value>{serve}</pre>
                <div class="actions">
                    <button type="button" on:click=move |_| browser::copy_reporting(t!(RS_COMMAND), serve_copy.clone(), copied)>{t!(RS_COPY_COMMAND)}</button>
                    <button type="button" data-testid="copy-link" on:click=move |_| browser::copy_reporting(t!(RS_LINK), link(), copied)>{t!(RS_COPY_LINK)}</button>
                    <button type="button" aria-expanded=move || embed_open.get().to_string() on:click=move |_| embed_open.update(|v| *v = !*v)>{t!(RS_EMBED)}</button>
                    <Show when=move || scenario.with(|s| s.kv_memory.is_some())>
                        <button type="button" data-testid="use-budget" on:click=move |_| scenario.update(|s| s.kv_memory = None)>
                            {t!(RS_USE_BUDGET)}
                        </button>
                    </Show>
                    <span class="copied" role="status" data-testid="copy-status">{move || copied.get()}</span>
                </div>
                <Show when=move || embed_open.get()>
                    <EmbedBox scenario copied/>
                </Show>
            </section>
        }
        .into_any()
    }
}
