//! The page and its worker talk in text (`core::handoff`): what the worker answers must read back
//! to exactly what the core computes directly.

use kvbudget::core::config::import;
use kvbudget::core::handoff::{answer, import_request, kv_report_request, read_import, read_text};
use kvbudget::core::query;
use kvbudget::core::scenario::PageScenario;

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
        let back = read_import(&answer(&import_request(name, &text))).unwrap();
        assert_eq!(back.spec, direct.spec, "{name}");
        assert_eq!(back.default_max_model_len, direct.default_max_model_len);
        assert_eq!(back.summary, direct.summary());
        assert_eq!(back.notes, direct.notes);
    }
}

#[test]
fn an_import_error_reads_back_as_the_message() {
    let e = read_import(&answer(&import_request(
        "x",
        &fixture("configs", "broken.json"),
    )));
    assert!(e.unwrap_err().starts_with("config.json: is not valid JSON"));
    assert!(read_import("garbage").is_err());
    assert!(read_import(&answer("unknown\nrequest")).is_err());
}

#[test]
fn the_kv_report_comes_back_as_the_lab_json() {
    // Qwen3-14B at 0.11 beside a two-line V1 log: the lab's keys, the log's figures.
    let s = PageScenario::default();
    let log = fixture("logs", "v1_0.11_two_line.log");
    let json = read_text(&answer(&kv_report_request(&query::encode(&s), &log))).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The log printed 42,656 tokens; at the default scenario's context that is 42,656 // ctx
    // whole sequences.
    assert_eq!(v["vllm_total_cached_tokens"], 42_656);
    assert_eq!(v["vllm_implied_max_seqs_at_ctx"], 42_656 / s.context());
    assert!(v["prediction"].is_object(), "{json}");
    assert!(json.ends_with('\n'));
}
