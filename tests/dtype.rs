//! `--dtype half`, the GPU without bfloat16, and the engine it runs. Qwen3-8B is a bfloat16 checkpoint (36 layers,
//! 8 KV heads of 128: 2 × 36 × 8 × 128 × 2 B = 147,456 B per token); a T4 has compute capability
//! 7.5, and bfloat16 needs 8.0. Two T4s (a Kaggle notebook's pair) at TP 2 hold its 15.27 GiB of
//! weights, 7.64 GiB each, so what stops vLLM there is the dtype alone.

use kvbudget::core::calc::{evaluate, plan};
use kvbudget::core::explain::serve_command;
use kvbudget::core::fixes::{fixes, Change};
use kvbudget::core::model::ModelDtype;
use kvbudget::core::query::{decode, encode};
use kvbudget::core::verify::align;
use kvbudget::core::vllm::logparse::parse;
use kvbudget::core::vllm::RefusalKind;

const PAIR: &str = "?model=Qwen/Qwen3-8B&gpu=t4&tp=2&ctx=4096";

/// vLLM's message from `_check_if_gpu_supports_dtype` (vllm/v1/worker/gpu_worker.py and
/// vllm/worker/worker.py, read in the 0.6.0, 0.7.0, 0.8.0, 0.8.4 and 0.8.5 wheels), with
/// torch's name for the GPU, "Tesla T4". Until 0.8.0 the text has no space before "`dtype`".
fn message(space: &str) -> String {
    format!(
        "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 \
         GPU has compute capability 7.5. You can use float16 instead by explicitly setting \
         the{space}`dtype` flag in CLI, for example: --dtype=half."
    )
}

#[test]
fn a_bfloat16_model_on_a_t4_before_0_9() {
    for (v, space) in [("0.7", ""), ("0.8", " ")] {
        let (s, notes) = decode(&format!("{PAIR}&vllm={v}"));
        assert!(notes.is_empty(), "{notes:?}");
        let o = evaluate(&s).unwrap();
        let r = &o.chosen.report;
        let refusal = r.refusal.expect(v);
        assert_eq!(refusal.kind, RefusalKind::NoBfloat16, "{v}");
        assert_eq!(refusal.exception, "ValueError");
        assert_eq!(r.error.as_deref(), Some(message(space).as_str()), "{v}");
        assert_eq!(
            r.num_gpu_blocks, None,
            "no KV line: the worker stops before the weights load"
        );
        assert_eq!(o.chosen.capped, 0);
        // The fix the page offers: --dtype half, which the serve command then carries.
        let f = fixes(&s, &o);
        let half = f
            .iter()
            .find(|f| f.change == Change::Half)
            .expect("--dtype half");
        assert_eq!(half.change.flag(), "--dtype half");
        let mut t = s.clone();
        half.change.apply(&mut t);
        assert!(t.knobs.dtype_half);
        assert!(evaluate(&t).unwrap().chosen.report.refusal.is_none(), "{v}");
        assert!(
            serve_command(&t).contains(" --dtype half"),
            "{}",
            serve_command(&t)
        );
        // The plan mode says the refusal instead of searching utilizations that cannot help.
        let (p, _) = decode(&format!("{PAIR}&vllm={v}&plan=4"));
        let err = plan(&p, &evaluate(&p).unwrap()).unwrap().unwrap_err();
        assert!(err.to_string().contains(&message(space)), "{err}");
    }
}

#[test]
fn from_0_9_vllm_falls_back_to_float16_itself() {
    // `_get_and_verify_dtype` (vllm/config.py 0.9.0: "Deal with torch dtype fallback for device
    // compatibility"), then `_resolve_auto_dtype` (0.9.1, 0.9.2) pick float16 for a bfloat16
    // config on a GPU without bfloat16 before the worker checks it: the same 2 B per weight and per
    // KV element. (The 0.9.0 worker still has its check; the model's dtype no longer trips it.)
    let (s, _) = decode(&format!("{PAIR}&vllm=0.9"));
    assert!(evaluate(&s).unwrap().chosen.report.refusal.is_none());
    let (s, _) = decode(&format!("{PAIR}&vllm=0.10"));
    let plain = evaluate(&s).unwrap();
    assert!(plain.chosen.report.refusal.is_none());
    // Per GPU at TP 2: 4 of the 8 KV heads, 73,728 B per token.
    assert_eq!(plain.chosen.report.bytes_per_token.0, 73_728);
    // --dtype half changes no byte: the same blocks, the same lines.
    let (h, _) = decode(&format!("{PAIR}&vllm=0.10&half=1"));
    let half = evaluate(&h).unwrap();
    assert_eq!(
        half.chosen.report.num_gpu_blocks,
        plain.chosen.report.num_gpu_blocks
    );
    assert_eq!(half.chosen.report.lines, plain.chosen.report.lines);
}

#[test]
fn only_bfloat16_on_a_t4_is_refused() {
    // An AWQ checkpoint runs in float16 already; an A10G (compute capability 8.6) has bfloat16.
    for q in [
        "?model=Qwen/Qwen3-14B-AWQ&gpu=t4&ctx=4096&vllm=0.8",
        "?model=Qwen/Qwen3-8B&gpu=a10g&ctx=4096&vllm=0.8",
        "?model=Qwen/Qwen3-8B&gpu=t4&tp=2&ctx=4096&vllm=0.8&half=1",
    ] {
        let (s, _) = decode(q);
        let r = evaluate(&s).unwrap().chosen.report;
        assert_ne!(
            r.refusal.map(|x| x.kind),
            Some(RefusalKind::NoBfloat16),
            "{q}"
        );
    }
}

#[test]
fn the_flag_in_a_link_and_in_a_log() {
    let (s, _) = decode(&format!("{PAIR}&vllm=0.8&half=1"));
    assert!(s.knobs.dtype_half);
    assert!(encode(&s).contains("half=1"), "{}", encode(&s));
    let (s, notes) = decode(&format!("{PAIR}&half=2"));
    assert!(!s.knobs.dtype_half);
    assert_eq!(notes[0].param, "half");
    // A T4 log of vLLM 0.8.5 run with --dtype half: its engine line says dtype=torch.float16, and
    // the page's settings aligned to it start where the log did.
    let log = parse(
        "INFO 05-01 10:00:00 [llm_engine.py:240] Initializing a V0 LLM engine (v0.8.5) with config: \
         model='Qwen/Qwen3-8B', speculative_config=None, tokenizer='Qwen/Qwen3-8B', \
         dtype=torch.float16, max_seq_len=4096, kv_cache_dtype=auto, tensor_parallel_size=2\n",
    );
    assert_eq!(log.dtype, Some(ModelDtype::F16));
    let (page, _) = decode("?model=Qwen/Qwen3-8B&gpu=t4&tp=2");
    let aligned = align(&page, &log);
    assert!(aligned.knobs.dtype_half);
    assert!(evaluate(&aligned).unwrap().chosen.report.refusal.is_none());
    // The arguments' spelling, and bfloat16 turning it off again.
    assert_eq!(
        parse("non-default args: {'dtype': 'half'}").dtype,
        Some(ModelDtype::F16)
    );
    let bf16 =
        parse("with config: model='Qwen/Qwen3-8B', dtype=torch.bfloat16, kv_cache_dtype=auto");
    assert!(!align(&aligned, &bf16).knobs.dtype_half);
}

#[test]
fn a_t4_runs_v0_up_to_0_10_1() {
    // V1 needs compute capability 8.0 until 0.10.2: on a T4 vLLM 0.8.0–0.10.1.1 falls back to V0
    // (`_is_v1_supported_oracle`, vllm/engine/arg_utils.py), which prints blocks, not tokens.
    // Qwen3-14B-AWQ runs in float16, so nothing else stops it.
    let lines = |q: &str| {
        let (s, _) = decode(q);
        evaluate(&s).unwrap().chosen.report.lines
    };
    for v in ["0.8", "0.9", "0.10"] {
        let l = lines(&format!(
            "?model=Qwen/Qwen3-14B-AWQ&gpu=t4&ctx=4096&vllm={v}"
        ));
        let blocks: u64 = l[0]
            .strip_prefix("# GPU blocks: ")
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{v}: {l:?}"));
        // V0's concurrency: blocks × 16 tokens ÷ 4,096, to two decimals.
        let x = blocks as f64 * 16.0 / 4096.0;
        assert_eq!(
            l[1],
            format!("Maximum concurrency for 4096 tokens per request: {x:.2}x"),
            "{v}"
        );
    }
    // An A10G (compute capability 8.6) runs V1 from 0.8; a T4 from 0.10.2 (0.11 here).
    for q in [
        "?model=Qwen/Qwen3-14B-AWQ&gpu=a10g&ctx=4096&vllm=0.8",
        "?model=Qwen/Qwen3-14B-AWQ&gpu=t4&ctx=4096&vllm=0.11",
    ] {
        let l = lines(q);
        assert!(
            l.iter().any(|x| x.starts_with("GPU KV cache size: ")),
            "{q}: {l:?}"
        );
    }
}

#[test]
fn a_float32_config_runs_in_float16_and_starts_on_a_t4() {
    // vLLM runs a float32 checkpoint in float16 with `--dtype auto` up to 0.9.0
    // (`_get_and_verify_dtype`, vllm/config.py 0.8.5), so nothing refuses it on a T4. A small
    // Llama-shaped config: 2 × 16 layers × 8 KV heads × 64 × 2 B = 32,768 B per token.
    use kvbudget::core::capacity::bytes_per_token;
    use kvbudget::core::config::import;
    use kvbudget::core::model::KvDtype;
    use kvbudget::core::scenario::ModelChoice;
    let config = r#"{"model_type": "llama", "hidden_size": 2048, "num_attention_heads": 32,
        "num_key_value_heads": 8, "num_hidden_layers": 16, "intermediate_size": 8192,
        "max_position_embeddings": 8192, "torch_dtype": "float32", "vocab_size": 32000}"#;
    let m = import(config, "small-fp32").unwrap();
    assert_eq!(m.spec.dtype, ModelDtype::F16);
    assert_eq!(
        bytes_per_token(&m.spec, KvDtype::Auto, 1, 1).unwrap().0,
        32_768
    );
    let (mut s, _) = decode("?gpu=t4&ctx=4096&vllm=0.8");
    s.set_model(ModelChoice::Custom(m.spec.clone()));
    assert!(evaluate(&s).unwrap().chosen.report.refusal.is_none());
    // Gemma 2's float32 config (google/gemma-2-9b-it's) stays bfloat16, as vLLM 0.9.1+ runs it
    // where the GPU has bfloat16.
    let gemma = config.replace(r#""model_type": "llama""#, r#""model_type": "gemma2""#);
    assert_eq!(import(&gemma, "g").unwrap().spec.dtype, ModelDtype::Bf16);
}

#[test]
fn the_patch_releases_at_the_boundaries() {
    use kvbudget::core::presets::Arch;
    use kvbudget::core::vllm::{Engine, Version};
    // 0.8.5 refuses bfloat16 on a T4, 0.9.0 falls back to float16.
    let refused = |v: &str| {
        let (s, _) = decode(&format!("{PAIR}&vllm={v}"));
        evaluate(&s).unwrap().chosen.report.refusal.map(|r| r.kind)
    };
    assert_eq!(refused("0.8.5"), Some(RefusalKind::NoBfloat16));
    assert_eq!(refused("0.9.0"), None);
    assert_eq!(refused("0.9.1"), None);
    // 0.9.1 will not run Gemma in float16 (0.9.0 does): a link or a log naming 0.9.1 or a later
    // 0.9 patch keeps that release, not 0.9.0.
    for (v, kept) in [("0.9.0", "0.9"), ("0.9.1", "0.9.1"), ("0.9.2", "0.9.1")] {
        assert_eq!(
            Version::parse(v).unwrap().canonical().to_string(),
            kept,
            "{v}"
        );
    }
    // V0 on a T4 through 0.10.1.1, V1 from 0.10.2.
    let on_t4 = |v: &str| Version::parse(v).unwrap().canonical().engine_on(Arch::T4);
    assert_eq!(on_t4("0.10.1.1"), Engine::V0);
    assert_eq!(on_t4("0.10.2"), Engine::V1);
    assert_eq!(on_t4("0.10.3"), Engine::V1);
    assert_eq!(Version::new(0, 9).engine_on(Arch::Other), Engine::V1);
}

#[test]
fn the_command_line_on_a_t4() {
    use std::process::Command;
    let run = |extra: &[&str]| {
        let mut args = vec![
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "t4",
            "--tensor-parallel-size",
            "2",
            "--max-model-len",
            "4096",
            "--vllm-version",
            "0.8",
        ];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_kvbudget"))
            .args(&args)
            .output()
            .unwrap()
    };
    // Refused (exit 3) with vLLM's message; --dtype half starts it, on V0 (blocks, not tokens).
    let refused = run(&[]);
    assert_eq!(refused.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&refused.stdout).contains(&message(" ")));
    let half = run(&["--dtype", "half"]);
    assert_eq!(half.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&half.stdout).contains("# GPU blocks: "));
    // V1 there is what vLLM refuses (VLLM_USE_V1=1 below compute capability 8.0).
    let v1 = run(&["--dtype", "half", "--engine", "v1"]);
    assert_eq!(v1.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&v1.stderr)
        .contains("runs V0 on a GPU below compute capability 8.0"));
    // --dtype takes vLLM's spellings of the two it models.
    let bad = run(&["--dtype", "bf16"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--dtype: auto, half or float16"));
}

#[test]
fn a_log_that_stopped_on_bfloat16_reads_as_refused() {
    use kvbudget::core::handoff::log::log_status;
    use kvbudget::core::verify::Verdict;
    // A T4 log of vLLM 0.8.5 started without --dtype half: its engine line names bfloat16, and the
    // worker's ValueError ends it before any KV line.
    let text = format!(
        "INFO 05-01 10:00:00 [llm_engine.py:240] Initializing a V0 LLM engine (v0.8.5) with config: \
         model='Qwen/Qwen3-8B', dtype=torch.bfloat16, max_seq_len=4096, kv_cache_dtype=auto\n\
         ValueError: {}\n",
        message(" ")
    );
    let log = parse(&text);
    assert_eq!(Verdict::of(&log), Verdict::Refused);
    let status = log_status(&log);
    assert!(
        status.contains("refused to start (the GPU has no bfloat16"),
        "{status}"
    );
    // Aligned to it on two T4s, the page refuses as the log did.
    let (page, _) = decode("?model=Qwen/Qwen3-8B&gpu=t4&tp=2&half=1");
    let aligned = align(&page, &log);
    assert!(!aligned.knobs.dtype_half);
    let r = evaluate(&aligned).unwrap().chosen.report;
    assert_eq!(r.refusal.map(|x| x.kind), Some(RefusalKind::NoBfloat16));
}

#[test]
fn the_log_check_names_the_dtype_it_differs_in() {
    use kvbudget::core::verify::mismatches;
    // A log of Qwen3-8B run in float16 (--dtype half) against the page's two T4s on 0.8.5
    // without it: one setting differs, the dtype; aligned, none does.
    let log = parse(
        "Initializing a V0 LLM engine (v0.8.5) with config: model='Qwen/Qwen3-8B', \
         dtype=torch.float16, max_seq_len=4096, kv_cache_dtype=auto\n",
    );
    let (page, _) = decode(&format!("{PAIR}&vllm=0.8.5"));
    let m = mismatches(&page, &log);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(
        (m[0].what, m[0].scenario.as_str(), m[0].log.as_str()),
        ("--dtype", "bfloat16", "float16")
    );
    assert!(mismatches(&align(&page, &log), &log).is_empty());
    // From 0.9.0 vLLM falls back to float16 itself on a T4: no difference to name.
    let (later, _) = decode(&format!("{PAIR}&vllm=0.9.1"));
    let log = parse(
        "Initializing a V0 LLM engine (v0.9.1) with config: model='Qwen/Qwen3-8B', \
         dtype=torch.float16, max_seq_len=4096, kv_cache_dtype=auto\n",
    );
    assert!(
        mismatches(&later, &log).is_empty(),
        "{:?}",
        mismatches(&later, &log)
    );
}
