//! The panels the first load does without are answered by the page's worker as data
//! (`core::handoff`, JSON) and drawn by the page (`page::plan_html`, `page::fixes_html`,
//! `page::gpu_table_html`, `page::log_compare_html`, `page::sglang_panel_html`): what it answers
//! must be what the core computes, and its buttons must change the scenario the same way.

use kvbudget::core::handoff::panels::PlanButton;
use kvbudget::core::handoff::{
    hub_answer, hub_config_url, read_scenario, Answer, Request, Session,
};
use kvbudget::core::query::{decode, encode};
use kvbudget::core::scenario::PageScenario;
use kvbudget::page;

fn fixture(dir: &str, name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{dir}/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// `request` sent as JSON to `w`, the answer read back from JSON.
mod common;
use common::ask_of;

fn ask(request: Request) -> Answer {
    ask_of(&mut Session::default(), request)
}

fn q(s: &PageScenario) -> String {
    encode(s)
}

/// The plan panel the page draws for `s` (empty when the scenario asks for none).
fn plan_panel(s: &PageScenario) -> String {
    match ask(Request::Plan { query: q(s) }) {
        Answer::Plan(Some(p)) => page::plan_html(&p, s.tp),
        Answer::Plan(None) => String::new(),
        other => panic!("{other:?}"),
    }
}

fn plan_apply(which: PlanButton, shown: &PageScenario, target: &PageScenario) -> PageScenario {
    read_scenario(ask(Request::PlanApply {
        which,
        shown: q(shown),
        target: q(target),
    }))
    .unwrap()
    .0
}

#[test]
fn the_plan_panel_and_its_buttons() {
    let (shown, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&plan=4");
    let html = plan_panel(&shown);
    // Qwen3-8B's block is 16 tokens × 147,456 B = 2,359,296 B; 4 sequences of 8,192 tokens take
    // 4 × 512 blocks, and vLLM keeps one more: 2,049 × 2,359,296 = 4,834,197,504 B.
    assert!(
        html.contains(r#"data-testid="plan-kv-bytes" data-value="4834197504""#),
        "{html}"
    );
    assert!(html.contains(r#"data-plan-apply="kv""#) && html.contains(r#"data-plan-apply="util""#));
    // The button applies the shown scenario's plan to the scenario as edited (here its context
    // changed meanwhile, and stays changed).
    let (target, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&plan=4&ctx=4096");
    let applied = plan_apply(PlanButton::Kv, &shown, &target);
    assert_eq!(applied.kv_memory.map(|b| b.0), Some(4_834_197_504));
    assert_eq!(applied.ctx, 4096);
    // 10 sequences: 5,121 blocks × 2,359,296 B = 12,081,954,816 B beside 16,396,037,652 B of
    // weights is more than the card's 25,286,619,955 B: no button, only why; the button's
    // request changes nothing.
    let (ten, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&plan=10");
    let html = plan_panel(&ten);
    assert!(html.contains(r#"data-value="12081954816""#), "{html}");
    assert!(!html.contains(r#"data-plan-apply="kv""#), "{html}");
    assert!(html.contains(r#"data-testid="plan-kv-over""#), "{html}");
    assert!(html.contains("does not fit this GPU"), "{html}");
    assert_eq!(plan_apply(PlanButton::Kv, &ten, &ten).kv_memory, None);
    // No plan asked: no panel.
    let (none, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    assert_eq!(plan_panel(&none), "");
}

#[test]
fn where_no_utilization_holds_the_plan_an_fp8_kv_cache_is_a_button() {
    // 7 × 8,192 tokens of Qwen3-8B BF16 on an RTX 4090: no utilization holds them; with an fp8
    // KV cache the lowest is 0.92 at the safe end (`kvbudget plan … --sequences 7
    // --kv-cache-dtype fp8` prints the same).
    let (shown, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=7");
    let html = plan_panel(&shown);
    assert!(
        html.contains(r#"data-testid="plan-fp8" data-value="0.92""#),
        "{html}"
    );
    assert!(html.contains(r#"data-plan-apply="fp8""#), "{html}");
    assert_eq!(
        plan_apply(PlanButton::Fp8, &shown, &shown).kv,
        kvbudget::core::model::KvDtype::Fp8
    );
    // Already fp8, or a plan a utilization holds: no such line.
    let (fp8, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=7&kv=fp8");
    assert!(!plan_panel(&fp8).contains("plan-fp8"));
    let (four, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=4");
    assert!(!plan_panel(&four).contains("plan-fp8"));
}

#[test]
fn a_refusals_fixes_each_make_it_start() {
    use kvbudget::core::calc::evaluate;
    let fixes = |s: &PageScenario| match ask(Request::Fixes { query: q(s) }) {
        Answer::Fixes(f) => f,
        other => panic!("{other:?}"),
    };
    // Qwen3-14B's 27.5 GiB of weights do not load on a 24 GB card.
    let (s, _) = decode("?model=Qwen/Qwen3-14B&gpu=rtx-4090");
    assert!(evaluate(&s).unwrap().chosen.report.refusal.is_some());
    let f = fixes(&s);
    assert!(!f.is_empty());
    for i in 0..f.len() {
        let request = Request::FixApply {
            index: i,
            shown: q(&s),
            target: q(&s),
        };
        let (fixed, _) = read_scenario(ask(request)).unwrap();
        assert!(
            evaluate(&fixed).unwrap().chosen.report.refusal.is_none(),
            "fix {i} leaves it refused"
        );
    }
    // A scenario that evaluates without a refusal has none to fix.
    let (fine, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    assert!(fixes(&fine).is_empty());
}

#[test]
fn the_gpu_table_names_each_gpu_by_its_slug() {
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    let Answer::Gpus(rows) = ask(Request::Gpus { query: q(&s) }) else {
        panic!("no rows")
    };
    let html = page::gpu_table_html("Qwen/Qwen3-8B", 40_960, &rows);
    assert!(html.contains(r#"data-testid="gpu-table""#));
    // The RTX 4090's row: 25,286,619,955 B as vLLM sees it is 23.55 GiB.
    assert!(html.contains("23.55 GiB"), "{html}");
    // Every row's button carries a slug the page can load.
    let slugs: Vec<&str> = html
        .split(r#"data-gpu=""#)
        .skip(1)
        .map(|t| &t[..t.find('"').unwrap()])
        .collect();
    assert!(slugs.len() > 10, "{slugs:?}");
    assert!(slugs.contains(&"rtx-4090") && slugs.contains(&"h100-sxm"));
    for slug in slugs {
        assert!(kvbudget::core::presets::gpu(slug).is_some(), "{slug}");
    }
}

#[test]
fn the_log_panel_follows_the_kept_log() {
    let mut w = Session::default();
    let panel = |w: &mut Session, query: &str, reads| {
        ask_of(
            w,
            Request::LogPanel {
                query: query.into(),
                reads,
            },
        )
    };
    // Before any log there is no panel to write.
    assert!(matches!(
        panel(&mut w, "?model=Qwen/Qwen3-8B", 1),
        Answer::Failed(_)
    ));
    // The 0.11 log of Qwen3-14B started with 42,656 tokens.
    let text = fixture("logs", "v1_0.11_two_line.log");
    let Answer::LogRead(read) = ask_of(&mut w, Request::ReadLog { text }) else {
        panic!("not read")
    };
    assert_eq!(
        (read.kind.as_str(), read.verdict.as_str()),
        ("vllm", "started")
    );
    assert!(read.message.contains("42,656"));
    let Answer::LogPanel { status, view } = panel(&mut w, "?model=Qwen/Qwen3-14B&gpu=h100-sxm", 1)
    else {
        panic!("no panel")
    };
    assert_eq!(status.verdict, "started");
    assert!(status.message.contains("42,656"));
    let compare = page::log_compare_html(&status.kind, view.as_ref());
    assert!(
        compare.contains(r#"data-testid="log-compare""#),
        "{compare}"
    );
    assert!(compare.contains("42,656"));
    // A log without KV figures is not kept: no panel after it.
    let none = fixture("logs", "no_kv_line.log");
    let Answer::LogRead(read) = ask_of(&mut w, Request::ReadLog { text: none }) else {
        panic!("not read")
    };
    assert_eq!(read.kind, "none");
    assert!(read.message.contains("No KV cache figures in this log"));
    assert!(matches!(panel(&mut w, "?", 2), Answer::Failed(_)));
}

#[test]
fn an_import_for_the_page_adopts_the_model_and_lowers_the_context() {
    use kvbudget::core::scenario::ModelChoice;
    let text = fixture("configs", "gemma-3-4b-it.json");
    let Answer::Imported(m) = ask(Request::Import {
        name: "gemma-3-4b-it".into(),
        text: text.clone(),
    }) else {
        panic!("not imported")
    };
    let (mut s, _) = decode("?model=Qwen/Qwen3-8B&ctx=1000000");
    let said = page::adopt_import_view(&mut s, &m);
    let ModelChoice::Custom(spec) = &s.model else {
        panic!("{:?}", s.model)
    };
    let direct = kvbudget::core::config::import(&text, "gemma-3-4b-it").unwrap();
    assert_eq!(spec, &direct.spec);
    // max_model_len was above the model's own: lowered to it.
    assert_eq!(s.ctx, direct.default_max_model_len);
    assert!(said.contains("import-ok"));
    // A broken file is answered with why.
    let broken = ask(Request::Import {
        name: "broken".into(),
        text: fixture("configs", "broken.json"),
    });
    assert!(matches!(broken, Answer::Failed(_)), "{broken:?}");
}

#[test]
fn a_hub_fetch_says_what_went_wrong() {
    let say = |fetched| match hub_answer("Org/Model", fetched) {
        Answer::Failed(e) => e,
        other => panic!("{other:?}"),
    };
    assert!(say(Ok((404, None))).contains("Org/Model"));
    assert!(say(Ok((403, None))).contains("403"));
    assert!(say(Ok((500, None))).contains("500"));
    assert!(say(Err(true)).contains("offline"));
    assert!(say(Err(false)).contains("CORS"));
    // A 200 with text is imported (here a config without the geometry: why it is refused).
    assert!(matches!(
        hub_answer("Org/Model", Ok((200, Some("{}".into())))),
        Answer::Failed(_)
    ));
    let gemma = fixture("configs", "gemma-3-4b-it.json");
    assert!(matches!(
        hub_answer("google/gemma-3-4b-it", Ok((200, Some(gemma)))),
        Answer::Imported(_)
    ));
    assert_eq!(
        hub_config_url("Qwen/Qwen3-8B"),
        "https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json"
    );
}

#[test]
fn sglangs_figures_are_drawn_into_their_panel() {
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&engine=sglang");
    let Answer::Sglang(v) = ask(Request::Sglang { query: q(&s) }) else {
        panic!("no figures")
    };
    assert!(!v.engine.stats.is_empty());
    let panel = kvbudget::page::SglangPanel {
        view: v.clone(),
        stale: false,
    };
    let html = kvbudget::view::to_html(kvbudget::core::i18n::Lang::En, || {
        leptos::view! { <kvbudget::view::SglangPanel panel /> }
    });
    assert!(html.contains(r#"data-testid="compare""#), "{html}");
    // The comparison's caption names the scenario it is for.
    assert!(v.caption.contains("Qwen/Qwen3-8B"), "{}", v.caption);
}

#[test]
fn the_page_markup_has_a_box_for_every_part() {
    use kvbudget::core::i18n::Lang;
    use kvbudget::core::scenario::Embed;
    let html = page::page_html(Lang::En, None);
    for id in [
        "p-notices",
        "p-answer",
        "import-status",
        "p-top",
        "p-primer",
        "p-bottom",
        "actions",
        "copy-status",
        "embed-box",
        "embed-code",
        "embed-preview",
        "p-plan",
        "p-log-status",
        "p-log-compare",
        "log-adopted",
        "p-chart-memory",
        "p-chart-concurrency",
        "p-chart-roofline",
        "p-repertoire",
        "p-gpus",
    ] {
        assert_eq!(html.matches(&format!(r#" id="{id}""#)).count(), 1, "{id}");
    }
    // The form's controls, by their URL keys, and the buttons the page handles.
    for id in [
        "model",
        "gpu",
        "ctx",
        "util",
        "config-text",
        "config-file",
        "log-file",
        "lang",
    ] {
        assert!(html.contains(&format!(r#"id="{id}""#)), "{id}");
    }
    assert!(html.contains(r#"id="use-budget""#));
    // An embedded chart has its box and no other.
    let one = page::embed_html(Embed::Memory);
    assert!(one.contains(r#"id="p-chart-memory""#) && !one.contains("p-chart-roofline"));
    assert!(page::embed_html(Embed::Compact).contains(r#"id="p-card""#));
    // Every embedded view has a box for the URL's notices (a bad key in an embed was silent).
    for mode in [
        Embed::Compact,
        Embed::Memory,
        Embed::Concurrency,
        Embed::Roofline,
    ] {
        assert!(
            page::embed_html(mode).contains(r#"id="p-notices""#),
            "{mode:?}"
        );
    }
}
