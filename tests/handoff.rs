//! The page and its worker talk in typed requests and answers sent in a compact binary format
//! (`core::handoff::to_wire`): what the worker answers must read back to exactly what the core
//! computes directly.

use kvbudget::core::config::import;
use kvbudget::core::handoff::{Answer, ImportView, LogStatus, LogView, Request, Session};
use kvbudget::core::query;
use kvbudget::core::scenario::{ModelChoice, PageScenario};

/// `request` as the page sends it, answered by the worker's session, and the answer read back as
/// the page reads it.
mod common;
use common::ask_of as ask;

/// A request of a fresh session.
fn answer(request: Request) -> Answer {
    ask(&mut Session::default(), request)
}

fn import_of(name: &str, text: &str) -> Result<ImportView, String> {
    match answer(Request::Import {
        name: name.into(),
        text: text.into(),
    }) {
        Answer::Imported(v) => Ok(v),
        Answer::Failed(e) => Err(e),
        other => panic!("{other:?}"),
    }
}

/// Has the session read `text`: what it said.
fn read_log(w: &mut Session, text: &str) -> LogStatus {
    match ask(w, Request::ReadLog { text: text.into() }) {
        Answer::LogRead(st) => st,
        other => panic!("{other:?}"),
    }
}

/// The kept log's status and comparison beside the scenario `q`, or why there is none.
fn panel(w: &mut Session, q: &str) -> Result<(LogStatus, Option<LogView>), String> {
    match ask(
        w,
        Request::LogPanel {
            query: q.into(),
            reads: 1,
        },
    ) {
        Answer::LogPanel { status, view } => Ok((status, view)),
        Answer::Failed(e) => Err(e),
        other => panic!("{other:?}"),
    }
}

fn view(w: &mut Session, q: &str) -> LogView {
    panel(w, q).unwrap().1.unwrap()
}

fn adopt_log(w: &mut Session, q: &str) -> (PageScenario, Vec<String>) {
    read_scenario(ask(w, Request::LogAdopt { query: q.into() })).unwrap()
}

use kvbudget::core::handoff::read_scenario;

fn fixture(dir: &str, name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{dir}/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn an_import_reads_back_to_the_same_model() {
    for name in [
        "Qwen3.5-9B",
        "gpt-oss-20b",
        "DeepSeek-V3.2",
        "Qwen3-14B-AWQ",
    ] {
        let text = fixture("configs", &format!("{name}.json"));
        let direct = import(&text, name).unwrap();
        let back = import_of(name, &text).unwrap();
        assert_eq!(
            back.model(),
            ModelChoice::Custom(direct.spec.clone()),
            "{name}"
        );
        assert_eq!(back.default_max_model_len, direct.default_max_model_len);
        assert_eq!(back.summary, direct.summary());
        assert_eq!(back.notes, direct.notes);
    }
}

#[test]
fn an_import_error_reads_back_as_the_message() {
    let e = import_of("x", &fixture("configs", "broken.json"));
    assert!(e.unwrap_err().starts_with("config.json: is not valid JSON"));
    // A message that is no request of this protocol does not read as one.
    assert!(serde_json::from_str::<Request>(r#"{"unknown":{}}"#).is_err());
    // Nor bytes that are no request: a variant index past the last (postcard writes an enum's
    // variant as a varint; 200 is past `Request`'s 15), or a message cut short.
    assert!(kvbudget::core::handoff::from_wire::<Request>(&[200, 1]).is_none());
    let whole = kvbudget::core::handoff::to_wire(&Request::Sglang {
        query: "?engine=sglang".into(),
    })
    .unwrap();
    assert!(kvbudget::core::handoff::from_wire::<Request>(&whole[..whole.len() - 1]).is_none());
}

#[test]
fn the_kv_report_comes_back_as_the_lab_json() {
    // Qwen3-14B at 0.11 beside a two-line V1 log: the lab's keys, the log's figures.
    let s = PageScenario::default();
    let log = fixture("logs", "v1_0.11_two_line.log");
    let mut w = Session::default();
    read_log(&mut w, &log);
    let Answer::Report(json) = ask(
        &mut w,
        Request::LogReport {
            query: query::encode(&s),
        },
    ) else {
        panic!("no report")
    };
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The log printed 42,656 tokens; at the default scenario's context that is 42,656 // ctx
    // whole sequences.
    assert_eq!(v["vllm_total_cached_tokens"], 42_656);
    assert_eq!(v["vllm_implied_max_seqs_at_ctx"], 42_656 / s.context());
    assert!(v["prediction"].is_object(), "{json}");
    assert!(json.ends_with('\n'));
}

#[test]
fn the_worker_keeps_a_vllm_log_and_compares_each_scenario_with_it() {
    use kvbudget::core::verify::adopt;
    use kvbudget::core::vllm::logparse::parse;
    let text = fixture("logs", "v1_0.11_two_line.log");
    let mut w = Session::default();
    // Before any log, the questions are refused.
    assert_eq!(panel(&mut w, "?").unwrap_err(), "no log has been read");
    let status = read_log(&mut w, &text);
    assert_eq!(
        (status.kind.as_str(), status.verdict.as_str()),
        ("vllm", "started")
    );
    // The 0.11 log of Qwen3-14B printed 42,656 tokens.
    assert!(
        status.message.contains("42,656 tokens of KV cache"),
        "{}",
        status.message
    );
    let (s, _) = query::decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    let q = query::encode(&s);
    let v = view(&mut w, &q);
    // The model differs (8B here, 14B in the log), so it is among the mismatches.
    assert!(
        v.mismatches.iter().any(|m| m.starts_with("model: ")),
        "{:?}",
        v.mismatches
    );
    assert!(
        v.rows
            .iter()
            .any(|r| r.key == "tokens" && r.printed == "42,656"),
        "{:?}",
        v.rows
    );
    // Adopting through the worker gives what adopting directly gives.
    let (direct, notes) = adopt(&s, &parse(&text));
    let (back, lines) = adopt_log(&mut w, &q);
    assert_eq!(back, direct);
    assert_eq!(lines[0], "Adopted the log's numbers:");
    assert_eq!(&lines[1..], &notes[..]);
    let (aligned, _) = read_scenario(ask(&mut w, Request::LogAlign { query: q })).unwrap();
    assert_eq!(aligned.model.name(), "Qwen/Qwen3-14B");
    assert_eq!(aligned.ctx, 32_768);
}

#[test]
fn the_worker_reads_an_sglang_log_and_a_log_without_figures() {
    let mut w = Session::default();
    let status = read_log(&mut w, &fixture("logs", "sglang_0.5.8_capped.log"));
    assert_eq!(
        (status.kind.as_str(), status.verdict.as_str()),
        ("sglang", "started")
    );
    // max_total_num_tokens=20480 in the log.
    assert!(
        status.message.contains("a pool of 20,480 tokens"),
        "{}",
        status.message
    );
    let q = query::encode(&PageScenario::default());
    let v = view(&mut w, &q);
    assert_eq!(v.rows[0].what, "pool (max_total_num_tokens)");
    assert_eq!(v.rows[0].printed, "20,480");
    let (s, notes) = adopt_log(&mut w, &q);
    assert_eq!(s.sglang.mem_fraction_static, Some(0.847));
    assert_eq!(notes[0], "Adopted the SGLang log's numbers:");
    // A log without KV figures is read, says what was looked for, and is not kept.
    let status = read_log(&mut w, &fixture("logs", "no_kv_line.log"));
    assert_eq!(
        (status.kind.as_str(), status.verdict.as_str()),
        ("none", "no-kv-line")
    );
    assert!(status
        .message
        .starts_with("No KV cache figures in this log"));
    assert!(panel(&mut w, &q).is_err());
    // A log cut short after "Available KV cache memory: 6.51 GiB" (as a refusal's log often is):
    // read, kept, compared on that line, and adopting takes that memory, ⌊6.51 × 2³⁰⌋ =
    // 6,990,059,274 B.
    let cut: String = fixture("logs", "v1_0.11_two_line.log")
        .lines()
        .take_while(|l| !l.contains("GPU KV cache size"))
        .map(|l| format!("{l}\n"))
        .collect();
    let status = read_log(&mut w, &cut);
    assert_eq!(
        (status.kind.as_str(), status.verdict.as_str()),
        ("vllm", "no-kv-line")
    );
    assert_eq!(
        status.message,
        "vLLM 0.11.0, Qwen/Qwen3-14B: the log ends after “Available KV cache memory: 6.51 GiB”, before vLLM printed its cache size or an error (cut short, or it stopped there); the comparison below uses what it has."
    );
    let v = view(&mut w, &q);
    let available = v.rows.iter().find(|r| r.key == "available").unwrap();
    assert_eq!(available.printed, "6.51 GiB");
    // (On a GPU that holds it beside the log's 27.52 GiB of weights: an H100.)
    let h100 = query::encode(&query::decode("?gpu=h100-sxm").0);
    let (s, _) = adopt_log(&mut w, &h100);
    assert_eq!(s.kv_memory.map(|b| b.0), Some(6_990_059_274));
}

#[test]
fn the_worker_sends_the_chinese_texts_by_their_english_twins() {
    use kvbudget::core::i18n::{self, Lang};
    let Answer::Texts(pairs) = answer(Request::Texts) else {
        panic!("no texts")
    };
    assert_eq!(pairs.len(), i18n::zh_pairs().len());
    assert!(pairs.contains(&("Language".to_string(), "语言".to_string())));
    // Loaded from the answer, the page's texts are Chinese.
    i18n::load_zh(pairs);
    i18n::set_lang(Lang::ZhCn);
    let zh = kvbudget::core::t!(RS_STAT_POOL);
    i18n::set_lang(Lang::En);
    assert_eq!(
        (zh, kvbudget::core::t!(RS_STAT_POOL)),
        ("KV 缓存池", "KV pool")
    );
}

#[test]
fn the_kept_log_says_its_status_again_in_another_language_without_being_read_again() {
    use kvbudget::core::i18n::{self, Lang};
    let mut w = Session::default();
    read_log(&mut w, &fixture("logs", "v1_0.11_two_line.log"));
    i18n::load_builtin_zh();
    i18n::set_lang(Lang::ZhCn);
    let (zh, _) = panel(&mut w, "").unwrap();
    i18n::set_lang(Lang::En);
    // The 0.11 log of Qwen3-14B: started with 42,656 tokens of KV cache.
    assert_eq!(
        zh.message,
        "vLLM 0.11.0，Qwen/Qwen3-14B：已启动，KV 缓存共 42,656 个 token。"
    );
    assert_eq!((zh.kind.as_str(), zh.verdict.as_str()), ("vllm", "started"));
    // An SGLang log has no lab report here.
    read_log(&mut w, &fixture("logs", "sglang_0.5.8_capped.log"));
    let q = query::encode(&PageScenario::default());
    assert!(matches!(
        ask(&mut w, Request::LogReport { query: q }),
        Answer::Failed(_)
    ));
}

#[test]
fn an_sglang_log_without_its_model_reads_as_a_sentence() {
    // It said "SGLang, This SGLang log: started, …".
    let log = kvbudget::core::sglang::logparse::parse(
        "[2026-01-01 00:00:00] max_total_num_tokens=444500, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=131072\n",
    );
    let (verdict, text) = kvbudget::core::handoff::log::sglang_log_status(&log);
    assert_eq!(verdict, "started");
    assert_eq!(
        text,
        "SGLang, model not named in the log: started, with a pool of 444,500 tokens."
    );
}

#[test]
fn an_sglang_pool_line_whose_figure_is_not_a_count_is_named() {
    // #tokens: 99999999999999999999999 is past 2⁶⁴ − 1 (18,446,744,073,709,551,615): the status
    // quotes the line and says its figure is not a count, instead of "no pool line".
    let line =
        "KV Cache is allocated. #tokens: 99999999999999999999999, K size: 1.00 GB, V size: 1.00 GB";
    let log =
        kvbudget::core::sglang::logparse::parse(&format!("[2026-01-01 00:00:00 TP0] {line}\n"));
    let (verdict, text) = kvbudget::core::handoff::log::sglang_log_status(&log);
    assert_eq!(verdict, "no-kv-line");
    assert!(
        text.contains("not a count") && text.contains(line),
        "{text}"
    );
    // With a readable count, the pool is read as before.
    let log = kvbudget::core::sglang::logparse::parse(
        "[2026-01-01 00:00:00 TP0] KV Cache is allocated. #tokens: 444500, K size: 1.00 GB, V size: 1.00 GB\n",
    );
    assert_eq!(log.pool_line_not_a_count(), None);
    assert_eq!(
        kvbudget::core::handoff::log::sglang_log_status(&log).0,
        "started"
    );
}

/// What the page could not take whole is refused with its cause, and the page keeps what it has
/// (not "using the default", which is a URL's fallback). A config whose max_position_embeddings
/// is 2⁴¹ is past the 2⁴⁰ tokens a max_pos takes.
/// A log whose "Available KV cache memory" is 0.00 GiB (under 0.005 GiB) is adopted as 1 B of KV
/// memory, with which the page refuses to start as vLLM did (0 B is no figure a page takes).
#[test]
fn what_the_page_cannot_take_is_refused_with_its_cause() {
    let text = fixture("configs", "Qwen3-14B-AWQ.json");
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["max_position_embeddings"] = serde_json::json!(1u64 << 41);
    let e = import_of("x", &json.to_string()).unwrap_err();
    assert!(
        e.starts_with("kvbudget cannot take this model: max_pos"),
        "{e}"
    );
    assert!(e.ends_with("Nothing was imported."), "{e}");
    assert!(!e.contains("using the default"), "{e}");

    let mut w = Session::default();
    let cut: String = fixture("logs", "v1_0.11_two_line.log")
        .lines()
        .take_while(|l| !l.contains("GPU KV cache size"))
        .map(|l| format!("{}\n", l.replace("6.51 GiB", "0.00 GiB")))
        .collect();
    assert!(cut.contains("Available KV cache memory: 0.00 GiB"));
    read_log(&mut w, &cut);
    // (On an H100, which holds the log's 27.52 GiB of weights.)
    let q = query::encode(&query::decode("?gpu=h100-sxm").0);
    let (s, _) = adopt_log(&mut w, &q);
    assert_eq!(s.kv_memory.map(|b| b.0), Some(1));
    let o = kvbudget::core::calc::evaluate(&s).unwrap();
    assert!(o.chosen.report.refusal.is_some());
}
