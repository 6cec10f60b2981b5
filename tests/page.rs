//! The page's decisions, natively: committing typed text, the pickers, what a repertoire row
//! loads, the charts' table and the embed snippet.

use kvbudget::core::handoff::panels::{apply_plan, plan_view, PlanButton};
use kvbudget::core::handoff::{Answer, PlanView, Request, Session, SglangView};
use kvbudget::core::query::{decode, encode};
use kvbudget::core::repertoire::rows;
use kvbudget::core::scenario::{Embed, Engine, ModelChoice, PageScenario, Theme};
use kvbudget::core::units::Bytes;
use kvbudget::page::{self, Units, CHARTS};

/// SGLang's figures as the page gets them: asked of the worker's code, read back from its JSON.
fn sglang_view(s: &PageScenario) -> SglangView {
    let answer = Session::default().answer(Request::Sglang { query: encode(s) });
    match serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap() {
        Answer::Sglang(v) => v,
        other => panic!("{other:?}"),
    }
}

/// The plan of a scenario as the worker answers it.
fn plan_of(s: &PageScenario) -> Option<PlanView> {
    plan_view(s, &kvbudget::core::calc::evaluate(s).unwrap())
}

fn input(id: &str) -> &'static page::Input {
    page::all_inputs()
        .find(|i| i.id == id)
        .unwrap_or_else(|| panic!("no input {id}"))
}

#[test]
fn typed_text_commits_or_names_the_field_and_range() {
    let s = PageScenario::default();
    let t = input("ctx").commit(&s, "32,768", Units::default()).unwrap();
    assert_eq!(t.ctx, 32_768);
    // Refused text leaves the scenario as it was and says what the field accepts.
    let e = input("ctx")
        .commit(&s, "12x", Units::default())
        .unwrap_err();
    assert_eq!(
        e,
        "max_model_len: \"12x\" is not a whole number of tokens from 16 to 10,485,760"
    );
    let e = input("tp").commit(&s, "65", Units::default()).unwrap_err();
    assert_eq!(
        e,
        "tensor-parallel size must be a whole number from 1 to 64 (got 65)"
    );
    // An empty optional field returns to its default.
    let t = input("util").commit(&s, "0.5", Units::default()).unwrap();
    assert_eq!(t.util, Some(0.5));
    let t = input("util").commit(&t, " ", Units::default()).unwrap();
    assert_eq!(t.util, None);
    // Prompt and trace are refused under the field when together they exceed max_model_len
    // (8,192 by default): 4,000 + 5,000 = 9,000; 4,000 + 4,000 = 8,000 is accepted.
    let t = input("prompt")
        .commit(&s, "4000", Units::default())
        .unwrap();
    let e = input("trace")
        .commit(&t, "5000", Units::default())
        .unwrap_err();
    assert_eq!(
        e,
        "prompt + trace tokens: add up to 9,000 tokens, more than max_model_len (8,192); vLLM would reject such a request"
    );
    let t = input("trace").commit(&t, "4000", Units::default()).unwrap();
    assert_eq!(t.context(), 8000);
    // …and so is a max_model_len below them: 8,000 tokens do not fit in 4,096.
    let e = input("ctx")
        .commit(&t, "4096", Units::default())
        .unwrap_err();
    assert_eq!(
        e,
        "prompt + trace tokens: add up to 8,000 tokens, more than max_model_len (4,096); vLLM would reject such a request"
    );
    assert_eq!(
        input("ctx")
            .commit(&t, "8000", Units::default())
            .unwrap()
            .ctx,
        8000
    );
    // ...but an empty required one is refused.
    assert!(input("ctx")
        .commit(&s, "", Units::default())
        .unwrap_err()
        .contains("empty"));
}

#[test]
fn an_edited_moe_keeps_its_routed_share_of_a_logs_weights() {
    // Qwen3-30B-A3B with a log's weights of half its 61,064,245,248 B: the routed experts keep
    // their share, half of 57,982,058,496 B, when the model becomes editable geometry too.
    let (mut s, _) = kvbudget::core::query::decode("?model=Qwen/Qwen3-30B-A3B");
    s.weights = Some(Bytes(61_064_245_248 / 2));
    page::select_model(&mut s, "custom");
    let m = s.model.spec();
    assert_eq!(m.id, "Qwen/Qwen3-30B-A3B (edited)");
    assert_eq!(
        (m.weights.0, m.extras.routed.0),
        (30_532_122_624, 28_991_029_248)
    );
}

#[test]
fn weights_follow_the_chosen_unit() {
    let mut s = PageScenario::default();
    page::select_model(&mut s, "custom");
    // Picking "custom" from a preset keeps its geometry under a new name.
    assert_eq!(s.model.name(), "Qwen/Qwen3-8B (edited)");
    let gb = Units {
        weights_in_gb: true,
    };
    // 16 GB = 16 × 10⁹ B; shown back as "16.00" GB and as 16 × 10⁹ / 2³⁰ = 14.90 GiB.
    let t = page::WEIGHTS.commit(&s, "16", gb).unwrap();
    assert_eq!(t.model.spec().weights, Bytes(16_000_000_000));
    assert_eq!((page::WEIGHTS.show)(&t, gb), "16.00");
    assert_eq!((page::WEIGHTS.show)(&t, Units::default()), "14.90");
    let e = page::WEIGHTS.commit(&s, "5000", gb).unwrap_err();
    assert!(e.contains("weights") && e.contains("4,398"), "{e}");
    // A preset has no weights field to write: the scenario stays the preset.
    let p = PageScenario::default();
    let t = page::WEIGHTS.commit(&p, "3", Units::default()).unwrap();
    assert!(matches!(t.model, ModelChoice::Preset(_)));
}

#[test]
fn a_repertoire_row_loads_its_model_and_dtype_only() {
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=l40s&ctx=4096&kv=auto&tp=2&util=0.8");
    let row = rows(&s)
        .into_iter()
        .find(|r| r.key() == "Qwen3-14B-AWQ-fp8")
        .unwrap();
    let mut t = s.clone();
    row.load_into(&mut t);
    assert_eq!(t.model.name(), "Qwen/Qwen3-14B-AWQ");
    assert_eq!(t.kv.name(), "fp8");
    // Everything else stays.
    assert_eq!((t.ctx, t.tp, t.util, &t.gpu), (4096, 2, Some(0.8), &s.gpu));
}

#[test]
fn the_repertoire_table_is_the_same_for_a_scenario_and_its_key() {
    // The page draws the table from `rows_key`; a button loads the row at its index, which the
    // click reads back from `rows` of the scenario: both must list the same six rows (three
    // models × auto and FP8 on a 4090 at 8K, all of which start).
    use kvbudget::core::repertoire::rows_key;
    let (s, _) = decode("?model=Qwen/Qwen2.5-7B-Instruct&gpu=rtx-4090&ctx=8192&kv=fp8");
    let table = page::repertoire_view(&s);
    assert_eq!(table, page::repertoire_view(&rows_key(&s)));
    assert_eq!(table.rows.len(), 6);
    assert_eq!(rows(&s).len(), 6);
    for (row, of_s) in table.rows.iter().zip(rows(&s)) {
        assert_eq!(row.key, of_s.key());
    }
}

#[test]
fn the_embed_snippet_escapes_the_url() {
    let (s, _) = decode("?model=custom&name=a%22b%3Cc%3E&layers=2&heads=2&kv_heads=2&head_dim=2");
    let url = format!(
        "https://example.org/k/?{}",
        encode(&page::embedded(&s, Embed::Compact, Theme::Light))
    );
    let snippet = page::embed_snippet(&url, Embed::Compact);
    assert!(snippet.starts_with(
        "<iframe class=\"kvbudget-frame\" src=\"https://example.org/k/?model=custom&amp;name=a%22b%3Cc%3E&amp;"
    ));
    assert!(snippet.contains("embed=1&amp;theme=light\""), "{snippet}");
    // The form's open settings are the full page's, not the embed's.
    let open = PageScenario {
        more: true,
        ..s.clone()
    };
    assert!(!encode(&page::embedded(&open, Embed::Compact, Theme::Light)).contains("more"));
    assert!(snippet.contains("height=\"1900\"") && snippet.contains("allow=\"clipboard-write\""));
    // The iframe, the script and their closing tags: nothing from the name opens a tag.
    assert_eq!(snippet.matches('<').count(), 4, "{snippet}");
    assert_eq!(
        page::html_escape("<a href=\"x\">&</a>"),
        "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
    );
    assert_eq!(
        page::full_page(&page::embedded(&s, Embed::Memory, Theme::Dark)).embed,
        Embed::Full
    );
    assert_eq!(
        page::height_message(1234),
        "{\"type\":\"kvbudget:height\",\"height\":1234}"
    );
}

#[test]
fn one_chart_per_view_or_all_three() {
    let shown = |e: Embed| {
        CHARTS
            .iter()
            .filter(|c| page::chart_shown(c, e))
            .map(|c| c.testid)
            .collect::<Vec<_>>()
    };
    assert_eq!(shown(Embed::Full).len(), 3);
    assert_eq!(shown(Embed::Compact).len(), 3);
    assert_eq!(shown(Embed::Memory), ["chart-memory"]);
    assert_eq!(shown(Embed::Concurrency), ["chart-concurrency"]);
    assert_eq!(shown(Embed::Roofline), ["chart-roofline"]);
}

#[test]
fn hugging_face_ids() {
    assert!(page::valid_hf_id("Qwen/Qwen3-8B"));
    assert!(!page::valid_hf_id("Qwen"));
    assert!(!page::valid_hf_id("a/b/c"));
    assert!(!page::valid_hf_id("a/<script>"));
}

#[test]
fn the_engine_picker_and_sglang_knobs() {
    let mut s = PageScenario::default();
    assert_eq!(page::engine_value(&s), "vllm");
    assert_eq!(page::lines_heading(&s), "What vLLM 0.33 prints at startup");
    page::select_engine(&mut s, "sglang");
    assert_eq!(s.engine, Engine::Sglang);
    assert_eq!(
        page::lines_heading(&s),
        "What SGLang 0.5.23 prints at startup"
    );
    // The defaults as placeholders: 0.704 on a 4090 (7,280 MiB reserved of 24,564), page 1,
    // chunked prefill 4,096. Until the worker has answered, they say "SGLang default".
    let sg = sglang_view(&s);
    assert_eq!(
        page::placeholder("mfs", &s, None, Some(&sg)),
        "0.704 (SGLang 0.5.23 default here)"
    );
    assert_eq!(
        page::placeholder("page_size", &s, None, Some(&sg)),
        "1 (SGLang default)"
    );
    assert_eq!(
        page::placeholder("chunked", &s, None, Some(&sg)),
        "4096 (SGLang 0.5.23 default here)"
    );
    assert_eq!(page::placeholder("mfs", &s, None, None), "SGLang default");
    let t = input("mfs").commit(&s, "0.85", Units::default()).unwrap();
    assert_eq!(t.sglang.mem_fraction_static, Some(0.85));
    let e = input("mfs")
        .commit(&s, "1.2", Units::default())
        .unwrap_err();
    assert!(e.contains("mem_fraction_static"), "{e}");
    let t = input("mfs").commit(&t, "", Units::default()).unwrap();
    assert_eq!(t.sglang.mem_fraction_static, None);
    let t = input("chunked").commit(&s, "-1", Units::default()).unwrap();
    assert_eq!(t.sglang.chunked_prefill_size, Some(-1));
    page::select_sglang_version(&mut s, "0.5.3");
    assert_eq!(
        s.sglang.version.map(|v| v.to_string()).as_deref(),
        Some("0.5.3")
    );
    assert_eq!(decode(&encode(&s)).0, s);
}

#[test]
fn sglang_stats_and_lines() {
    let s = PageScenario {
        engine: Engine::Sglang,
        ..PageScenario::default()
    };
    let v = sglang_view(&s);
    // SGLang's headline under the testids of vLLM's: 0 sequences of 8,192 tokens, since the pool
    // holds 7,422 tokens of 147,456 B (K and V: 36 layers × 8 heads × 128 × 2 × 2 B), allocated with
    // one padding row (a page of 1) as (7,422 + 1) × 147,456 = 1,094,565,888 B; then
    // mem_fraction_static.
    let [seqs, bpt, pool, tokens, mfs] = <[_; 5]>::try_from(v.engine.stats.clone()).unwrap();
    assert_eq!(
        (seqs.testid.as_str(), seqs.value.as_str()),
        ("max-seqs", "0")
    );
    assert_eq!(
        seqs.sub,
        "one sequence takes 8,192 tokens; the pool holds 7,422"
    );
    assert_eq!(
        (bpt.testid.as_str(), bpt.value.as_str()),
        ("bytes-per-token", "147456")
    );
    assert_eq!(
        (pool.testid.as_str(), pool.value.as_str()),
        ("kv-pool-bytes", "1094565888")
    );
    assert_eq!(
        (tokens.testid.as_str(), tokens.value.as_str()),
        ("kv-tokens", "7422")
    );
    assert_eq!(tokens.text, "7,422 tokens");
    assert_eq!(mfs.value, "0.704");
    assert_eq!(
        mfs.sub,
        "SGLang 0.5.23's default: 7,280 MiB reserved of 24,564 MiB"
    );
    let lines = &v.engine.lines;
    assert!(
        lines.starts_with("Load weight begin. avail mem=23.14 GB\n"),
        "{lines}"
    );
    assert!(lines.contains("#tokens: 7422, K size: 0.51 GB, V size: 0.51 GB"));
    assert_eq!(page::tokens_cell(None), "— (refuses)");
    // A refusal ends the lines with SGLang's exception.
    let l4 = PageScenario {
        gpu: kvbudget::core::scenario::GpuChoice::Preset(
            kvbudget::core::presets::gpu("l4").unwrap(),
        ),
        ..s.clone()
    };
    let v4 = sglang_view(&l4);
    let last = v4.engine.lines.lines().last().unwrap();
    assert!(
        last.starts_with("ValueError: Loaded weights leave no GPU memory"),
        "{last}"
    );
    assert_eq!(v4.engine.stats[0].sub, "SGLang would not start");
    // The answer bar follows the engine (and says SGLang is being computed until it is).
    let e = kvbudget::core::calc::evaluate(&s).unwrap();
    let e0 = e.clone();
    assert_eq!(
        page::engine_answer(&s, &e, Some(&v.engine)),
        (
            "0 sequences of 8,192 tokens fit under SGLang 0.5.23 · Qwen/Qwen3-8B · auto KV · RTX 4090".into(),
            false
        )
    );
    let vllm = PageScenario::default();
    assert_eq!(
        page::engine_answer(&vllm, &e, None).0,
        page::answer(&vllm, &e)
    );
    assert_eq!(
        page::engine_answer(&s, &e, None),
        ("Computing SGLang's figures…".into(), false)
    );
    let e = kvbudget::core::calc::evaluate(&l4).unwrap();
    assert!(page::engine_answer(&l4, &e, Some(&v4.engine)).1);
    // vLLM, then SGLang, on the same GPU; the SGLang row holds the view's figures.
    assert_eq!(v.rows.len(), 2);
    assert_eq!(
        (v.rows[1].engine.as_str(), v.rows[1].tokens),
        ("SGLang", Some(7422))
    );
    // As the results panel shows it: the figures and both engines' rows with their exact values,
    // and text from the worker escaped.
    let mut hostile = v.clone();
    hostile.engine.notes.push("<script>x</script>".into());
    let html = rendered::sglang(hostile.clone(), false);
    // The results' top draws SGLang's headline, none of vLLM's (34,672 tokens here).
    let words = kvbudget::core::explain::explain(&s, &e0);
    let top = rendered::top(page::top_view(
        &s,
        &e0,
        &words,
        page::Fixes::Checking,
        Some((Some(&hostile.engine), true)),
        Some(page::SglangPanel {
            view: v.clone(),
            stale: false,
        }),
    ));
    // SGLang's notes from the worker, escaped.
    assert!(
        top.contains("&lt;script&gt;") && !top.contains("<script>"),
        "{top}"
    );
    assert!(
        top.contains(r#"data-testid="kv-tokens" data-value="7422""#),
        "{top}"
    );
    assert_eq!(
        top.matches(r#"data-testid="kv-tokens""#).count(),
        1,
        "{top}"
    );
    // The embedded card shows SGLang's figures and lines too; before the worker answers, none.
    let card = page::card_view(&s, &e0, Some((Some(&v.engine), true)));
    assert_eq!(
        (card.stats[3].testid.as_str(), card.stats[3].value.as_str()),
        ("kv-tokens", "7422")
    );
    assert!(card
        .lines
        .starts_with("Load weight begin. avail mem=23.14 GB\n"));
    let pending = page::card_view(&s, &e0, Some((None, false)));
    assert!(pending.stats.is_empty());
    assert_eq!(pending.lines, "Computing SGLang's figures…");
    // vLLM's 34,672 tokens are in the comparison only.
    assert!(top.contains(r#"data-testid="compare-vllm-tokens" data-value="34672""#));
    assert!(html.contains(r#"data-testid="compare-sglang-tokens" data-value="7422""#));
    assert!(!html.contains("stale"));
    // The page shows an older panel dimmed while the worker computes the current one.
    let stale = rendered::sglang(hostile, true);
    assert!(
        stale.starts_with(r#"<div aria-busy="true" class="stale">"#),
        "{stale}"
    );
}

#[test]
fn the_results_html_escapes_what_users_type_and_carries_the_test_ids() {
    use kvbudget::core::calc::evaluate;
    use kvbudget::core::explain::explain;
    use kvbudget::core::fixes::fixes;
    let evil = "<img src=x onerror=alert(1)>\"&";
    let (s, _) = decode(&format!(
        "?model=custom&name={}&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=30&gpu=rtx-4090",
        urlencode(evil)
    ));
    let o = evaluate(&s).unwrap();
    let words = explain(&s, &o);
    // 30 GiB of weights do not load on a 24 GB card: a refusal with its fixes.
    let f: Vec<_> = fixes(&s, &o)
        .into_iter()
        .map(|f| kvbudget::core::handoff::FixView {
            key: f.change.key().into(),
            label: f.label,
        })
        .collect();
    let mut top = page::top_view(&s, &o, &words, page::Fixes::Found(f.clone()), None, None);
    top.lines = "ValueError: <oops>".into();
    let top = rendered::top(top);
    let mut bottom = page::bottom_view(&o, &words, None);
    bottom.serve = "vllm serve 'a<b'".into();
    let bottom = rendered::bottom(bottom);
    for html in [&top, &bottom] {
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("<oops>"));
    }
    // (In text, `"` needs no escape.)
    assert!(
        top.contains(r#"&lt;img src=x onerror=alert(1)&gt;"&amp;"#),
        "{top}"
    );
    assert!(top.contains(r#"data-testid="refusal" data-value="weights-do-not-fit""#));
    assert!(top.contains(r#"data-testid="max-seqs" data-value="0""#));
    // A button for each fix.
    assert!(!f.is_empty());
    assert_eq!(top.matches(r#"data-testid="fix""#).count(), f.len());
    // Attribute values are double-quoted, so a single quote needs no escape; `<` does.
    assert!(bottom.contains(r#"data-testid="serve-command" data-value="vllm serve 'a&lt;b'""#));
    assert!(bottom.contains(r#"data-testid="derivations""#));
}

fn urlencode(s: &str) -> String {
    s.bytes().map(|b| format!("%{b:02X}")).collect()
}

#[test]
fn the_log_comparison_html_escapes_the_log_and_names_its_jobs() {
    use kvbudget::core::handoff::log::{LogRow, LogView};
    // A log's text reaches these cells: a model name with markup in it must stay text.
    let row = LogRow {
        key: "tokens".into(),
        what: "KV cache tokens".into(),
        predicted: "72,496".into(),
        printed: "<img src=x>".into(),
        difference: "-16".into(),
        difference_text: "−16".into(),
        why: "a & b".into(),
    };
    let v = LogView {
        mismatches: vec!["model: <b>x</b> here".into()],
        rows: vec![row],
    };
    let html = page::log_compare_html("vllm", Some(&v));
    assert!(html.contains("&lt;img src=x&gt;") && !html.contains("<img"));
    assert!(html.contains("a &amp; b") && html.contains("&lt;b&gt;x&lt;/b&gt;"));
    assert!(html.contains(r#"<tr data-row="tokens" data-diff="-16">"#));
    for job in ["log_align", "log_adopt", "log_report"] {
        assert!(html.contains(&format!(r#"data-log-job="{job}""#)), "{job}");
    }
    // SGLang's table has its own adopt button and no vLLM actions; nothing read, nothing shown.
    let sg = page::log_compare_html("sglang", Some(&v));
    assert!(
        sg.contains("log-adopt-sglang")
            && !sg.contains("log_report")
            && !sg.contains("log-mismatch")
    );
    assert_eq!(page::log_compare_html("none", None), "");
    // A vLLM log whose answer is not in yet still offers its actions.
    assert!(page::log_compare_html("vllm", None).contains("log-download"));
    // A reason the row above gives already is a ditto mark: three rows, one sentence.
    let mut rows = vec![v.rows[0].clone(); 3];
    rows[1].key = "pool".into();
    rows[2].key = "seqs".into();
    rows[2].why = "another reason".into();
    let html = page::log_compare_html(
        "vllm",
        Some(&LogView {
            mismatches: vec![],
            rows,
        }),
    );
    // (The repeat stays for a screen reader, hidden from sight.)
    assert_eq!(html.matches("a &amp; b").count(), 2, "{html}");
    assert_eq!(
        html.matches(r#"<span aria-hidden="true">〃</span><span class="sr-only">a &amp; b</span>"#)
            .count(),
        1,
        "{html}"
    );
    assert!(html.contains("another reason"));
}

#[test]
fn the_plan_panel_states_the_plan_and_applies_it() {
    use kvbudget::core::calc::evaluate;
    // Qwen3-8B BF16 on an RTX 4090, 2 sequences of 8,192 tokens: 1,025 blocks × 2,359,296 B =
    // 2,418,278,400 B of --kv-cache-memory (tests/calc.rs derives it).
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=2");
    let o = evaluate(&s).unwrap();
    let html = page::plan_html(&plan_of(&s).unwrap(), s.tp);
    assert!(html.contains(r#"data-testid="plan-kv-bytes" data-value="2418278400">2,418,278,400<"#));
    assert!(html.contains(r#"data-plan-apply="kv""#));
    // The smallest TP size that holds them is 1, the one already set: no button for it; from a
    // scenario at TP 2, one.
    assert!(
        html.contains(r#"data-testid="plan-tp" data-value="1""#),
        "{html}"
    );
    assert!(!html.contains(r#"data-plan-apply="tp""#));
    assert!(page::plan_html(&plan_of(&s).unwrap(), 2).contains(r#"data-plan-apply="tp""#));
    let mut t = s.clone();
    apply_plan(&mut t, &s, &o, PlanButton::Kv);
    assert_eq!(t.kv_memory, Some(Bytes(2_418_278_400)));
    // The utilization button sets the safe end of the range it states.
    let mut u = s.clone();
    apply_plan(&mut u, &s, &o, PlanButton::Util);
    let safe = u.util.expect("a utilization");
    assert!(html.contains(&format!("{safe}")), "{html}");
    // No plan asked, no panel.
    assert_eq!(plan_of(&PageScenario::default()), None);
}

#[test]
fn a_plan_button_applies_the_plan_shown_even_after_a_refused_edit() {
    use kvbudget::core::calc::evaluate;
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=2");
    let o = evaluate(&s).unwrap();
    // The scenario as edited since differs (a longer context); the button applies the figure the
    // panel states for the scenario shown: 2,418,278,400 B (tests/calc.rs).
    let mut edited = s.clone();
    edited.ctx = 65_536;
    apply_plan(&mut edited, &s, &o, PlanButton::Kv);
    assert_eq!(edited.kv_memory, Some(Bytes(2_418_278_400)));
    assert_eq!(edited.ctx, 65_536);
}

#[test]
fn the_frame_the_tables_and_the_drop_panels_as_html_text() {
    use kvbudget::core::i18n::Lang;
    // The switch shows the page's language; each language is named in itself.
    let h = page::header_html(Lang::ZhCn);
    assert!(
        h.contains(r#"<option value="zh-CN" lang="zh-CN" selected>简体中文</option>"#),
        "{h}"
    );
    assert!(
        h.contains(r#"<option value="en" lang="en">English</option>"#),
        "{h}"
    );
    assert!(h.contains(r##"<a class="skip" href="#results-title">"##));
    // A table: its caption escaped, a header cell per column, the rows as given.
    let t = page::table_html(r#" data-testid="x""#, "a<b", &["one", "two"], "<tr></tr>");
    assert_eq!(
        t,
        r#"<table class="rep" data-testid="x"><caption>a&lt;b</caption><thead><tr><th scope="col">one</th><th scope="col">two</th></tr></thead><tbody><tr></tr></tbody></table>"#
    );
    // A drop panel's inputs: labels escaped, the button names the text area it takes.
    let f = page::drop_fields_html(("t", "Paste <it>", "tt"), ("Take", "bt"), ("f", ".json"));
    assert!(
        f.contains(r#"<label for="t">Paste &lt;it&gt;</label>"#),
        "{f}"
    );
    assert!(
        f.contains(r#"<button type="button" data-testid="bt" data-take="t">Take</button>"#),
        "{f}"
    );
    assert!(
        f.contains(r#"<input id="f" type="file" accept=".json">"#),
        "{f}"
    );
}

#[test]
fn a_refusal_reads_as_one_everywhere() {
    use kvbudget::core::calc::evaluate;
    use kvbudget::core::explain::explain;
    // Qwen3-8B on an RTX 4090 at utilization 0.5: ⌈25,286,619,955 × 0.5⌉ = 12,643,309,978 B
    // requested, less 16,396,037,652 B of weights and the estimated overhead: no KV memory.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.5");
    let o = evaluate(&s).unwrap();
    assert!(o.chosen.report.refusal.is_some());
    // The embed's headline says vLLM would not start, not "0 sequences … fit".
    assert_eq!(
        page::embed_headline(&s, &o),
        "Qwen/Qwen3-8B on RTX 4090 (auto KV): vLLM would not start (no KV memory)"
    );
    // The roofline's value: nothing decodes.
    let roof = CHARTS
        .iter()
        .find(|c| c.testid == "chart-roofline")
        .unwrap();
    let d = kvbudget::core::chart_data::build(&s, &o).unwrap();
    assert_eq!((roof.value)(&d), "0");
    // The pool's derivation writes the shortfall with its sign and separators.
    let pool = explain(&s, &o)
        .derivations
        .into_iter()
        .find(|(term, _)| *term == "KV pool")
        .unwrap()
        .1;
    let shortfall = o.chosen.pool.unsigned_abs() as u64;
    assert!(
        pool.ends_with(&format!(
            "−{} B: nothing left for the KV cache",
            kvbudget::core::units::thousands(shortfall)
        )),
        "{pool}"
    );
}

/// The three charts are drawn for the repertoire's scenarios as for a refused one, and a
/// scenario that does not evaluate has none to draw.
#[test]
fn the_repertoire_and_a_refusal_draw_their_three_charts() {
    use kvbudget::core::calc::evaluate;
    use kvbudget::core::chart_data;
    let width = 640;
    for q in [
        "?model=Qwen/Qwen3-8B&gpu=rtx-4090",
        "?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192",
        "?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&ctx=32768",
        // Refused (the weights alone do not fit a 4090): the refusal's pictures are drawn too.
        "?model=Qwen/Qwen3-14B&gpu=rtx-4090",
    ] {
        let s = decode(q).0;
        let o = evaluate(&s).unwrap();
        let d = chart_data::build(&s, &o).unwrap();
        let svgs: usize = CHARTS
            .iter()
            .map(|c| page::chart_svg(c, &d, width).len())
            .sum();
        assert!(svgs > 1_000, "{q}: {svgs}");
    }
    // A prompt + trace of 0 tokens does not evaluate (it must be at least 1 token).
    let none = PageScenario {
        prompt: Some(0),
        trace: Some(0),
        ..PageScenario::default()
    };
    assert!(evaluate(&none).is_err());
}

#[test]
fn a_plan_past_max_num_seqs_says_so_and_raises_it() {
    use kvbudget::core::calc::evaluate;
    // Qwen3-8B on an A100 80GB at TP 2, 400 sequences of 2,048 tokens: the memory holds them
    // (446 fit at the page's settings), but vLLM's default max_num_seqs there is 256, so at most
    // 256 run at once. The plan used to offer a utilization and a TP size and stop there.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=a100-80gb&ctx=2048&tp=2&plan=400");
    let o = evaluate(&s).unwrap();
    assert_eq!(s.seqs(), 256);
    let html = page::plan_html(&plan_of(&s).unwrap(), s.tp);
    assert!(
        html.contains("max_num_seqs 256 runs at most 256 sequences at once; for 400 at once, also set <strong>--max-num-seqs 400</strong>"),
        "{html}"
    );
    let mut t = s.clone();
    apply_plan(&mut t, &s, &o, PlanButton::Seqs);
    assert_eq!(t.seqs, Some(400));
    // 200 sequences are within the cap: nothing to raise.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=a100-80gb&ctx=2048&tp=2&plan=200");
    assert!(!page::plan_html(&plan_of(&s).unwrap(), s.tp).contains("plan-seqs"));
}

#[test]
fn an_embed_built_from_an_sglang_page_asks_for_vllm() {
    // An embedded card shows vLLM's answer and startup lines; built from a page under SGLang, its
    // address said engine=sglang, so the card read as SGLang's answer (4 sequences where SGLang
    // fits 0 for Qwen3-8B on an RTX 4090 at its 40,960 tokens). The embed's address asks for vLLM.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&engine=sglang");
    let q = encode(&page::embedded(&s, Embed::Compact, Theme::Light));
    assert!(!q.contains("engine"), "{q}");
    assert!(q.contains("model=Qwen%2FQwen3-8B"), "{q}");
}

#[test]
fn where_vllm_refuses_the_formula_line_says_so_not_that_its_blocks_give_0() {
    use kvbudget::core::calc::evaluate;
    use kvbudget::core::explain::explain;
    // Qwen3-8B at TP 3 refuses (32 heads do not split over 3 GPUs), yet the formula's pool holds
    // ⌊67,043,606,964 / 301,989,888⌋ = 222 sequences. The line read "vLLM's whole 16-token blocks
    // give 0": the 0 is the refusal's, not the blocks'.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&tp=3&gpu=h100-sxm");
    let o = evaluate(&s).unwrap();
    assert!(o.chosen.report.refusal.is_some());
    let words = explain(&s, &o);
    let bottom = rendered::bottom(page::bottom_view(&o, &words, None));
    assert!(
        bottom.contains("sequences by the formula: 222; vLLM would not start (above), so none run"),
        "{bottom}"
    );
    // Where it starts, the blocks' count stays: Qwen3-8B on an RTX 4090 at 8,192 tokens, 4. Said
    // as "sequences by …: N", never "1 sequences".
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192");
    let o = evaluate(&s).unwrap();
    let bottom = rendered::bottom(page::bottom_view(&o, &explain(&s, &o), None));
    assert!(
        bottom.contains("by vLLM's whole 16-token blocks: 4"),
        "{bottom}"
    );
    // At 32,768 tokens: 5,112,945,822 B // (32,768 × 147,456 B = 4,831,838,208 B) = 1.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=32768");
    let o = evaluate(&s).unwrap();
    let bottom = rendered::bottom(page::bottom_view(&o, &explain(&s, &o), None));
    assert!(bottom.contains("sequences by the formula: 1;"), "{bottom}");
    assert!(!bottom.contains("1 sequences"), "{bottom}");
}

#[test]
fn the_prerendered_page_shows_the_scenario_in_its_form_and_answer() {
    // The default scenario: Qwen3-8B BF16 on an RTX 4090 at 8,192 tokens; vLLM's cache of
    // 34,672 tokens holds ⌊34,672 / 8,192⌋ = 4 sequences.
    let html = page::prerender(&PageScenario::default(), 720).unwrap();
    assert!(html.contains(r#"data-testid="max-seqs" data-value="4""#));
    assert!(html.contains(r#"<option value="rtx-4090" selected>"#));
    assert!(html.contains(r#"id="ctx" type="text""#) && html.contains(r#" value="8192" "#));
    // The closed panels (the form's other settings, the config import, the log check) show only
    // their summaries before the app replaces the page: their content is left out.
    assert!(!html.contains(r#"id="tp""#) && !html.contains(r#"id="config-text""#));
    assert!(!html.contains(r#"id="log-text""#));
    assert!(html.contains(r#"data-testid="more-settings"><summary>"#));
    // The three charts are drawn, the first in the box the app measures; the actions show; the
    // form takes no typing until the app replaces it.
    assert_eq!(html.matches("<svg").count(), 3);
    assert_eq!(
        html.matches(r#"class="chart__svg" id="boot-chart""#)
            .count(),
        1
    );
    assert!(html.contains(r#"<form class="inputs" inert "#));
    assert!(html.contains(r#"id="actions">"#) && !html.contains(r#"id="actions" hidden"#));
    // Text from a scenario reaches the form's attributes escaped.
    let evil = "<img src=x onerror=alert(1)>\"";
    let (s, _) = decode(&format!(
        "?model=custom&name={}&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=10&gpu=h100-sxm",
        evil.bytes().map(|b| format!("%{b:02X}")).collect::<String>()
    ));
    let html = page::prerender(&s, 720).unwrap();
    assert!(
        !html.contains("<img"),
        "markup from the URL reached the page"
    );
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;&quot;"));
    // The custom model's block shows (the app shows it the same way).
    assert!(html.contains(r#"data-when="custom-model">"#));
}

/// The results' components rendered to HTML, as the page written at build time renders them.
mod rendered {
    use kvbudget::core::handoff::sglang::SglangView;
    use kvbudget::core::i18n::Lang;
    use kvbudget::page::{self, BottomView, TopView};
    use kvbudget::view::{self, ResultsBottom, ResultsTop, SglangPanel};
    use leptos::prelude::*;

    pub fn top(top: TopView) -> String {
        view::to_html(Lang::En, || {
            view! { <ResultsTop top=Some(top) on_fix=Callback::new(|_| {}) /> }
        })
    }

    pub fn bottom(bottom: BottomView) -> String {
        view::to_html(Lang::En, || view! { <ResultsBottom bottom=Some(bottom) /> })
    }

    pub fn sglang(view: SglangView, stale: bool) -> String {
        let panel = page::SglangPanel { view, stale };
        view::to_html(Lang::En, || view! { <SglangPanel panel /> })
    }
}
