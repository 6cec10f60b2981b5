//! The scenario's form as HTML text and as what each control must show. The form is built once
//! per language and set with `inner_html`; one handler per event type reads the control's id, and
//! one effect writes each control's value, placeholder and message from `fields_now` (the page
//! prerendered at build time writes them into the markup: `Prefill`). This
//! replaces a reactive view per field (about thirty text fields, six pickers and three
//! checkboxes), which cost far more code than the form itself.

use super::{html_escape as esc, Input, Units};
use super::{CUSTOM_GPU, CUSTOM_MODEL, PARALLEL, REQUESTS, SGLANG, VLLM, WEIGHTS};
use super::{FLAGS, PLAN};
use kvbudget_core::calc::Outcome;
use kvbudget_core::handoff::sglang::SglangView;
use kvbudget_core::model::KvDtype;
use kvbudget_core::presets::{GPUS, MODELS};
use kvbudget_core::scenario::{Engine, GpuChoice, ModelChoice, PageScenario};
use kvbudget_core::t;
use kvbudget_core::vllm::{version, Version};
use std::fmt::Write;

/// A `<select>` bound to one value of the scenario.
pub struct Pick {
    /// DOM id (the URL key).
    pub id: &'static str,
    /// Visible label.
    pub label: fn() -> &'static str,
    /// `(value, label)` of each option, in order.
    pub options: fn() -> Vec<(String, String)>,
    /// The option the scenario selects.
    pub value: fn(&PageScenario) -> String,
    /// Applies a chosen option.
    pub select: fn(&mut PageScenario, &str),
}

/// A checkbox bound to one flag of the scenario.
pub struct Check {
    /// DOM id.
    pub id: &'static str,
    /// Visible label.
    pub label: fn() -> &'static str,
    /// Whether the scenario has the flag.
    pub get: fn(&PageScenario) -> bool,
    /// Sets the flag.
    pub set: fn(&mut PageScenario, bool),
}

fn model_options() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = MODELS
        .iter()
        .map(|m| (m.id().to_string(), super::model_option(m)))
        .collect();
    v.push(("custom".into(), t!(IN_CUSTOM_GEOMETRY).into()));
    v
}

fn gpu_options() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = GPUS
        .iter()
        .map(|g| (g.slug.to_string(), super::gpu_option(g)))
        .collect();
    v.push(("custom".into(), t!(IN_CUSTOM).into()));
    v
}

/// Every picker of the form.
pub const PICKS: [Pick; 6] = [
    Pick {
        id: "model",
        label: || t!(IN_MODEL),
        options: model_options,
        value: super::model_value,
        select: super::select_model,
    },
    Pick {
        id: "kv",
        label: || t!(IN_KV_DTYPE),
        options: || {
            KvDtype::ALL
                .iter()
                .filter(|k| **k != KvDtype::Float32)
                .map(|k| (k.name().to_string(), k.name().to_string()))
                .collect()
        },
        value: |s| s.kv.name().into(),
        select: |s, v| {
            if let Ok(k) = KvDtype::parse(v) {
                s.kv = k;
            }
        },
    },
    Pick {
        id: "gpu",
        label: || t!(IN_GPU),
        options: gpu_options,
        value: super::gpu_value,
        select: super::select_gpu,
    },
    Pick {
        id: "engine",
        label: || t!(IN_ENGINE),
        options: super::engine_options,
        value: super::engine_value,
        select: super::select_engine,
    },
    Pick {
        id: "sglang",
        label: || t!(IN_SGLANG_VERSION),
        options: || {
            kvbudget_core::sglang::version::offered()
                .into_iter()
                .rev()
                .map(|v| (v.to_string(), super::sglang_version_option(v)))
                .collect()
        },
        value: super::sglang_version_value,
        select: super::select_sglang_version,
    },
    Pick {
        id: "vllm",
        label: || t!(IN_VLLM_VERSION),
        options: || {
            version::offered()
                .into_iter()
                .rev()
                .map(|v| (v.to_string(), super::version_option(v)))
                .collect()
        },
        value: |s| s.version.to_string(),
        select: |s, v| {
            if let Ok(v) = Version::parse(v) {
                s.version = v;
            }
        },
    },
];

/// Every checkbox of the form.
pub const CHECKS: [Check; 4] = [
    Check {
        id: "eager",
        label: || t!(IN_EAGER),
        get: |s| s.knobs.enforce_eager,
        set: |s, b| s.knobs.enforce_eager = b,
    },
    Check {
        id: "half",
        label: || t!(IN_HALF),
        get: |s| s.knobs.dtype_half,
        set: |s, b| s.knobs.dtype_half = b,
    },
    Check {
        id: "prefix",
        label: || t!(IN_PREFIX),
        get: |s| s.knobs.prefix_caching,
        set: |s, b| s.knobs.prefix_caching = b,
    },
    Check {
        id: "no_prefix",
        label: || t!(IN_NO_PREFIX),
        get: |s| s.knobs.no_prefix_caching,
        set: |s, b| s.knobs.no_prefix_caching = b,
    },
];

/// The id of the weights' unit picker (GiB or GB: how the weights field reads, not the scenario).
pub const UNIT_PICK: &str = "weights-unit";

/// The picker with this id.
pub fn pick(id: &str) -> Option<&'static Pick> {
    PICKS.iter().find(|p| p.id == id)
}

/// The checkbox with this id.
pub fn check(id: &str) -> Option<&'static Check> {
    CHECKS.iter().find(|c| c.id == id)
}

/// The text field with this id.
pub fn text_input(id: &str) -> Option<&'static Input> {
    super::all_inputs().find(|i| i.id == id)
}

/// What the form's controls show, written into its markup (the page prerendered at build time:
/// the app writes the same values into the live controls, `app::inputs`).
#[derive(Clone, Debug, PartialEq)]
pub struct Prefill {
    /// Each text field's value and placeholder.
    pub fields: Vec<FieldNow>,
    /// Each picker's value, in [`PICKS`] order.
    pub picks: Vec<String>,
    /// Each checkbox, in [`CHECKS`] order.
    pub checks: Vec<bool>,
    /// The conditional blocks shown ([`shown_blocks`]).
    pub blocks: [(&'static str, bool); 3],
    /// The GPU's line and the custom model's summary.
    pub hints: [String; 2],
    /// The settings beyond the first screen are open.
    pub more: bool,
}

impl Prefill {
    /// What the form shows for `s` (nothing typed).
    pub fn of(s: &PageScenario, o: Option<&Outcome>) -> Self {
        Prefill {
            fields: fields_now(s, &Typed::default(), o, None),
            picks: PICKS.iter().map(|p| (p.value)(s)).collect(),
            checks: CHECKS.iter().map(|c| (c.get)(s)).collect(),
            blocks: shown_blocks(s),
            hints: [super::gpu_seen(s), super::custom_summary(s)],
            more: s.more,
        }
    }
}

fn text_html(out: &mut String, i: &Input, pre: Option<&Prefill>) {
    let id = i.id;
    let _ = write!(
        out,
        r#"<div class="field"><label for="{id}">{}"#,
        esc((i.label)())
    );
    let hint = (i.hint)();
    if !hint.is_empty() {
        let _ = write!(out, r#"<span class="hint"> ({})</span>"#, esc(hint));
    }
    let shown = pre
        .and_then(|p| p.fields.iter().find(|f| f.id == id))
        .map(|f| {
            format!(
                r#" value="{}" placeholder="{}""#,
                esc(&f.value),
                esc(&f.placeholder)
            )
        })
        .unwrap_or_default();
    let _ = write!(
        out,
        r#"</label><input id="{id}" type="text" inputmode="{}" autocomplete="off" spellcheck="false" aria-invalid="false" aria-describedby="{id}-msg"{shown}><p id="{id}-msg" class="field__msg" role="alert" data-testid="error-{id}"></p></div>"#,
        i.inputmode
    );
}

fn texts_html(out: &mut String, inputs: &[Input], pre: Option<&Prefill>) {
    inputs.iter().for_each(|i| text_html(out, i, pre));
}

fn pick_html(out: &mut String, id: &str, pre: Option<&Prefill>) {
    let Some(p) = pick(id) else { return };
    let chosen = pre.and_then(|pre| {
        PICKS
            .iter()
            .position(|q| q.id == id)
            .and_then(|i| pre.picks.get(i))
    });
    let _ = write!(
        out,
        r#"<div class="field"><label for="{id}">{}</label><select id="{id}">"#,
        esc((p.label)())
    );
    for (v, l) in (p.options)() {
        let selected = if chosen == Some(&v) { " selected" } else { "" };
        let _ = write!(
            out,
            r#"<option value="{}"{selected}>{}</option>"#,
            esc(&v),
            esc(&l)
        );
    }
    out.push_str("</select></div>");
}

fn check_html(out: &mut String, (c, on): (&Check, bool)) {
    let _ = write!(
        out,
        r#"<div class="field field--check"><input id="{0}" type="checkbox"{2}><label for="{0}">{1}</label></div>"#,
        c.id,
        esc((c.label)()),
        if on { " checked" } else { "" }
    );
}

/// A block shown only when `when` (a key of [`shown_blocks`]) holds.
fn block_open(out: &mut String, class: &str, when: &str, pre: Option<&Prefill>) {
    let shown = pre.is_some_and(|p| p.blocks.iter().any(|&(k, on)| k == when && on));
    let hidden = if shown { "" } else { " hidden" };
    let _ = write!(out, r#"<div class="{class}" data-when="{when}"{hidden}>"#);
}

/// A hint line (`data-testid`), with its text when the form is prefilled.
fn hint_html(out: &mut String, testid: &str, text: Option<&str>) {
    let _ = write!(
        out,
        r#"<p class="hint" data-testid="{testid}">{}</p>"#,
        esc(text.unwrap_or_default())
    );
}

/// The model fieldset before the config import: the model picker.
pub fn form_head_html(pre: Option<&Prefill>) -> String {
    let mut out = String::with_capacity(4096);
    pick_html(&mut out, "model", pre);
    hint_html(
        &mut out,
        "custom-geometry",
        pre.map(|p| p.hints[1].as_str()),
    );
    out
}

/// The model fieldset after the config import: the custom geometry (with the weights and their
/// unit).
pub fn form_model_rest_html(pre: Option<&Prefill>) -> String {
    let mut out = String::with_capacity(4096);
    block_open(&mut out, "custom", "custom-model", pre);
    texts_html(&mut out, &CUSTOM_MODEL, pre);
    out.push_str(r#"<div class="field-row">"#);
    text_html(&mut out, &WEIGHTS, pre);
    let _ = write!(
        out,
        r#"<div class="field"><label for="{UNIT_PICK}">{}</label><select id="{UNIT_PICK}"><option value="GiB">{}</option><option value="GB">{}</option></select></div></div></div>"#,
        esc(t!(IN_UNIT)),
        esc(t!(IN_GIB_OPTION)),
        esc(t!(IN_GB_OPTION))
    );
    out
}

/// The end of the first fieldset, after the model's: the GPU (with its custom memory, bandwidth
/// and compute), the context (`max_model_len`) and the KV cache dtype.
pub fn form_gpu_html(pre: Option<&Prefill>) -> String {
    let mut out = String::with_capacity(4096);
    pick_html(&mut out, "gpu", pre);
    hint_html(&mut out, "gpu-seen", pre.map(|p| p.hints[0].as_str()));
    block_open(&mut out, "custom", "custom-gpu", pre);
    texts_html(&mut out, &CUSTOM_GPU, pre);
    out.push_str("</div>");
    text_html(&mut out, &VLLM[0], pre);
    pick_html(&mut out, "kv", pre);
    out
}

/// The settings one click away (a `<details>`, open while the scenario's `more` is): the
/// parallelism, engine, vLLM and requests fieldsets; then the reset button. Buttons carry their
/// action in `data-action` (`seed-overhead`, `estimate-overhead`, `reset`).
pub fn form_rest_html(pre: Option<&Prefill>) -> String {
    let mut out = String::with_capacity(16384);
    let legend = |out: &mut String, text: &str| {
        let _ = write!(out, "<fieldset><legend>{}</legend>", esc(text));
    };
    let _ = write!(
        out,
        r#"<details class="more-settings" id="more-settings" data-testid="more-settings"{}><summary>{}</summary>"#,
        if pre.is_some_and(|p| p.more) {
            " open"
        } else {
            ""
        },
        esc(t!(IN_MORE_SETTINGS))
    );
    legend(&mut out, t!(IN_PARALLELISM));
    texts_html(&mut out, &PARALLEL, pre);
    out.push_str("</fieldset>");

    legend(&mut out, t!(IN_ENGINE));
    pick_html(&mut out, "engine", pre);
    block_open(&mut out, "sglang-block", "sglang", pre);
    pick_html(&mut out, "sglang", pre);
    texts_html(&mut out, &SGLANG, pre);
    let _ = write!(
        out,
        r#"<p class="hint">{}</p></div></fieldset>"#,
        esc(t!(IN_SGLANG_NOTE))
    );

    legend(&mut out, t!(IN_VLLM));
    pick_html(&mut out, "vllm", pre);
    texts_html(&mut out, &VLLM[1..], pre);
    let _ = write!(
        out,
        r#"<details class="more-flags"><summary>{}</summary>"#,
        esc(t!(IN_MORE_FLAGS))
    );
    for (i, c) in CHECKS.iter().enumerate() {
        let on = pre.is_some_and(|p| p.checks.get(i) == Some(&true));
        check_html(&mut out, (c, on));
    }
    texts_html(&mut out, &FLAGS, pre);
    let _ = write!(
        out,
        r#"</details><p class="hint"><button type="button" class="linkish" data-testid="overhead-seed" data-action="seed-overhead">{}</button> · <button type="button" class="linkish" data-testid="overhead-estimate" data-action="estimate-overhead">{}</button></p></fieldset>"#,
        esc(t!(IN_USE_SEED_OVERHEAD)),
        esc(t!(IN_USE_ESTIMATE))
    );

    legend(&mut out, t!(IN_REQUESTS));
    let _ = write!(out, r#"<p class="hint">{}</p>"#, esc(t!(IN_REQUESTS_NOTE)));
    texts_html(&mut out, &REQUESTS, pre);
    text_html(&mut out, &PLAN, pre);
    let _ = write!(
        out,
        r#"</fieldset></details><button type="button" class="linkish" data-action="reset">{}</button>"#,
        esc(t!(IN_RESET))
    );
    out
}

/// Whether `s` sets anything the form keeps one click away (parallelism, engine, release,
/// vLLM's and SGLang's settings, requests, a plan): a link that does opens those settings, so
/// that every setting in force is in view.
pub fn sets_more(s: &PageScenario) -> bool {
    changes_more(s, &PageScenario::default())
}

/// Whether going from `old` to `new` changes a setting the form keeps one click away (a fix, a
/// plan's button or a log's numbers applied): then those settings open, to show it.
// (Not inlined: one copy of the comparison in the page's wasm, 557 B gzip less than two.)
#[inline(never)]
pub fn changes_more(old: &PageScenario, new: &PageScenario) -> bool {
    folded(old) != folded(new)
}

/// The settings the form keeps one click away, as one value.
fn folded(s: &PageScenario) -> impl PartialEq {
    (
        (s.tp, s.pp, s.engine, s.version, s.util, s.seqs, s.mnbt),
        (s.overhead, s.prompt, s.trace, s.plan),
        (s.knobs, s.sglang),
    )
}

/// What the form's conditional blocks show: `(data-when key, shown)`.
pub fn shown_blocks(s: &PageScenario) -> [(&'static str, bool); 3] {
    [
        ("custom-model", matches!(s.model, ModelChoice::Custom(_))),
        ("custom-gpu", matches!(s.gpu, GpuChoice::Custom { .. })),
        ("sglang", s.engine == Engine::Sglang),
    ]
}

/// Text the user typed into a field that is not (yet) the committed value: kept while they type,
/// and while it is refused.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Typed {
    /// `(field id, text)`.
    pub raw: Vec<(&'static str, String)>,
    /// How the weights field reads.
    pub units: Units,
}

impl Typed {
    /// The text typed into a field, if it is kept.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.raw
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, t)| t.as_str())
    }

    /// Keeps `text` as typed into the field.
    pub fn set(&mut self, id: &'static str, text: String) {
        match self.raw.iter_mut().find(|(i, _)| *i == id) {
            Some(r) => r.1 = text,
            None => self.raw.push((id, text)),
        }
    }

    /// Forgets what was typed into the field (it shows the committed value again).
    pub fn clear(&mut self, id: &str) {
        self.raw.retain(|(i, _)| *i != id);
    }
}

/// What one text field shows.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldNow {
    /// The field's id.
    pub id: &'static str,
    /// Its text: what the user typed while it is kept, else the committed value.
    pub value: String,
    /// Shown while it is empty.
    pub placeholder: String,
    /// Why the typed text is refused (empty when it is not).
    pub error: String,
}

/// What every text field shows for the scenario: the committed value, or the text typed into it
/// while that is refused (with the message, written now, so in the page's current language) or
/// while it is what the scenario holds.
pub fn fields_now(
    s: &PageScenario,
    typed: &Typed,
    o: Option<&Outcome>,
    sg: Option<&SglangView>,
) -> Vec<FieldNow> {
    super::all_inputs()
        .map(|i| {
            // Typed text stays while it is refused, or while it is what the scenario holds (as
            // typed: "0.90" for 0.9). Once the scenario changed from elsewhere (a preset, a plan,
            // the log's numbers, back and forward) or the text would now read differently (the
            // weights' unit switched), the field shows the committed value instead.
            let kept = typed
                .get(i.id)
                .and_then(|text| match i.commit(s, text, typed.units) {
                    Err(e) => Some((text.to_string(), e)),
                    Ok(t) if t == *s => Some((text.to_string(), String::new())),
                    Ok(_) => None,
                });
            let (value, error) = kept.unwrap_or_else(|| ((i.show)(s, typed.units), String::new()));
            FieldNow {
                id: i.id,
                value,
                placeholder: super::placeholder(i.id, s, o, sg),
                error,
            }
        })
        .collect()
}
