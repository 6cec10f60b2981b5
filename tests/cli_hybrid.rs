//! `kvbudget vllm --config` with the 2026 families' config.json files, as a user runs it.

use std::process::Command;

fn config(name: &str) -> String {
    format!(
        "{}/tests/fixtures/configs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn vllm(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_kvbudget"))
        .arg("vllm")
        .args(args)
        .output()
        .expect("run kvbudget");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn qwen35_config_prints_the_l40s_log() {
    // VLLM-HYBRID example 1 from Qwen3.5-9B's config.json: 1,258 blocks (the L40S log's),
    // 262,144 tokens per request: block 528 (+0.76 %), 1,258 // 4 × 528 = 165,792 tokens,
    // 1,258 / (497 + 3) = 2.52x on 0.19; int(2.516 × 262,144) = 659,554 tokens on 0.20.1.
    let args = |v: &'static str| {
        vec![
            "--num-gpu-blocks",
            "1258",
            "--max-model-len",
            "262144",
            "--vllm-version",
            v,
        ]
    };
    let file = config("Qwen3.5-9B");
    let mut a = vec!["--config", file.as_str()];
    a.extend(args("0.19.0"));
    let (code, out) = vllm(&a);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "Setting attention block size to 528 tokens to ensure that attention page size is >= mamba page size.\n\
         Padding mamba page size by 0.76% to ensure that mamba page size and attention page size are exactly equal.\n\
         GPU KV cache size: 165,792 tokens\n\
         Maximum concurrency for 262,144 tokens per request: 2.52x\n"
    );
    let mut a = vec!["--config", file.as_str()];
    a.extend(args("0.20.1"));
    assert!(vllm(&a).1.contains("GPU KV cache size: 659,554 tokens\n"));
}

#[test]
fn qwen3_next_and_nemotron_configs_run() {
    // Qwen3-Next-80B-A3B at TP 4 on H100s with its budget: the block is raised (16 × ⌈state /
    // (16 × attention bytes per token)⌉) and the concurrency printed.
    let file = config("Qwen3-Next-80B-A3B-Instruct");
    let (code, out) = vllm(&[
        "--config",
        &file,
        "--gpu",
        "h100-sxm",
        "--tensor-parallel-size",
        "4",
        "--max-model-len",
        "65536",
        "--vllm-version",
        "0.19",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("Setting attention block size to "), "{out}");
    assert!(
        out.contains("Maximum concurrency for 65,536 tokens per request: "),
        "{out}"
    );
    // Nemotron-3-Nano with FP8 KV and 3.72 GiB: the Cascade-2 log's lines (0.20.1).
    let file = config("NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    let (code, out) = vllm(&[
        "--config",
        &file,
        "--kv-cache-dtype",
        "fp8_e4m3",
        "--available-kv-gib",
        "3.72",
        "--max-model-len",
        "256000",
        "--max-num-batched-tokens",
        "32768",
        "--vllm-version",
        "0.20.1",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("Setting attention block size to 4176 tokens"),
        "{out}"
    );
    assert!(out.contains("Add 1 padding layers, may waste at most 4.35% KV cache memory"));
    assert!(out.contains("GPU KV cache size: 1,206,303 tokens"), "{out}");
}
