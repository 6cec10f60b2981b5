//! The SGLang emulation through its public API: the three worked examples of
//! SGLANG-ACCOUNTING §5 with their derivations, refusals and the predicted memory. The shared
//! calibration logs are checked in `tests/sglang_calibration.rs`.

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
    m.attention = Attention::Mla { latent: 576 };
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
