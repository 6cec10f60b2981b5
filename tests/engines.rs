//! The page's scenario under SGLang, and both engines on the same GPU: Qwen3-8B on an RTX 4090
//! (SGLANG-ACCOUNTING §5 A and §6), the free memory predicted from the card and the weights.

use kvbudget::core::calc::evaluate;
use kvbudget::core::engines::{compare, default_mfs, gpu_mib, sglang_command, sglang_outcome};
use kvbudget::core::handoff::sglang::sglang_stats;
use kvbudget::core::query::{decode, encode};
use kvbudget::core::scenario::{Engine, PageScenario, SglangKnobs};
use kvbudget::core::sglang::{Memory, Version};

fn sglang_page() -> PageScenario {
    PageScenario {
        engine: Engine::Sglang,
        ..PageScenario::default()
    }
}

/// SGLang 0.5.23's default on a 4090: chunked prefill 4,096, cuda_graph_max_bs 48, 50 prefill
/// graph sizes reserve 512 + 1.5 × 4,096 + 2 × 48 + 128 + 8 × 50 = 7,280 MiB of the card's
/// 24,564 (as `nvidia-smi` reports it): round(17,284 / 24,564, 3) = 0.704.
/// Free memory before loading: 24,564 MiB = 23.988 GiB less 0.85 GiB of CUDA context = 23.138 GiB;
/// after: less the preset's 15.27 GiB of weights = 7.868 GiB.
/// rest = 7.868 − 23.138 × 0.296 = 1.0193 GiB = 1,094,518,728 B; // 147,456 B per token
/// (8 KV heads × 128 × 2 (K and V) × 2 B × 36 layers) = 7,422 tokens: less than one 8,192-token
/// sequence.
#[test]
fn qwen3_8b_on_a_4090_under_sglang_defaults() {
    let s = sglang_page();
    assert_eq!(gpu_mib(&s.gpu), (24_564, true));
    assert_eq!(default_mfs(&s), 0.704);
    let o = sglang_outcome(&s).unwrap();
    let r = &o.report;
    assert_eq!(r.version, Version::new(0, 5, 23));
    assert_eq!(r.memory, Memory::Predicted);
    assert_eq!(r.mem_fraction_static, 0.704);
    assert_eq!(r.mfs_default.as_ref().unwrap().reserved_mib, Some(7280.0));
    assert!((r.pre_load_free_gib.unwrap() - 23.138_281_25).abs() < 1e-6);
    assert!((r.post_load_free_gib.unwrap() - 7.868_281_25).abs() < 1e-6);
    assert!((r.rest_gib.unwrap() - 1.019_35).abs() < 1e-5);
    assert_eq!(r.cell_size_bytes, 147_456);
    assert_eq!(r.max_total_num_tokens, Some(7_422));
    assert_eq!(r.max_running_requests, Some(2048));
    assert_eq!(r.error, None);
    assert_eq!(
        r.lines[2],
        "KV Cache is allocated. dtype: torch.bfloat16, #tokens: 7422, K size: 0.51 GB, V size: 0.51 GB"
    );
    assert_eq!(o.context, 8192);
    assert_eq!(o.fit, 0);
    assert_eq!(o.sequences, 0);
    assert_eq!(
        o.command,
        "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 8192"
    );
}

/// `--mem-fraction-static 0.85`: rest = 7.868 − 23.138 × 0.15 = 4.3975 GiB = 4,721,821,614 B
/// → 32,021 tokens, ⌊32,021 / 8,192⌋ = 3 sequences. With `--page-size 16` the pool is whole
/// pages: 2,001 × 16 = 32,016 tokens, still 3 sequences.
#[test]
fn sglang_knobs_change_the_pool() {
    let mut s = sglang_page();
    s.sglang.mem_fraction_static = Some(0.85);
    let o = sglang_outcome(&s).unwrap();
    assert_eq!(o.report.mem_fraction_static, 0.85);
    assert!(o.report.mfs_default.is_none());
    assert_eq!(o.report.max_total_num_tokens, Some(32_021));
    assert_eq!(o.sequences, 3);
    assert!(
        o.command.ends_with("--mem-fraction-static 0.85"),
        "{}",
        o.command
    );
    s.sglang.page_size = Some(16);
    let o = sglang_outcome(&s).unwrap();
    assert_eq!(o.report.max_total_num_tokens, Some(32_016));
    assert_eq!(o.sequences, 3);
    assert!(o.command.ends_with("--page-size 16"), "{}", o.command);
    // A 1,000-token context with 16-token pages takes 63 pages = 1,008 tokens: ⌊32,016 / 1,008⌋ = 31.
    s.ctx = 1000;
    let o = sglang_outcome(&s).unwrap();
    assert_eq!(o.tokens_per_sequence, 1008);
    assert_eq!(o.fit, o.report.max_total_num_tokens.unwrap() / 1008);
}

/// max_running_requests caps the sequences: 32,021 tokens of 16-token contexts would be 2,001.
#[test]
fn sequences_are_capped_by_max_running_requests() {
    let mut s = sglang_page();
    s.sglang.mem_fraction_static = Some(0.85);
    s.ctx = 16;
    let o = sglang_outcome(&s).unwrap();
    assert_eq!(o.fit, 32_021 / 16);
    let cap = o.report.max_running_requests.unwrap();
    assert_eq!(o.sequences, o.fit.min(cap));
}

/// Same GPU, both engines. vLLM: total × 0.9 = 21.67 GiB − 15.27 GiB of weights − 1.63 GiB of
/// estimated overhead = 4.76 GiB, in 16-token blocks of 16 × 147,456 = 2,359,296 B: 2,167 blocks
/// = 34,672 tokens, ⌊2,167 / 512⌋ = 4 sequences of 8,192. SGLang 0.5.23: 7,422 tokens, none.
#[test]
fn both_engines_on_the_same_gpu() {
    let s = sglang_page();
    let c = compare(&evaluate(&s).unwrap(), &sglang_outcome(&s).unwrap());
    assert_eq!(c.rows[0].engine, "vLLM");
    assert_eq!(c.rows[0].tokens, Some(34_672));
    assert_eq!(c.rows[0].sequences, 4);
    assert!(
        c.rows[0].pool.contains("in whole 16-token blocks"),
        "{}",
        c.rows[0].pool
    );
    assert_eq!(c.rows[1].engine, "SGLang");
    assert_eq!(c.rows[1].tokens, Some(7_422));
    assert_eq!(c.rows[1].sequences, 0);
    assert_eq!(
        c.rows[1].pool,
        "after − pre × (1 − mem_fraction_static) = 7.87 GiB − 23.14 GiB × (1 − 0.704) = 1.02 GiB, 147,456 B per token, in pages of 1"
    );
    assert!(c.why.contains("after − pre × (1 − mem_fraction_static)"));
    assert!(c.why.contains("whole 16-token blocks"));
}

/// FP8 on the page is SGLang's `fp8_e4m3`: one byte per element halves the cell.
#[test]
fn fp8_is_e4m3() {
    let mut s = sglang_page();
    s.kv = kvbudget::core::model::KvDtype::Fp8;
    let o = sglang_outcome(&s).unwrap();
    assert_eq!(o.report.cell_size_bytes, 73_728);
    assert!(
        o.command.contains("--kv-cache-dtype fp8_e4m3"),
        "{}",
        o.command
    );
}

#[test]
fn url_round_trips_with_sglang() {
    let s = PageScenario {
        engine: Engine::Sglang,
        sglang: SglangKnobs {
            version: Some(Version::new(0, 5, 3)),
            mem_fraction_static: Some(0.825),
            page_size: Some(16),
            chunked_prefill_size: Some(-1),
            num_tokens: None,
        },
        ..PageScenario::default()
    };
    let q = encode(&s);
    assert!(
        q.contains("engine=sglang&sglang=0.5.3&mfs=0.825&page_size=16&chunked=-1"),
        "{q}"
    );
    let (back, notes) = decode(&q);
    assert_eq!(notes, vec![]);
    assert_eq!(back, s);
    // vLLM is the default: no engine key, and no SGLang keys unless set.
    let q = encode(&PageScenario::default());
    assert!(
        !q.contains("engine") && !q.contains("mfs") && !q.contains("sglang"),
        "{q}"
    );
    // Bad SGLang values fall back one at a time.
    let (s, notes) = decode("engine=SGLang&sglang=0.9.0&mfs=1.5&page_size=0");
    assert_eq!(s.engine, Engine::Sglang);
    assert_eq!(s.sglang, SglangKnobs::default());
    let params: Vec<&str> = notes.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(params, ["sglang", "mfs", "page_size"]);
    let (s, notes) = decode("engine=tgi");
    assert_eq!(s.engine, Engine::Vllm);
    assert_eq!(notes[0].param, "engine");
}

/// A KV dtype SGLang lacks is an input error (the command is still SGLang's); a GPU too small
/// for the weights after SGLang's reserve is its refusal, with no tokens and no sequences.
#[test]
fn sglang_refusals_and_input_errors() {
    let mut s = sglang_page();
    s.kv = kvbudget::core::model::KvDtype::Float16;
    let e = sglang_outcome(&s).unwrap_err().to_string();
    assert!(e.contains("SGLang 0.5.23 has no \"float16\""), "{e}");
    assert!(
        sglang_command(&s).starts_with("python -m sglang.launch_server --model-path Qwen/Qwen3-8B")
    );

    // Qwen3-8B on an L4 (23,034 MiB): 0.5.23's default 0.684 leaves nothing after the weights.
    let mut s = sglang_page();
    s.gpu =
        kvbudget::core::scenario::GpuChoice::Preset(kvbudget::core::presets::gpu("l4").unwrap());
    let o = sglang_outcome(&s).unwrap();
    assert_eq!(o.report.mem_fraction_static, 0.684);
    assert_eq!(o.report.max_total_num_tokens, None);
    assert!(o.report.error.as_deref().unwrap().starts_with(
        "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.684."
    ));
    assert_eq!(o.sequences, 0);
    let c = compare(&evaluate(&s).unwrap(), &o);
    assert_eq!(c.rows[1].tokens, None);
}

/// SGLang 0.5.23's default fraction on an H100 for gemma-3-27b (a multimodal model) computes as
/// 0.7932499999999999 in floating point, and SGLang's own line prints that `repr`. The
/// comparison's sentences read it to six decimals: 0.79325, no float noise.
#[test]
fn the_comparison_reads_a_fraction_without_float_noise() {
    let (s, notes) = decode("?engine=sglang&model=google/gemma-3-27b-it&gpu=h100-sxm");
    assert!(notes.is_empty(), "{notes:?}");
    let o = sglang_outcome(&s).unwrap();
    assert_eq!(o.report.mem_fraction_static_text, "0.7932499999999999");
    let c = compare(&evaluate(&s).unwrap(), &o);
    assert!(
        c.rows[1].pool.contains("× (1 − 0.79325) ="),
        "{}",
        c.rows[1].pool
    );
    assert!(c.why.contains("mem_fraction_static 0.79325"), "{}", c.why);
    assert!(!c.why.contains("0.79324999"));
}

/// The mem_fraction_static figure is read by a person; SGLang's `repr` stays its value.
/// gemma-3-27b on an H100 under 0.5.23: 0.7932499999999999 as a float, 0.79325 on the figure.
#[test]
fn the_fraction_figure_reads_without_float_noise() {
    let (s, _) = decode("?engine=sglang&model=google/gemma-3-27b-it&gpu=h100-sxm");
    let o = sglang_outcome(&s).unwrap();
    let stats = sglang_stats(&o);
    let mfs = stats.iter().find(|s| s.testid == "sglang-mfs").unwrap();
    assert_eq!(mfs.value, "0.7932499999999999");
    assert_eq!(mfs.text, "0.79325");
    // The knob's placeholder reads the same way.
    let v = kvbudget::core::handoff::sglang::sglang_view(&s);
    assert_eq!(v.default_mfs, "0.79325");
}

/// gpt-oss-20b under SGLang 0.5.23 keeps two pools: max_total_num_tokens counts the full
/// layers' pool, whose token costs the 12 full-attention layers and 0.8 of a token in each of
/// the 12 sliding layers: 8 KV heads × 64 × 2 (K, V) × 2 B = 2,048 B a layer, so
/// 12 × 2,048 + 0.8 × 12 × 2,048 = 24,576 + 19,660.8 = 44,236.8 B, not the 24 × 2,048 = 49,152 B
/// of every layer at full length.
#[test]
fn a_sliding_window_pool_prices_a_full_pool_token() {
    let (s, _) = decode("?engine=sglang&model=openai/gpt-oss-20b&gpu=h100-sxm");
    let o = sglang_outcome(&s).unwrap();
    let r = &o.report;
    assert_eq!(r.cell_size_bytes, 49_152);
    let (price, ratio) = r.swa_price.unwrap();
    assert!((price - 44_236.8).abs() < 1e-6, "{price}");
    assert_eq!(ratio, 0.8);
    // The rest divided by the price gives the full pool (to within a page).
    let tokens = r.max_total_num_tokens.unwrap() as f64;
    let rest = r.rest_gib.unwrap() * (1u64 << 30) as f64;
    assert!(
        (rest / price - tokens).abs() < 64.0,
        "{} vs {tokens}",
        rest / price
    );
    let stats = sglang_stats(&o);
    let kv = stats.iter().find(|s| s.testid == "kv-tokens").unwrap();
    assert!(kv.sub.contains("44,237 B per full-pool token (the full layers, plus 0.8 of a token in each sliding-window layer)"), "{}", kv.sub);
    assert!(!kv.sub.contains("49,152"), "{}", kv.sub);
    let c = compare(&evaluate(&s).unwrap(), &o);
    assert!(
        c.rows[1].pool.contains("44,237 B per token"),
        "{}",
        c.rows[1].pool
    );
}

/// Qwen3-32B (61 GiB of weights) on a 24 GiB RTX 4090: both engines' pools come out below zero.
/// The comparison says there is nothing left for a KV cache instead of counting blocks or pages
/// of a negative pool.
#[test]
fn weights_that_do_not_load_leave_no_pool_to_count() {
    let (s, _) = decode("?engine=sglang&model=Qwen/Qwen3-32B&gpu=rtx-4090");
    let o = sglang_outcome(&s).unwrap();
    let c = compare(&evaluate(&s).unwrap(), &o);
    for row in &c.rows {
        assert!(
            row.pool.contains("nothing left for a KV cache"),
            "{}",
            row.pool
        );
        assert!(
            !row.pool.contains("blocks") && !row.pool.contains("pages"),
            "{}",
            row.pool
        );
        assert_eq!(row.sequences, 0, "{}", row.engine);
    }
}

/// SGLang's charts and derivation for the same scenario (figures above): the pool's 7,422 tokens
/// hold ⌊7,422 / 4,096⌋ = 1 sequence of 4,096 tokens and ⌊7,422 / 8,192⌋ = 0 of 8,192, at a page
/// of 1; the memory bar of the chosen dtype adds up to the card's 24,564 MiB = 25,757,220,864 B,
/// its sequences band is empty (none fits) and the KV left over is the whole allocation,
/// (7,422 + 1) × 147,456 = 1,094,565,888 B (47,160 B above the rest of 1,094,518,728 B: the
/// padding row), taken from what stays free after loading.
#[test]
fn sglang_draws_its_own_charts_and_derivation() {
    use kvbudget::core::chart_data::SegmentKind;
    use kvbudget::core::engines::sglang_view::{sglang_charts, sglang_derivation};
    let s = sglang_page();
    let o = sglang_outcome(&s).unwrap();
    let d = sglang_charts(&s, &o);
    assert_eq!(d.total, 24_564 << 20);
    assert_eq!(d.point, (8192, 0));
    assert_eq!(d.pool, 1_094_565_888);
    let at = |x: u64| d.contexts.iter().position(|&c| c == x);
    // 8,192 is on the x axis (the operating point); 4,096 need not be: read it off the engine.
    assert_eq!(d.concurrency[0].values[at(8192).unwrap()], 0);
    assert_eq!(d.fits[0], ("auto".to_string(), 0));
    let s4k = PageScenario {
        ctx: 4096,
        ..s.clone()
    };
    let d4k = sglang_charts(&s4k, &sglang_outcome(&s4k).unwrap());
    assert_eq!(d4k.point, (4096, 1));
    // FP8 halves the cell: 73,728 B per token, about twice the tokens, so 0 → 1 at 8,192.
    assert_eq!(d.fits[1].1, 1);
    let bar = &d.memory[0];
    let sum: u64 = bar.segments.iter().map(|x| x.bytes).sum();
    assert_eq!(sum, d.total);
    assert_eq!(bar.segments.last().unwrap().bytes, 1_094_565_888);
    assert!(!bar
        .segments
        .iter()
        .any(|x| matches!(x.kind, SegmentKind::Sequences { .. })));
    let kinds: Vec<_> = bar.segments.iter().map(|x| x.kind).collect();
    assert_eq!(
        kinds,
        [
            SegmentKind::Context,
            SegmentKind::Weights,
            SegmentKind::Reserved,
            SegmentKind::KvFree
        ]
    );
    assert_eq!(d.refusal, None);
    let rows = sglang_derivation(&o);
    let row = |t: &str| rows.iter().find(|(k, _)| k == t).map(|(_, v)| v.as_str());
    assert_eq!(
        row("tokens per sequence"),
        Some("8,192 tokens in whole pages of 1 = 8,192 tokens")
    );
    assert_eq!(row("sequences"), Some("⌊7,422 / 8,192⌋ = 0"));
    assert_eq!(
        row("KV pool"),
        Some("after − before × (1 − mem_fraction_static) = 7.87 − 23.14 × (1 − 0.704) = 1.02 GiB")
    );
}

/// The repertoire under SGLang (figures at the top of this file): Qwen3-8B's 16-bit cell is
/// 147,456 B = 144 KiB, a sequence of 8,192 tokens 8,192 × 147,456 B = 1.125 GiB ("1.12", as
/// Python's `%.2f` rounds the tie), and the pool's 7,422 tokens hold none; in FP8 the cell halves
/// to 73,728 B and the same rest of 1,094,518,728 B holds ⌊1,094,518,728 / 73,728⌋ = 14,845
/// tokens, ⌊14,845 / 8,192⌋ = 1 sequence.
#[test]
fn the_repertoire_is_sglangs_under_sglang() {
    use kvbudget::core::engines::sglang_view::sglang_repertoire;
    let s = sglang_page();
    let t = sglang_repertoire(&s);
    assert!(
        t.caption
            .starts_with("The course repertoire under SGLang 0.5.23 on RTX 4090 at 8,192 tokens"),
        "{}",
        t.caption
    );
    assert_eq!(t.rows.len(), 6);
    let r = &t.rows[0];
    assert_eq!(
        (r.key.as_str(), r.model_id.as_str(), r.kv_name.as_str()),
        ("Qwen3-8B-auto", "Qwen/Qwen3-8B", "auto")
    );
    assert_eq!(
        (r.bytes_per_token, r.kib_per_token.as_str()),
        (147_456, "144 KiB")
    );
    assert_eq!(
        (r.gib_per_sequence.as_str(), r.sequences, r.fits.as_str()),
        ("1.12", 0, "0")
    );
    let f = &t.rows[1];
    assert_eq!(
        (f.key.as_str(), f.bytes_per_token, f.sequences),
        ("Qwen3-8B-fp8", 73_728, 1)
    );
    let fp8 = sglang_outcome(&PageScenario {
        kv: kvbudget::core::model::KvDtype::Fp8,
        ..s.clone()
    })
    .unwrap();
    assert_eq!(fp8.report.max_total_num_tokens, Some(14_845));
}

/// SGLang's memory split in the pools that are not plain: each bar adds up to the card as SGLang
/// sees it (or, past it, names what does not load), and each band is what SGLang allocates.
#[test]
fn sglangs_memory_split_adds_up_for_every_kind_of_pool() {
    use kvbudget::core::chart_data::SegmentKind;
    use kvbudget::core::engines::sglang_view::sglang_charts;
    let bands = |q: &str| {
        let (s, _) = decode(q);
        let o = sglang_outcome(&s).unwrap();
        let d = sglang_charts(&s, &o);
        let bar = d.memory[0].segments.clone();
        let sum: u64 = bar.iter().map(|x| x.bytes).sum();
        let of = |k: SegmentKind| bar.iter().find(|x| x.kind == k).map(|x| x.bytes);
        (
            o,
            d.total,
            sum,
            bar.iter().map(|x| x.kind).collect::<Vec<_>>(),
            of(SegmentKind::State),
            of(SegmentKind::Overflow),
            bar,
        )
    };
    // gpt-oss-20b on an H100: its sequences priced at the full pool's 44,236.8 B a token (the
    // derivation above), not the 49,152 B cell.
    let (o, total, sum, _, _, _, bar) =
        bands("?engine=sglang&model=openai/gpt-oss-20b&gpu=h100-sxm&ctx=8192");
    assert_eq!(sum, total);
    let seqs = bar
        .iter()
        .find(|x| matches!(x.kind, SegmentKind::Sequences { .. }))
        .unwrap();
    let want = (o.sequences * o.tokens_per_sequence) as f64 * 44_236.8;
    assert_eq!(seqs.bytes, want.round() as u64);
    // Qwen3.5-27B, a hybrid: SGLang's state buffers hold a slot per running request and a
    // padding row; the sequences' own slots are their state band, the rest the slots left over.
    let (o, total, sum, kinds, state, _, bar) =
        bands("?engine=sglang&model=Qwen/Qwen3.5-27B&gpu=h100-sxm&ctx=8192");
    assert_eq!(sum, total);
    let rows = o.report.mamba_slots.unwrap() as u64 + 1;
    assert_eq!(o.report.state_bytes % rows, 0);
    assert_eq!(state, Some(o.report.state_bytes / rows * o.sequences));
    let left = bar
        .iter()
        .find(|x| x.label == "state slots left over")
        .unwrap();
    assert_eq!(state.unwrap() + left.bytes, o.report.state_bytes);
    assert!(kinds.contains(&SegmentKind::Reserved));
    // A pool taken from a log (20,480 tokens): the weights, the KV buffers and the rest of the
    // card; the FP8 curve is predicted, not the log's count at half the bytes.
    let q = "?engine=sglang&model=Qwen/Qwen3-8B&gpu=h100-sxm&sg_tokens=20480";
    let (o, total, sum, kinds, _, _, _) = bands(q);
    assert_eq!(o.report.max_total_num_tokens, Some(20_480));
    assert_eq!(sum, total);
    assert_eq!(kinds.first(), Some(&SegmentKind::Weights));
    let (s, _) = decode(q);
    let d = sglang_charts(&s, &o);
    assert_ne!(d.concurrency[0].values, d.concurrency[1].values);
    // Refused on an L4 (nothing left for a pool): the weights and what they leave, no KV band.
    let (o, total, sum, kinds, _, _, _) =
        bands("?engine=sglang&model=Qwen/Qwen3-8B&gpu=l4&ctx=8192");
    assert!(o.report.error.is_some());
    assert_eq!(sum, total);
    assert!(!kinds.contains(&SegmentKind::KvFree));
    // Qwen3-32B's 61 GiB on a 24 GB card: the part past the free memory does not load.
    let (o, total, sum, _, _, overflow, _) =
        bands("?engine=sglang&model=Qwen/Qwen3-32B&gpu=rtx-4090&ctx=8192");
    assert!(o.report.error.is_some());
    assert!(overflow.is_some());
    assert_eq!(sum - overflow.unwrap(), total);
}

/// A log served from a local folder names its model by path: its last part is the model
/// (`/models/qwen3-8b` is Qwen/Qwen3-8B); another model's log differs.
#[test]
fn a_log_checked_through_the_seam_reads_a_local_model_path() {
    use kvbudget::core::engines::{check_log, find};
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/logs/sglang_0.5.8_capped.log"
    ))
    .unwrap();
    let local = text.replace(
        "model_path='Qwen/Qwen3-8B'",
        "model_path='/models/qwen3-8b/'",
    );
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&sg_tokens=20480");
    let sg = find("sglang").unwrap();
    let rows = check_log(sg, &sg.view(&s), &s, &local).unwrap();
    assert!(rows.iter().all(|r| r.agrees()), "{rows:?}");
    let (other, _) = decode("?model=Qwen/Qwen3-14B&gpu=h100-sxm&sg_tokens=20480");
    let rows = check_log(sg, &sg.view(&other), &other, &local).unwrap();
    let model = rows.iter().find(|r| r.what == "model").unwrap();
    assert!(!model.agrees());
    assert_eq!(model.computed, "Qwen/Qwen3-14B");
}
