//! The scenario's inputs: pickers and text fields in four groups. Each text field is one entry of
//! the page's input tables (`page::CUSTOM_MODEL`, `page::VLLM`, …).

use super::field::Field;
use super::{import::ImportConfig, State};
use crate::page::{self, Input, Units};
use kvbudget_core::model::KvDtype;
use kvbudget_core::presets::{GPUS, MODELS};
use kvbudget_core::scenario::{Engine, GpuChoice, ModelChoice, PageScenario};
use kvbudget_core::sglang;
use kvbudget_core::t;
use kvbudget_core::units::Bytes;
use kvbudget_core::vllm::{version, Version};
use leptos::prelude::*;

/// A text field for one input of the tables.
fn text_field(state: State, input: &'static Input, units: RwSignal<Units>) -> impl IntoView {
    let scenario = state.scenario;
    let value = Signal::derive(move || scenario.with(|s| (input.show)(s, units.get())));
    let placeholder = Signal::derive(move || {
        scenario.with(|s| {
            state.shown.with(|x| {
                state.sglang_now.with(|sg| {
                    page::placeholder(input.id, s, x.as_ref().map(|x| &x.o), sg.as_ref())
                })
            })
        })
    });
    let commit = Callback::new(move |text: String| {
        match scenario.with_untracked(|s| input.commit(s, &text, units.get_untracked())) {
            Ok(t) => {
                scenario.set(t);
                None
            }
            Err(e) => Some(e),
        }
    });
    view! {
        <Field id=input.id label=(input.label)() hint=(input.hint)() inputmode=input.inputmode value placeholder commit/>
    }
}

/// A `<select>` whose choice is applied to the scenario by `select`.
fn picker(
    state: State,
    id: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    value: fn(&PageScenario) -> String,
    select: fn(&mut PageScenario, &str),
) -> impl IntoView {
    let scenario = state.scenario;
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| select(s, &v));
    };
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select id=id on:change=on_change prop:value=move || scenario.with(value)>
                {options.into_iter().map(|(v, l)| view! { <option value=v>{l}</option> }).collect_view()}
            </select>
        </div>
    }
}

/// A checkbox for one flag of the scenario.
fn checkbox(
    state: State,
    id: &'static str,
    label: &'static str,
    get: fn(&PageScenario) -> bool,
    set: fn(&mut PageScenario, bool),
) -> impl IntoView {
    let scenario = state.scenario;
    view! {
        <div class="field field--check">
            <input id=id type="checkbox" prop:checked=move || scenario.with(get)
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    scenario.update(|s| set(s, on));
                }/>
            <label for=id>{label}</label>
        </div>
    }
}

/// Every input, in four fieldsets.
#[component]
pub fn Inputs(state: State) -> impl IntoView {
    let scenario = state.scenario;
    let units = RwSignal::new(Units::default());
    let is_custom_model = move || scenario.with(|s| matches!(s.model, ModelChoice::Custom(_)));
    let is_custom_gpu = move || scenario.with(|s| matches!(s.gpu, GpuChoice::Custom { .. }));
    let fields = move |inputs: &'static [Input]| {
        inputs
            .iter()
            .map(|i| text_field(state, i, units))
            .collect_view()
    };
    let mut models: Vec<(String, String)> = MODELS
        .iter()
        .map(|m| (m.id().to_string(), page::model_option(m)))
        .collect();
    models.push(("custom".into(), t!(IN_CUSTOM_GEOMETRY).into()));
    let mut gpus: Vec<(String, String)> = GPUS
        .iter()
        .map(|g| (g.slug.to_string(), page::gpu_option(g)))
        .collect();
    gpus.push(("custom".into(), t!(IN_CUSTOM).into()));
    let kvs = KvDtype::ALL
        .iter()
        .filter(|k| **k != KvDtype::Float32)
        .map(|k| (k.name().to_string(), k.name().to_string()))
        .collect();
    let versions = version::offered()
        .into_iter()
        .rev()
        .map(|v| (v.to_string(), page::version_option(v)))
        .collect();
    let sglang_versions: Vec<(String, String)> = sglang::version::offered()
        .into_iter()
        .rev()
        .map(|v| (v.to_string(), page::sglang_version_option(v)))
        .collect();
    let is_sglang = move || scenario.with(|s| s.engine == Engine::Sglang);
    view! {
        <fieldset>
            <legend>{t!(IN_MODEL)}</legend>
            {picker(state, "model", t!(IN_MODEL), models, page::model_value, page::select_model)}
            <ImportConfig scenario/>
            <Show when=is_custom_model>
                <div class="custom">
                    {fields(&page::CUSTOM_MODEL)}
                    <p class="hint" data-testid="custom-geometry">{move || scenario.with(page::custom_summary)}</p>
                    <div class="field-row">
                        {text_field(state, &page::WEIGHTS, units)}
                        <div class="field">
                            <label for="weights-unit">{t!(IN_UNIT)}</label>
                            <select id="weights-unit" on:change=move |ev| units.set(Units { weights_in_gb: event_target_value(&ev) == "GB" })>
                                <option value="GiB" selected=move || !units.get().weights_in_gb>{t!(IN_GIB_OPTION)}</option>
                                <option value="GB" selected=move || units.get().weights_in_gb>{t!(IN_GB_OPTION)}</option>
                            </select>
                        </div>
                    </div>
                </div>
            </Show>
            {picker(state, "kv", t!(IN_KV_DTYPE), kvs, |s| s.kv.name().into(), |s, v| if let Ok(k) = KvDtype::parse(v) { s.kv = k })}
        </fieldset>
        <fieldset>
            <legend>{t!(IN_GPU)}</legend>
            {picker(state, "gpu", t!(IN_GPU), gpus, page::gpu_value, page::select_gpu)}
            <p class="hint" data-testid="gpu-seen">{move || scenario.with(page::gpu_seen)}</p>
            <Show when=is_custom_gpu>
                <div class="custom">{fields(&page::CUSTOM_GPU)}</div>
            </Show>
            {fields(&page::PARALLEL)}
        </fieldset>
        <fieldset>
            <legend>{t!(IN_ENGINE)}</legend>
            {picker(state, "engine", t!(IN_ENGINE), page::engine_options(), page::engine_value, page::select_engine)}
            <Show when=is_sglang>
                {picker(state, "sglang", t!(IN_SGLANG_VERSION), sglang_versions.clone(), page::sglang_version_value, page::select_sglang_version)}
                {fields(&page::SGLANG)}
                <p class="hint">{t!(IN_SGLANG_NOTE)}</p>
            </Show>
        </fieldset>
        <fieldset>
            <legend>{t!(IN_VLLM)}</legend>
            {picker(state, "vllm", t!(IN_VLLM_VERSION), versions, |s| s.version.to_string(), |s, v| if let Ok(v) = Version::parse(v) { s.version = v })}
            {fields(&page::VLLM)}
            <details class="more-flags">
                <summary>{t!(IN_MORE_FLAGS)}</summary>
                {checkbox(state, "eager", t!(IN_EAGER), |s| s.knobs.enforce_eager, |s, b| s.knobs.enforce_eager = b)}
                {checkbox(state, "prefix", t!(IN_PREFIX), |s| s.knobs.prefix_caching, |s, b| s.knobs.prefix_caching = b)}
                {checkbox(state, "no_prefix", t!(IN_NO_PREFIX), |s| s.knobs.no_prefix_caching, |s, b| s.knobs.no_prefix_caching = b)}
                {fields(&page::FLAGS)}
            </details>
            <p class="hint">
                <button type="button" class="linkish" data-testid="overhead-seed"
                    on:click=move |_| scenario.update(|s| s.overhead = Some(Bytes::gib(1)))>
                    {t!(IN_USE_SEED_OVERHEAD)}
                </button>
                " · "
                <button type="button" class="linkish" data-testid="overhead-estimate"
                    on:click=move |_| scenario.update(|s| s.overhead = None)>
                    {t!(IN_USE_ESTIMATE)}
                </button>
            </p>
        </fieldset>
        <fieldset>
            <legend>{t!(IN_REQUESTS)}</legend>
            <p class="hint">{t!(IN_REQUESTS_NOTE)}</p>
            {fields(&page::REQUESTS)}
            {text_field(state, &page::PLAN, units)}
        </fieldset>
        <button type="button" class="linkish" on:click=move |_| scenario.update(|s| *s = PageScenario { lang: s.lang, ..PageScenario::default() })>{t!(IN_RESET)}</button>
    }
}
