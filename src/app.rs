//! The page (wasm32 only): a thin Leptos view over the core. State is one `PageScenario`; every
//! number is a memo over `calc::evaluate`; effects only write the URL.

mod browser;
mod field;
mod import;
mod verify;

use crate::charts;
use field::Field;
use kvbudget_core::calc::{evaluate, kv_label, Outcome};
use kvbudget_core::capacity::Overhead;
use kvbudget_core::model::KvDtype;
use kvbudget_core::presets::{self, GPUS, MODELS};
use kvbudget_core::query::{
    self, decode, encode, CustomModel, Embed, GpuChoice, ModelChoice, Notice, PageScenario,
};
use kvbudget_core::repertoire;
use kvbudget_core::units::{fixed2, thousands, Bytes, GIB};
use kvbudget_core::vllm::{self, Version};
use kvbudget_core::KvError;
use leptos::prelude::*;
use std::time::Duration;

/// Mounts the page on `<body>`.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}

/// On a panic, after logging it to the console, shows a banner with a link that reloads the page
/// with the default scenario, instead of leaving a page that silently stopped responding.
pub fn install_panic_banner() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        browser::show_panic_banner();
    }));
}

type Scn = RwSignal<PageScenario>;

/// A commit callback for a field: parse, apply to the scenario, or return the message.
fn committer<T: 'static>(
    scenario: Scn,
    parse: impl Fn(&str) -> Result<T, KvError> + Send + Sync + 'static,
    apply: impl Fn(&mut PageScenario, T) + Send + Sync + 'static,
) -> Callback<String, Option<String>> {
    Callback::new(move |text: String| match parse(&text) {
        Ok(v) => {
            scenario.update(|s| apply(s, v));
            None
        }
        Err(e) => Some(e.to_string()),
    })
}

/// Like [`committer`], with an empty field meaning "the default" (None).
fn optional<T: 'static>(
    scenario: Scn,
    parse: impl Fn(&str) -> Result<T, KvError> + Send + Sync + 'static,
    apply: impl Fn(&mut PageScenario, Option<T>) + Send + Sync + 'static,
) -> Callback<String, Option<String>> {
    committer(
        scenario,
        move |t| {
            if t.trim().is_empty() {
                Ok(None)
            } else {
                parse(t).map(Some)
            }
        },
        apply,
    )
}

fn custom_mut(s: &mut PageScenario) -> Option<&mut CustomModel> {
    match &mut s.model {
        ModelChoice::Custom(c) => Some(c),
        _ => None,
    }
}

/// The calculator.
#[component]
pub fn App() -> impl IntoView {
    #[cfg(feature = "panic-test")]
    if browser::search().contains("panic_test=1") {
        panic!("panic-test: a deliberate panic to test the error banner");
    }
    let (initial, initial_notices) = decode(&browser::search());
    let scenario: Scn = RwSignal::new(initial);
    let notices = RwSignal::new(initial_notices);

    let result = Memo::new(move |_| scenario.with(evaluate).map_err(|e| e.to_string()));
    // The last scenario that evaluated stays on screen while an edit is refused.
    let shown = Memo::new(move |prev: Option<&Option<Outcome>>| match result.get() {
        Ok(o) => Some(o),
        Err(_) => prev.cloned().flatten(),
    });

    // URL: the first write after a committed state adds a history entry, later keystrokes replace it.
    let fresh_entry = StoredValue::new(true);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let q = scenario.with(encode);
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        set_timeout(
            move || {
                if generation.get_value() != mine || browser::search().trim_start_matches('?') == q
                {
                    return;
                }
                if fresh_entry.get_value() {
                    browser::push(&q);
                    fresh_entry.set_value(false);
                } else {
                    browser::replace(&q);
                }
            },
            Duration::from_millis(250),
        );
    });
    let commit_point = move |_| fresh_entry.set_value(true);
    let _popstate = window_event_listener(leptos::ev::popstate, move |_| {
        let (s, n) = decode(&browser::search());
        fresh_entry.set_value(true);
        scenario.set(s);
        notices.set(n);
    });

    let embed = move || scenario.with(|s| s.embed);
    view! {
        <Show
            when=move || embed() == Embed::Full
            fallback=move || view! { <EmbedView scenario shown/> }
        >
            <header class="top">
                <h1>"kvbudget"</h1>
                <p class="lede">
                    "How many sequences of what context fit next to these weights on this GPU — and what vLLM prints at startup."
                </p>
            </header>
            <Notices notices result/>
            <AnswerBar scenario shown/>
            <main class="layout">
                <form class="inputs" on:change=commit_point on:submit=|ev| ev.prevent_default() aria-label="Scenario">
                    <Inputs scenario shown/>
                </form>
                <div class="outputs">
                    <Results scenario shown/>
                    <verify::VerifyLog scenario shown/>
                    <Charts shown which=None/>
                    <Repertoire scenario/>
                </div>
            </main>
            <footer class="foot">
                <p>
                    "Exact integer arithmetic, computed in your browser; vLLM's accounting per version. "
                    "The non-KV overhead is estimated from the model and settings (calibrated on published vLLM logs), "
                    "or the course lab's single figure if you give one."
                </p>
            </footer>
        </Show>
    }
}

/// The answer in one line, pinned to the bottom of narrow screens where the results sit below the inputs.
#[component]
fn AnswerBar(scenario: Scn, shown: Memo<Option<Outcome>>) -> impl IntoView {
    let text = move || {
        shown.with(|o| {
            o.as_ref()
                .map(|o| {
                    let s = scenario.get();
                    let fit = if o.chosen.report.error.is_some() {
                        "vLLM would not start".to_string()
                    } else {
                        format!(
                            "{} of {} tokens fit",
                            kvbudget_core::calc::plural(o.chosen.capped, "sequence"),
                            thousands(o.context)
                        )
                    };
                    format!(
                        "{fit} · {} · {} KV · {}",
                        s.model.name(),
                        s.kv.name(),
                        s.gpu.name()
                    )
                })
                .unwrap_or_default()
        })
    };
    view! {
        <p class="answer">
            <a href="#results-title">{text}</a>
        </p>
    }
}

#[component]
fn Notices(notices: RwSignal<Vec<Notice>>, result: Memo<Result<Outcome, String>>) -> impl IntoView {
    let items = move || {
        let mut v: Vec<String> = notices
            .get()
            .into_iter()
            .map(|n| format!("URL parameter “{}”: {}", n.param, n.message))
            .collect();
        if let Err(e) = result.get() {
            v.push(format!("{e} — the last valid scenario is still shown."));
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
            <button type="button" class="linkish" on:click=move |_| notices.set(Vec::new())>"Dismiss"</button>
        </div>
    }
}

#[component]
fn Inputs(scenario: Scn, shown: Memo<Option<Outcome>>) -> impl IntoView {
    let s = move || scenario.get();
    let is_custom_model = move || scenario.with(|s| matches!(s.model, ModelChoice::Custom(_)));
    let is_custom_gpu = move || scenario.with(|s| matches!(s.gpu, GpuChoice::Custom { .. }));
    let weights_in_gb = RwSignal::new(false);

    let model_options = MODELS
        .iter()
        .map(|m| {
            let attn = match m.attention {
                kvbudget_core::Attention::Mla { latent } => format!("MLA {latent}"),
                _ => format!("{} KV heads × {}", m.kv_heads, m.head_dim),
            };
            let label = format!(
                "{} — {attn}, {} GiB weights",
                m.id,
                fixed2(m.weights.as_gib())
            );
            view! { <option value=m.id>{label}</option> }
        })
        .collect_view();
    let gpu_options = GPUS
        .iter()
        .map(|g| {
            let label = format!(
                "{} — {} GB ({} GiB to vLLM), {} GB/s",
                g.name,
                g.marketed_gb,
                fixed2(g.total.as_gib()),
                thousands(g.bandwidth_gbs)
            );
            view! { <option value=g.slug>{label}</option> }
        })
        .collect_view();
    let kv_options = KvDtype::ALL
        .iter()
        .filter(|k| **k != KvDtype::Float32)
        .map(|&k| view! { <option value=k.name()>{k.name()}</option> })
        .collect_view();
    let version_options = query::versions()
        .into_iter()
        .rev()
        .map(|v| {
            let label = if v == vllm::NEWEST {
                format!("{v} (newest known)")
            } else if v < Version::new(0, 8) {
                format!("{v} (V0 engine)")
            } else {
                v.to_string()
            };
            view! { <option value=v.to_string()>{label}</option> }
        })
        .collect_view();

    let model_value = move || {
        scenario.with(|s| match &s.model {
            ModelChoice::Preset(p) => p.id.to_string(),
            ModelChoice::Custom(_) => "custom".to_string(),
        })
    };
    let gpu_value = move || {
        scenario.with(|s| match &s.gpu {
            GpuChoice::Preset(g) => g.slug.to_string(),
            GpuChoice::Custom { .. } => "custom".to_string(),
        })
    };
    let on_model = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| {
            s.model = match presets::model(&v) {
                Some(p) => ModelChoice::Preset(p),
                None => match &s.model {
                    ModelChoice::Custom(c) => ModelChoice::Custom(c.clone()),
                    ModelChoice::Preset(p) => ModelChoice::Custom(CustomModel {
                        name: format!("{} (edited)", p.id),
                        ..CustomModel::from_spec(&p.spec())
                    }),
                },
            }
        });
    };
    let on_gpu = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| {
            s.gpu = match presets::gpu(&v) {
                Some(g) => GpuChoice::Preset(g),
                None => GpuChoice::Custom {
                    total: s.gpu.total(),
                    bw_gbs: s.gpu.bandwidth_gbs(),
                },
            }
        });
    };
    let on_kv = move |ev| {
        if let Ok(k) = KvDtype::parse(&event_target_value(&ev)) {
            scenario.update(|s| s.kv = k);
        }
    };
    let on_version = move |ev| {
        if let Ok(v) = Version::parse(&event_target_value(&ev)) {
            scenario.update(|s| s.version = v);
        }
    };

    let custom = move |f: fn(&CustomModel) -> String| {
        Signal::derive(move || {
            scenario.with(|s| match &s.model {
                ModelChoice::Custom(c) => f(c),
                _ => String::new(),
            })
        })
    };
    let custom_summary = move || {
        scenario.with(|s| match &s.model {
            ModelChoice::Custom(c) => {
                let attention = match c.attention {
                    kvbudget_core::Attention::Full => "full attention".to_string(),
                    kvbudget_core::Attention::SlidingWindow {
                        window,
                        sliding_layers,
                    } => {
                        format!(
                            "sliding window {} on {sliding_layers} of {} layers",
                            thousands(window),
                            c.layers
                        )
                    }
                    kvbudget_core::Attention::Mla { latent } => format!("MLA latent {latent}"),
                };
                let vocab = if c.vocab > 0 {
                    format!("vocab {}", thousands(c.vocab))
                } else {
                    "vocab unknown".into()
                };
                let len = if c.max_position > 0 {
                    format!("; default max_model_len {}", thousands(c.max_position))
                } else {
                    String::new()
                };
                format!("{attention}; {}; {vocab}{len}", c.dtype.name())
            }
            _ => String::new(),
        })
    };
    let weights_value = Signal::derive(move || {
        scenario.with(|s| match &s.model {
            ModelChoice::Custom(c) if weights_in_gb.get() => format!("{:.2}", c.weights.as_gb()),
            ModelChoice::Custom(c) => fixed2(c.weights.as_gib()),
            _ => String::new(),
        })
    });
    let weights_commit = Callback::new(move |t: String| {
        let parsed = if weights_in_gb.get_untracked() {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|g| g.is_finite() && (0.0..=4398.0).contains(g))
                .and_then(Bytes::from_gb_f64)
                .ok_or_else(|| "weights must be a number of GB from 0 to 4,398".to_string())
        } else {
            query::parse_weights_gib(&t).map_err(|e| e.to_string())
        };
        match parsed {
            Ok(b) => {
                scenario.update(|s| {
                    if let Some(c) = custom_mut(s) {
                        c.weights = b
                    }
                });
                None
            }
            Err(e) => Some(e),
        }
    });
    let gpu_total_value = Signal::derive(move || scenario.with(|s| fixed2(s.gpu.total().as_gib())));
    let gpu_bw_value =
        Signal::derive(move || scenario.with(|s| format!("{}", s.gpu.bandwidth_gbs())));
    let gpu_seen = move || {
        scenario.with(|s| match &s.gpu {
            GpuChoice::Preset(g) => format!(
                "Marketed {} GB; vLLM sees {} GiB ({} B); {} GB/s.",
                g.marketed_gb,
                fixed2(g.total.as_gib()),
                thousands(g.total.0),
                thousands(g.bandwidth_gbs)
            ),
            GpuChoice::Custom { total, bw_gbs } => format!(
                "vLLM sees {} GiB ({} B); {bw_gbs} GB/s.",
                fixed2(total.as_gib()),
                thousands(total.0)
            ),
        })
    };
    // From the evaluation already on screen, not a second one.
    let overhead_placeholder = Signal::derive(move || {
        shown.with(
            |o| match o.as_ref().and_then(|o| o.chosen.report.overhead) {
                Some(e) => format!(
                    "estimate: {} GiB ± {}",
                    fixed2(e.subtracted().as_gib()),
                    fixed2(e.spread.as_gib())
                ),
                None => "estimate".into(),
            },
        )
    });
    let util_placeholder = Signal::derive(move || {
        scenario.with(|s| format!("{} (vLLM {} default)", s.version.default_util(), s.version))
    });
    let seqs_placeholder =
        Signal::derive(move || scenario.with(|s| format!("{} (vLLM default here)", s.seqs())));

    view! {
        <fieldset>
            <legend>"Model"</legend>
            <div class="field">
                <label for="model">"Model"</label>
                <select id="model" on:change=on_model prop:value=model_value>
                    {model_options}
                    <option value="custom">"Custom geometry…"</option>
                </select>
            </div>
            <import::ImportConfig scenario/>
            <Show when=is_custom_model>
                <div class="custom">
                    <Field id="name" label="Name" inputmode="text" value=custom(|c| c.name.clone())
                        commit=committer(scenario, query::parse_name, |s, v| if let Some(c) = custom_mut(s) { c.name = v })/>
                    <Field id="layers" label="Layers" inputmode="numeric" value=custom(|c| c.layers.to_string())
                        commit=committer(scenario, |t| query::parse_dim("layers", t), |s, v| if let Some(c) = custom_mut(s) { c.layers = v })/>
                    <Field id="heads" label="Attention heads" inputmode="numeric" value=custom(|c| c.heads.to_string())
                        commit=committer(scenario, |t| query::parse_dim("attention heads", t), |s, v| if let Some(c) = custom_mut(s) { c.heads = v })/>
                    <Field id="kv_heads" label="KV heads" inputmode="numeric" value=custom(|c| c.kv_heads.to_string())
                        commit=committer(scenario, |t| query::parse_dim("KV heads", t), |s, v| if let Some(c) = custom_mut(s) { c.kv_heads = v })/>
                    <Field id="head_dim" label="head_dim" inputmode="numeric" value=custom(|c| c.head_dim.to_string())
                        commit=committer(scenario, |t| query::parse_dim("head_dim", t), |s, v| if let Some(c) = custom_mut(s) { c.head_dim = v })/>
                    <p class="hint" data-testid="custom-geometry">{custom_summary}</p>
                    <div class="field-row">
                        <Field id="weights" label="Weights" value=weights_value commit=weights_commit/>
                        <div class="field">
                            <label for="weights-unit">"Unit"</label>
                            <select id="weights-unit" on:change=move |ev| weights_in_gb.set(event_target_value(&ev) == "GB")>
                                <option value="GiB" selected=move || !weights_in_gb.get()>"GiB (2³⁰ B)"</option>
                                <option value="GB" selected=move || weights_in_gb.get()>"GB (10⁹ B)"</option>
                            </select>
                        </div>
                    </div>
                </div>
            </Show>
            <div class="field">
                <label for="kv">"KV cache dtype"</label>
                <select id="kv" on:change=on_kv prop:value=move || scenario.with(|s| s.kv.name())>{kv_options}</select>
            </div>
        </fieldset>
        <fieldset>
            <legend>"GPU"</legend>
            <div class="field">
                <label for="gpu">"GPU"</label>
                <select id="gpu" on:change=on_gpu prop:value=gpu_value>
                    {gpu_options}
                    <option value="custom">"Custom…"</option>
                </select>
                <p class="hint" data-testid="gpu-seen">{gpu_seen}</p>
            </div>
            <Show when=is_custom_gpu>
                <div class="custom">
                    <Field id="gpu_gib" label="Memory as vLLM sees it" hint="GiB" value=gpu_total_value
                        commit=committer(scenario, query::parse_gpu_gib, |s, v| if let GpuChoice::Custom { total, .. } = &mut s.gpu { *total = v })/>
                    <Field id="bw_gbs" label="Bandwidth" hint="GB/s" value=gpu_bw_value
                        commit=committer(scenario, query::parse_bw, |s, v| if let GpuChoice::Custom { bw_gbs, .. } = &mut s.gpu { *bw_gbs = v })/>
                </div>
            </Show>
            <Field id="tp" label="Tensor-parallel size" inputmode="numeric" value=Signal::derive(move || s().tp.to_string())
                commit=committer(scenario, query::parse_tp, |s, v| s.tp = v)/>
        </fieldset>
        <fieldset>
            <legend>"vLLM"</legend>
            <div class="field">
                <label for="vllm">"vLLM version"</label>
                <select id="vllm" on:change=on_version prop:value=move || scenario.with(|s| s.version.to_string())>{version_options}</select>
            </div>
            <Field id="util" label="gpu_memory_utilization" hint="0–1; empty: the version's default"
                value=Signal::derive(move || s().util.map(|u| u.to_string()).unwrap_or_default()) placeholder=util_placeholder
                commit=optional(scenario, query::parse_util, |s, v| s.util = v)/>
            <Field id="ctx" label="max_model_len" hint="tokens" inputmode="numeric" value=Signal::derive(move || s().ctx.to_string())
                commit=committer(scenario, query::parse_ctx, |s, v| s.ctx = v)/>
            <Field id="seqs" label="max_num_seqs" hint="empty: vLLM's default" inputmode="numeric"
                value=Signal::derive(move || s().seqs.map(|n| n.to_string()).unwrap_or_default()) placeholder=seqs_placeholder
                commit=optional(scenario, query::parse_seqs, |s, v| s.seqs = v)/>
            <Field id="overhead" label="Overhead besides weights" hint="GiB; empty: kvbudget's estimate"
                value=Signal::derive(move || s().overhead.map(|o| fixed2(o.as_gib())).unwrap_or_default())
                placeholder=overhead_placeholder
                commit=optional(scenario, query::parse_overhead, |s, v| s.overhead = v)/>
            <p class="hint">
                <button type="button" class="linkish" data-testid="overhead-seed"
                    on:click=move |_| scenario.update(|s| s.overhead = Some(Bytes::gib(1)))>
                    "Use the course lab's 1 GiB"
                </button>
                " · "
                <button type="button" class="linkish" data-testid="overhead-estimate"
                    on:click=move |_| scenario.update(|s| s.overhead = None)>
                    "Use kvbudget's estimate"
                </button>
            </p>
        </fieldset>
        <fieldset>
            <legend>"Requests"</legend>
            <p class="hint">"Each sequence holds its prompt plus its reasoning trace; empty: max_model_len."</p>
            <Field id="prompt" label="Prompt tokens" inputmode="numeric"
                value=Signal::derive(move || s().prompt.map(|n| n.to_string()).unwrap_or_default())
                commit=optional(scenario, query::parse_prompt, |s, v| s.prompt = v)/>
            <Field id="trace" label="Reasoning-trace tokens" inputmode="numeric"
                value=Signal::derive(move || s().trace.map(|n| n.to_string()).unwrap_or_default())
                commit=optional(scenario, query::parse_trace, |s, v| s.trace = v)/>
        </fieldset>
        <button type="button" class="linkish" on:click=move |_| scenario.set(PageScenario::default())>"Reset to defaults"</button>
    }
}

fn big(
    label: &'static str,
    testid: &'static str,
    value: String,
    text: String,
    sub: String,
) -> impl IntoView {
    view! {
        <div class="stat">
            <p class="stat__label">{label}</p>
            <p class="stat__value" data-testid=testid data-value=value>{text}</p>
            <p class="stat__sub">{sub}</p>
        </div>
    }
}

#[component]
fn Results(scenario: Scn, shown: Memo<Option<Outcome>>) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let embed_open = RwSignal::new(false);
    let copy = move |what: &'static str, text: String| {
        browser::copy(&text, move |ok| {
            copied.set(if ok {
                format!("Copied the {what}.")
            } else {
                format!("The browser refused the clipboard: select the {what} and copy it by hand.")
            });
            set_timeout(
                move || copied.set(String::new()),
                Duration::from_millis(2500),
            );
        });
    };
    let link = move || browser::url_for(&scenario.with(encode));
    let snippet = move || {
        let mut s = scenario.get();
        s.embed = Embed::Compact;
        let url = browser::url_for(&encode(&s));
        let esc = url
            .replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        format!("<iframe src=\"{esc}\" width=\"100%\" height=\"720\" style=\"border:0\" loading=\"lazy\" title=\"kvbudget: KV cache budget\"></iframe>")
    };
    move || {
        let Some(o) = shown.get() else {
            return view! { <section class="results"><p>"Enter a valid scenario."</p></section> }
                .into_any();
        };
        let c = &o.chosen;
        let r = &c.report;
        let s = scenario.get();
        let model = s.model.spec();
        let fits_head = if r.error.is_some() {
            "vLLM would not start".to_string()
        } else {
            format!("of {} tokens each", thousands(o.context))
        };
        let log_lines = r
            .lines
            .iter()
            .cloned()
            .chain(r.error.iter().map(|e| format!("ValueError: {e}")))
            .collect::<Vec<_>>()
            .join("\n");
        let lines_value = log_lines.clone();
        let tokens = r.gpu_kv_cache_tokens.unwrap_or(0);
        let serve = o.serve_command.clone();
        let serve2 = serve.clone();
        let serve_attr = serve.clone();
        let error_box = r.error.clone().map(|e| {
            let instead = o.instead.clone();
            view! {
                <div class="refusal" role="alert">
                    <p><strong>"vLLM would refuse to start: "</strong>{e}</p>
                    <ul>{instead.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ul>
                </div>
            }
        });
        let warnings = o.warnings.clone();
        let range_seqs = o
            .range
            .map(|g| format!(" · range {}–{}", thousands(g.seqs.0), thousands(g.seqs.1)))
            .unwrap_or_default();
        let range_pool = o
            .range
            .map(|g| {
                format!(
                    "range {} – {}",
                    Bytes(g.pool.0.max(0) as u64),
                    Bytes(g.pool.1.max(0) as u64)
                )
            })
            .unwrap_or_else(|| {
                if s.kv_memory.is_some() {
                    "taken from a vLLM log".into()
                } else {
                    "the course lab's single overhead figure".into()
                }
            });
        let range_tokens = o
            .range
            .map(|g| {
                format!(
                    " · range {}–{}",
                    thousands(g.tokens.0),
                    thousands(g.tokens.1)
                )
            })
            .unwrap_or_default();
        let spread_note = o.range.map(|_| view! {
            <p class="hint" data-testid="range-note">
                "Ranges come from the overhead estimate's uncertainty (activation ±10 %, NCCL and CUDA-graph buffers) and about 1 % "
                "boot-to-boot variation; two boots of the same configuration can differ by several percent."
            </p>
        });
        view! {
            <section class="results" aria-labelledby="results-title">
                <h2 id="results-title">{format!("{} · {} KV · {}", s.model.name(), kv_label(s.kv, model.dtype), s.gpu.name())}</h2>
                {error_box}
                <div class="stats">
                    {big("Sequences that fit", "max-seqs", c.capped.to_string(), thousands(c.capped), format!("{fits_head}{range_seqs}"))}
                    {big("KV per token", "bytes-per-token", c.bytes_per_token.0.to_string(), format!("{} B", thousands(c.bytes_per_token.0)), format!("{} · as MHA {}", c.bytes_per_token, o.mha_bytes_per_token))}
                    {big("KV pool", "kv-pool-bytes", c.pool.to_string(), if c.pool > 0 { Bytes(c.pool as u64).to_string() } else { "none left".into() }, format!("{} B on one GPU; {range_pool}", thousands(c.pool.max(0) as u64)))}
                    {big("vLLM's KV cache", "kv-tokens", tokens.to_string(), format!("{} tokens", thousands(tokens)), format!("{} blocks of {}{range_tokens}", thousands(r.num_gpu_blocks.unwrap_or(0)), r.block_size))}
                </div>
                {spread_note}
                <ul class="warnings">{warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
                <h3>"What vLLM " {s.version.to_string()} " prints at startup"</h3>
                <pre class="log" data-testid="vllm-lines" data-value=lines_value>{log_lines}</pre>
                <h3>"How"</h3>
                <dl class="derivation">
                    {o.derivations.iter().map(|(k, v)| view! { <dt>{*k}</dt><dd>{v.clone()}</dd> }).collect_view()}
                    <dt>"formula vs vLLM"</dt>
                    <dd>{format!("the formula gives {} sequences; vLLM's whole 16-token blocks give {}", c.seed_max, c.vllm_max)}</dd>
                </dl>
                <h3>"Serve it"</h3>
                <pre class="cmd" data-testid="serve-command" data-value=serve_attr>{serve}</pre>
                <div class="actions">
                    <button type="button" on:click=move |_| copy("command", serve2.clone())>"Copy command"</button>
                    <button type="button" data-testid="copy-link" on:click=move |_| copy("link", link())>"Copy link"</button>
                    <button type="button" aria-expanded=move || embed_open.get().to_string() on:click=move |_| embed_open.update(|v| *v = !*v)>"Embed…"</button>
                    <Show when=move || scenario.with(|s| s.kv_memory.is_some())>
                        <button type="button" data-testid="use-budget" on:click=move |_| scenario.update(|s| s.kv_memory = None)>
                            "Use the budget, not the log's KV memory"
                        </button>
                    </Show>
                    <span class="copied" role="status" data-testid="copy-status">{move || copied.get()}</span>
                </div>
                <Show when=move || embed_open.get()>
                    <div class="embed-box">
                        <label for="embed-code">"Paste this into a course page:"</label>
                        <textarea id="embed-code" readonly rows="4" data-testid="embed-snippet" prop:value=snippet></textarea>
                        <button type="button" on:click=move |_| copy("snippet", snippet())>"Copy snippet"</button>
                        <p class="hint">"One chart only: replace embed=1 with embed=memory, embed=concurrency or embed=roofline."</p>
                    </div>
                </Show>
            </section>
        }
        .into_any()
    }
}

/// Which chart (None: all three).
#[derive(Clone, Copy, PartialEq)]
enum Which {
    Memory,
    Concurrency,
    Roofline,
}

#[component]
fn Charts(shown: Memo<Option<Outcome>>, which: Option<Which>) -> impl IntoView {
    let svg = move |f: fn(&kvbudget_core::calc::ChartData) -> Result<String, String>| {
        Memo::new(move |_| {
            shown.with(|o| {
                o.as_ref()
                    .map(|o| {
                        f(&o.charts).unwrap_or_else(|e| {
                            format!("<p>chart error: {}</p>", e.replace('<', "&lt;"))
                        })
                    })
                    .unwrap_or_default()
            })
        })
    };
    let mem = svg(charts::memory);
    let conc = svg(charts::concurrency);
    let roof = svg(charts::roofline);
    let summary_mem = move || {
        shown.with(|o| {
            o.as_ref()
                .map(|o| {
                    o.charts
                        .memory
                        .iter()
                        .map(|(label, segs)| {
                            let parts: Vec<String> = segs
                                .iter()
                                .filter(|s| s.bytes > 0)
                                .map(|s| format!("{} {}", s.label, Bytes(s.bytes)))
                                .collect();
                            format!("{label} KV: {}.", parts.join(", "))
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_default()
        })
    };
    let summary_conc = move || {
        shown.with(|o| {
            o.as_ref()
                .map(|o| {
                    let at = o.context;
                    let per: Vec<String> = o
                        .pair
                        .iter()
                        .map(|p| {
                            format!(
                                "{} sequences with {} KV",
                                thousands(p.vllm_max),
                                p.kv.name()
                            )
                        })
                        .collect();
                    format!(
                        "At {} tokens: {}; max_num_seqs caps at {}.",
                        thousands(at),
                        per.join(", "),
                        thousands(o.charts.cap)
                    )
                })
                .unwrap_or_default()
        })
    };
    let summary_roof = move || {
        shown.with(|o| {
            o.as_ref()
                .map(|o| format!("At {} tokens: {:.1} tokens/s for one sequence alone, {:.1} tokens/s for {} sequences together.", thousands(o.context), o.decode.per_sequence, o.decode.aggregate, o.chosen.capped.max(1)))
                .unwrap_or_default()
        })
    };
    let pool_value = move || {
        shown.with(|o| {
            o.as_ref()
                .map(|o| o.chosen.pool.to_string())
                .unwrap_or_default()
        })
    };
    let point_value = move || {
        shown.with(|o| {
            o.as_ref()
                .map(|o| o.chosen.capped.to_string())
                .unwrap_or_default()
        })
    };
    let roof_value = move || {
        shown.with(|o| {
            o.as_ref()
                .map(|o| format!("{}", o.decode.aggregate.round() as u64))
                .unwrap_or_default()
        })
    };
    let show = move |w: Which| which.is_none() || which == Some(w);
    view! {
        <section class="charts" aria-label="Charts">
            {show(Which::Memory).then(|| view! {
                <figure class="chart" data-testid="chart-memory" data-value=pool_value>
                    <figcaption><strong>"Memory split on one GPU"</strong>" — 16-bit and FP8 KV side by side"</figcaption>
                    <div class="chart__svg" inner_html=move || mem.get()></div>
                    <p class="sr-summary">{summary_mem}</p>
                </figure>
            })}
            {show(Which::Concurrency).then(|| view! {
                <figure class="chart" data-testid="chart-concurrency" data-value=point_value>
                    <figcaption><strong>"Concurrency vs context"</strong>" — the hyperbola, vLLM's whole blocks"</figcaption>
                    <div class="chart__svg" inner_html=move || conc.get()></div>
                    <p class="sr-summary">{summary_conc}</p>
                </figure>
            })}
            {show(Which::Roofline).then(|| view! {
                <figure class="chart" data-testid="chart-roofline" data-value=roof_value>
                    <figcaption><strong>"Decode roofline"</strong>" — bandwidth ÷ (weights + KV read per step)"</figcaption>
                    <div class="chart__svg" inner_html=move || roof.get()></div>
                    <p class="sr-summary">{summary_roof}</p>
                </figure>
            })}
        </section>
    }
}

#[component]
fn Repertoire(scenario: Scn) -> impl IntoView {
    let rows = move || {
        scenario.with(|s| {
            repertoire::rows(
                &s.gpu,
                s.ctx,
                s.version,
                s.util(),
                s.overhead
                    .map(Overhead::Fixed)
                    .unwrap_or(Overhead::ESTIMATE),
            )
            .unwrap_or_default()
        })
    };
    let caption = move || {
        scenario.with(|s| {
            format!(
                "The course repertoire on {} at {} tokens (choose a row to load it)",
                s.gpu.name(),
                thousands(s.ctx)
            )
        })
    };
    view! {
        <section class="repertoire" aria-labelledby="rep-title">
            <h2 id="rep-title">"Repertoire"</h2>
            <div class="table-wrap">
                <table class="rep">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Model"</th>
                            <th scope="col">"KV dtype"</th>
                            <th scope="col">"KV per token"</th>
                            <th scope="col">"GiB per sequence"</th>
                            <th scope="col">"Sequences that fit"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || rows().into_iter().map(|row| {
                            let short = row.model.rsplit('/').next().unwrap_or(row.model).to_string();
                            let kvname = if row.kv == KvDtype::Auto { "auto" } else { "fp8" };
                            let key = format!("{short}-{kvname}");
                            let (id, kv) = (row.model, row.kv);
                            let load = move |_| scenario.update(|s| {
                                if let Some(p) = presets::model(id) { s.model = ModelChoice::Preset(p); }
                                s.kv = kv;
                            });
                            let dtype = kv_label(row.kv, row.model_dtype);
                            view! {
                                <tr data-row=key>
                                    <th scope="row"><button type="button" class="linkish" on:click=load>{short}</button></th>
                                    <td data-label="KV dtype">{dtype}</td>
                                    <td class="num" data-label="KV per token" data-value=row.bytes_per_token.0.to_string()>{format!("{} KiB", thousands(row.bytes_per_token.0 / 1024))}</td>
                                    <td class="num" data-label="GiB per sequence">{fixed2(row.bytes_per_sequence.0 as f64 / GIB as f64)}</td>
                                    <td class="num key" data-label="Sequences that fit" data-value=row.vllm_max_seqs.to_string()>{thousands(row.vllm_max_seqs)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn EmbedView(scenario: Scn, shown: Memo<Option<Outcome>>) -> impl IntoView {
    let full = move || {
        let mut s = scenario.get();
        s.embed = Embed::Full;
        browser::url_for(&encode(&s))
    };
    let which = scenario.with_untracked(|s| match s.embed {
        Embed::Memory => Some(Which::Memory),
        Embed::Concurrency => Some(Which::Concurrency),
        Embed::Roofline => Some(Which::Roofline),
        _ => None,
    });
    let compact = which.is_none();
    let headline = move || {
        shown.with(|o| {
            o.as_ref().map(|o| {
                let s = scenario.get();
                format!(
                    "{} on {} ({} KV): {} sequences of {} tokens fit · {} B per token",
                    s.model.name(),
                    s.gpu.name(),
                    s.kv.name(),
                    thousands(o.chosen.capped),
                    thousands(o.context),
                    thousands(o.chosen.bytes_per_token.0)
                )
            })
        })
    };
    view! {
        <main class="embed">
            <h1 class="embed__head">
                <span data-testid="embed-headline">{headline}</span>
                " "
                <a href=full target="_blank" rel="noopener">"Open in kvbudget ↗"</a>
            </h1>
            {compact.then(|| view! { <Results scenario shown/> })}
            <Charts shown which/>
        </main>
    }
}
