//! llama.cpp's KV cache lines, reproduced from the model's metadata and the flags, against
//! public startup logs of builds that print `llama_kv_cache: size = … (N cells, L layers, a/b
//! seqs)`. Each case names its log; the geometry is the log's own `print_info:` block.

use kvbudget::core::llamacpp::{kv, CacheType, FlashAttn, Geometry, Settings};

/// `full` full-attention and `swa` sliding-window layers (window `n_swa`), each caching K and V
/// of `width` elements a token (`n_embd_k_gqa`, `n_embd_v_gqa`).
fn layers(full: u64, swa: u64, n_swa: u64, width: u64) -> Geometry {
    Geometry {
        full_layers: full,
        swa_layers: swa,
        n_swa,
        n_embd_k_gqa: width,
        n_embd_v_gqa: width,
        ..Geometry::default()
    }
}

/// Meta-Llama-3-8B-Instruct (32 layers, 8 KV heads × 128 = 1,024 elements a layer), `-c 8192`:
/// 8,192 cells × 32 layers × 1,024 × 2 B = 512 MiB of K and as much of V. With `-np 4` and no
/// unified cache, four streams of 8,192 / 4 = 2,048 cells: the same 512 MiB, printed per stream;
/// with q8_0 (34 B per 32 elements) 8,192 × 32 × 1,024 × 34 / 32 B = 272 MiB each.
/// (The README of a KV calculator, "Validation against llama.cpp", a 2026 build on Apple M5.)
#[test]
fn llama3_8b_three_ways() {
    let g = layers(32, 0, 0, 1024);
    let s = Settings {
        ctx: 8192,
        ..Settings::default()
    };
    assert_eq!(
        kv(&g, &s, 8192).unwrap().lines,
        ["llama_kv_cache: size = 1024.00 MiB (  8192 cells,  32 layers,  1/1 seqs), K (f16):  512.00 MiB, V (f16):  512.00 MiB"]
    );
    let np4 = Settings { parallel: 4, ..s };
    assert_eq!(
        kv(&g, &np4, 8192).unwrap().lines,
        ["llama_kv_cache: size = 1024.00 MiB (  2048 cells,  32 layers,  4/4 seqs), K (f16):  512.00 MiB, V (f16):  512.00 MiB"]
    );
    let q8 = CacheType::parse("q8_0").unwrap();
    let quant = Settings {
        type_k: q8,
        type_v: q8,
        flash_attn: FlashAttn::On,
        ..s
    };
    assert_eq!(
        kv(&g, &quant, 8192).unwrap().lines,
        ["llama_kv_cache: size =  544.00 MiB (  8192 cells,  32 layers,  1/1 seqs), K (q8_0):  272.00 MiB, V (q8_0):  272.00 MiB"]
    );
    // A quantized V without flash attention is refused, as llama.cpp refuses it.
    let off = Settings {
        flash_attn: FlashAttn::Off,
        ..quant
    };
    assert!(kv(&g, &off, 8192).is_err());
}

/// gpt-oss-20b (12 full and 12 sliding layers of 8 KV heads × 64 = 512 elements, n_swa 128),
/// no `-c`: n_ctx_train 131,072 cells × 12 × 512 × 2 B = 1,536 MiB each of K and V; the SWA
/// cache 128 + 512 (the ubatch) = 640 cells, padded to 256: 768 cells, 768 × 12 × 512 × 2 B =
/// 9 MiB each. With `-ub 2048`: 128 + 2,048 = 2,176, padded: 2,304 cells, 27 MiB each.
/// (github.com/ontouchstart/rabbit-holes, ggml-gpt-oss-20b-GGUF/ggml-gpt-oss-20b-GGUF-curl.md at
/// c3f36b2a, build 8164; and a b7217 log with `-ub 2048`.)
#[test]
fn gpt_oss_20b_sliding_window_cache() {
    let g = layers(12, 12, 128, 512);
    let s = Settings {
        ctx: 0,
        ..Settings::default()
    };
    assert_eq!(
        kv(&g, &s, 131_072).unwrap().lines,
        [
            "llama_kv_cache_iswa: creating non-SWA KV cache, size = 131072 cells",
            "llama_kv_cache: size = 3072.00 MiB (131072 cells,  12 layers,  1/1 seqs), K (f16): 1536.00 MiB, V (f16): 1536.00 MiB",
            "llama_kv_cache_iswa: creating     SWA KV cache, size = 768 cells",
            "llama_kv_cache: size =   18.00 MiB (   768 cells,  12 layers,  1/1 seqs), K (f16):    9.00 MiB, V (f16):    9.00 MiB",
        ]
    );
    let big_ubatch = Settings { ubatch: 2048, ..s };
    assert_eq!(kv(&g, &big_ubatch, 131_072).unwrap().caches[1].cells, 2304);
    // -ctk q8_0 (34 B per 32 elements): the SWA cache's K 768 × 12 × 512 × 34 / 32 B =
    // 5,013,504 B = 4.78 MiB; but builds b8634–b8643 kept the SWA cache f16 (9.00 MiB).
    let q8 = CacheType::parse("q8_0").unwrap();
    let quant = Settings { type_k: q8, ..s };
    let swa_line = |b: u64| {
        kv(&g, &Settings { build: b, ..quant }, 131_072)
            .unwrap()
            .lines[3]
            .clone()
    };
    assert_eq!(
        swa_line(8164),
        "llama_kv_cache: size =   13.78 MiB (   768 cells,  12 layers,  1/1 seqs), K (q8_0):    4.78 MiB, V (f16):    9.00 MiB"
    );
    assert!(swa_line(8640).contains("K (f16):    9.00 MiB"));
    // --swa-full: the SWA cache as large as the full one.
    let full = Settings {
        swa_full: true,
        ..s
    };
    assert_eq!(kv(&g, &full, 131_072).unwrap().caches[1].cells, 131_072);
}

/// Gemma-2-2B (13 full and 13 sliding layers of 4 KV heads × 256 = 1,024 elements, n_swa 4,096)
/// under llama-server's automatic 4 slots with a unified cache: one stream of 8,192 cells; the
/// SWA cache would take 4,096 × 4 + 512 = 16,896 cells, more than the 8,192 of the full one, so
/// 8,192: 8,192 × 13 × 1,024 × 2 B = 208 MiB each of K and V in both, printed "4/1 seqs".
/// (A llama-server log of build 7445, `gemma-2-2b-it-Q4_K_M.gguf`, on Windows.)
#[test]
fn gemma2_2b_four_slots_one_stream() {
    let g = layers(13, 13, 4096, 1024);
    let s = Settings {
        ctx: 8192,
        parallel: 4,
        kv_unified: true,
        ..Settings::default()
    };
    let line = "llama_kv_cache: size =  416.00 MiB (  8192 cells,  13 layers,  4/1 seqs), K (f16):  208.00 MiB, V (f16):  208.00 MiB";
    assert_eq!(
        kv(&g, &s, 8192).unwrap().lines,
        [
            "llama_kv_cache_iswa: creating non-SWA KV cache, size = 8192 cells",
            line,
            "llama_kv_cache_iswa: creating     SWA KV cache, size = 8192 cells",
            line,
        ]
    );
}

/// Per-slot streams pad each slot's share: `-c 1024 -np 3` gives 3 streams of ⌈341 / 256⌉ × 256 =
/// 512 cells (1,536 in all), `-np 4` 4 of 256 (1,024): the round-ups unsloth's llama.cpp sizing
/// reports (unslothai/unsloth PR #7530, against llama-server b10107).
#[test]
fn slots_pad_their_share() {
    let g = layers(1, 0, 0, 128);
    let cells = |np| {
        let s = Settings {
            ctx: 1024,
            parallel: np,
            ..Settings::default()
        };
        let c = &kv(&g, &s, 1024).unwrap().caches[0];
        c.cells * c.streams
    };
    assert_eq!((cells(3), cells(4)), (1536, 1024));
}

/// The presets' geometry in llama.cpp's terms: Qwen3-8B 36 full layers of 8 KV heads × 128 =
/// 1,024 elements; gpt-oss-20b 12 full and 12 sliding of 8 × 64 = 512, window 128. Layouts not
/// modelled in llama.cpp are refused by name: a sparse-attention indexer, Gemma 4's shared layers.
#[test]
fn presets_give_their_geometry_or_a_refusal() {
    use kvbudget::core::presets;
    let g = |id: &str| Geometry::of(&presets::model(id).unwrap().spec());
    let g0 = |x: Geometry| Geometry { n_layer: 0, ..x };
    assert_eq!(g0(g("Qwen/Qwen3-8B").unwrap()), layers(36, 0, 0, 1024));
    assert_eq!(
        g0(g("openai/gpt-oss-20b").unwrap()),
        layers(12, 12, 128, 512)
    );
    for (id, why) in [
        ("deepseek-ai/DeepSeek-V3.2", "indexer"),
        ("google/gemma-4-E2B-it", "sharing a cache"),
    ] {
        let e = g(id).unwrap_err().to_string();
        assert!(e.contains(why), "{id}: {e}");
    }
}

/// b6975 on, the context is padded to 256 cells before each slot takes its share, padded again:
/// `-c 1025 -np 4` is ⌈1,025 / 256⌉ × 256 = 1,280 cells, 320 a slot, padded to 512: four
/// streams of 512 (`src/llama-context.cpp`, b6975). And the sizes go through a 32-bit float:
/// 2^36 + 5,120 B is 65,536.0049 MiB, but as a float the bytes round to the nearest 8,192
/// (2^36 + 8,192), so llama.cpp prints 65536.01.
#[test]
fn the_context_pads_before_the_slots_share_it_and_sizes_print_as_floats() {
    use kvbudget::core::llamacpp::mib;
    let g = layers(1, 0, 0, 128);
    let s = Settings {
        ctx: 1025,
        parallel: 4,
        ..Settings::default()
    };
    let c = &kv(&g, &s, 0).unwrap().caches[0];
    assert_eq!((c.cells, c.streams), (512, 4));
    assert_eq!(format!("{:.2}", mib((1 << 36) + 5120)), "65536.01");
}

/// Qwen3.5-27B, a hybrid of 16 attention layers (4 KV heads × 256 = 1,024 elements) and 48 Gated
/// DeltaNet layers (d_conv 4, 48 value heads × 128 = d_inner 6,144, 16 key heads × 128 = d_state
/// 128, n_group 16), `-c 131072 -np 1`: K and V 131,072 × 16 × 1,024 × 2 B = 4,096 MiB each; the
/// recurrent state one cell, R = 48 × (4 − 1) × (6,144 + 2 × 16 × 128) × 4 B = 5,898,240 B =
/// 5.625 MiB (printed 5.62, the tie to even), S = 48 × 128 × 6,144 × 4 B = 144 MiB; the line
/// names all 64 layers. (A llama-server log of build 8586, `Qwen3.5-27B.Q4_K_S.gguf -c 131072
/// -np 1 -ngl 26`.) From b9180 the line adds `n_rs_seq`.
#[test]
fn qwen35_27b_kv_and_recurrent_state() {
    use kvbudget::core::presets;
    let g = Geometry::of(&presets::model("Qwen/Qwen3.5-27B").unwrap().spec()).unwrap();
    let s = Settings {
        ctx: 131_072,
        build: 8586,
        ..Settings::default()
    };
    assert_eq!(
        kv(&g, &s, 262_144).unwrap().lines,
        [
            "llama_kv_cache: size = 8192.00 MiB (131072 cells,  16 layers,  1/1 seqs), K (f16): 4096.00 MiB, V (f16): 4096.00 MiB",
            "llama_memory_recurrent: size =  149.62 MiB (     1 cells,  64 layers,  1 seqs), R (f32):    5.62 MiB, S (f32):  144.00 MiB",
        ]
    );
    let newer = Settings { build: 9180, ..s };
    assert!(kv(&g, &newer, 262_144).unwrap().lines[1]
        .contains("(     1 cells,  64 layers,  1 seqs  0 rs_seq)"));
    // Before b8025 a hybrid's caches took -np times their size without a unified cache: refused.
    let old = Settings {
        build: 8000,
        parallel: 2,
        ..s
    };
    assert!(kv(&g, &old, 262_144).is_err());
}

/// DeepSeek-V2-Lite's MLA, 27 layers of one latent of 512 + 64 = 576 elements, `-c 8192`: K
/// 8,192 × 27 × 576 × 2 B = 243 MiB and, from b7832, no V ("V (f16): 0.00 MiB"); before it V was
/// allocated too, which is refused.
#[test]
fn mla_caches_k_alone() {
    use kvbudget::core::presets;
    let g = Geometry::of(
        &presets::model("deepseek-ai/DeepSeek-V2-Lite")
            .unwrap()
            .spec(),
    )
    .unwrap();
    let s = Settings {
        ctx: 8192,
        ..Settings::default()
    };
    assert_eq!(
        kv(&g, &s, 163_840).unwrap().lines,
        ["llama_kv_cache: size =  243.00 MiB (  8192 cells,  27 layers,  1/1 seqs), K (f16):  243.00 MiB, V (f16):    0.00 MiB"]
    );
    assert!(kv(&g, &Settings { build: 7831, ..s }, 163_840).is_err());
}

/// Public logs read back and checked line by line: kvbudget computes every KV line from the
/// log's own metadata and settings, and each equals the printed one. Sources: gpt-oss-20b b8164,
/// github.com/ontouchstart/rabbit-holes (ggml-gpt-oss-20b-GGUF/ggml-gpt-oss-20b-GGUF-curl.md at
/// c3f36b2a); gpt-oss-20b b7217 with `-ub 2048 --ctx-size 0` by the same author; Gemma-2-2B
/// b7445 under llama-server's automatic 4 slots; Qwen3.5-27B b8586 `-c 131072 -np 1 -ngl 26`
/// (public llama-server transcripts, their print_info, llama_context and KV lines kept verbatim);
/// Llama-3.1-70B over RPC, b6209 (github.com/ArmDeveloperEcosystem/arm-learning-paths,
/// distributed-inference-with-llama-cpp/how-to-3.md), the `llama_kv_cache_unified:` prefix;
/// gpt-oss-20b b6182 with flash attention off (ggml-org/llama.cpp#16188, as quoted), its SWA
/// cache 128 + 512 padded to 32: 640 cells; DeepSeek-V3-0324's MLA cache at b5331, K 576 and V
/// 512 wide (ikawrakow/ik_llama.cpp#394, mainline's output); GLM-Z1-32B q8_0 at b5192, 81.02 MiB
/// (ikawrakow/ik_llama.cpp#344, mainline's output); DeepSeek-R1 b4963 before MLA caching, K
/// 24,576 and V 16,384 wide, `can_shift = 0` (arm-learning-paths, deepseek-cpu/
/// deepseek-chatbot.md); Gemma-3-1B b4879, every layer at the whole context before the SWA
/// cache existed (fabiomatricardi/Gemma3-1b-gradio-chatbot); Pythia-1.4B b4411, `-c 0`
/// (ggml-org/ci, pythia_1_4b-tg-q4_0.log of commit c31fc8b9).
#[test]
fn public_logs_check_line_by_line() {
    use kvbudget::core::llamacpp::logparse::check;
    for (file, lines) in [
        ("llamacpp_b8164_gpt-oss-20b.log", 4),
        ("llamacpp_b7217_gpt-oss-20b_ub2048.log", 4),
        ("llamacpp_b7445_gemma-2-2b_np4_unified.log", 4),
        ("llamacpp_b8586_qwen3.5-27b.log", 2),
        ("llamacpp_b6209_llama-3.1-70b_rpc.log", 1),
        ("llamacpp_b6182_gpt-oss-20b_fa_off.log", 4),
        ("llamacpp_b5331_deepseek-v3_mla.log", 2),
        ("llamacpp_b5192_glm-z1-32b_q8_0.log", 2),
        ("llamacpp_b4963_deepseek-r1.log", 2),
        ("llamacpp_b4879_gemma-3-1b.log", 2),
        ("llamacpp_b4411_pythia-1.4b.log", 2),
    ] {
        let path = format!("{}/tests/fixtures/logs/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let rows = check(&text).unwrap();
        assert_eq!(rows.len(), lines, "{file}");
        for r in &rows {
            assert_eq!(r.computed, r.logged, "{file}");
        }
        // Ten times the cells in the log's first cache (before b5429 its `kv_size = …`): the
        // check says so.
        let first = rows
            .iter()
            .find(|r| r.logged.contains(": size =") || r.logged.contains("kv_size = "))
            .unwrap();
        let more = match first.logged.contains("kv_size = ") {
            true => first
                .logged
                .replacen(", offload", "0, offload", 1)
                .replacen(", type_k", "0, type_k", 1),
            false => first.logged.replacen(" cells", "0 cells", 1),
        };
        let tampered = text.replace(&first.logged, &more);
        assert!(
            check(&tampered)
                .unwrap()
                .iter()
                .any(|r| r.computed != r.logged),
            "{file}"
        );
    }
    // A build kvbudget does not model is named.
    let old = "build: 4000 (abc) with GNU\nllama_kv_cache: size = 1.00 MiB (256 cells, 1 layers, 1/1 seqs), K (f16): 0.50 MiB, V (f16): 0.50 MiB";
    assert!(check(old).unwrap_err().to_string().contains("b4000"));
}

/// How each build range gives a slot its share of `-c 1000 -np 3` without a unified cache
/// (`src/llama-model.cpp` / `src/llama-context.cpp` of each range): up to b6867 ⌈1,000 / 3⌉ = 334
/// padded to 256 with flash attention (512) or 32 without (352); b6868–b6926 334 unpadded;
/// b6927–b6974 ⌊1,000 / 3⌋ = 333; from b6975 1,000 padded to 1,024, a third 341, padded: 512.
#[test]
fn each_build_range_shares_the_context_its_way() {
    let g = layers(1, 0, 0, 128);
    let cells = |build, flash_attn| {
        let s = Settings {
            ctx: 1000,
            parallel: 3,
            build,
            flash_attn,
            ..Settings::default()
        };
        kv(&g, &s, 0).unwrap().caches[0].cells
    };
    assert_eq!(cells(6500, FlashAttn::Auto), 512);
    assert_eq!(cells(6500, FlashAttn::Off), 352);
    assert_eq!(cells(6900, FlashAttn::Off), 334);
    assert_eq!(cells(6950, FlashAttn::Off), 333);
    assert_eq!(cells(6975, FlashAttn::Off), 512);
}

/// The page's log check (in the worker) reads a llama.cpp log as llama.cpp's and shows each of its
/// KV lines beside kvbudget's: the b8164 gpt-oss-20b log's four agree; with the SWA cache's 768
/// cells printed as 512, one of four differs.
#[test]
fn the_log_check_reads_a_llamacpp_log() {
    use kvbudget::core::handoff::log::{log_view, read_log};
    use kvbudget::core::scenario::PageScenario;
    let path = format!(
        "{}/tests/fixtures/logs/llamacpp_b8164_gpt-oss-20b.log",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let (status, loaded) = read_log(&text);
    assert_eq!(
        (status.kind.as_str(), status.verdict.as_str()),
        ("llamacpp", "started")
    );
    assert_eq!(
        status.message,
        "llama.cpp b8164: its 4 KV lines are the ones kvbudget computes from the log's own metadata and settings"
    );
    let v = log_view(&PageScenario::default(), &loaded.unwrap());
    assert_eq!(v.rows.len(), 4);
    assert!(v
        .rows
        .iter()
        .all(|r| r.difference == "0" && r.predicted == r.printed));
    let (status, _) = read_log(&text.replace("(   768 cells", "(   512 cells"));
    assert!(
        status.message.contains("1 of its 4 KV lines differ"),
        "{}",
        status.message
    );
}
