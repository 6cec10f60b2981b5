//! The model types vLLM will not run in float16 (Gemma 2 and 3, GLM-4): `--dtype half` refused
//! from vLLM 0.9.1 on any GPU, and float32 on a GPU without bfloat16 (a T4).
//!
//! google/gemma-2-9b-it: 42 layers, 8 KV heads of 256, weights 18,483,411,968 B (its checkpoint at
//! 2 B per weight). Four T4s at TP 4 hold 2 KV heads each:
//! - in 16 bits (vLLM 0.9.0 falls back to float16): 2 × 42 × 2 × 256 × 2 B = 86,016 B per token,
//!   and 18,483,411,968 / 4 = 4,620,852,992 B of weights per GPU;
//! - in float32 (0.9.1 on): 2 × 42 × 2 × 256 × 4 B = 172,032 B per token, and
//!   2 × 4,620,852,992 = 9,241,705,984 B of weights per GPU.

use kvbudget::core::calc::{evaluate, plan};
use kvbudget::core::config::import;
use kvbudget::core::explain::explain;
use kvbudget::core::fixes::{fixes, Change};
use kvbudget::core::model::{ModelDtype, NoFloat16};
use kvbudget::core::query::{decode, encode};
use kvbudget::core::scenario::ModelChoice;
use kvbudget::core::vllm::{RefusalKind, Version};

const FOUR_T4: &str = "?model=google/gemma-2-9b-it&gpu=t4&tp=4&ctx=4096";

/// `_check_valid_dtype`'s message (vllm/config.py 0.9.1, vllm/config/model.py 0.11.0 and 0.33.0).
fn message(model_type: &str) -> String {
    format!(
        "The model type '{model_type}' does not support float16. Reason: Numerical instability. \
         Please use bfloat16 or float32 instead."
    )
}

#[test]
fn gemma_on_a_t4_runs_in_float32_from_0_9_1() {
    let at = |v: &str| {
        let (s, notes) = decode(&format!("{FOUR_T4}&vllm={v}"));
        assert!(notes.is_empty(), "{notes:?}");
        let o = evaluate(&s).unwrap();
        assert!(o.chosen.report.refusal.is_none(), "{v}");
        (s, o)
    };
    // 0.9.0: float16, vLLM's own fallback for a GPU without bfloat16.
    let (_, o) = at("0.9");
    assert_eq!(o.chosen.report.bytes_per_token.0, 86_016);
    assert_eq!(o.weights_per_gpu.0, 4_620_852_992);
    // 0.9.1, a 0.9 patch after it, and 0.19: float32, weights and KV both.
    for v in ["0.9.1", "0.9.2", "0.19"] {
        let (s, o) = at(v);
        assert_eq!(o.model.dtype, ModelDtype::F32, "{v}");
        assert_eq!(o.chosen.report.bytes_per_token.0, 172_032, "{v}");
        assert_eq!(
            o.chosen.bytes_per_token.0, 172_032,
            "{v}: the formula's B_tok"
        );
        assert_eq!(o.weights_per_gpu.0, 9_241_705_984, "{v}");
        // The 16-bit curve is the float32 `auto` one: there is no 16-bit KV to choose here.
        assert_eq!(o.pair[0].bytes_per_token.0, 172_032, "{v}");
        let w = explain(&s, &o).warnings;
        assert!(
            w.iter()
                .any(|x| x.contains("runs gemma2 in float32") && x.contains("8.61 GiB")),
            "{v}: {w:?}"
        );
    }
    // An A10G has bfloat16: 16 bits there, no warning.
    let (s, _) = decode("?model=google/gemma-2-9b-it&gpu=a10g&tp=4&ctx=4096&vllm=0.19");
    let o = evaluate(&s).unwrap();
    assert_eq!(o.chosen.report.bytes_per_token.0, 86_016);
    assert!(!explain(&s, &o)
        .warnings
        .iter()
        .any(|x| x.contains("float32")));
}

#[test]
fn doubled_weights_that_do_not_fit_are_refused() {
    // On two T4s the float32 weights are 2 × 18,483,411,968 / 2 B = 17.21 GiB per GPU: more than
    // a T4's 14.58 GiB.
    let (s, _) = decode("?model=google/gemma-2-9b-it&gpu=t4&tp=2&ctx=4096&vllm=0.19");
    let r = evaluate(&s).unwrap().chosen.report;
    assert_eq!(
        r.refusal.map(|x| x.kind),
        Some(RefusalKind::WeightsDoNotFit)
    );
    assert!(r.error.unwrap().contains("17.21 GiB per GPU"));
}

#[test]
fn dtype_half_is_refused_for_gemma_from_0_9_1() {
    // On an A10G and a T4 alike: the model's config refuses it before anything loads.
    for gpu in ["a10g", "t4"] {
        let q = format!("?model=google/gemma-3-12b-it&gpu={gpu}&tp=4&ctx=4096&half=1");
        let (s, _) = decode(&format!("{q}&vllm=0.9.1"));
        let o = evaluate(&s).unwrap();
        let r = &o.chosen.report;
        assert_eq!(
            r.refusal.map(|x| x.kind),
            Some(RefusalKind::NoFloat16),
            "{gpu}"
        );
        assert_eq!(r.refusal.unwrap().exception, "ValueError");
        assert_eq!(r.error.as_deref(), Some(message("gemma3").as_str()));
        assert_eq!(RefusalKind::NoFloat16.key(), "no-float16");
        // The fix is --dtype auto where the model then starts: in bfloat16 on the A10Gs. On the
        // T4s it would run in float32, 2 × 23.31 / 4 = 11.66 GiB of weights on each 14.58 GiB
        // T4 with its vision tower and profile: no KV left, so it is not offered.
        let auto = fixes(&s, &o).into_iter().find(|f| f.change == Change::Auto);
        if gpu == "a10g" {
            let auto = auto.expect("--dtype auto");
            assert_eq!(auto.change.flag(), "--dtype auto");
            assert_eq!(auto.change.key(), "auto");
            let mut t = s.clone();
            auto.change.apply(&mut t);
            assert!(!t.knobs.dtype_half);
            assert!(evaluate(&t).unwrap().chosen.report.refusal.is_none());
        } else {
            assert_eq!(auto, None);
            let mut t = s.clone();
            Change::Auto.apply(&mut t);
            let r = evaluate(&t).unwrap().chosen.report;
            assert_eq!(r.refusal.map(|x| x.kind), Some(RefusalKind::NoKvMemory));
        }
        // The plan says it instead of searching.
        let (p, _) = decode(&format!("{q}&vllm=0.9.1&plan=4"));
        let err = plan(&p, &evaluate(&p).unwrap()).unwrap().unwrap_err();
        assert!(err.to_string().contains(&message("gemma3")), "{err}");
        // 0.9.0 runs it in float16 as asked.
        let (s, _) = decode(&format!("{q}&vllm=0.9"));
        assert!(
            evaluate(&s).unwrap().chosen.report.refusal.is_none(),
            "{gpu}"
        );
    }
}

#[test]
fn an_imported_config_names_its_type() {
    // vLLM reads the top config's model_type: gemma-3-12b-it is `gemma3` (its text_config says
    // `gemma3_text`); gemma-3-1b-it is `gemma3_text`; a Llama is none of them.
    let text = r#"{"model_type": "gemma3_text", "hidden_size": 1152, "num_attention_heads": 4,
        "num_key_value_heads": 1, "head_dim": 256, "num_hidden_layers": 26,
        "intermediate_size": 6912, "max_position_embeddings": 32768, "sliding_window": 512,
        "sliding_window_pattern": 6, "torch_dtype": "bfloat16", "vocab_size": 262144}"#;
    let one_b = import(text, "google/gemma-3-1b-it").unwrap().spec;
    assert_eq!(one_b.extras.no_float16, NoFloat16::Gemma3Text);
    let wrapped =
        format!(r#"{{"model_type": "gemma3", "torch_dtype": "bfloat16", "text_config": {text}}}"#);
    let m = import(&wrapped, "g").unwrap().spec;
    assert_eq!(m.extras.no_float16, NoFloat16::Gemma3);
    let llama = text.replace("gemma3_text", "llama");
    assert_eq!(
        import(&llama, "l").unwrap().spec.extras.no_float16,
        NoFloat16::None
    );

    // gemma3_text joined vLLM's list in 0.10.2 (0.10.1.1 lists gemma2, gemma3, plamo2, glm4):
    // on a T4, 16 bits before it, float32 from it. 26 layers × 1 KV head × 256: 2 × 26 × 256 × 2 B
    // = 26,624 B per token in 16 bits, 53,248 B in float32.
    let (mut s, _) = decode("?gpu=t4&ctx=4096");
    s.set_model(ModelChoice::Custom(one_b));
    let bpt = |s: &kvbudget::core::scenario::PageScenario, v: &str| {
        let mut t = s.clone();
        t.version = Version::parse(v).unwrap().canonical();
        evaluate(&t).unwrap().chosen.report.bytes_per_token.0
    };
    assert_eq!(bpt(&s, "0.10"), 26_624);
    assert_eq!(bpt(&s, "0.10.2"), 53_248);
    assert_eq!(bpt(&s, "0.19"), 53_248);

    // The type travels in a link as `no_fp16`, and comes back.
    let link = encode(&s);
    assert!(link.contains("no_fp16=gemma3_text"), "{link}");
    let (back, notes) = decode(&link);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back.model_spec().extras.no_float16, NoFloat16::Gemma3Text);
    // Another value is refused with the accepted ones, and the rest of the link is kept.
    let (bad, notes) = decode(&link.replace("no_fp16=gemma3_text", "no_fp16=llama"));
    assert_eq!(notes[0].param, "no_fp16");
    assert!(
        notes[0]
            .message
            .contains("gemma2, gemma3, gemma3_text, glm4"),
        "{:?}",
        notes[0]
    );
    assert_eq!(bad.model_spec().layers, 26);
}

#[test]
fn the_command_line_runs_it_in_float32_too() {
    use std::process::Command;
    let run = |extra: &[&str]| {
        let mut args = vec![
            "vllm",
            "--model",
            "google/gemma-2-9b-it",
            "--gpu",
            "t4",
            "--tensor-parallel-size",
            "4",
            "--max-model-len",
            "4096",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = Command::new(env!("CARGO_BIN_EXE_kvbudget"))
            .args(&args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, json) = run(&["--vllm-version", "0.19"]);
    assert_eq!(code, Some(0));
    assert!(json.contains("\"kv_bytes_per_token\": 172032"), "{json}");
    assert!(
        json.contains("\"weights_per_gpu_bytes\": 9241705984"),
        "{json}"
    );
    // Weights given as vLLM counts them are not doubled: 34.42 GiB over 4 GPUs, 8.605 GiB each
    // (34.42 × 2³⁰ / 4 = 9,239,548,395.5 B).
    let (_, json) = run(&["--vllm-version", "0.19", "--weights-gib", "34.42"]);
    assert!(json.contains("\"kv_bytes_per_token\": 172032"), "{json}");
    let per_gpu: u64 = json
        .split("\"weights_per_gpu_bytes\": ")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(per_gpu.abs_diff(9_239_548_396) < 2, "{per_gpu}");
    // --dtype half: vLLM's ValueError, exit 3.
    let (code, json) = run(&["--vllm-version", "0.19", "--dtype", "half"]);
    assert_eq!(code, Some(3));
    assert!(json.contains(&message("gemma2")), "{json}");
    // 0.8.5 starts the float32 checkpoint in float16; a checkpoint said to be bfloat16
    // (`--model-dtype`) is not that one, and is refused as any bfloat16 model on a T4.
    let (code, json) = run(&["--vllm-version", "0.8.5"]);
    assert_eq!(code, Some(0), "{json}");
    assert!(json.contains("\"kv_bytes_per_token\": 86016"), "{json}");
    let (code, json) = run(&["--vllm-version", "0.8.5", "--model-dtype", "bfloat16"]);
    assert_eq!(code, Some(3), "{json}");
    assert!(json.contains("\"refusal\": \"no-bfloat16\""), "{json}");
}

#[test]
fn a_float32_logs_weights_are_not_doubled_again() {
    use kvbudget::core::verify::adopt;
    use kvbudget::core::vllm::logparse::parse;
    // A log of vLLM 0.19 on four T4s: rank 0 loaded 8.61 GiB of float32 weights. Its numbers
    // adopted, the page shows that figure per GPU again (kept in 16 bits as the whole model's
    // 17.22 GiB, doubled back), not twice it.
    let log = parse(
        "Initializing a V1 LLM engine (v0.19.0) with config: model='google/gemma-2-9b-it', \
         dtype=torch.float32, max_seq_len=4096, kv_cache_dtype=auto, tensor_parallel_size=4\n\
         Model loading took 8.61 GiB and 12.3 seconds\n",
    );
    let (page, _) = decode(&format!("{FOUR_T4}&vllm=0.19"));
    let (s, _) = adopt(&page, &log);
    let per_gpu = evaluate(&s).unwrap().weights_per_gpu.as_gib();
    assert!((per_gpu - 8.61).abs() < 0.005, "{per_gpu}");
    // The same figure from an A10G run (bfloat16, no doubling) stays as it is.
    let (page, _) = decode("?model=google/gemma-2-9b-it&gpu=a10g&tp=4&ctx=4096&vllm=0.19");
    let (s, _) = adopt(&page, &log);
    let per_gpu = evaluate(&s).unwrap().weights_per_gpu.as_gib();
    assert!((per_gpu - 8.61).abs() < 0.005, "{per_gpu}");
}

#[test]
fn a_float16_gemma_runs_in_bfloat16_where_the_gpu_has_it() {
    use kvbudget::core::verify::mismatches;
    use kvbudget::core::vllm::logparse::parse;
    // A float16 checkpoint of gemma2: vLLM 0.9.1+ takes float16 out of its choices for the type and
    // runs bfloat16 on an A10G (`_resolve_auto_dtype`), so a log saying bfloat16 differs in
    // nothing. GLM-4's float32 config reads as bfloat16 too, as Gemma's does.
    let config = r#"{"model_type": "gemma2", "hidden_size": 2304, "num_attention_heads": 8,
        "num_key_value_heads": 4, "head_dim": 256, "num_hidden_layers": 26,
        "intermediate_size": 9216, "max_position_embeddings": 8192, "torch_dtype": "float16",
        "vocab_size": 256000}"#;
    let m = import(config, "gemma-2-2b-fp16").unwrap().spec;
    assert_eq!(m.dtype, ModelDtype::F16);
    let (mut s, _) = decode("?gpu=a10g&ctx=4096&vllm=0.19");
    s.set_model(ModelChoice::Custom(m));
    let log = parse(
        "Initializing a V1 LLM engine (v0.19.0) with config: model='gemma-2-2b-fp16', \
         dtype=torch.bfloat16, max_seq_len=4096, kv_cache_dtype=auto\n",
    );
    let m = mismatches(&s, &log);
    assert!(!m.iter().any(|x| x.what == "--dtype"), "{m:?}");
    let glm = config
        .replace("gemma2", "glm4")
        .replace("\"float16\"", "\"float32\"");
    assert_eq!(import(&glm, "g").unwrap().spec.dtype, ModelDtype::Bf16);
}

#[test]
fn a_float32_gemma_2_checkpoint_ran_in_float16_from_0_8_0_to_0_9_0() {
    use kvbudget::core::vllm::runs_in;
    // google/gemma-2-9b-it's config names float32. `--dtype auto` took bfloat16 for a float32
    // Gemma 2 up to 0.7.3 ("For Gemma 2, we downcast float32 to bfloat16"), float16 as for any
    // float32 checkpoint from 0.8.0 to 0.9.0, and from 0.9.1 bfloat16 where the GPU has it
    // (float32 on a T4: the test above).
    let ran = |q: &str, v: &str| {
        let (s, notes) = decode(&format!("{q}&vllm={v}"));
        assert!(notes.is_empty(), "{notes:?}");
        runs_in(&s.model_spec(), s.gpu.arch(), false, s.version)
    };
    let a100 = "?model=google/gemma-2-9b-it&gpu=a100-80gb&ctx=4096";
    assert_eq!(ran(a100, "0.7"), ModelDtype::Bf16);
    assert_eq!(ran(a100, "0.8"), ModelDtype::F16);
    assert_eq!(ran(a100, "0.9"), ModelDtype::F16);
    assert_eq!(ran(a100, "0.9.1"), ModelDtype::Bf16);
    assert_eq!(ran(FOUR_T4, "0.8"), ModelDtype::F16);
    assert_eq!(ran(FOUR_T4, "0.9.1"), ModelDtype::F32);

    // So four T4s refuse it before 0.8.0 (bfloat16), and start it in 16 bits from 0.8.0:
    // 86,016 B per token (the file's header), 4,620,852,992 B of weights per GPU.
    let (s, _) = decode(&format!("{FOUR_T4}&vllm=0.7"));
    let o = evaluate(&s).unwrap();
    let refusal = o.chosen.report.refusal.as_ref().map(|r| r.kind);
    assert_eq!(refusal, Some(RefusalKind::NoBfloat16));
    for v in ["0.8", "0.8.5"] {
        let (s, _) = decode(&format!("{FOUR_T4}&vllm={v}"));
        let o = evaluate(&s).unwrap();
        assert!(o.chosen.report.refusal.is_none(), "{v}");
        assert_eq!(o.chosen.report.bytes_per_token.0, 86_016, "{v}");
        assert_eq!(o.weights_per_gpu.0, 4_620_852_992, "{v}");
        // …and named as it runs: FP16, not the bfloat16 a T4 does not have.
        assert_eq!(o.model.dtype, ModelDtype::F16, "{v}");
        assert_eq!(o.pair[0].kv.label(o.model.dtype), "FP16 (auto)", "{v}");
    }
    // So is a bfloat16 model on a T4 from 0.9.0, where vLLM falls back to float16 itself; on an
    // RTX 4090 it stays BF16.
    for (q, label) in [
        ("?model=Qwen/Qwen3-8B&gpu=t4&vllm=0.19", "FP16 (auto)"),
        ("?model=Qwen/Qwen3-8B&gpu=rtx-4090&vllm=0.19", "BF16 (auto)"),
    ] {
        let o = evaluate(&decode(q).0).unwrap();
        assert_eq!(o.pair[0].kv.label(o.model.dtype), label, "{q}");
    }

    // A float16 or bfloat16 Gemma 2 checkpoint is not one: on a T4 before 0.9.0 a bfloat16 one is
    // refused whatever the release.
    let config = r#"{"model_type": "gemma2", "hidden_size": 2304, "num_attention_heads": 8,
        "num_key_value_heads": 4, "head_dim": 256, "num_hidden_layers": 26,
        "intermediate_size": 9216, "max_position_embeddings": 8192, "torch_dtype": "bfloat16",
        "vocab_size": 256000}"#;
    let bf16 = import(config, "g").unwrap().spec;
    assert!(!bf16.extras.f32_checkpoint);
    let (mut s, _) = decode("?gpu=t4&ctx=4096&vllm=0.8.5");
    s.set_model(ModelChoice::Custom(bf16));
    let kind = evaluate(&s).unwrap().chosen.report.refusal.map(|r| r.kind);
    assert_eq!(kind, Some(RefusalKind::NoBfloat16));

    // Imported float32, it is one, and a link carries that as `f32_ckpt=1`; a Llama's float32
    // config is plain float16 (vLLM's rule for any float32 checkpoint before 0.9.1) and is not.
    let f32 = import(&config.replace("\"bfloat16\"", "\"float32\""), "g")
        .unwrap()
        .spec;
    assert!(f32.extras.f32_checkpoint);
    assert_eq!(f32.dtype, ModelDtype::Bf16);
    s.set_model(ModelChoice::Custom(f32));
    assert!(evaluate(&s).unwrap().chosen.report.refusal.is_none());
    let link = encode(&s);
    assert!(link.contains("f32_ckpt=1"), "{link}");
    let (back, notes) = decode(&link);
    assert!(notes.is_empty(), "{notes:?}");
    assert!(back.model_spec().extras.f32_checkpoint);
    let (_, notes) = decode(&link.replace("f32_ckpt=1", "f32_ckpt=yes"));
    assert_eq!(notes[0].param, "f32_ckpt");
    let llama = config
        .replace("gemma2", "llama")
        .replace("\"bfloat16\"", "\"float32\"");
    let llama = import(&llama, "l").unwrap().spec;
    assert_eq!(llama.dtype, ModelDtype::F16);
    assert!(!llama.extras.f32_checkpoint);
}

#[test]
fn a_float16_log_of_the_float32_gemma_2_ran_with_dtype_auto() {
    use kvbudget::core::verify::{align, mismatches};
    use kvbudget::core::vllm::logparse::parse;
    // vLLM 0.8.5 on four T4s runs google/gemma-2-9b-it in float16 by itself (`--dtype auto`): its
    // log's float16 is no `--dtype half`, which from 0.9.1 would be refused for Gemma 2.
    let log = parse(
        "Initializing a V0 LLM engine (v0.8.5) with config: model='google/gemma-2-9b-it', \
         dtype=torch.float16, max_seq_len=4096, tensor_parallel_size=4, kv_cache_dtype=auto\n",
    );
    let (page, _) = decode(&format!("{FOUR_T4}&vllm=0.8.5"));
    assert!(
        mismatches(&page, &log).is_empty(),
        "{:?}",
        mismatches(&page, &log)
    );
    let aligned = align(&page, &log);
    assert!(!aligned.knobs.dtype_half);
    // Qwen3-8B (bfloat16) logged in float16 on an A10G, which has bfloat16, did ask for it.
    let qwen = parse(
        "Initializing a V1 LLM engine (v0.19.0) with config: model='Qwen/Qwen3-8B', \
         dtype=torch.float16, max_seq_len=4096, kv_cache_dtype=auto\n",
    );
    let (a10g, _) = decode("?model=Qwen/Qwen3-8B&gpu=a10g&ctx=4096&vllm=0.19");
    assert!(align(&a10g, &qwen).knobs.dtype_half);
}
