//! The SGLang emulation through its public API: the three worked examples of
//! SGLANG-ACCOUNTING §5 with their derivations, refusals and the predicted memory; then the
//! shared calibration logs, when `../shared/calibration/` is present.

use kvbudget::core::model::{Attention, KvDtype, ModelSpec};
use kvbudget::core::presets;
use kvbudget::core::sglang::{report, Memory, Report, Scenario, Version};
use kvbudget::core::units::GIB;

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

/// Qwen3-8B: 36 layers, 8 KV heads × 128, bf16 → cell 8 × 256 × 36 × 2 = 147,456 B.
fn qwen3_8b() -> ModelSpec {
    presets::model("Qwen/Qwen3-8B").unwrap().spec()
}

/// Run `model` on a GPU of `gpu_mib` with the free memory measured before and after loading.
fn measured(model: ModelSpec, ver: &str, gpu_mib: u64, pre: f64, after: f64) -> Scenario {
    let mut s = Scenario::new(model, v(ver), Some(gpu_mib));
    s.pre_load_free_gib = Some(pre);
    s.post_load_free_gib = Some(after);
    s
}

fn run(s: &Scenario) -> Report {
    report(s).unwrap()
}

/// Example A: Qwen3-8B on an RTX 4090 (24,564 MiB), pre 23.0 GiB, after 7.70 GiB, TP 1.
#[test]
fn example_a_qwen3_8b_on_a_4090() {
    let a = |ver: &str| run(&measured(qwen3_8b(), ver, 24_564, 23.0, 7.70));
    // 0.4.0: mfs 0.88 (TP 1). rest = 7.70 − 23.0 × 0.12 = 4.94 GiB = 5,304,284,610.6 B;
    // // 147,456 = 35,971. K = (35,971 + 1) × 8 × 128 × 36 × 2 B = 2.4699 GiB → "2.47".
    let r = a("0.4.0");
    assert_eq!(r.mem_fraction_static, 0.88);
    assert_eq!(r.cell_size_bytes, 147_456);
    assert_eq!(r.max_total_num_tokens, Some(35_971));
    // 0.4.0 prints no KV line yet; its sizes are still computed.
    assert_eq!(r.k_size_gib.as_deref(), Some("2.47"));
    // est = max(int(35,971 / 40,960 × 512), 2,048) = 2,048; the request pool has one slot more.
    assert_eq!(r.max_running_requests, Some(2049));
    assert_eq!(r.memory, Memory::Measured);

    // 0.4.8: reserved (2.8 + 1/10) × 1024 = 2,969.6 MiB → round(21,594.4 / 24,564, 3) = 0.879;
    // rest = 7.70 − 23.0 × 0.121 = 4.917 → 35,804 tokens, K (35,805 × 73,728 B) = 2.4585 → "2.46".
    let r = a("0.4.8");
    assert_eq!(r.mem_fraction_static, 0.879);
    assert_eq!(r.max_total_num_tokens, Some(35_804));
    assert_eq!(r.k_size_gib.as_deref(), Some("2.46"));
    assert_eq!(r.max_running_requests, Some(2048));

    // 0.5.3: 512 + 1.5 × 2,048 + 2 × 16 + 1 × 1 / 8 × 1024 = 3,744 MiB → 0.848;
    // rest = 7.70 − 23.0 × 0.152 = 4.204 → 30,612 tokens, K "2.10".
    let r = a("0.5.3");
    assert_eq!(r.mfs_default.as_ref().unwrap().reserved_mib, Some(3744.0));
    assert_eq!(r.mem_fraction_static, 0.848);
    assert_eq!(r.max_total_num_tokens, Some(30_612));
    assert_eq!(r.k_size_gib.as_deref(), Some("2.10"));

    // 0.5.12: cuda_graph_max_bs 24 (from 0.5.5) and 42 prefill graph sizes up to 2,048 tokens:
    // 512 + 3,072 + 48 + 128 + 336 = 4,096 MiB → round(20,468 / 24,564, 3) = 0.833;
    // rest = 7.70 − 23.0 × 0.167 = 3.859 GiB → 28,100 tokens. (The card's 0.834 / 28,267
    // counts cuda_graph_max_bs 16 and 41 sizes, which the 0.5.12 wheel does not.)
    let r = a("0.5.12");
    assert_eq!(r.mem_fraction_static, 0.833);
    assert_eq!(r.max_total_num_tokens, Some(28_100));

    // 0.5.20: chunked 4,096, cuda_graph_max_bs 48, 50 sizes: 512 + 6,144 + 96 + 128 + 400 = 7,280
    // → 0.704; rest = 7.70 − 23.0 × 0.296 = 0.892 → 6,495 tokens, K "0.45".
    let r = a("0.5.20");
    assert_eq!(r.defaults.chunked_prefill_size, 4096);
    assert_eq!(r.defaults.cuda_graph_max_bs, Some(48));
    assert_eq!(r.mem_fraction_static, 0.704);
    assert_eq!(r.max_total_num_tokens, Some(6_495));
    assert_eq!(r.k_size_gib.as_deref(), Some("0.45"));
    assert_eq!(
        r.lines[2],
        "KV Cache is allocated. dtype: torch.bfloat16, #tokens: 6495, K size: 0.45 GB, V size: 0.45 GB"
    );
    assert_eq!(r.lines[0], "Load weight begin. avail mem=23.00 GB");
    assert_eq!(
        r.lines[1],
        "Load weight end. elapsed=… s, type=Qwen3ForCausalLM, avail mem=7.70 GB, mem usage=15.30 GB."
    );
}

/// Example B: Qwen2.5-7B (28 layers × 4 KV heads × 128: cell 57,344 B) on an H100 80 GB
/// (81,559 MiB), pre 78.8, after 64.59.
#[test]
fn example_b_qwen25_7b_on_an_h100() {
    let model = presets::model("Qwen/Qwen2.5-7B-Instruct").unwrap().spec();
    let b = |ver: &str| run(&measured(model.clone(), ver, 81_559, 78.8, 64.59));
    // 0.4.x: 0.88 → rest = 64.59 − 78.8 × 0.12 = 55.134 GiB → 55.134 × 2³⁰ / 57,344 = 1,032,360;
    // K = 1,032,361 × 28,672 B = 27.568 GiB → "27.57". est = clamp(1,032,360 / 32,768 × 512) = 4,096 → 4,097.
    let r = b("0.4.5");
    assert_eq!(r.cell_size_bytes, 57_344);
    assert_eq!(r.max_total_num_tokens, Some(1_032_360));
    assert_eq!(r.k_size_gib.as_deref(), Some("27.57"));
    assert_eq!(r.max_running_requests, Some(4097));
    assert_eq!(
        r.lines[2],
        "KV Cache is allocated. #tokens: 1032360, K size: 27.57 GB, V size: 27.57 GB"
    );
    // 0.4.8: (9.5 + 1/2) × 1024 = 10,240 → round(71,319 / 81,559, 3) = 0.874 → rest 54.6612 → 1,023,507.
    let r = b("0.5.2");
    assert_eq!(r.mem_fraction_static, 0.874);
    assert_eq!(r.max_total_num_tokens, Some(1_023_507));
    assert_eq!(r.max_running_requests, Some(4096));
    // 0.5.3–0.5.9: 512 + 12,288 + 512 + 128 = 13,440 → 0.835 → rest 51.588 → 965,963, K "25.79".
    for ver in ["0.5.3", "0.5.8"] {
        let r = b(ver);
        assert_eq!(r.mem_fraction_static, 0.835, "{ver}");
        assert_eq!(r.max_total_num_tokens, Some(965_963), "{ver}");
        assert_eq!(r.k_size_gib.as_deref(), Some("25.79"), "{ver}");
    }
    // 0.5.12+: + 58 prefill sizes up to 8,192 × 8 = 464 → 13,904 → 0.830 → 958,585.
    let r = b("0.5.23");
    assert_eq!(r.mfs_default.as_ref().unwrap().reserved_mib, Some(13_904.0));
    assert_eq!(r.mem_fraction_static, 0.83);
    assert_eq!(r.max_total_num_tokens, Some(958_585));
}

/// DeepSeek-V3: 61 layers of MLA (512 + 64), bf16 KV: 576 × 61 × 2 = 70,272 B per token.
fn deepseek_v3() -> ModelSpec {
    let mut m = ModelSpec::from_geometry("deepseek-ai/DeepSeek-V3", 61, 1, 576);
    m.attention = Attention::Mla {
        latent: 576,
        indexer: 0,
    };
    m.attention_heads = 128;
    m.max_position = 163_840;
    m
}

/// Example C: DeepSeek-V3 on 8 × H200 (143,771 MiB) at TP 8, pre 139.6, after 59.6.
#[test]
fn example_c_deepseek_v3_on_8_h200() {
    let c = |ver: &str| {
        let mut s = measured(deepseek_v3(), ver, 143_771, 139.6, 59.6);
        s.tp = 8;
        run(&s)
    };
    // 0.4.6.post2: above 96 GiB min(0.88 + 49,152 × 0.12 / 143,771, (143,771 − 18,432) / 143,771)
    // = 0.87180; rest = 59.6 − 139.6 × 0.12820 = 41.703 → 637,209 tokens, KV "41.70".
    let r = c("0.4.6.post2");
    assert!((r.mem_fraction_static - 0.871_797).abs() < 1e-6);
    assert_eq!(r.cell_size_bytes, 70_272);
    assert_eq!(r.max_total_num_tokens, Some(637_209));
    assert_eq!(r.kv_size_gib.as_deref(), Some("41.70"));
    assert_eq!(r.k_size_gib, None);
    // Plain 0.4.6 still used (gpu − 13,312) / gpu = 0.9074 above 81,920 MiB.
    assert!((c("0.4.6").mem_fraction_static - 0.907_408).abs() < 1e-6);
    // 0.4.8–0.5.2: (12 + 8/2) × 1024 = 16,384 → 0.886 → 667,507.
    let r = c("0.4.8");
    assert_eq!(r.mem_fraction_static, 0.886);
    assert_eq!(r.max_total_num_tokens, Some(667_507));
    // 0.5.3–0.5.9: 512 + 12,288 + 2 × 512 + 8 × 128 = 14,848 → 0.897 → 690,970, KV "45.22".
    let r = c("0.5.8");
    assert_eq!(r.mem_fraction_static, 0.897);
    assert_eq!(r.max_total_num_tokens, Some(690_970));
    assert_eq!(r.kv_size_gib.as_deref(), Some("45.22"));
    // 0.5.12+: MLA prefill graphs reserve 1,536 MiB → 16,384 → 0.886 → 667,507.
    let r = c("0.5.12");
    assert_eq!(r.mem_fraction_static, 0.886);
    assert_eq!(r.max_total_num_tokens, Some(667_507));
    // fp8_e4m3 halves the cell: ⌊rest / 35,136⌋ = 2 × 667,507 (the half-cell remainder rounds down).
    let mut s = measured(deepseek_v3(), "0.5.12", 143_771, 139.6, 59.6);
    s.tp = 8;
    s.kv_dtype = KvDtype::Fp8E4m3;
    let r = run(&s);
    assert_eq!(r.cell_size_bytes, 35_136);
    assert_eq!(r.max_total_num_tokens, Some(667_507 * 2));
}

#[test]
fn refusals_in_each_wording() {
    // after − pre × (1 − mfs) = 3.0 − 23.0 × 0.12 = 0.24 GiB → 1,747 tokens at 0.88 …
    let small = |ver: &str, mfs: f64| {
        let mut s = measured(qwen3_8b(), ver, 24_564, 23.0, 3.0);
        s.mem_fraction_static = Some(mfs);
        run(&s)
    };
    assert_eq!(small("0.5.4", 0.88).max_total_num_tokens, Some(1747));
    // … and a negative rest at 0.8: 3.0 − 23.0 × 0.2 = −1.6 GiB.
    let r = small("0.4.3", 0.8);
    assert_eq!(r.max_total_num_tokens, None);
    assert_eq!(
        r.error.as_deref(),
        Some("Not enough memory. Please try to increase --mem-fraction-static.")
    );
    assert_eq!(r.error_type, Some("RuntimeError"));
    assert_eq!(
        small("0.5.4", 0.8).error.as_deref(),
        Some("Not enough memory. Please try to increase --mem-fraction-static. Current value: self.server_args.mem_fraction_static=0.8")
    );
    assert_eq!(
        small("0.5.10", 0.8).error.as_deref(),
        Some("Not enough memory. Please try to increase --mem-fraction-static. Current value: mem_fraction_static=0.8")
    );
    // 0.5.14+: 1 − 3.0 / 23.0 = 0.8696 → raise above 0.870.
    let r = small("0.5.20", 0.8);
    assert_eq!(r.error_type, Some("ValueError"));
    assert_eq!(
        r.error.as_deref(),
        Some("Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.8. Raise --mem-fraction-static above 0.870 (minimum viable = 1 - available/pre = 0.8696). If using speculative decoding, draft weights are now counted.")
    );
    // The refusal leaves a token's cell as it is: 147,456 B for Qwen3-8B (it read 0 B per token).
    assert_eq!(r.cell_size_bytes, 147_456);
    // A cap above a negative profile is reported before the refusal (0.4.8, as in sglang#7691).
    let mut s = measured(qwen3_8b(), "0.4.8", 24_564, 23.0, 3.0);
    s.mem_fraction_static = Some(0.8);
    s.max_total_tokens = Some(131_072);
    let r = run(&s);
    // −1.6 × 2³⁰ / 147,456 = −11,650.8 → floor −11,651.
    assert_eq!(
        r.lines.last().unwrap(),
        "max_total_tokens=131072 is larger than the profiled value -11651. Use the profiled value instead."
    );
}

#[test]
fn cap_and_pages() {
    // --max-total-tokens below the profile caps the pool; pages round it down.
    let mut s = measured(qwen3_8b(), "0.5.8", 24_564, 23.0, 7.70);
    s.max_total_tokens = Some(20_480);
    s.page_size = Some(64);
    let r = run(&s);
    assert_eq!(r.max_total_num_tokens, Some(20_480));
    // K = (20,480 + 64) × 8 × 128 × 36 × 2 B = 1.41 GiB.
    assert_eq!(r.k_size_gib.as_deref(), Some("1.41"));
    s.max_total_tokens = Some(20_500);
    assert_eq!(run(&s).max_total_num_tokens, Some(20_480));
}

#[test]
fn predicted_memory_has_a_range() {
    // RTX 4090 without measured figures: 24,564 MiB less 0.85 GiB of context = 23.14 GiB free,
    // less the preset's 15.27 GiB of weights after.
    let s = Scenario::new(qwen3_8b(), v("0.5.12"), Some(24_564));
    let r = run(&s);
    assert_eq!(r.memory, Memory::Predicted);
    let pre = r.pre_load_free_gib.unwrap();
    assert!((pre - (24_564.0 / 1024.0 - 0.85)).abs() < 1e-9);
    let range = r.range.unwrap();
    let t = r.max_total_num_tokens.unwrap() as i64;
    assert!(
        range.low_tokens < t && t < range.high_tokens,
        "{range:?} {t}"
    );
    assert!(r.notes.iter().any(|n| n.contains("predicted")));
    // The context's 0.5 GiB range moves both figures: rest = after − pre × (1 − mfs) moves by
    // 0.5 × mfs = 0.4165 GiB.
    let spread = (range.high_tokens - range.low_tokens) as f64 * 147_456.0 / GIB as f64;
    assert!((spread - 0.5 * 0.833).abs() < 1e-3, "{spread}");
}

#[test]
fn start_from_a_pool_size() {
    let mut s = Scenario::new(qwen3_8b(), v("0.5.8"), None);
    s.num_tokens = Some(20_480);
    let r = run(&s);
    assert_eq!(r.memory, Memory::FromTokens);
    assert_eq!(
        r.lines,
        [
            "Using KV cache dtype: torch.bfloat16",
            "KV Cache is allocated. #tokens: 20480, K size: 1.41 GB, V size: 1.41 GB"
        ]
    );
    assert_eq!(r.max_running_requests, Some(2048));
}

#[test]
fn inputs_out_of_range_name_the_field() {
    let mut s = Scenario::new(qwen3_8b(), v("0.5.8"), Some(24_564));
    s.mem_fraction_static = Some(1.5);
    assert!(report(&s)
        .unwrap_err()
        .to_string()
        .contains("mem_fraction_static"));
    let mut s = Scenario::new(qwen3_8b(), v("0.4.0"), Some(24_564));
    s.kv_dtype = KvDtype::Fp8E4m3;
    let e = report(&s).unwrap_err().to_string();
    assert!(e.contains("auto, fp8_e5m2"), "{e}");
    let s = Scenario::new(qwen3_8b(), v("0.5.8"), None);
    assert!(report(&s).unwrap_err().to_string().contains("GPU"));
}

// ---------------------------------------------------------------------------------------------
// The shared calibration logs (`../shared/calibration/sglang-logs.jsonl`): public data that is
// not part of the project. Without it these tests say so and pass without checking anything.
// The records carry the printed figures; the geometry of each model (layers, KV heads, head
// size, dtype) is restated below from the record's model and its `check` text, never the
// expected sizes. The release is the one whose wording the record's lines show.

mod calibration {
    use super::*;
    use kvbudget::core::sglang::{Mamba, ModelExtras, Vit};
    use kvbudget::core::units::py_float_repr;
    use serde_json::Value;
    use std::path::PathBuf;

    fn records() -> Option<Vec<Value>> {
        let f = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/calibration/sglang-logs.jsonl");
        let Ok(text) = std::fs::read_to_string(&f) else {
            eprintln!("SKIP: ../shared/calibration/sglang-logs.jsonl is absent (public SGLang logs are not shipped with kvbudget); nothing checked");
            return None;
        };
        Some(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).unwrap())
                .collect(),
        )
    }

    /// A dense model: layers, KV heads, head size, element dtype by name.
    fn mha(id: &str, layers: u64, kv_heads: u64, head_dim: u64) -> ModelSpec {
        let mut m = ModelSpec::from_geometry(id, layers, kv_heads, head_dim);
        m.max_position = 32_768;
        m
    }

    /// DeepSeek-V3 / Kimi K2 class: 61 MLA layers of 512 + 64.
    fn mla(id: &str) -> ModelSpec {
        let mut m = deepseek_v3();
        m.id = id.to_string().into();
        m
    }

    /// A hybrid whose `full` layers of `layers` keep a KV cache.
    fn hybrid(s: &mut Scenario, full: u64, conv: u64) {
        s.extras.mamba = Some(Mamba {
            full_attention_layers: full,
            conv_bytes: conv,
            ssm_bytes: 0,
            ratio: 0.9,
            max_slots: None,
        });
    }

    /// The scenario that reproduces a record's pool, by record id: model, release, TP, KV dtype,
    /// page size. `None` for records without a K/V line or whose geometry is not known.
    fn known(id: &str) -> Option<Scenario> {
        let at = |m: ModelSpec, ver: &str| Scenario::new(m, v(ver), None);
        Some(match id {
            // Llama 3.1 8B: 32 × 8 × 128, bf16; `K size: … GB.` without #tokens → 0.4.1.post6–0.4.4.
            "sglang-docs-send-request-llama31-8b-h100" | "sglang-docs-lora-llama31-8b-capped" => {
                let ver = if id.contains("send-request") {
                    "0.4.1.post7"
                } else {
                    // `#tokens` without `dtype:` → 0.4.5–0.5.12 (Feb 2026 docs build, 0.5.8).
                    "0.5.8"
                };
                let mut s = at(mha("meta-llama/Llama-3.1-8B-Instruct", 32, 8, 128), ver);
                s.model.max_position = 131_072;
                s
            }
            // Qwen2.5-VL-7B: 28 × 4 × 128 (late Nov 2025 main, 0.5.6).
            "sglang-pr11830-qwen25vl7b-b200" => {
                at(mha("Qwen/Qwen2.5-VL-7B-Instruct", 28, 4, 128), "0.5.6")
            }
            // Qwen3-30B-A3B class on MUSA: 48 × 4 × 128 at TP 2, page 64; `dtype:` → 0.5.13+.
            "sglang-pr27537-musa-s5000-qwen3-30b-a3b-fp8" => {
                let mut s = at(mha("Qwen3-30B-A3B-FP8", 48, 4, 128), "0.5.13");
                s.tp = 2;
                s.page_size = Some(64);
                s
            }
            // Qwen2.5-0.5B: 24 × 2 × 64.
            "qwen25-0.5b-capped-max-total-tokens-2026-02" => {
                at(mha("Qwen/Qwen2.5-0.5B-Instruct", 24, 2, 64), "0.5.8")
            }
            // MLA, 61 layers: Kimi K2.6 (paraphrased line, May 2026), an R1-class issue (May 2025).
            "kimi-k26-lora-per-gpu" => at(mla("moonshotai/Kimi-K2.6"), "0.5.12"),
            "sglang-issue-2025-05-05-mla-274934" => at(mla("DeepSeek-R1"), "0.4.6"),
            // DeepSeek-V3 with an FP8 KV cache (Nov 2025).
            "deepseek-v3-fp8kv-log-parser-example" => {
                let mut s = at(mla("DeepSeek-V3"), "0.5.4");
                s.kv_dtype = KvDtype::Fp8E4m3;
                s
            }
            // Qwen3.5/3.6-27B class: 16 full-attention layers of 64, 4 KV heads × 256, TP 2, FP8.
            "club-3090-1261-2x5090-nvfp4-hybrid-fp8kv" => {
                let mut s = at(mha("Qwen3.6-27B-NVFP4", 64, 4, 256), "0.5.20");
                s.tp = 2;
                s.kv_dtype = KvDtype::Fp8E4m3;
                hybrid(&mut s, 16, 1);
                s
            }
            // Qwen3.8-27B NVFP4: 16 full layers × 4 KV heads × 256, FP8 (abridged lines).
            "qwen3.8-27b-nvfp4-dgx-spark-mamba" => {
                let mut s = at(mha("nvidia/Qwen3.8-27B-NVFP4", 64, 4, 256), "0.5.20");
                s.kv_dtype = KvDtype::Fp8E4m3;
                hybrid(&mut s, 16, 1);
                s
            }
            // LFM2-700M: 6 attention layers of 16, 8 KV heads × 64; 10 conv layers keep
            // 2 × 1,536 bf16 each = 61,440 B per request.
            "lfm2-700m-16gb-hybrid" => {
                let mut s = at(mha("LiquidAI/LFM2-700M", 16, 8, 64), "0.5.6");
                hybrid(&mut s, 6, 61_440);
                s
            }
            // A hybrid with 8,192 B of K per token: 16 full layers × 2 KV heads × 128, bf16.
            // Its KV line has no `dtype:`, so a release before 0.5.13.
            "hybrid-mamba-pdmux-banner-2026-09" => {
                let mut s = at(mha("hybrid-mamba", 48, 2, 128), "0.5.12");
                hybrid(&mut s, 16, 1);
                s
            }
            _ => return None,
        })
    }

    /// The message of a log line, without SGLang's `[date TPn]` prefix (a trailing space stays:
    /// the Mamba line has one).
    fn message(line: &str) -> &str {
        let t = line.trim_start();
        match (t.starts_with('['), t.find("] ")) {
            (true, Some(i)) => &t[i + 2..],
            _ => t,
        }
    }

    #[test]
    fn every_kv_size_line_from_its_printed_tokens() {
        let Some(records) = records() else { return };
        let (mut exact, mut skipped) = (0, Vec::new());
        for r in &records {
            let id = r["id"].as_str().unwrap();
            let lines: Vec<&str> = r["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            let parsed = kvbudget::core::sglang::logparse::parse(&lines.join("\n"));
            for (n, a) in parsed.allocations.iter().enumerate() {
                let Some(mut s) = known(id) else {
                    skipped.push(format!("{id}: geometry not known"));
                    continue;
                };
                if n > 0 {
                    // club-3090's second pool is its MTP draft, whose geometry the log does not give.
                    skipped.push(format!("{id}: draft pool #{n}"));
                    continue;
                }
                let tokens = a
                    .tokens
                    .or(parsed.max_total_num_tokens)
                    .expect("a pool size");
                s.num_tokens = Some(tokens);
                let rep = report(&s).unwrap();
                // Sizes to the printed character.
                assert_eq!(a.k_size, rep.k_size_gib, "{id}: K size");
                assert_eq!(a.v_size, rep.v_size_gib, "{id}: V size");
                assert_eq!(a.kv_size, rep.kv_size_gib, "{id}: KV size");
                // Whole lines where the record is verbatim (Kimi's is paraphrased, Qwen3.8's abridged).
                if !matches!(
                    id,
                    "kimi-k26-lora-per-gpu" | "qwen3.8-27b-nvfp4-dgx-spark-mamba"
                ) {
                    let kv_line = rep
                        .lines
                        .iter()
                        .find(|l| l.contains("KV Cache is allocated"))
                        .expect("a KV line");
                    assert_eq!(message(&a.line).trim_end(), kv_line, "{id}");
                }
                exact += 1;
            }
        }
        eprintln!(
            "{exact} K/V/KV size lines reproduced to the character; not checked: {skipped:?}"
        );
        assert!(exact >= 12, "only {exact} lines checked");
    }

    #[test]
    fn tokens_from_measured_memory_within_0_2_percent() {
        let Some(records) = records() else { return };
        let mut checked = 0;
        for r in &records {
            let id = r["id"].as_str().unwrap();
            let (Some(pre), Some(after), Some(mfs), Some(printed)) = (
                r["avail_mem_before_load_gb"].as_f64(),
                r["avail_mem_after_load_gb"].as_f64(),
                r["mem_fraction_static"].as_f64(),
                r["max_total_num_tokens"].as_u64(),
            ) else {
                continue;
            };
            if r.get("avail_mem_before_load_note").is_some() {
                // The free memory before loading was derived (after + mem usage), not printed.
                eprintln!("{id}: free memory before loading not printed; not checked");
                continue;
            }
            let mut s = known(id).unwrap_or_else(|| panic!("{id}: add its geometry"));
            s.pre_load_free_gib = Some(pre);
            s.post_load_free_gib = Some(after);
            s.mem_fraction_static = Some(mfs);
            s.max_total_tokens = r["max_total_tokens_arg"].as_u64();
            let t = report(&s).unwrap().max_total_num_tokens.unwrap() as f64;
            let off = (t - printed as f64).abs() / printed as f64;
            eprintln!("{id}: {t} vs printed {printed} ({:.4} %)", off * 100.0);
            assert!(off <= 0.002, "{id}: {t} vs {printed}");
            checked += 1;
        }
        assert!(checked >= 1);
    }

    #[test]
    fn every_printed_default_fraction_exactly() {
        let Some(records) = records() else { return };
        let mut checked = 0;
        for r in &records {
            let id = r["id"].as_str().unwrap();
            let origin = r["mem_fraction_static_origin"].as_str().unwrap_or("");
            let Some(printed) = r["mem_fraction_static"].as_f64() else {
                continue;
            };
            if !(origin.starts_with("default") && origin.contains("printed")) {
                continue;
            }
            let s = match id {
                // Llama 3.1 8B at TP 1 on an H100 (81,559 MiB): 0.4.1's TP tiers give 0.88.
                "sglang-docs-send-request-llama31-8b-h100" => {
                    let mut s = known(id).unwrap();
                    s.gpu_mib = Some(81_559);
                    s
                }
                // Gemma 3 27B AWQ at TP 1, late March 2025 (0.4.4.post2), a GPU below 25 GB.
                "sglang-issue-4895-gemma3-27b-awq-not-enough-memory" => Scenario::new(
                    mha("gemma-3-27b-it", 62, 16, 128),
                    v("0.4.4.post2"),
                    Some(24_564),
                ),
                // Qwen2.5-VL-7B on a B200 (nvidia-smi 183,359 MiB; anything from 182,368 to
                // 183,595 MiB gives the same), 0.5.6, prefill graphs on: the log is yuan-luo's, who
                // ran Qwen2.5-VL with --enable-piecewise-cuda-graph while adding it for VLMs
                // (sglang#13055), and 0.5.6 reserves 4,096 // 4 = 1,024 MiB for it.
                // 512 + 1.5 × 16,384 + 2 × 512 + 128 + 1,024 = 27,264 → round(156,095 / 183,359, 3)
                // = 0.851; × 0.95 × (1 − 0.1 × (24 × 1280² / (24 × 1024²) − 1)) = 0.851 × 0.8965625.
                "sglang-pr11830-qwen25vl7b-b200" => {
                    let mut s = known(id).unwrap();
                    s.gpu_mib = Some(183_359);
                    s.model.extras.multimodal = true;
                    s.extras = ModelExtras {
                        vit: Vit {
                            layers: None,
                            hidden: Some(1280),
                        },
                        ..s.extras
                    };
                    s.prefill_graph = Some(true);
                    s
                }
                other => panic!("{other}: add the settings of its printed default"),
            };
            let m = kvbudget::core::sglang::report::default_fraction(&s);
            assert_eq!(py_float_repr(m), py_float_repr(printed), "{id}");
            checked += 1;
        }
        eprintln!("{checked} printed default mem_fraction_static reproduced exactly");
        assert!(checked >= 3, "only {checked}");
    }

    #[test]
    fn lfm2_hybrid_from_its_printed_memory() {
        // LFM2-700M printed 15.33 GiB free before loading and 13.81 after but not its fraction;
        // on a 16 GB card (16,380 MiB) 0.5.6's default is round((16,380 − 3,728) / 16,380, 3) =
        // 0.772 (512 + 1.5 × 2,048 + 2 × 8 + 128 = 3,728). rest = 13.81 − 15.33 × 0.228 = 10.315
        // GiB; 0.9 / 1.9 of it in 61,440 B state slots, the remainder in 12,288 B KV tokens.
        let Some(records) = records() else { return };
        let r = records
            .iter()
            .find(|r| r["id"] == "lfm2-700m-16gb-hybrid")
            .unwrap();
        let mut s = known("lfm2-700m-16gb-hybrid").unwrap();
        s.gpu_mib = Some(16_380);
        s.pre_load_free_gib = r["avail_mem_before_load_gb"].as_f64();
        s.post_load_free_gib = r["avail_mem_after_load_gb"].as_f64();
        let rep = report(&s).unwrap();
        assert_eq!(rep.mem_fraction_static, 0.772);
        let printed = r["kv_tokens"].as_u64().unwrap() as f64;
        let t = rep.max_total_num_tokens.unwrap() as f64;
        assert!((t - printed).abs() / printed <= 0.002, "{t} vs {printed}");
        let slots = rep.mamba_slots.unwrap() as f64;
        assert!((slots - 85_292.0).abs() / 85_292.0 <= 0.002, "{slots}");
        eprintln!("lfm2: {t} tokens vs printed {printed}, {slots} state slots vs 85292");
    }

    #[test]
    fn mamba_line_of_lfm2() {
        // max_mamba_cache_size 85,292: conv state (85,292 + 1) × 61,440 B = 4.8805 GiB → "4.88GB".
        let s = known("lfm2-700m-16gb-hybrid").unwrap();
        let line =
            kvbudget::core::sglang::lines::mamba_alloc(s.version, 85_292, 85_293 * 61_440, 0);
        assert_eq!(
            line,
            "Mamba Cache is allocated. max_mamba_cache_size: 85292, conv_state size: 4.88GB, ssm_state size: 0.00GB "
        );
        let Some(records) = records() else { return };
        let r = records
            .iter()
            .find(|r| r["id"] == "lfm2-700m-16gb-hybrid")
            .unwrap();
        let printed = r["lines"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|l| l.as_str().filter(|l| l.contains("Mamba Cache")))
            .unwrap();
        assert_eq!(message(printed), line);
    }
}

#[test]
fn weights_larger_than_the_free_memory_run_out_while_loading() {
    // Qwen3-14B's 27.52 GiB of weights on an RTX 4090 (24,564 MiB, 23.14 GiB free predicted):
    // SGLang runs out of memory while loading them, before `Load weight end` and any pool. Its
    // cell is still the model's: 40 layers × 8 KV heads × 128 × 2 (K and V) × 2 B = 163,840 B.
    let model = presets::model("Qwen/Qwen3-14B").unwrap().spec();
    let r = run(&Scenario::new(model, v("0.5.12"), Some(24_564)));
    assert_eq!(r.error_type, Some("torch.OutOfMemoryError"));
    // Not SGLang's text (PyTorch's message names the allocation that failed): kvbudget's own,
    // said as such, and no exception line among what SGLang prints.
    assert!(r.error_reckoned);
    assert_eq!(r.error_line(), None);
    assert!(r.error.as_deref().unwrap().starts_with(
        "kvbudget's reckoning, not a line SGLang prints: the weights take 27.52 GiB per GPU, more than the 23.14 GiB free before loading (which SGLang prints as “23.14 GB”)."
    ));
    assert_eq!(r.lines, ["Load weight begin. avail mem=23.14 GB"]);
    assert_eq!(r.max_total_num_tokens, None);
    assert_eq!(r.cell_size_bytes, 163_840);
}

#[test]
fn the_page_says_an_out_of_memory_load_in_its_own_words_not_as_sglangs_line() {
    // The same scenario on the page: what SGLang prints is its one line before loading; the
    // reckoning is a note said as kvbudget's, with the same figures.
    let (s, _) = kvbudget::core::query::decode(
        "?model=Qwen/Qwen3-14B&gpu=rtx-4090&engine=sglang&sglang=0.5.12",
    );
    let v = kvbudget::core::handoff::sglang::sglang_view(&s);
    assert!(v.engine.refused);
    assert_eq!(v.engine.lines, "Load weight begin. avail mem=23.14 GB");
    assert!(
        v.engine.notes[0].starts_with("kvbudget's reckoning, not a line SGLang prints: the weights take 27.52 GiB per GPU, more than the 23.14 GiB free before loading"),
        "{:?}",
        v.engine.notes
    );
}

#[test]
fn a_context_length_past_the_models_is_refused_or_warned_by_release() {
    // Qwen3-8B's derived context length is its max_position_embeddings, 40,960; 200,000 asked.
    // configs/model_config.py: unchecked before 0.3.5; a ValueError in 0.3.5–0.4.3; a warning in
    // 0.4.4–0.5.0 (SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN defaulted to "True"); a ValueError
    // again from 0.5.1, its message starting "Warning: ".
    let sentence = "User-specified context_length (200000) is greater than the derived context_length (40960). This may lead to incorrect model outputs or CUDA errors.";
    let tail = " Note that the derived context_length may differ from max_position_embeddings in the model's config. To allow overriding this maximum, set the env var SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1";
    let at = |ver: &str| {
        let mut s = measured(qwen3_8b(), ver, 81_559, 78.5, 63.2);
        s.context_length = Some(200_000);
        run(&s)
    };
    for (ver, prefix) in [
        ("0.5.23", "Warning: "),
        ("0.5.1", "Warning: "),
        ("0.4.3", ""),
        ("0.3.5", ""),
    ] {
        let r = at(ver);
        assert_eq!(
            r.error_line(),
            Some(format!("ValueError: {prefix}{sentence}{tail}")),
            "{ver}"
        );
        assert!(r.lines.is_empty(), "{ver}: nothing loads: {:?}", r.lines);
        assert_eq!(r.max_total_num_tokens, None, "{ver}");
    }
    for ver in ["0.4.4", "0.5.0rc2"] {
        let r = at(ver);
        assert_eq!(r.error, None, "{ver}");
        assert_eq!(r.lines[0], format!("Warning: {sentence}"), "{ver}");
        assert_eq!(r.context_len, 200_000, "{ver}");
        assert!(r.max_total_num_tokens.is_some(), "{ver}");
    }
    let r = at("0.3.4");
    assert_eq!(r.error, None);
    assert!(!r.lines[0].starts_with("Warning"), "{:?}", r.lines);
    // A pool taken from a log (sg_tokens) is a start the log shows: not refused.
    let mut s = Scenario::new(qwen3_8b(), v("0.5.23"), Some(81_559));
    s.context_length = Some(200_000);
    s.num_tokens = Some(444_500);
    assert_eq!(run(&s).error, None);
    // The model's own length is accepted everywhere.
    let mut s = measured(qwen3_8b(), "0.5.23", 81_559, 78.5, 63.2);
    s.context_length = Some(40_960);
    assert_eq!(run(&s).error, None);
}

#[test]
fn a_tp_size_the_layers_cannot_split_is_refused_as_the_model_is_built() {
    // After "Load weight begin", the embedding divides the vocabulary padded to 64 rows: Qwen3-8B's
    // 151,936 = 64 × 2,374 is not divisible by 3. Qwen2.5-7B's 152,064 is (50,688 rows each), so
    // its attention's bare assert on 28 heads fails next: the exception's class alone.
    let at = |m: ModelSpec, tp: u64| {
        let mut s = measured(m, "0.5.23", 81_559, 78.5, 70.9);
        s.tp = tp;
        run(&s)
    };
    let r = at(qwen3_8b(), 3);
    assert_eq!(r.lines, ["Load weight begin. avail mem=78.50 GB"]);
    assert_eq!(
        r.error_line().as_deref(),
        Some("AssertionError: 151936 is not divisible by 3")
    );
    let qwen25 = presets::model("Qwen/Qwen2.5-7B-Instruct").unwrap().spec();
    let r = at(qwen25.clone(), 3);
    assert_eq!(r.error_line().as_deref(), Some("AssertionError"));
    assert_eq!(r.max_total_num_tokens, None);
    // TP 2 splits 28 heads, 4 KV heads and the MLP's 18,944: it starts.
    assert_eq!(at(qwen25, 2).error, None);
}
