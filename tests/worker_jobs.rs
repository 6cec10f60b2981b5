//! The panels the first load does without are written by the page's worker
//! (`page::worker_answer`): what it answers must be what the page showed when it computed them
//! itself, and its buttons must change the scenario the same way.

use kvbudget::core::handoff::{read_scenario, read_text, Session};
use kvbudget::core::query::decode;
use kvbudget::page::{self, worker_answer};

fn fixture(dir: &str, name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{dir}/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn ask(request: &str) -> String {
    worker_answer(&mut Session::default(), request)
}

#[test]
fn the_plan_panel_and_its_buttons() {
    let (shown, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&plan=4");
    let html = read_text(&ask(&page::panel_request("plan", &shown))).unwrap();
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
    let request = page::apply_request("plan_apply", "kv", &shown, &target);
    let (applied, _) = read_scenario(&ask(&request)).unwrap();
    assert_eq!(applied.kv_memory.map(|b| b.0), Some(4_834_197_504));
    assert_eq!(applied.ctx, 4096);
    // 10 sequences: 5,121 blocks × 2,359,296 B = 12,081,954,816 B beside 16,396,037,652 B of
    // weights is more than the card's 25,286,619,955 B: no button, only why; the button's
    // request changes nothing.
    let (ten, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&plan=10");
    let html = read_text(&ask(&page::panel_request("plan", &ten))).unwrap();
    assert!(html.contains(r#"data-value="12081954816""#), "{html}");
    assert!(!html.contains(r#"data-plan-apply="kv""#), "{html}");
    assert!(html.contains(r#"data-testid="plan-kv-over""#), "{html}");
    assert!(html.contains("does not fit this GPU"), "{html}");
    let request = page::apply_request("plan_apply", "kv", &ten, &ten);
    let (applied, _) = read_scenario(&ask(&request)).unwrap();
    assert_eq!(applied.kv_memory, None);
    // No plan asked: no panel.
    let (none, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    assert_eq!(
        read_text(&ask(&page::panel_request("plan", &none))).unwrap(),
        ""
    );
}

#[test]
fn a_refusals_fixes_each_make_it_start() {
    use kvbudget::core::calc::evaluate;
    // Qwen3-14B's 27.5 GiB of weights do not load on a 24 GB card.
    let (s, _) = decode("?model=Qwen/Qwen3-14B&gpu=rtx-4090");
    assert!(evaluate(&s).unwrap().chosen.report.refusal.is_some());
    let html = read_text(&ask(&page::panel_request("fixes", &s))).unwrap();
    let n = html.matches("data-fix-index=").count();
    assert!(n > 0, "{html}");
    for i in 0..n {
        assert!(html.contains(&format!(r#"data-fix-index="{i}""#)), "{i}");
        let request = page::apply_request("fix_apply", &i.to_string(), &s, &s);
        let (fixed, _) = read_scenario(&ask(&request)).unwrap();
        assert!(
            evaluate(&fixed).unwrap().chosen.report.refusal.is_none(),
            "fix {i} leaves it refused"
        );
    }
    // A scenario that evaluates without a refusal has none to fix.
    let (fine, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    let none = read_text(&ask(&page::panel_request("fixes", &fine))).unwrap();
    assert!(!none.contains("data-fix-index"));
}

#[test]
fn the_gpu_table_names_each_gpu_by_its_slug() {
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    let html = read_text(&ask(&page::panel_request("gpus", &s))).unwrap();
    assert!(html.contains(r#"data-testid="gpu-table""#));
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
    // Before any log there is no panel to write.
    let before = worker_answer(&mut w, "log_panel\n?model=Qwen/Qwen3-8B\n1");
    assert!(read_text(&before).is_err());
    // The 0.11 log of Qwen3-14B started with 42,656 tokens.
    let text = fixture("logs", "v1_0.11_two_line.log");
    let read = read_text(&worker_answer(&mut w, &page::log_read_request(&text))).unwrap();
    let mut lines = read.lines();
    assert_eq!(
        (lines.next(), lines.next()),
        (Some("vllm"), Some("started"))
    );
    assert!(lines.next().unwrap().contains("42,656"));
    let panel = read_text(&worker_answer(
        &mut w,
        "log_panel\n?model=Qwen/Qwen3-14B&gpu=h100-sxm\n1",
    ))
    .unwrap();
    let mut lines = panel.splitn(3, '\n');
    assert_eq!(lines.next(), Some("started"));
    assert!(lines.next().unwrap().contains("42,656"));
    let compare = lines.next().unwrap();
    assert!(
        compare.contains(r#"data-testid="log-compare""#),
        "{compare}"
    );
    assert!(compare.contains("42,656"));
    // A log without KV figures is not kept: no panel after it.
    let none = fixture("logs", "no_kv_line.log");
    let read = read_text(&worker_answer(&mut w, &page::log_read_request(&none))).unwrap();
    assert!(read.starts_with("none\n"), "{read}");
    assert!(read.contains("No KV cache figures in this log"));
    assert!(read_text(&worker_answer(&mut w, "log_panel\n?\n2")).is_err());
}

#[test]
fn an_import_for_the_page_adopts_the_model_and_lowers_the_context() {
    use kvbudget::core::scenario::ModelChoice;
    let text = fixture("configs", "gemma-3-4b-it.json");
    let answer = ask(&page::import_page_request("gemma-3-4b-it", &text));
    let (mut s, _) = decode("?model=Qwen/Qwen3-8B&ctx=1000000");
    let said = page::adopt_import_answer(&mut s, &answer).unwrap();
    let ModelChoice::Custom(spec) = &s.model else {
        panic!("{:?}", s.model)
    };
    let direct = kvbudget::core::config::import(&text, "gemma-3-4b-it").unwrap();
    assert_eq!(spec, &direct.spec);
    // max_model_len was above the model's own: lowered to it.
    assert_eq!(s.ctx, direct.default_max_model_len);
    assert!(said.contains("import-ok") && !said.contains('\n'));
    // A broken file is answered with why, and changes nothing.
    let broken = ask(&page::import_page_request(
        "broken",
        &fixture("configs", "broken.json"),
    ));
    let (mut t, _) = decode("?model=Qwen/Qwen3-8B");
    let before = t.clone();
    assert!(page::adopt_import_answer(&mut t, &broken).is_err());
    assert_eq!(t, before);
}

#[test]
fn a_hub_fetch_says_what_went_wrong() {
    let import = |_: &str| -> String { unreachable!("nothing to import") };
    let say = |fetched| read_text(&page::hub_answer("Org/Model", fetched, import)).unwrap_err();
    assert!(say(Ok((404, None))).contains("Org/Model"));
    assert!(say(Ok((403, None))).contains("403"));
    assert!(say(Ok((500, None))).contains("500"));
    assert!(say(Err(true)).contains("offline"));
    assert!(say(Err(false)).contains("CORS"));
    // A 200 with text is imported.
    let answer = page::hub_answer("Org/Model", Ok((200, Some("{}".into()))), |t| {
        format!("ok\n{t}")
    });
    assert_eq!(read_text(&answer).unwrap(), "{}");
    assert_eq!(
        page::hub_config_url("Qwen/Qwen3-8B"),
        "https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json"
    );
}

#[test]
fn sglangs_figures_come_with_their_panel() {
    use kvbudget::core::handoff::sglang::{read_view, sglang_request};
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&engine=sglang");
    let q = kvbudget::core::query::encode(&s);
    let v = read_view(&read_text(&ask(&sglang_request(&q))).unwrap());
    assert!(!v.stats.is_empty());
    assert!(
        v.panel.contains(r#"data-testid="sglang-stats""#),
        "{}",
        v.panel
    );
    assert_eq!(v.panel, page::sglang_panel_html(&s, &v));
}

#[test]
fn the_page_markup_has_a_box_for_every_part() {
    use kvbudget::core::i18n::Lang;
    use kvbudget::core::scenario::Embed;
    let html = page::page_html(Lang::En);
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
