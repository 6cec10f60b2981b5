//! The form as HTML text and what each control shows (`page::form_*_html`, `page::fields_now`):
//! every control the tables name is in the markup once, with the ids the handlers look up, and
//! typed text is kept, refused with its message, or replaced by the committed value.

use kvbudget::core::scenario::PageScenario;
use kvbudget::page::{self, Typed, Units};

fn form() -> String {
    [
        page::form_head_html(None),
        page::form_model_rest_html(None),
        page::form_gpu_html(None),
        page::form_rest_html(None),
    ]
    .concat()
}

#[test]
fn every_control_is_in_the_markup_once() {
    let html = form();
    let once = |needle: &str| {
        assert_eq!(html.matches(needle).count(), 1, "{needle} in the form");
    };
    for i in page::all_inputs() {
        once(&format!(r#"<input id="{}" type="text""#, i.id));
        once(&format!(r#"data-testid="error-{}""#, i.id));
        once(&format!(r#"<label for="{}">"#, i.id));
    }
    for p in &page::PICKS {
        once(&format!(r#"<select id="{}">"#, p.id));
    }
    for c in &page::CHECKS {
        once(&format!(r#"<input id="{}" type="checkbox">"#, c.id));
    }
    once(&format!(r#"<select id="{}">"#, page::UNIT_PICK));
    for (key, _) in page::shown_blocks(&PageScenario::default()) {
        once(&format!(r#"data-when="{key}" hidden"#));
    }
    for action in ["seed-overhead", "estimate-overhead", "reset"] {
        once(&format!(r#"data-action="{action}""#));
    }
    // 29 text fields (5 model geometry, weights, 3 custom GPU, 2 parallel, 4 vLLM, 2 requests,
    // 3 SGLang, 8 more flags, plan).
    assert_eq!(page::all_inputs().count(), 29);
    // Tags balance (the parts are set into separate elements).
    for part in [
        page::form_head_html(None),
        page::form_model_rest_html(None),
        page::form_gpu_html(None),
        page::form_rest_html(None),
    ] {
        for tag in ["div", "fieldset", "select", "details", "p", "label"] {
            let open = part.matches(&format!("<{tag}>")).count()
                + part.matches(&format!("<{tag} ")).count();
            assert_eq!(
                open,
                part.matches(&format!("</{tag}>")).count(),
                "<{tag}> in {part}"
            );
        }
    }
}

#[test]
fn the_default_pickers_offer_the_scenarios_values() {
    let s = PageScenario::default();
    let html = form();
    for p in &page::PICKS {
        let v = (p.value)(&s);
        assert!(
            (p.options)().iter().any(|(o, _)| *o == v),
            "{}: {v} is an option",
            p.id
        );
        assert!(html.contains(&format!(r#"<option value="{v}">"#)));
    }
    // Selecting through the table is the picker's own function: H100 → L4.
    let mut t = s.clone();
    (page::pick("gpu").unwrap().select)(&mut t, "l4");
    assert_eq!(page::gpu_value(&t), "l4");
}

#[test]
fn typed_text_is_kept_refused_or_replaced() {
    let s = PageScenario::default();
    let now = |t: &Typed| {
        page::fields_now(&s, t, None, None)
            .into_iter()
            .find(|f| f.id == "ctx")
            .unwrap()
    };
    // Nothing typed: the committed value (the default scenario's max_model_len, 8,192 tokens).
    let f = now(&Typed::default());
    assert_eq!((f.value.as_str(), f.error.as_str()), ("8192", ""));
    // Refused text stays as typed, with the message naming the field and its range.
    let mut t = Typed::default();
    t.set("ctx", "12x".into());
    let f = now(&t);
    assert_eq!(f.value, "12x");
    assert_eq!(
        f.error,
        "max_model_len: \"12x\" is not a whole number of tokens from 16 to 10,485,760"
    );
    // Accepted text is in the scenario as soon as it is typed, and stays as typed (with its
    // thousands separator) until Enter or a blur shows the committed value.
    t.set("ctx", "32,768".into());
    let typed_in = page::all_inputs()
        .find(|i| i.id == "ctx")
        .unwrap()
        .commit(&s, "32,768", Units::default())
        .unwrap();
    let f = page::fields_now(&typed_in, &t, None, None)
        .into_iter()
        .find(|f| f.id == "ctx")
        .unwrap();
    assert_eq!((f.value.as_str(), f.error.as_str()), ("32,768", ""));
    t.clear("ctx");
    assert_eq!(now(&t).value, "8192");
    // The weights' unit is part of what was typed: 16 GB reads as 16 × 10⁹ B.
    let gb = Units {
        weights_in_gb: true,
    };
    let mut c = s.clone();
    page::select_model(&mut c, "custom");
    let c = page::WEIGHTS.commit(&c, "16", gb).unwrap();
    let t = Typed {
        raw: vec![],
        units: gb,
    };
    let w = page::fields_now(&c, &t, None, None)
        .into_iter()
        .find(|f| f.id == page::WEIGHTS.id)
        .unwrap();
    assert_eq!(w.value, "16.00");
}

#[test]
fn more_pipeline_stages_than_layers_are_refused_at_the_field() {
    // Qwen3-8B (the default) has 36 layers: PP 40 is refused where it is typed, naming the limit,
    // and the scenario keeps its PP; 36 is accepted.
    let s = PageScenario::default();
    let pp = page::all_inputs().find(|i| i.id == "pp").unwrap();
    assert_eq!(
        pp.commit(&s, "40", Units::default()).unwrap_err(),
        "pipeline-parallel size: must not exceed the number of layers (36)"
    );
    assert_eq!(pp.commit(&s, "36", Units::default()).unwrap().pp, 36);
}

#[test]
fn typed_text_gives_way_when_the_scenario_changes_elsewhere() {
    let find = |s: &PageScenario, t: &Typed, id: &str| {
        page::fields_now(s, t, None, None)
            .into_iter()
            .find(|f| f.id == id)
            .unwrap()
    };
    // "0" typed then deleted leaves "" in the utilization field (no change event): that is the
    // default the scenario holds, so it stays...
    let s = PageScenario::default();
    let mut t = Typed::default();
    t.set("util", String::new());
    assert_eq!(find(&s, &t, "util").value, "");
    // ...until a plan or a log sets 0.87: the field shows it, not the stale empty text.
    let mut planned = s.clone();
    planned.util = Some(0.87);
    let f = find(&planned, &t, "util");
    assert_eq!((f.value.as_str(), f.error.as_str()), ("0.87", ""));
    // Weights of 4,200 are refused in GiB (over 4,096 GiB)...
    let mut c = s.clone();
    page::select_model(&mut c, "custom");
    let mut w = Typed::default();
    w.set("weights", "4200".into());
    assert!(find(&c, &w, "weights").error.contains("weights"));
    // ...and would read as 4,200 GB once the unit is GB, but were never committed: the field
    // shows the weights the scenario holds (15.27 GiB = 16,396,037,652 B = 16.40 GB), no message.
    w.units = Units {
        weights_in_gb: true,
    };
    let f = find(&c, &w, "weights");
    assert_eq!((f.value.as_str(), f.error.as_str()), ("16.40", ""));
}

#[test]
fn a_link_that_sets_a_setting_one_click_away_opens_them() {
    use kvbudget::core::query::decode;
    // The first screen's own fields (model, GPU, context, KV dtype) keep the rest folded; a TP,
    // a release or a plan in the link opens it, so the setting in force is in view.
    for q in [
        "",
        "?model=Qwen/Qwen3-14B-AWQ&gpu=h100-sxm&ctx=32768&kv=fp8&lang=en&theme=dark",
    ] {
        assert!(!page::sets_more(&decode(q).0), "{q}");
    }
    for q in [
        "?tp=2",
        "?vllm=0.11",
        "?util=0.8",
        "?plan=8",
        "?engine=sglang",
        "?eager=1",
    ] {
        assert!(page::sets_more(&decode(q).0), "{q}");
    }
}

#[test]
fn a_fix_or_a_plan_that_changes_a_folded_setting_opens_them() {
    use kvbudget::core::query::decode;
    // A fix to --max-num-seqs 128 or a plan's TP changes what is kept one click away; a model or
    // a KV dtype (the first screen's own) does not.
    let (old, _) = decode("?model=Qwen/Qwen3.5-35B-A3B&gpu=h100-sxm&ctx=32768");
    for q in ["&seqs=128", "&tp=2", "&util=0.95"] {
        let (new, _) = decode(&format!(
            "?model=Qwen/Qwen3.5-35B-A3B&gpu=h100-sxm&ctx=32768{q}"
        ));
        assert!(page::changes_more(&old, &new), "{q}");
    }
    let (fp8, _) = decode("?model=Qwen/Qwen3.5-35B-A3B&gpu=h100-sxm&ctx=32768&kv=fp8");
    assert!(!page::changes_more(&old, &fp8));
}
