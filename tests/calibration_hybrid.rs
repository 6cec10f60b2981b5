//! Real startup logs of hybrid, sliding-window, chunked and MLA-with-indexer models
//! (`../shared/calibration/`, public data read in place): for every log that prints the KV
//! memory, the token line and the concurrency, kvbudget must print the same two figures for a
//! block count the printed memory allows (it is rounded to 0.01 GiB, so ±0.005 GiB). Skips with
//! a message when the folder is absent.

use kvbudget::core::config::import;
use kvbudget::core::model::{Attention, KvDtype, ModelSpec};
use kvbudget::core::presets::{self, Arch};
use kvbudget::core::units::{fixed2, Bytes, GIB};
use kvbudget::core::vllm::{report, KvMemory, Scenario, Version};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn calibration_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/calibration");
    if dir.join("vllm-modern.jsonl").exists() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/calibration is not beside the project");
        None
    }
}

fn record(dir: &Path, file: &str, id: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("{id} not in {file}"))
}

fn preset(id: &str) -> ModelSpec {
    presets::model(id).unwrap().spec()
}

fn fixture(name: &str) -> ModelSpec {
    let path = format!(
        "{}/tests/fixtures/configs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    import(&std::fs::read_to_string(path).unwrap(), name)
        .unwrap()
        .spec
}

/// A log and the scenario it ran.
struct Case {
    file: &'static str,
    id: &'static str,
    model: ModelSpec,
    version: &'static str,
    kv: KvDtype,
    tp: u64,
    len: u64,
    mnbt: Option<u64>,
    prefix_caching: bool,
    block_size: Option<u64>,
    arch: Arch,
    dcp: u64,
}

fn case(file: &'static str, id: &'static str, model: ModelSpec, version: &'static str) -> Case {
    Case {
        file,
        id,
        model,
        version,
        kv: KvDtype::Auto,
        tp: 1,
        len: 8192,
        mnbt: None,
        prefix_caching: false,
        block_size: None,
        arch: Arch::Hopper,
        dcp: 1,
    }
}

fn scenario(c: &Case, memory: KvMemory) -> Scenario {
    let version = Version::parse(c.version).unwrap();
    Scenario {
        model: c.model.clone(),
        kv_dtype: c.kv,
        tp: c.tp,
        pp: 1,
        block_size: c.block_size,
        max_model_len: Some(c.len),
        max_num_seqs: None,
        max_num_batched_tokens: c.mnbt,
        version,
        engine: version.default_engine(),
        memory,
        arch: c.arch,
        gpu_total: Some(Bytes(80 * GIB)),
        knobs: kvbudget::core::vllm::Knobs {
            prefix_caching: c.prefix_caching,
            dcp: c.dcp,
            ..Default::default()
        },
    }
}

fn cases() -> Vec<Case> {
    const M: &str = "vllm-modern.jsonl";
    const H: &str = "vllm-0.19-h100.jsonl";
    let gemma2 = |layers, kv, hd| ModelSpec {
        attention: Attention::sliding(4096, layers / 2),
        ..ModelSpec::from_geometry("gemma-2", layers, kv, hd)
    };
    vec![
        Case {
            len: 262_144,
            mnbt: Some(8192),
            ..case(
                M,
                "qwen35-9b-l40s-v0.19.0",
                preset("Qwen/Qwen3.5-9B"),
                "0.19.0",
            )
        },
        // Qwen3.6-35B-A3B has Qwen3.5-35B-A3B's geometry; --enable-prefix-caching.
        Case {
            kv: KvDtype::Fp8,
            len: 131_072,
            mnbt: Some(8192),
            prefix_caching: true,
            ..case(
                M,
                "qwen36-35b-a3b-nvfp4-rtx5090-v0.24.0",
                preset("Qwen/Qwen3.5-35B-A3B"),
                "0.24.0",
            )
        },
        // The same boot as recorded in vllm-more.jsonl.
        Case {
            kv: KvDtype::Fp8,
            len: 131_072,
            mnbt: Some(8192),
            prefix_caching: true,
            ..case(
                "vllm-more.jsonl",
                "club3090-612-5090-qwen36-35b-a3b-nvfp4-v0240",
                preset("Qwen/Qwen3.5-35B-A3B"),
                "0.24.0",
            )
        },
        // Nemotron-Cascade-2 is a Nemotron-3-Nano-30B-A3B derivative.
        Case {
            kv: KvDtype::Fp8E4m3,
            len: 256_000,
            mnbt: Some(32_768),
            ..case(
                M,
                "nemotron-cascade2-30b-a3b-nvfp4-wsl-v0.20.1rc1",
                preset("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
                "0.20.1rc1",
            )
        },
        Case {
            len: 4096,
            mnbt: Some(8192),
            prefix_caching: true,
            ..case(
                M,
                "gemma3-27b-it-rocm-v0.11.0rc2",
                preset("google/gemma-3-27b-it"),
                "0.11.0rc2",
            )
        },
        Case {
            kv: KvDtype::Fp8,
            tp: 8,
            len: 202_752,
            ..case(
                M,
                "glm51-dsa-nvfp4-tp8-dcp1-rtx6kpro",
                fixture("GLM-5.1"),
                "0.20.2rc1",
            )
        },
        // The same model with decode context parallelism over the 8 ranks.
        Case {
            kv: KvDtype::Fp8,
            tp: 8,
            len: 202_752,
            dcp: 8,
            ..case(
                M,
                "glm51-dsa-nvfp4-tp8-dcp8-rtx6kpro",
                fixture("GLM-5.1"),
                "0.20.2rc1",
            )
        },
        // Mistral-Small-3.2-24B: 40 layers, 8 KV heads × 128, --block-size 128.
        Case {
            len: 16_000,
            block_size: Some(128),
            ..case(
                M,
                "mistral-small-3.2-24b-h100-v0.11.0-llmd",
                ModelSpec::from_geometry("mistral-small", 40, 8, 128),
                "0.11.0",
            )
        },
        Case {
            tp: 4,
            len: 16_384,
            arch: Arch::A100,
            ..case(
                "vllm-more.jsonl",
                "dennislee-4xa100-80g-gptoss120b-tp4-u08-ray",
                preset("openai/gpt-oss-120b"),
                "0.10.1.1",
            )
        },
        case(
            H,
            "llmd-h100-google-gemma-3-12b-it--h100-80gb--tp1pp1dp1--8192",
            preset("google/gemma-3-12b-it"),
            "0.19.0",
        ),
        case(
            H,
            "llmd-h100-google-gemma-3-27b-it--h100-80gb--tp1pp1dp1--8192",
            preset("google/gemma-3-27b-it"),
            "0.19.0",
        ),
        case(
            H,
            "llmd-h100-google-gemma-3-4b-it--h100-80gb--tp1pp1dp1--8192",
            fixture("gemma-3-4b-it"),
            "0.19.0",
        ),
        case(
            H,
            "llmd-h100-google-gemma-2-9b-it--h100-80gb--tp1pp1dp1--8192",
            preset("google/gemma-2-9b-it"),
            "0.19.0",
        ),
        // gemma-2-27b: 46 layers, 16 KV heads × 128; gemma-2-2b: 26 layers, 4 KV heads × 256.
        case(
            H,
            "llmd-h100-google-gemma-2-27b-it--h100-80gb--tp1pp1dp1--8192",
            gemma2(46, 16, 128),
            "0.19.0",
        ),
        case(
            H,
            "llmd-h100-google-gemma-2-2b-it--h100-80gb--tp1pp1dp1--8192",
            gemma2(26, 4, 256),
            "0.19.0",
        ),
        Case {
            tp: 4,
            ..case(
                H,
                "llmd-h100-meta-llama-llama-4-scout--h100-80gb--tp4pp1dp1--8192",
                preset("meta-llama/Llama-4-Scout-17B-16E-Instruct"),
                "0.19.0",
            )
        },
        Case {
            tp: 2,
            ..case(
                H,
                "llmd-h100-openai-gpt-oss-20b--h100-80gb--tp2pp1dp1--8192",
                preset("openai/gpt-oss-20b"),
                "0.19.0",
            )
        },
    ]
}

#[test]
fn every_hybrid_log_with_memory_tokens_and_concurrency_is_reproduced() {
    let Some(dir) = calibration_dir() else { return };
    let mut checked = 0;
    for c in cases() {
        let r = record(&dir, c.file, c.id);
        let rep = &r["reported"];
        let g = rep["kv_cache_gib"].as_f64().unwrap();
        let tokens = rep["kv_tokens"].as_u64().unwrap();
        let conc = fixed2(rep["max_concurrency"].as_f64().unwrap());
        // The block counts the printed memory allows.
        let blocks_at = |x: f64| {
            report(&scenario(
                &c,
                KvMemory::Available(Bytes::from_gib_f64(x).unwrap()),
            ))
            .unwrap()
            .num_gpu_blocks
            .unwrap()
        };
        let (lo, hi) = (blocks_at(g - 0.005), blocks_at(g + 0.005));
        let found = (lo..=hi).find(|&n| {
            let o = report(&scenario(&c, KvMemory::Blocks(n))).unwrap();
            o.gpu_kv_cache_tokens == Some(tokens) && fixed2(o.max_concurrency.unwrap()) == conc
        });
        assert!(
            found.is_some(),
            "{}: vLLM printed {tokens} tokens and {conc}x; kvbudget's blocks {lo}–{hi} print none of that pair (at {lo}: {:?})",
            c.id,
            report(&scenario(&c, KvMemory::Blocks(lo))).unwrap().lines
        );
        checked += 1;
    }
    eprintln!("{checked} hybrid, sliding, chunked and MLA logs reproduced");
    assert_eq!(checked, cases().len());
}

#[test]
fn printed_block_and_padding_lines_match() {
    let Some(dir) = calibration_dir() else { return };
    let mut compared = 0;
    for c in cases() {
        let r = record(&dir, c.file, c.id);
        let lines: Vec<String> = r["lines"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|l| l.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let ours = report(&scenario(&c, KvMemory::Blocks(1 << 30)))
            .unwrap()
            .lines;
        // Each of vLLM's block-size, Mamba-padding and padding-layer lines kvbudget prints too.
        for needle in [
            "Setting attention block size",
            "Padding mamba page",
            "padding layers",
        ] {
            if let Some(theirs) = lines.iter().find(|l| l.contains(needle)) {
                let ours = ours
                    .iter()
                    .find(|l| l.contains(needle))
                    .unwrap_or_else(|| panic!("{}: kvbudget prints no {needle:?} line", c.id));
                assert!(
                    theirs.ends_with(ours.as_str()),
                    "{}: {theirs:?} vs {ours:?}",
                    c.id
                );
                compared += 1;
            }
        }
    }
    // Qwen3.5-9B's block and padding lines, Nemotron-Cascade-2's three, Gemma-3-27B's padding.
    assert!(compared >= 6, "only {compared} lines compared");
}

#[test]
fn gpt_oss_120b_token_line_without_concurrency() {
    // "5.38 GiB" and 78,384 tokens, no concurrency or length printed; a pre-0.20.1 release (the
    // count is a block multiple), where the token line does not depend on the length.
    let Some(dir) = calibration_dir() else { return };
    let r = record(&dir, "vllm-modern.jsonl", "gpt-oss-120b-hfmem60");
    let tokens = r["reported"]["kv_tokens"].as_u64().unwrap();
    let c = case(
        "vllm-modern.jsonl",
        "gpt-oss-120b-hfmem60",
        preset("openai/gpt-oss-120b"),
        "0.19.0",
    );
    let at = |x: f64| {
        report(&scenario(
            &c,
            KvMemory::Available(Bytes::from_gib_f64(x).unwrap()),
        ))
        .unwrap()
        .gpu_kv_cache_tokens
        .unwrap()
    };
    assert!((at(5.375)..=at(5.385)).contains(&tokens));
}
