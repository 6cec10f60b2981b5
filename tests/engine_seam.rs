//! A third engine through the seam (`kvbudget::core::engines`): a toy, defined here and shipped
//! nowhere, gets the page's results, its charts, the command line's report and a log check
//! without a line of vLLM's or SGLang's code.
//!
//! The toy keeps 10 GiB for its KV cache whatever the GPU and counts whole tokens of the model's
//! KV bytes in it: for Qwen3-8B in 16-bit, 147,456 B a token (36 layers × 8 KV heads × 128 × 2 × 2
//! B), ⌊10,737,418,240 / 147,456⌋ = 72,817 tokens (147,456 × 72,817 = 10,737,303,552 B, 114,688 B
//! left), so ⌊72,817 / 8,192⌋ = 8 sequences of 8,192 tokens, capped at 4.

use kvbudget::core::capacity::bytes_per_token;
use kvbudget::core::chart_data::{charts, EngineFit};
use kvbudget::core::engines::{check_log, EnginePlug, EngineView, Logged, Stat};
use kvbudget::core::i18n::Lang;
use kvbudget::core::query::decode;
use kvbudget::core::scenario::PageScenario;
use kvbudget::core::units::thousands;
use kvbudget::page;
use kvbudget::view::{self, ResultsBottom, ResultsTop};
use leptos::prelude::*;

const POOL: u64 = 10 << 30;
const CAP: u64 = 4;

struct Toy;

fn tokens(s: &PageScenario, kv: kvbudget::core::model::KvDtype) -> (u64, u64) {
    let b = bytes_per_token(&s.model_spec(), kv, 1, 1).unwrap().0;
    (b, POOL / b)
}

fn stat(testid: &str, value: u64) -> Stat {
    Stat {
        label: testid.into(),
        testid: testid.into(),
        value: value.to_string(),
        text: thousands(value),
        sub: String::new(),
    }
}

impl EnginePlug for Toy {
    fn id(&self) -> &'static str {
        "toy"
    }
    fn name(&self) -> &'static str {
        "Toy"
    }
    fn view(&self, s: &PageScenario) -> EngineView {
        let (b, n) = tokens(s, s.kv);
        let seqs = (n / s.ctx).min(CAP);
        let model = s.model_spec();
        let fit = |kv, x: u64| tokens(s, kv).1 / x;
        EngineView {
            answer: format!("{seqs} sequences under Toy"),
            refused: false,
            lines: format!("toy: pool of {n} tokens"),
            command: format!("toy serve {}", s.model.name()),
            stats: vec![
                stat("max-seqs", seqs),
                stat("bytes-per-token", b),
                stat("kv-pool-bytes", n * b),
                stat("kv-tokens", n),
            ],
            derivation: vec![("tokens".into(), format!("⌊{POOL} / {b}⌋ = {n}"))],
            charts: Some(Box::new(charts(
                s,
                &model,
                s.ctx,
                EngineFit {
                    total: s.gpu.total().0,
                    memory: Vec::new(),
                    pool: (n * b) as i64,
                    kvs: [
                        kvbudget::core::model::KvDtype::Auto,
                        kvbudget::core::model::KvDtype::Fp8,
                    ],
                    fit: &fit,
                    cap: CAP,
                    cap_flag: "--toy-cap",
                    sequences: seqs,
                    refusal: None,
                    budget: None,
                },
            ))),
            repertoire: None,
            notes: vec!["the toy keeps 10 GiB".into()],
        }
    }
    fn read_log(&self, text: &str) -> Option<Logged> {
        let n = text
            .strip_prefix("toy: pool of ")?
            .strip_suffix(" tokens")?;
        Some(Logged {
            model: None,
            tokens: n.trim().parse().ok(),
        })
    }
}

fn scenario() -> PageScenario {
    decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192").0
}

#[test]
fn a_toy_engine_gets_the_pages_results_and_charts() {
    let s = scenario();
    let v = Toy.view(&s);
    let o = kvbudget::core::calc::evaluate(&s).unwrap();
    let words = kvbudget::core::explain::explain(&s, &o);
    let top = page::top_view(
        &s,
        &o,
        &words,
        page::Fixes::Checking,
        Some((Some(&v), true)),
        None,
    );
    let html = view::to_html(Lang::En, || {
        leptos::view! { <ResultsTop top=Some(top) on_fix=Callback::new(|_| {}) /> }
    });
    // The toy's figures in the headline's test ids, its lines and its note.
    assert!(
        html.contains(r#"data-testid="kv-tokens" data-value="72817""#),
        "{html}"
    );
    assert!(
        html.contains(r#"data-testid="max-seqs" data-value="4""#),
        "{html}"
    );
    assert!(html.contains(r#"data-testid="kv-pool-bytes" data-value="10737303552""#));
    assert!(html.contains("toy: pool of 72817 tokens"));
    assert!(html.contains("the toy keeps 10 GiB"));
    let bottom = page::bottom_view(&o, &words, Some((Some(&v), true)));
    assert_eq!(bottom.serve, "toy serve Qwen/Qwen3-8B");
    let html = view::to_html(
        Lang::En,
        || leptos::view! { <ResultsBottom bottom=Some(bottom) /> },
    );
    assert!(html.contains("⌊10737418240 / 147456⌋ = 72817"), "{html}");
    assert!(!html.contains("vLLM"), "{html}");
    // Its charts: 8 whole sequences at 8,192 tokens, capped by its flag at 4; FP8 halves the
    // token's bytes, ⌊10,737,418,240 / 73,728⌋ = 145,635 tokens, 17 sequences.
    let d = v.charts.as_deref().unwrap();
    assert_eq!(d.point, (8192, 4));
    assert_eq!(d.fits, [("auto".into(), 8), ("fp8".into(), 17)]);
    let chart = page::CHARTS
        .iter()
        .find(|c| c.testid == "chart-concurrency")
        .unwrap();
    assert_eq!((chart.value)(d), "4");
    assert!(page::chart_svg(chart, d, 640).contains("--toy-cap 4"));
    // The embedded card follows.
    let card = page::card_view(&s, &o, Some((Some(&v), true)));
    assert_eq!(card.stats[3].value, "72817");
    assert_eq!(card.lines, "toy: pool of 72817 tokens");
}

#[test]
fn a_toy_engine_gets_the_command_lines_report_and_a_log_check() {
    let (text, code) = kvbudget::cli::engine::report(
        &Toy,
        "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192",
        Some("toy: pool of 72817 tokens"),
        true,
    );
    assert_eq!(code, 0, "{text}");
    let j: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(j["engine"], "toy");
    assert_eq!(j["figures"]["kv-tokens"], "72817");
    assert_eq!(j["lines"][0], "toy: pool of 72817 tokens");
    assert_eq!(j["log"][0]["agrees"], true);
    // A log that printed one token fewer differs, and says so with exit status 3.
    let (text, code) = kvbudget::cli::engine::report(
        &Toy,
        "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192",
        Some("toy: pool of 72816 tokens"),
        false,
    );
    assert_eq!(code, 3);
    assert!(
        text.contains("tokens: logged 72816, computed 72817 (differs)"),
        "{text}"
    );
    // Another engine's log is not the toy's.
    assert_eq!(
        check_log(
            &Toy,
            &Toy.view(&scenario()),
            &scenario(),
            "INFO KV Cache is allocated. #tokens: 7422"
        ),
        None
    );
}
