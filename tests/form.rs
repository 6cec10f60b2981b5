//! The form as HTML text and what each control shows (`page::form_*_html`, `page::fields_now`):
//! every control the tables name is in the markup once, with the ids the handlers look up, and
//! typed text is kept, refused with its message, or replaced by the committed value.

use kvbudget::core::scenario::PageScenario;
use kvbudget::page::{self, Typed, Units};

fn form() -> String {
    [
        page::form_head_html(),
        page::form_model_rest_html(),
        page::form_rest_html(),
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
    // Tags balance (the three parts are set into separate elements).
    for part in [
        page::form_head_html(),
        page::form_model_rest_html(),
        page::form_rest_html(),
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
    // Accepted text (not yet committed with Enter or a blur) stays as typed, without a message.
    t.set("ctx", "32,768".into());
    assert_eq!(
        (now(&t).value.as_str(), now(&t).error.as_str()),
        ("32,768", "")
    );
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
