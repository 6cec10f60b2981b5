//! The `kvbudget` binary end to end: predict, verify, vllm and sglang as a user runs them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn kvbudget(args: &[&str], dir: Option<&PathBuf>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kvbudget"));
    c.args(args);
    if let Some(d) = dir {
        c.current_dir(d);
    }
    c.output().expect("run kvbudget")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard output of `kvbudget` with these space-separated arguments.
fn run(args: &str) -> String {
    stdout(&kvbudget(
        &args.split_whitespace().collect::<Vec<_>>(),
        None,
    ))
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/logs/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kvbudget-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn predict_like_the_lab_script() {
    // The seed: 14B-AWQ, 5.9 GiB pool, 8K → 4 sequences, 160.0 KiB/token.
    // btok = 2 × 40 × 8 × 128 × 2.0 = 163840.0; 8,192 × 163,840 = 1.25 GiB per sequence;
    // 5.9 × 2³⁰ // 1,342,177,280 = 4; 5.9 × 2³⁰ // 163,840 = 38,666.
    let o = kvbudget(
        &[
            "predict",
            "--layers",
            "40",
            "--kv-heads",
            "8",
            "--head-dim",
            "128",
            "--dtype-bytes",
            "2",
            "--kv-pool-gib",
            "5.9",
            "--ctx",
            "8192",
        ],
        None,
    );
    assert!(o.status.success());
    let text = stdout(&o);
    // json.dumps(indent=2) prints the float 160.0 with its ".0".
    assert!(text.contains("\"kv_kib_per_token\": 160.0,"), "{text}");
    assert!(text.contains("\"kv_bytes_per_token\": 163840.0,"), "{text}");
    let v = json(&o);
    assert_eq!(v["predicted_max_seqs"], 4);
    assert_eq!(v["kv_gib_per_seq"], 1.25);
    assert_eq!(v["predicted_total_tokens"], 38_666);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "kv_bytes_per_token",
            "kv_kib_per_token",
            "ctx",
            "kv_gib_per_seq",
            "predicted_max_seqs",
            "predicted_total_tokens"
        ]
    );
}

#[test]
fn predict_with_a_model_id() {
    // Qwen3-8B: 2 × 36 × 8 × 128 × 1.0 (FP8) = 73,728 B = 72.0 KiB.
    let o = kvbudget(
        &[
            "predict",
            "--model",
            "qwen/qwen3-8b",
            "--dtype-bytes",
            "1",
            "--kv-pool-gib",
            "6",
        ],
        None,
    );
    let v = json(&o);
    assert_eq!(v["kv_kib_per_token"], 72.0);
    // 6 GiB / (8,192 × 73,728 B = 0.5625 GiB) = 10.67 → 10.
    assert_eq!(v["predicted_max_seqs"], 10);
}

#[test]
fn predict_refuses_missing_geometry_and_zero() {
    let o = kvbudget(&["predict", "--kv-pool-gib", "5"], None);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--layers is required"));
    let o = kvbudget(
        &[
            "predict",
            "--layers",
            "0",
            "--kv-heads",
            "8",
            "--head-dim",
            "128",
            "--kv-pool-gib",
            "5",
        ],
        None,
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("zero"));
}

#[test]
fn vllm_done_when_vectors() {
    let args = [
        "vllm",
        "--model",
        "Qwen/Qwen3-14B",
        "--available-kv-gib",
        "6.51",
        "--max-model-len",
        "32768",
        "--vllm-version",
    ];
    let o = kvbudget(&[&args[..], &["0.11"]].concat(), None);
    assert!(o.status.success());
    let t = stdout(&o);
    assert!(t.contains("GPU KV cache size: 42,656 tokens\n"), "{t}");
    assert!(
        t.contains("Maximum concurrency for 32,768 tokens per request: 1.30x\n"),
        "{t}"
    );
    let o = kvbudget(&[&args[..], &["0.33"]].concat(), None);
    assert!(stdout(&o).contains("GPU KV cache size: 42,656 tokens, Maximum concurrency for 32,768 tokens per request: 1.30x\n"));
}

#[test]
fn vllm_json_fields() {
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-14B",
            "--available-kv-gib",
            "6.51",
            "--max-model-len",
            "32768",
            "--vllm-version",
            "0.11",
            "--json",
        ],
        None,
    );
    let v = json(&o);
    // ⌊6.51 × 2³⁰⌋ = 6,990,059,274 B → 2,666 blocks → 42,656 tokens; 2,666 / 2,048 = 1.3017578125.
    assert_eq!(v["available_kv_bytes"], 6_990_059_274u64);
    assert_eq!(v["num_gpu_blocks"], 2666);
    assert_eq!(v["gpu_kv_cache_tokens"], 42_656);
    assert_eq!(v["max_concurrency"], 1.3017578125);
    assert_eq!(v["lines"].as_array().unwrap().len(), 3);
    assert!(v["error"].is_null());
}

#[test]
fn vllm_says_what_vllm_would_really_do_when_weights_do_not_load() {
    // Qwen3-14B (27.52 GiB) on an RTX 4090 (23.55 GiB): out of memory while loading the weights,
    // so no "Available KV cache memory" line at all (never a negative one), and exit status 3.
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-14B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["refusal"], "weights-do-not-fit");
    assert_eq!(v["lines"].as_array().unwrap().len(), 0);
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-14B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
        ],
        None,
    );
    let text = stdout(&o);
    assert!(!text.contains("Available KV cache memory"), "{text}");
    // Not an engine line (PyTorch's message names the allocation that failed): kvbudget's own
    // reckoning, 27.52 GiB of weights + 0.50 GiB that CUDA and PyTorch hold = 28.02 GiB > 23.55.
    assert!(text.starts_with("kvbudget's reckoning, not a line vLLM prints: the weights take 27.52 GiB per GPU and CUDA and PyTorch hold about 0.50 GiB before them, 28.02 GiB in all, more than the GPU's 23.55 GiB."), "{text}");
    // A model that starts has "refusal": null.
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "h100-sxm",
            "--max-model-len",
            "8192",
            "--json",
        ],
        None,
    );
    assert!(json(&o)["refusal"].is_null());
}

#[test]
fn vllm_json_budget_splits_weights_over_pipeline_stages() {
    // Qwen3-14B: ⌊27.52 × 2³⁰⌋ = 29,549,374,996 B over PP 2 → 14,774,687,498 B per GPU, the
    // figure the page and the log check use (tests/verify.rs).
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-14B",
            "--gpu",
            "h100-sxm",
            "--pipeline-parallel-size",
            "2",
            "--overhead-gib",
            "1",
            "--max-model-len",
            "8192",
            "--json",
        ],
        None,
    );
    let v = json(&o);
    assert_eq!(v["budget"]["weights_per_gpu_bytes"], 14_774_687_498u64);
    assert_eq!(v["budget"]["overhead_bytes"], 1u64 << 30);
}

#[test]
fn vllm_refusal_exits_3_with_the_error() {
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--num-gpu-blocks",
            "1478",
            "--max-model-len",
            "29000",
            "--vllm-version",
            "0.6",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("(23648)"));
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-32B",
            "--gpu",
            "rtx-4090",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(3));
    // Qwen3-32B's weights (61 GB) do not even load on a 24 GB card.
    let v = json(&o);
    assert_eq!(v["refusal"], "weights-do-not-fit");
    // kvbudget's reckoning, said as kvbudget's (PyTorch's own message names the allocation that
    // failed, which kvbudget cannot know).
    assert!(v["error"]
        .as_str()
        .unwrap()
        .starts_with("kvbudget's reckoning, not a line vLLM prints: the weights take "));
}

#[test]
fn vllm_budget_from_geometry() {
    // Geometry of Qwen3-8B with its weights and the seed's 1 GiB: same as the preset on a 4090 at 0.92, vLLM 0.33.
    let geometry = [
        "vllm",
        "--layers",
        "36",
        "--kv-heads",
        "8",
        "--head-dim",
        "128",
        "--attention-heads",
        "32",
        "--weights-gib",
        "15.27",
    ];
    let common = ["--gpu", "rtx-4090", "--max-model-len", "8192", "--json"];
    let a = kvbudget(
        &[&geometry[..], &common[..], &["--overhead-gib", "1"]].concat(),
        None,
    );
    let b = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--overhead-gib",
            "1",
            "--json",
        ],
        None,
    );
    assert_eq!(
        json(&a)["gpu_kv_cache_tokens"],
        json(&b)["gpu_kv_cache_tokens"]
    );
    // 5,793,910,883 B pool (see tests/repertoire.rs) // 65,536 // 36 = 2,455 blocks × 16 = 39,280 tokens.
    assert_eq!(json(&b)["gpu_kv_cache_tokens"], 39_280);
    assert_eq!(json(&b)["overhead"]["mode"], "fixed");
    // With the estimate, the geometry flags that size the activation make the two agree again.
    let sizes = [
        "--vocab-size",
        "151936",
        "--hidden-size",
        "4096",
        "--intermediate-size",
        "12288",
    ];
    let a = kvbudget(&[&geometry[..], &common[..], &sizes[..]].concat(), None);
    let b = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--json",
        ],
        None,
    );
    assert_eq!(json(&a)["overhead"], json(&b)["overhead"]);
    assert_eq!(
        json(&a)["gpu_kv_cache_tokens"],
        json(&b)["gpu_kv_cache_tokens"]
    );
}

#[test]
fn vllm_estimate_parts_and_range() {
    // Qwen3-8B on a 4090, vLLM 0.33 defaults (256 sequences, 2,048 batched tokens):
    // sampler 256 × 151,936 × 14 B = 544,538,624 B; base 2,048 × 35,661 B = 73,033,728 B;
    // dense 2,048 × (3 × 12,288 + 3 × 4,096) × 2 B = 201,326,592 B < sampler;
    // non-torch ⌊0.1445 GiB⌋ = 155,155,693 B; CUDA graphs ⌊0.3095 GiB⌋ + ⌊36 × 17.21 MiB⌋
    // = 332,323,094 + 649,655,746 = 981,978,840 B (in the budget from 0.20).
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--json",
        ],
        None,
    );
    let v = json(&o);
    let e = &v["overhead"];
    assert_eq!(e["mode"], "estimate");
    assert_eq!(e["sampler_bytes"], 544_538_624u64);
    assert_eq!(e["activation_bytes"], 544_538_624u64 + 73_033_728);
    assert_eq!(e["non_torch_bytes"], 155_155_693u64);
    assert_eq!(e["cuda_graph_bytes"], 981_978_840u64);
    assert_eq!(e["cuda_graphs_in_budget"], true);
    assert_eq!(
        e["subtracted_bytes"],
        544_538_624u64 + 73_033_728 + 155_155_693 + 981_978_840
    );
    let lo = v["range"]["gpu_kv_cache_tokens"][0].as_u64().unwrap();
    let hi = v["range"]["gpu_kv_cache_tokens"][1].as_u64().unwrap();
    let point = v["gpu_kv_cache_tokens"].as_u64().unwrap();
    assert!(lo < point && point < hi, "{lo} {point} {hi}");
    // Before 0.20 the graphs sit outside the budget, and the CLI says so.
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--vllm-version",
            "0.19",
        ],
        None,
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("outside --gpu-memory-utilization"));
}

#[test]
fn vllm_bad_flags_say_what_is_accepted() {
    // Each bad flag exits 1 with a message naming what is accepted. A KV memory that, beside the
    // weights, exceeds the GPU: Qwen3-8B's 15.27 GiB + 500 GiB > an RTX 4090's 23.55 GiB.
    let cases: [(&str, &str); 7] = [
        (
            "--model Qwen/Qwen3-8B --available-kv-gib 500 --gpu rtx-4090",
            "--available-kv-gib 500: with the weights on the GPU (15.27 GiB) that is more than the GPU's 23.55 GiB",
        ),
        ("--model nope/nope --available-kv-gib 1", "known models: Qwen/Qwen3-8B"),
        ("--model Qwen/Qwen3-8B --gpu rtx-9999", "known GPUs: rtx-5080"),
        ("--model Qwen/Qwen3-8B --gpu l4 --gpu-memory-utilization NaN", "gpu_memory_utilization must be a number greater than 0 and at most 1"),
        ("--model Qwen/Qwen3-8B --available-kv-gib 1 --kv-cache-dtype int3", "use one of auto, bfloat16"),
        ("--model Qwen/Qwen3-8B --available-kv-gib 1 --vllm-version 1.5", "from 0.4 to 0.33"),
        (
            "--layers 1000000000000 --kv-heads 8 --head-dim 128 --available-kv-gib 1 --max-model-len 10",
            "layers must be a whole number from 1 to 1,048,576",
        ),
    ];
    // With 10 GiB of the weights offloaded to the CPU, 5.27 + 15 = 20.27 GiB fit the 23.55 GiB.
    let o = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--cpu-offload-gb",
            "10",
            "--available-kv-gib",
            "15",
        ],
        None,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for (args, message) in cases {
        let args: Vec<&str> = std::iter::once("vllm").chain(args.split(' ')).collect();
        let o = kvbudget(&args, None);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(message),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn every_subcommand_documents_its_flags() {
    for (sub, needles) in [
        (
            "predict",
            &["--kv-pool-gib", "[default: 8192]", "[default: 2]"][..],
        ),
        (
            "verify",
            &[
                "--log",
                "[default: serve.log]",
                "[default: 16]",
                "[default: 5.9]",
            ][..],
        ),
        (
            "vllm",
            &[
                "--available-kv-gib",
                "--vllm-version",
                "[default: auto]",
                "rtx-4090",
                "[default: 1]",
            ][..],
        ),
        (
            "sglang",
            &[
                "--pre-load-free-gib",
                "--post-load-free-gib",
                "--mem-fraction-static",
                "--sglang-version",
                "--gpu-total-mib",
                "--num-tokens",
                "[default: 0.9]",
                "[default: auto]",
            ][..],
        ),
    ] {
        let o = kvbudget(&[sub, "--help"], None);
        assert!(o.status.success());
        let t = stdout(&o);
        for n in needles {
            assert!(t.contains(n), "{sub} --help lacks {n}:\n{t}");
        }
    }
}

#[test]
fn verify_writes_the_report() {
    let dir = tempdir("verify");
    let o = kvbudget(
        &[
            "verify",
            "--log",
            &fixture("v0_gpu_blocks.log"),
            "--ctx",
            "8192",
        ],
        Some(&dir),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("kv_report.json")).unwrap())
            .unwrap();
    // 2,960 blocks × 16 = 47,360 tokens; // 8,192 = 5 sequences; the default prediction (14B-AWQ, 5.9 GiB) is 4.
    assert_eq!(report["vllm_total_cached_tokens"], 47_360);
    assert_eq!(report["vllm_implied_max_seqs_at_ctx"], 5);
    assert_eq!(report["agreement"], "4 predicted vs 5 observed");
    assert_eq!(report["prediction"]["predicted_max_seqs"], 4);
    assert_eq!(report["vllm_log"]["gpu_blocks"], 2960);
    assert_eq!(report["vllm_log"]["vllm_version"], "0.6.3");
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        &keys[..4],
        [
            "prediction",
            "vllm_total_cached_tokens",
            "vllm_implied_max_seqs_at_ctx",
            "agreement"
        ]
    );
}

#[test]
fn verify_v1_and_one_line_logs() {
    let dir = tempdir("verify-v1");
    let o = kvbudget(
        &[
            "verify",
            "--log",
            &fixture("v1_0.33_one_line.log"),
            "--ctx",
            "40960",
            "--model",
            "Qwen/Qwen3-8B",
        ],
        Some(&dir),
    );
    assert!(o.status.success());
    let v = json(&o);
    // 72,496 tokens // 40,960 = 1.
    assert_eq!(v["vllm_total_cached_tokens"], 72_496);
    assert_eq!(v["vllm_implied_max_seqs_at_ctx"], 1);
    assert_eq!(v["vllm_log"]["max_concurrency"], 1.77);
    assert_eq!(v["vllm_log"]["available_kv_cache_gib"], 9.96);
}

#[test]
fn verify_refused_logs_exit_3_with_a_report() {
    let dir = tempdir("verify-refused");
    let o = kvbudget(
        &["verify", "--log", &fixture("v1_error_too_long.log")],
        Some(&dir),
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("longest that fits: 23648 tokens"));
    let v = json(&o);
    assert!(v["vllm_total_cached_tokens"].is_null());
    assert_eq!(v["vllm_log"]["error"]["kind"], "request_too_long");
    assert!(dir.join("kv_report.json").exists());
}

#[test]
fn verify_without_a_kv_line_fails_and_says_what_it_looked_for() {
    let dir = tempdir("verify-none");
    let o = kvbudget(&["verify", "--log", &fixture("no_kv_line.log")], Some(&dir));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("GPU KV cache size: N tokens") && err.contains("# GPU blocks: N"),
        "{err}"
    );
    assert!(!dir.join("kv_report.json").exists());
    // A capacity line whose figure is past 2⁶⁴ − 1 (18,446,744,073,709,551,615) is named, not
    // reported missing.
    let log = dir.join("huge.log");
    std::fs::write(
        &log,
        "INFO GPU KV cache size: 99,999,999,999,999,999,999 tokens\n",
    )
    .unwrap();
    let o = kvbudget(&["verify", "--log", log.to_str().unwrap()], Some(&dir));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not a count") && err.contains("99,999,999,999,999,999,999 tokens"),
        "{err}"
    );
    assert!(!dir.join("kv_report.json").exists());
    let o = kvbudget(&["verify", "--log", "/nonexistent/serve.log"], Some(&dir));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read --log"));
}

fn config_fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/configs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn config_json_stands_in_for_model() {
    // Qwen3-32B's config: head_dim 128 (not 5120 / 64 = 80) → 2 × 64 × 8 × 128 × 2.0 = 262144.0 B, 256.0 KiB.
    let o = kvbudget(
        &[
            "predict",
            "--config",
            &config_fixture("Qwen3-32B"),
            "--kv-pool-gib",
            "10",
        ],
        None,
    );
    let v = json(&o);
    assert_eq!(v["kv_bytes_per_token"], 262_144.0);
    assert_eq!(v["kv_kib_per_token"], 256.0);
    // vllm: the same numbers as the preset when the config's weights estimate is replaced by the preset's.
    let a = kvbudget(
        &[
            "vllm",
            "--config",
            &config_fixture("Qwen3-8B"),
            "--weights-gib",
            "15.27",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--json",
        ],
        None,
    );
    let b = kvbudget(
        &[
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--json",
        ],
        None,
    );
    assert_eq!(
        json(&a)["gpu_kv_cache_tokens"],
        json(&b)["gpu_kv_cache_tokens"]
    );
    assert_eq!(json(&a)["overhead"], json(&b)["overhead"]);
    // A Mamba hybrid is refused, by name.
    let o = kvbudget(
        &[
            "vllm",
            "--config",
            &config_fixture("Jamba-v0.1"),
            "--gpu",
            "h100-sxm",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not supported"));
    // So is a config whose key lays the KV cache out otherwise: Qwen3-8B's with Gemma 4's K = V.
    let dir = tempdir("kv-key");
    let mut c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(config_fixture("Qwen3-8B")).unwrap())
            .unwrap();
    c["attention_k_eq_v"] = serde_json::json!(true);
    let path = dir.join("config.json");
    std::fs::write(&path, c.to_string()).unwrap();
    let o = kvbudget(
        &[
            "vllm",
            "--config",
            path.to_str().unwrap(),
            "--gpu",
            "h100-sxm",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "attention_k_eq_v is true: the full-attention layers project V with K's weights"
        ),
        "{err}"
    );
    // Broken JSON names the flag and the problem.
    let o = kvbudget(
        &[
            "verify",
            "--config",
            &config_fixture("broken"),
            "--log",
            &fixture("v1_0.11_two_line.log"),
        ],
        None,
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not valid JSON"));
}

/// SGLANG-ACCOUNTING §5 A: Qwen3-8B on an RTX 4090, 23.0 GiB free before loading, 7.70 after.
const EXAMPLE_A: [&str; 8] = [
    "sglang",
    "--model",
    "Qwen/Qwen3-8B",
    "--gpu",
    "rtx-4090",
    "--pre-load-free-gib",
    "23.0",
    "--post-load-free-gib",
];

#[test]
fn sglang_prints_the_release_lines() {
    // 0.5.20: 512 + 1.5 × 4,096 + 2 × 48 + 128 + 50 × 8 = 7,280 MiB → mfs 0.704;
    // rest = 7.70 − 23.0 × 0.296 = 0.892 GiB → 6,495 tokens of 147,456 B; K 0.45 GiB.
    let o = kvbudget(
        &[&EXAMPLE_A[..], &["7.70", "--sglang-version", "0.5.20"]].concat(),
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = stdout(&o);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0], "Load weight begin. avail mem=23.00 GB");
    assert_eq!(
        lines[2],
        "KV Cache is allocated. dtype: torch.bfloat16, #tokens: 6495, K size: 0.45 GB, V size: 0.45 GB"
    );
    assert!(lines[4].starts_with("max_total_num_tokens=6495, chunked_prefill_size=4096, max_prefill_tokens=16384, max_running_requests=2048, context_len=40960, available_gpu_mem="));
    // 0.4.0: 0.88 → 35,971 tokens; its scheduler line has no chunked size, 2049 requests.
    let o = kvbudget(
        &[&EXAMPLE_A[..], &["7.70", "--sglang-version", "0.4.0"]].concat(),
        None,
    );
    assert!(stdout(&o).contains(
        "max_total_num_tokens=35971, max_prefill_tokens=16384, max_running_requests=2049, context_len=40960"
    ));
}

#[test]
fn sglang_json_fields() {
    let o = kvbudget(
        &[
            &EXAMPLE_A[..],
            &["7.70", "--sglang-version", "0.5.3", "--json"],
        ]
        .concat(),
        None,
    );
    assert!(o.status.success());
    let v = json(&o);
    // 0.5.3: reserved 3,744 MiB → 0.848; 30,612 tokens; K = 30,613 × 73,728 B = 2.10 GiB.
    assert_eq!(v["mem_fraction_static"], 0.848);
    assert_eq!(v["reserved_mib"], 3744.0);
    assert_eq!(v["max_total_num_tokens"], 30_612);
    assert_eq!(v["cell_size_bytes"], 147_456);
    assert_eq!(v["k_size_gib"], "2.10");
    assert_eq!(v["v_size_gib"], "2.10");
    assert!(v["kv_size_gib"].is_null());
    assert_eq!(v["max_running_requests"], 2048);
    assert_eq!(v["memory"], "measured");
    assert!(v["error"].is_null());
    assert!(v["lines"].as_array().unwrap().len() >= 5);
    // MLA: one latent buffer, printed as KV size (§5 C, 0.5.8: 690,970 tokens, 45.22 GiB).
    let o = kvbudget(
        &[
            "sglang",
            "--layers",
            "61",
            "--mla-latent",
            "576",
            "--attention-heads",
            "128",
            "--context-length",
            "163840",
            "--gpu-total-mib",
            "143771",
            "--tp-size",
            "8",
            "--pre-load-free-gib",
            "139.6",
            "--post-load-free-gib",
            "59.6",
            "--sglang-version",
            "0.5.8",
            "--json",
        ],
        None,
    );
    let v = json(&o);
    assert_eq!(v["mem_fraction_static"], 0.897);
    assert_eq!(v["max_total_num_tokens"], 690_970);
    assert_eq!(v["kv_size_gib"], "45.22");
    assert!(v["k_size_gib"].is_null());
}

#[test]
fn sglang_predicts_the_memory_and_says_so() {
    let o = kvbudget(
        &[
            "sglang",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--json",
        ],
        None,
    );
    assert!(o.status.success());
    let v = json(&o);
    assert_eq!(v["memory"], "predicted");
    let range = &v["range"]["max_total_num_tokens"];
    let t = v["max_total_num_tokens"].as_i64().unwrap();
    assert!(range[0].as_i64().unwrap() < t && t < range[1].as_i64().unwrap());
    assert!(v["notes"][0].as_str().unwrap().contains("predicted"));
    let o = kvbudget(
        &["sglang", "--model", "Qwen/Qwen3-8B", "--gpu", "rtx-4090"],
        None,
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("free memory predicted"));
}

#[test]
fn sglang_from_a_pool_size() {
    let o = kvbudget(
        &[
            "sglang",
            "--model",
            "Qwen/Qwen3-8B",
            "--num-tokens",
            "20480",
            "--sglang-version",
            "0.5.8",
        ],
        None,
    );
    assert!(o.status.success());
    // (20,480 + 1) × 8 × 128 × 36 × 2 B = 1.41 GiB.
    assert_eq!(
        stdout(&o),
        "Using KV cache dtype: torch.bfloat16\nKV Cache is allocated. #tokens: 20480, K size: 1.41 GB, V size: 1.41 GB\n"
    );
}

#[test]
fn sglang_refusal_exits_3_with_the_error() {
    // rest = 3.0 − 23.0 × 0.2 = −1.6 GiB.
    let low = [
        &EXAMPLE_A[..],
        &["3.0", "--mem-fraction-static", "0.8", "--sglang-version"],
    ]
    .concat();
    let o = kvbudget(&[&low[..], &["0.4.3"]].concat(), None);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).ends_with(
        "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n"
    ));
    let o = kvbudget(&[&low[..], &["0.5.23", "--json"]].concat(), None);
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["error_type"], "ValueError");
    assert!(v["error"].as_str().unwrap().starts_with(
        "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.8. Raise --mem-fraction-static above 0.870"
    ));
    assert!(v["max_total_num_tokens"].is_null());
}

#[test]
fn sglang_bad_flags_say_what_is_accepted() {
    for (args, needle) in [
        (
            &["--mem-fraction-static", "1.5"][..],
            "--mem-fraction-static must be a number greater than 0 and at most 1",
        ),
        (
            &["--tp-size", "0"][..],
            "--tp-size must be a whole number from 1 to 1,024",
        ),
        (&["--sglang-version", "0.9.0"][..], "from 0.3.0 to 0.5.23"),
        (&["--kv-cache-dtype", "fp8"][..], "fp8_e4m3"),
        (&["--kv-cache-dtype", "int3"][..], "--kv-cache-dtype"),
        (&["--gpu", "mi300x"][..], "--gpu-total-mib"),
        (&["--speculative-algorithm", "MEDUSA"][..], "EAGLE"),
        (
            &["--chunked-prefill-size", "-5"][..],
            "--chunked-prefill-size must be -1",
        ),
    ] {
        let o = kvbudget(
            &[&["sglang", "--model", "Qwen/Qwen3-8B"][..], args].concat(),
            None,
        );
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let o = kvbudget(
        &[
            "sglang",
            "--layers",
            "32",
            "--kv-heads",
            "8",
            "--head-dim",
            "128",
            "--gpu",
            "rtx-4090",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--weights-gib is required"));
}

#[test]
fn verify_reads_sglang_logs() {
    let dir = tempdir("verify-sglang");
    let o = kvbudget(
        &[
            "verify",
            "--log",
            &fixture("sglang_0.5.8_capped.log"),
            "--model",
            "Qwen/Qwen3-8B",
            "--ctx",
            "8192",
        ],
        Some(&dir),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("kv_report.json")).unwrap())
            .unwrap();
    // The pool: max_total_num_tokens=20480; at 8,192 tokens each, 2 sequences.
    assert_eq!(v["engine"], "sglang");
    assert_eq!(v["vllm_total_cached_tokens"], 20_480);
    assert_eq!(v["vllm_implied_max_seqs_at_ctx"], 2);
    let log = &v["sglang_log"];
    assert_eq!(log["pre_load_free_gib"], 23.0);
    assert_eq!(log["post_load_free_gib"], 7.7);
    assert_eq!(log["mem_fraction_static"], 0.847);
    assert_eq!(log["kv_allocations"][0]["k_size_gib"], "1.41");
    assert_eq!(log["max_running_requests"], 128);
    // A refusal writes the report and exits 3.
    let o = kvbudget(
        &[
            "verify",
            "--log",
            &fixture("sglang_0.5.8_not_enough_memory.log"),
        ],
        Some(&dir),
    );
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert!(v["vllm_total_cached_tokens"].is_null());
    assert_eq!(v["sglang_log"]["refusal"]["kind"], "not_enough_memory");
    assert_eq!(v["sglang_log"]["refusal"]["mem_fraction_static"], 0.8);
}

/// The plan's text writes counts and GiB with separators: 2,000 sequences of 40,960 tokens need
/// 2,000 × ⌈40,960 / 16⌉ + 1 (the null block vLLM keeps from 0.29) = 5,120,001 blocks of
/// 16 × 147,456 B (Qwen3-8B, BF16:
/// 2 × 36 layers × 8 KV heads × 128 × 2 B = 147,456 B per token), 12,079,597,879,296 B =
/// 11,250.0022 GiB, written "11,250.00 GiB" (it was "11250.00 GiB" and "2000 sequences").
#[test]
fn the_plan_text_has_separators() {
    let args = "plan --model Qwen/Qwen3-8B --gpu h100-sxm --sequences 2000 --context 40960";
    let text = run(args);
    assert!(text.contains("2,000 sequences of 40,960 tokens"), "{text}");
    assert!(
        text.contains("--kv-cache-memory 12079597879296 (11,250.00 GiB, 5,120,001 blocks: exactly the 2,000 sequences)"),
        "{text}"
    );
    assert!(!text.contains("11250"), "{text}");
    // 2,000 is past vLLM's default max_num_seqs on an H100 (1,024): the plan says to raise it.
    assert!(
        text.contains(
            "--max-num-seqs 2000: the 1,024 in force runs at most 1,024 sequences at once"
        ),
        "{text}"
    );
}

/// gpt-oss is one of SGLang's hybrid-SWA architectures (`is_hybrid_swa_model`): its preset now
/// names `GptOssForCausalLM`, so SGLang sizes two pools. gpt-oss-20b on an H100 at 0.5.23 with
/// 78.80 GB free: the full pool holds 1,260,572 tokens and the sliding one ⌊0.8 × 1,260,572⌋ =
/// 1,008,457; K of the full pool = 1,260,572 × 12 full layers × 8 KV heads × 64 × 2 B =
/// 15,490,308,096 B = 14.43 GB (SGLang's GB are 2³⁰ B). Without the name the preset got one pool
/// over all 24 layers: 1,134,515 tokens, about 10 % fewer.
#[test]
fn gpt_oss_gets_sglangs_two_pools() {
    let args = "sglang --model openai/gpt-oss-20b --gpu h100-sxm --context-length 131072 \
                --sglang-version 0.5.23 --pre-load-free-gib 78.8";
    let text = run(args);
    assert!(text.contains("type=GptOssForCausalLM"), "{text}");
    assert!(
        text.contains("full_layer_tokens=1260572, swa_layer_tokens=1008457"),
        "{text}"
    );
    assert!(
        text.contains(
            "Full KV Cache is allocated. dtype: torch.bfloat16, #tokens: 1260572, K size: 14.43 GB"
        ),
        "{text}"
    );
    assert!(text.contains("max_total_num_tokens=1260572"), "{text}");
}

/// `kvbudget engine sglang QUERY`: SGLang through the seam on the page's scenario, Qwen3-8B on an
/// RTX 4090 at 4,096 tokens (tests/engines.rs derives the figures): 7,422 tokens of 147,456 B,
/// ⌊7,422 / 4,096⌋ = 1 sequence; its lines and command. An unknown engine names the registered.
#[test]
fn engine_answers_through_the_seam() {
    let o = kvbudget(
        &[
            "engine",
            "sglang",
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=4096",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let j = json(&o);
    assert_eq!(j["figures"]["kv-tokens"], "7422");
    assert_eq!(j["figures"]["max-seqs"], "1");
    assert!(j["lines"][2]
        .as_str()
        .unwrap()
        .contains("#tokens: 7422, K size: 0.51 GB, V size: 0.51 GB"));
    assert_eq!(
        j["command"],
        "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 4096"
    );
    // A log checked through the seam: SGLang 0.5.8's capped pool of 20,480 tokens, taken as the
    // scenario's pool, agrees; the predicted pool on an H100 does not.
    let log = fixture("sglang_0.5.8_capped.log");
    let q = "?model=Qwen/Qwen3-8B&gpu=h100-sxm&sg_tokens=20480";
    let o = kvbudget(&["engine", "sglang", q, "--log", &log], None);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("tokens: logged 20480, computed 20480 (same)"));
    let o = kvbudget(
        &[
            "engine",
            "sglang",
            "?model=Qwen/Qwen3-8B&gpu=h100-sxm",
            "--log",
            &log,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("tokens: logged 20480, computed "));
    // Nothing to compare: another engine's log, or a model the SGLang emulation does not size.
    let vllm_log = fixture("v1_0.33_one_line.log");
    let o = kvbudget(&["engine", "sglang", q, "--log", &vllm_log], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("log: not a SGLang log"),
        "{}",
        stdout(&o)
    );
    let o = kvbudget(
        &["engine", "sglang", "?model=google/gemma-4-E2B-it&gpu=l4"],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("kvbudget's SGLang emulation does not derive it"));
    let o = kvbudget(&["engine", "llama"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("registered: sglang"));
}

/// `kvbudget llamacpp`: llama.cpp's KV lines for a preset and its flags (tests/llamacpp.rs derives
/// them). Qwen3-8B, `-c 8192 -np 4`: four streams of 2,048 cells, 4 × 2,048 × 36 × 1,024 × 2 B =
/// 576 MiB each of K and V; gpt-oss-20b at its training context: 131,072 cells and the 768-cell
/// SWA cache. An indexer's cache is refused by name, a build before b4409 and a quantized V
/// without flash attention too.
#[test]
fn llamacpp_prints_the_kv_cache_lines() {
    let o = kvbudget(
        &[
            "llamacpp",
            "--model",
            "Qwen/Qwen3-8B",
            "--ctx-size",
            "8192",
            "--parallel",
            "4",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let j = json(&o);
    assert_eq!(
        (j["cells"].as_u64(), j["streams"].as_u64()),
        (Some(2048), Some(4))
    );
    assert_eq!(j["kv_bytes"].as_u64(), Some(1_207_959_552));
    assert_eq!(
        j["lines"][0],
        "llama_kv_cache: size = 1152.00 MiB (  2048 cells,  36 layers,  4/4 seqs), K (f16):  576.00 MiB, V (f16):  576.00 MiB"
    );
    let out = run("llamacpp --model openai/gpt-oss-20b --ctx-size 0");
    assert!(
        out.contains("creating non-SWA KV cache, size = 131072 cells"),
        "{out}"
    );
    assert!(
        out.contains("creating     SWA KV cache, size = 768 cells"),
        "{out}"
    );
    let o = kvbudget(
        &[
            "llamacpp",
            "--model",
            "deepseek-ai/DeepSeek-V3.2",
            "--ctx-size",
            "8192",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("indexer"));
    let o = kvbudget(
        &[
            "llamacpp",
            "--model",
            "Qwen/Qwen3-8B",
            "--ctx-size",
            "8192",
            "--build",
            "b4000",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("b4409 to b10309"));
    let o = kvbudget(
        &[
            "llamacpp",
            "--model",
            "Qwen/Qwen3-8B",
            "--ctx-size",
            "8192",
            "--cache-type-v",
            "q8_0",
            "--flash-attn",
            "off",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("V cache quantization requires flash_attn"));
}

/// `kvbudget llamacpp --log`: a public b8164 log of gpt-oss-20b (tests/llamacpp.rs names it), its
/// four KV lines each the same as kvbudget's (exit 0); with the SWA cache's cells changed, that
/// line differs (exit 3) and kvbudget's is shown beside it.
#[test]
fn llamacpp_checks_a_log() {
    let log = fixture("llamacpp_b8164_gpt-oss-20b.log");
    let o = kvbudget(&["llamacpp", "--log", &log], None);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).matches("same: ").count(), 4);
    let dir = tempdir("llamacpp-log");
    let bad = dir.join("bad.log");
    let text = std::fs::read_to_string(&log)
        .unwrap()
        .replace("(   768 cells", "(   512 cells");
    std::fs::write(&bad, text).unwrap();
    let o = kvbudget(&["llamacpp", "--log", bad.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stdout(&o).contains("  kvbudget: llama_kv_cache: size =   18.00 MiB (   768 cells"),
        "{}",
        stdout(&o)
    );
}

/// `verify` (the lab's twin) on a llama.cpp log names it and the command that checks it, instead
/// of saying it found no vLLM or SGLang capacity line.
#[test]
fn verify_names_a_llamacpp_log() {
    let dir = tempdir("verify-llamacpp");
    let log = fixture("llamacpp_b8164_gpt-oss-20b.log");
    let o = kvbudget(
        &[
            "verify",
            "--log",
            &log,
            "--model",
            "Qwen/Qwen3-8B",
            "--ctx",
            "8192",
        ],
        Some(&dir),
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("is llama.cpp's: kvbudget llamacpp --log"),
        "{err}"
    );
}
