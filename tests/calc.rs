//! The calculator page's numbers, checked by hand and against the CLI's arithmetic.

use kvbudget::charts;
use kvbudget::core::calc::evaluate;
use kvbudget::core::chart_data;
use kvbudget::core::explain::explain;
use kvbudget::core::fixes::fixes;
use kvbudget::core::query::decode;
use kvbudget::core::vllm::RefusalKind;

#[test]
fn the_issue_scenario_matches_the_cli_figures() {
    // Same scenario as `kvbudget vllm --model Qwen/Qwen3-14B-AWQ --gpu rtx-4090 --kv-cache-dtype fp8
    // --gpu-memory-utilization 0.9 --max-model-len 8192 --vllm-version 0.11` (tests/vllm_vectors.rs
    // --overhead-gib 1` (tests/vllm_vectors.rs budget_path_on_an_rtx_4090): 11,548,093,317 B pool,
    // 8,810 blocks, 140,960 tokens, 17.21x.
    let (s, notes) = decode(
        "?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&util=0.9&ctx=8192&vllm=0.11&overhead_gib=1",
    );
    assert!(notes.is_empty());
    let o = evaluate(&s).unwrap();
    assert_eq!(o.chosen.bytes_per_token.0, 81_920);
    assert_eq!(o.chosen.pool, 11_548_093_317);
    assert_eq!(o.chosen.report.num_gpu_blocks, Some(8810));
    assert_eq!(
        o.chosen.report.lines[1],
        "GPU KV cache size: 140,960 tokens"
    );
    assert_eq!(
        o.chosen.report.lines[2],
        "Maximum concurrency for 8,192 tokens per request: 17.21x"
    );
    // 8,810 // 512 = 17 sequences; the seed formula: 11,548,093,317 // (8,192 × 81,920) = 17.
    assert_eq!(
        (o.chosen.vllm_max, o.chosen.seed_max, o.chosen.capped),
        (17, 17, 17)
    );
    assert_eq!(
        explain(&s, &o).serve_command,
        "vllm serve Qwen/Qwen3-14B-AWQ --max-model-len 8192 --gpu-memory-utilization 0.9 --kv-cache-dtype fp8 --max-num-seqs 256"
    );
    // Longest context for 256 sequences: ⌊8,810 / 256⌋ = 34 blocks × 16 = 544 tokens.
    assert_eq!(o.longest_context, 544);
    assert!(explain(&s, &o).derivations[0]
        .1
        .starts_with("2 (K and V) × 40 layers × 8 KV heads × 128 head_dim × 1 B for FP8 = 81,920 B = 80 KiB per token"));
}

#[test]
fn a_reasoning_trace_sets_the_context() {
    // Qwen3-8B, prompt 1,000 + trace 4,000 = 5,000 tokens × 147,456 B = 737,280,000 B per sequence.
    let (s, _) =
        decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&prompt=1000&trace=4000&overhead_gib=1");
    let o = evaluate(&s).unwrap();
    assert_eq!(o.context, 5000);
    assert_eq!(o.chosen.bytes_per_sequence.0, 737_280_000);
    // Pool 5,793,910,883 B (tests/repertoire.rs) // 737,280,000 = 7.86 → 7 by the formula;
    // vLLM: 2,455 blocks // ⌈5000 / 16⌉ = 313 per sequence = 7.
    assert_eq!((o.chosen.seed_max, o.chosen.vllm_max), (7, 7));
    // More tokens than max_model_len is refused with a message naming the fields.
    let (mut s, _) = decode("?model=Qwen/Qwen3-8B&ctx=4096");
    (s.prompt, s.trace) = (Some(1000), Some(4000));
    assert!(evaluate(&s)
        .unwrap_err()
        .to_string()
        .contains("more than max_model_len"));
    // In a URL both take their default (the context is then max_model_len, 4,096) with a notice
    // naming them and why; the page shows that scenario instead of nothing.
    let (s, notes) = decode("?model=Qwen/Qwen3-8B&ctx=4096&prompt=1000&trace=4000");
    assert_eq!((s.prompt, s.trace), (None, None));
    assert_eq!(evaluate(&s).unwrap().context, 4096);
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].param, "prompt, trace");
    assert!(
        notes[0]
            .message
            .contains("add up to 5,000 tokens, more than max_model_len (4,096)"),
        "{}",
        notes[0].message
    );
}

#[test]
fn weights_larger_than_the_card() {
    // Qwen3-8B BF16 (15.27 GiB) on a 16 GB RTX 5080 (15.50 GiB as vLLM sees it): the weights and
    // the ~0.5 GiB CUDA holds before loading do not fit, so vLLM runs out of memory while loading
    // and never prints a KV line (it used to print a negative "Available KV cache memory").
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-5080&kv=fp8");
    let o = evaluate(&s).unwrap();
    assert!(o.chosen.pool < 0);
    assert_eq!(o.chosen.capped, 0);
    let r = &o.chosen.report;
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::WeightsDoNotFit);
    assert!(r.lines.is_empty(), "{:?}", r.lines);
    // PyTorch's message names the one allocation that failed, which kvbudget cannot know: no
    // engine line, and kvbudget's own reckoning instead, 15.27 + 0.50 = 15.77 GiB > 15.50 GiB.
    assert_eq!(r.error_line(), None);
    assert!(
        r.error.as_deref().unwrap().starts_with(
            "kvbudget's reckoning, not a line vLLM prints: the weights take 15.27 GiB per GPU and CUDA and PyTorch hold about 0.50 GiB before them, 15.77 GiB in all, more than the GPU's 15.50 GiB."
        ),
        "{:?}",
        r.error
    );
}

#[test]
fn weights_that_load_but_leave_no_kv_memory() {
    // Qwen3-8B on an RTX 4090 at utilization 0.6: ⌈25,286,619,955 × 0.6⌉ = 15,171,971,973 B
    // requested < 16,396,037,652 B of weights, which still load (23.55 GiB card): vLLM's own error.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.6&overhead_gib=1");
    let o = evaluate(&s).unwrap();
    let r = &o.chosen.report;
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::NoKvMemory);
    assert!(r
        .error
        .as_deref()
        .unwrap()
        .starts_with("No available memory"));
    assert_eq!(
        r.lines.len(),
        1,
        "the worker prints the (negative) available memory first"
    );
}

#[test]
fn charts_render_as_svg() {
    let (s, _) = decode("?model=google/gemma-2-9b-it&gpu=l40s&kv=fp8");
    let o = evaluate(&s).unwrap();
    for svg in [
        charts::memory(&chart_data::build(&s, &o).unwrap(), charts::DEFAULT_WIDTH),
        charts::concurrency(&chart_data::build(&s, &o).unwrap(), charts::DEFAULT_WIDTH),
        charts::roofline(&chart_data::build(&s, &o).unwrap(), charts::DEFAULT_WIDTH),
    ] {
        let svg = svg.unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        assert!(svg.contains("currentColor"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
    // Both KV dtypes are drawn: the concurrency chart has two curves and the cap's legend.
    let c =
        charts::concurrency(&chart_data::build(&s, &o).unwrap(), charts::DEFAULT_WIDTH).unwrap();
    assert!(
        c.contains("BF16 (auto) KV") && c.contains("FP8 KV"),
        "legend missing: {}",
        &c[c.len().saturating_sub(1500)..]
    );
}

#[test]
fn custom_names_stay_text() {
    let (s, notes) = decode("?model=custom&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14");
    assert!(notes.is_empty(), "{notes:?}");
    let o = evaluate(&s).unwrap();
    // The serve command quotes the name for the shell; the page shows it as text.
    assert_eq!(
        explain(&s, &o).serve_command.split(" --").next().unwrap(),
        "vllm serve '<img src=x onerror=alert(1)>'"
    );
    for svg in [
        charts::memory(&chart_data::build(&s, &o).unwrap(), charts::DEFAULT_WIDTH),
        charts::concurrency(&chart_data::build(&s, &o).unwrap(), charts::DEFAULT_WIDTH),
        charts::roofline(&chart_data::build(&s, &o).unwrap(), charts::DEFAULT_WIDTH),
    ] {
        assert!(!svg.unwrap().contains("<img"));
    }
}

/// Each fix, applied to `s`, starts vLLM.
fn each_starts_vllm(s: &kvbudget::core::scenario::PageScenario, f: &[kvbudget::core::fixes::Fix]) {
    for x in f {
        let mut t = s.clone();
        x.change.apply(&mut t);
        assert!(
            evaluate(&t).unwrap().chosen.report.refusal.is_none(),
            "{}",
            x.label
        );
    }
}

#[test]
fn what_fits_instead() {
    // Qwen3-8B BF16 at 40,960 tokens on an RTX 4090: pool 5,793,910,883 B holds 2,455 blocks
    // (tests/repertoire.rs), so one request needs ⌈40,960 / 16⌉ = 2,560 blocks > 2,455: refused;
    // vLLM 0.33's fit check keeps one block back (the null block, from 0.29), so the longest that
    // fits is 2,454 × 16 = 39,264 tokens. FP8 doubles the blocks: 4,911 // 2,560 = 1.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=40960&overhead_gib=1");
    let o = evaluate(&s).unwrap();
    assert!(o
        .chosen
        .report
        .error
        .as_deref()
        .unwrap()
        .starts_with("To serve at least one request"));
    let f = fixes(&s, &o);
    assert_eq!(
        f[0].label,
        "--max-model-len 39264: 1 sequence of 39,264 tokens fits"
    );
    assert_eq!(
        f[1].label,
        "--kv-cache-dtype fp8: 1 sequence of 40,960 tokens fits"
    );
    // Each fix, applied, starts vLLM.
    each_starts_vllm(&s, &f);
    // Weights that do not load: the AWQ checkpoint of the same model, more GPUs, larger GPUs;
    // never a higher utilization or FP8 KV (neither loads the weights).
    let (s, _) = decode("?model=Qwen/Qwen3-14B&gpu=rtx-4090");
    let o = evaluate(&s).unwrap();
    let f = fixes(&s, &o);
    let keys: Vec<&str> = f.iter().map(|x| x.change.key()).collect();
    assert_eq!(keys[0], "model");
    assert!(
        f[0].label.starts_with("the preset Qwen/Qwen3-14B-AWQ: "),
        "{}",
        f[0].label
    );
    assert!(keys.contains(&"tp") && keys.contains(&"gpu"), "{keys:?}");
    assert!(!keys.contains(&"util") && !keys.contains(&"kv"), "{keys:?}");
    // TP 3 with 32 heads: the valid sizes around it, 2 and 4.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&tp=3");
    let o = evaluate(&s).unwrap();
    let tps: Vec<String> = fixes(&s, &o).iter().map(|x| x.change.flag()).collect();
    assert_eq!(
        tps,
        ["--tensor-parallel-size 2", "--tensor-parallel-size 4"]
    );
    // Qwen2.5-7B at TP 7: 28 heads split by 1, 2, 4, 7, 14 and 28, but its padded vocabulary,
    // 152,064 = 2⁹ × 3³ × 11, by none of 7, 14 or 28 (tensor_parallel_sizes_vllm_refuses), so the
    // only fix is the valid size below, 4; nothing above it starts.
    let (s, _) = decode("?model=Qwen/Qwen2.5-7B-Instruct&gpu=rtx-4090&tp=7");
    let o = evaluate(&s).unwrap();
    let tps: Vec<String> = fixes(&s, &o).iter().map(|x| x.change.flag()).collect();
    assert_eq!(tps, ["--tensor-parallel-size 4"]);
    // Decode context parallelism of 3 at TP 1: vLLM wants TP divisible by 3, and Qwen3-8B's 32
    // heads split by no multiple of 3. TP 2 does not help either (2 % 3 ≠ 0); no DCP does:
    // 4 sequences of 8,192 fit on the 4090, as without the flag.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&dcp=3");
    let o = evaluate(&s).unwrap();
    assert_eq!(
        o.chosen.report.refusal.unwrap().kind,
        RefusalKind::InvalidTp
    );
    let f: Vec<String> = fixes(&s, &o).iter().map(|x| x.label.clone()).collect();
    assert_eq!(
        f,
        ["--decode-context-parallel-size 1: 4 sequences of 8,192 tokens fit"]
    );
}

#[test]
fn the_estimate_gives_a_range_and_its_parts() {
    // No overhead_gib: kvbudget's estimate. Qwen3-8B on a 4090, vLLM 0.33: activation
    // 544,538,624 + 73,033,728 B, non-torch 155,155,693 B, CUDA graphs 981,978,840 B (tests/cli.rs).
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192");
    assert_eq!(s.overhead, None);
    let o = evaluate(&s).unwrap();
    let e = o.chosen.report.overhead.unwrap();
    assert_eq!(
        e.subtracted().0,
        544_538_624 + 73_033_728 + 155_155_693 + 981_978_840
    );
    let g = o.range.unwrap();
    assert!(g.pool.0 < o.chosen.pool && o.chosen.pool < g.pool.1);
    assert!(g.seqs.0 <= o.chosen.capped && o.chosen.capped <= g.seqs.1);
    assert!(explain(&s, &o)
        .derivations
        .iter()
        .any(|(k, v)| *k == "overhead (estimate)" && v.contains("CUDA graphs")));
    // The course lab's figure is one parameter away, and has no range.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&overhead_gib=1");
    assert!(evaluate(&s).unwrap().range.is_none());
    // Before 0.20 the page warns that CUDA graphs sit outside the budget.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&vllm=0.19");
    let o = evaluate(&s).unwrap();
    assert!(explain(&s, &o)
        .warnings
        .iter()
        .any(|w| w.contains("outside gpu_memory_utilization")));
}

/// What vLLM would print for the page's scenario at `query`.
fn report_of(query: &str) -> kvbudget::core::vllm::Report {
    evaluate(&decode(query).0).unwrap().chosen.report
}

#[test]
fn tensor_parallel_sizes_vllm_refuses() {
    // Qwen3-8B has 32 attention heads: TP 3 does not divide them (vLLM's ValueError).
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&tp=3");
    let o = evaluate(&s).unwrap();
    let r = &o.chosen.report;
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::InvalidTp);
    assert_eq!(
        r.error_line().unwrap(),
        "ValueError: Total number of attention heads (32) must be divisible by tensor parallel size (3)."
    );
    assert_eq!(o.chosen.capped, 0);
    // 24 heads split by TP 4, but 6 KV heads neither divide by 4 nor divide 4: the attention
    // class's bare `assert` (models/llama.py 0.19), so Python prints the exception alone.
    let (s, _) = decode(
        "?model=custom&layers=32&heads=24&kv_heads=6&head_dim=128&weights_gib=14&gpu=h100-sxm&tp=4",
    );
    let r = evaluate(&s).unwrap().chosen.report;
    assert_eq!(r.error_line().unwrap(), "AssertionError");
    // Qwen2.5-7B at TP 28: its 28 heads and 4 KV heads split (28 = 7 × 4), but the embedding,
    // built first, splits the vocabulary padded to 64 rows: 152,064 = 2,376 × 64 is already
    // padded, and 152,064 = 28 × 5,430 + 24.
    let r = report_of("?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&tp=28");
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::InvalidTp);
    assert_eq!(
        r.error_line().unwrap(),
        "AssertionError: 152064 is not divisible by 28"
    );
    // A dense MLP: vocabulary 32,100 pads to 32,128 = 8 × 4,016 and the 8 KV heads split at TP 8,
    // but intermediate 11,010 = 8 × 1,376 + 2, so the bare `assert` of MergedColumnParallelLinear
    // fails, and Python prints its exception alone.
    let r = report_of(
        "?model=custom&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14&vocab=32100&inter=11010&gpu=h100-sxm&tp=8",
    );
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::InvalidTp);
    assert_eq!(r.error_line().unwrap(), "AssertionError");
    // The same model with intermediate 11,008 = 8 × 1,376 starts.
    assert!(report_of(
        "?model=custom&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14&vocab=32100&inter=11008&gpu=h100-sxm&tp=8",
    )
    .refusal
    .is_none());
    // Nemotron-3-Nano at TP 16: 32 attention heads, the vocabulary 131,072 = 2,048 × 64 and the
    // Mamba2 layers' 64 heads all split by 16, but its 8 groups do not (8 = 0 × 16 + 8, and not 1):
    // the first layer, a Mamba2 mixer, asserts (its message said num_heads before 0.11).
    let q = "?model=nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16&gpu=h100-sxm&tp=16";
    let r = report_of(q);
    assert_eq!(
        r.error_line().unwrap(),
        "AssertionError: If tensor parallel world size does not divide num_groups, then num_groups must equal 1."
    );
    let r = report_of(&format!("{q}&vllm=0.10"));
    assert!(r
        .error_line()
        .unwrap()
        .contains("does not divide num_heads, then"));
    // At TP 8 (8 groups, one per rank) it starts.
    let q = "?model=nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16&gpu=h100-sxm&tp=8";
    assert!(report_of(q).refusal.is_none());
    // A vision encoder is built first: gemma-3-27b-it's 32 attention heads split by TP 32, but its
    // SigLIP encoder's 16 heads do not (vLLM's `divide`); Qwen3.5-27B's 24 heads split by TP 3, its
    // vision encoder's 16 do not (16 = 5 × 3 + 1), before its vocabulary would be asked.
    let r = report_of("?model=google/gemma-3-27b-it&gpu=h100-sxm&tp=32");
    assert_eq!(
        r.error_line().unwrap(),
        "AssertionError: 16 is not divisible by 32"
    );
    let r = report_of("?model=Qwen/Qwen3.5-27B&gpu=h100-sxm&tp=3");
    assert_eq!(
        r.error_line().unwrap(),
        "AssertionError: 16 is not divisible by 3"
    );
    // The URL keeps an imported model's vision heads as `mm=16` (`mm=1`: multimodal, heads unknown).
    let (s, n) = decode("?model=custom&layers=62&heads=32&kv_heads=16&head_dim=128&weights_gib=51&mm=16&gpu=h100-sxm&tp=32");
    assert!(n.is_empty(), "{n:?}");
    assert!(kvbudget::core::query::encode(&s).contains("mm=16"));
    let r = evaluate(&s).unwrap().chosen.report;
    assert_eq!(
        r.error_line().unwrap(),
        "AssertionError: 16 is not divisible by 32"
    );
    // TP 8 with 8 KV heads, and TP 16 (each KV head replicated on two ranks) are fine.
    for tp in [8, 16] {
        let (s, _) = decode(&format!("?model=Qwen/Qwen3-8B&gpu=h100-sxm&tp={tp}"));
        assert!(
            evaluate(&s).unwrap().chosen.report.refusal.is_none(),
            "tp {tp}"
        );
    }
}

#[test]
fn the_plan_mode_asks_the_inverse_question() {
    // Qwen3-8B BF16 on an RTX 4090, 2 sequences of 8,192 tokens: 2 × ⌈8,192 / 16⌉ = 1,024 blocks
    // + the null block vLLM 0.29+ reserves = 1,025 blocks × (16 tokens × 147,456 B = 2,359,296 B)
    // = 2,418,278,400 B of --kv-cache-memory (the same as `kvbudget plan`, tests/knobs.rs).
    let (s, notes) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=2");
    assert!(notes.is_empty(), "{notes:?}");
    let o = evaluate(&s).unwrap();
    let p = kvbudget::core::calc::plan(&s, &o).unwrap().unwrap();
    assert_eq!(p.kv_cache_blocks, 1025);
    assert_eq!(p.kv_cache_memory, 2_418_278_400);
    // Fed back as KV memory, the page holds at least the 2 sequences asked for.
    let mut t = s.clone();
    t.kv_memory = Some(kvbudget::core::units::Bytes(p.kv_cache_memory));
    assert!(evaluate(&t).unwrap().chosen.capped >= 2);
    // The serve command carries vLLM's flag for it.
    assert!(explain(&t, &evaluate(&t).unwrap())
        .serve_command
        .ends_with("--kv-cache-memory 2418278400"));
}

#[test]
fn prefix_caching_changes_no_memory_and_hits_whole_blocks() {
    // A 1,000-token shared prompt with 16-token blocks: ⌊1,000 / 16⌋ × 16 = 992 tokens reused,
    // 8 recomputed; the pool and the sequences are those without the flag.
    let (plain, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&prompt=1000&trace=4000");
    let (s, _) =
        decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&prompt=1000&trace=4000&prefix=1");
    let (a, b) = (evaluate(&plain).unwrap(), evaluate(&s).unwrap());
    assert_eq!(a.chosen.pool, b.chosen.pool);
    assert_eq!(a.chosen.capped, b.chosen.capped);
    let words = explain(&s, &b);
    let line = &words
        .derivations
        .iter()
        .find(|(k, _)| *k == "prefix caching")
        .unwrap()
        .1;
    assert!(
        line.contains("⌊1,000 / 16⌋ × 16 = 992 are reused and 8 recomputed"),
        "{line}"
    );
    assert!(words.serve_command.ends_with("--enable-prefix-caching"));
}

#[test]
fn a_context_over_the_models_limit() {
    // Qwen3-8B allows 40,960 tokens (max_position_embeddings). At 50,000 vLLM's model config
    // refuses before anything loads: its own kind, not the KV fit check.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=50000");
    let o = evaluate(&s).unwrap();
    let r = &o.chosen.report;
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::ModelLimit);
    assert_eq!(RefusalKind::ModelLimit.key(), "model-limit");
    assert!(r.error.as_deref().unwrap().starts_with(
        "User-specified max_model_len (50000) is greater than the derived max_model_len"
    ));
    // The fix is a shorter --max-model-len. At the model's 40,960 one request does not fit this
    // card's KV cache (4.76 GiB estimated; `kvbudget vllm … --max-model-len 40960` refuses with
    // "the estimated maximum model length is 34656"), so the fix is vLLM's estimate: 34,656.
    let f = fixes(&s, &o);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(
        f[0].label,
        "--max-model-len 34656: 1 sequence of 34,656 tokens fits"
    );
    // On an H200 the model's own limit fits, so the fix is 40,960 itself.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h200&ctx=65536");
    let o = evaluate(&s).unwrap();
    let f = fixes(&s, &o);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].label.starts_with("--max-model-len 40960: "),
        "{}",
        f[0].label
    );
    let mut t = s.clone();
    f[0].change.apply(&mut t);
    assert!(evaluate(&t).unwrap().chosen.report.refusal.is_none());
    // A prompt longer than the model's limit: the fix still applies, and the prompt falls back
    // to the new max_model_len (its label says the context that then fits).
    let (p, _) = decode("?model=Qwen/Qwen3-8B&gpu=l40s&ctx=65536&prompt=50000");
    let po = evaluate(&p).unwrap();
    let pf = fixes(&p, &po);
    assert_eq!(pf.len(), 1, "{pf:?}");
    let mut t = p.clone();
    pf[0].change.apply(&mut t);
    assert_eq!((t.prompt, t.ctx), (None, 40960));
    assert!(evaluate(&t).unwrap().chosen.report.refusal.is_none());
    // Its memory split draws no sequences for a scenario vLLM refuses (it drew 12 × 65,536).
    let d = chart_data::build(&s, &o).unwrap();
    for bar in &d.memory {
        assert!(!bar
            .segments
            .iter()
            .any(|x| matches!(x.kind, chart_data::SegmentKind::Sequences { .. })));
    }
}

#[test]
fn fewer_batched_tokens_than_sequences_is_refused() {
    // vLLM's scheduler config: max_num_batched_tokens must be ≥ max_num_seqs (every running
    // sequence takes a token of each step). Both given, 128 tokens for 256 sequences on V1:
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=4096&mnbt=128&seqs=256");
    let o = evaluate(&s).unwrap();
    let r = &o.chosen.report;
    assert_eq!(r.refusal.unwrap().kind, RefusalKind::BatchedTokens);
    assert_eq!(
        r.error_line().unwrap(),
        "ValueError: max_num_batched_tokens (128) must be greater than or equal to max_num_seqs (256)."
    );
    assert_eq!(o.chosen.capped, 0);
    // The fixes: 256 batched tokens, or 128 sequences; each makes it start.
    let f = fixes(&s, &o);
    let flags: Vec<String> = f.iter().map(|x| x.change.flag()).collect();
    assert_eq!(
        flags,
        ["--max-num-batched-tokens 256", "--max-num-seqs 128"],
        "{f:?}"
    );
    for x in &f {
        let mut t = s.clone();
        x.change.apply(&mut t);
        assert!(evaluate(&t).unwrap().chosen.report.refusal.is_none());
    }
    // Only the tokens given: V1 caps its default max_num_seqs (256 on a 24 GB card) at them
    // (`EngineArgs`, vllm/engine/arg_utils.py), so vLLM starts with 128 sequences at most.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=1024&mnbt=128");
    let o = evaluate(&s).unwrap();
    assert!(o.chosen.report.refusal.is_none());
    assert_eq!(s.seqs(), 128);
    assert_eq!(o.chosen.report.max_num_seqs, 128);
    assert!(o.chosen.capped <= 128);
    // The plan says the refusal instead of searching memory that cannot help.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h200&ctx=8192&mnbt=100&seqs=1024&plan=4");
    let o = evaluate(&s).unwrap();
    let e = kvbudget::core::calc::plan(&s, &o).unwrap().unwrap_err();
    assert!(
        e.to_string()
            .contains("must be greater than or equal to max_num_seqs (1024)"),
        "{e}"
    );
}

#[test]
fn pipeline_stages_at_the_ends_hold_the_embeddings() {
    // Qwen3-8B (15.27 GiB = 16,396,037,652 B; 36 layers; embedding 151,936 × 4,096 × 2 B =
    // 1,244,659,712 B) over PP 4: 9 layers per stage, and the first and last stages hold an
    // embedding each: (16,396,037,652 − 2 × 1,244,659,712) / 4 + 1,244,659,712 = 4,721,339,269 B
    // (rounded up), not an even quarter, 4,099,009,413 B. The pool is that much smaller.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&pp=4");
    let o = evaluate(&s).unwrap();
    assert_eq!(o.weights_per_gpu.0, 4_721_339_269);
    let d = explain(&s, &o).derivations;
    let pool = &d.iter().find(|(k, _)| *k == "KV pool").unwrap().1;
    assert!(
        pool.contains("4,721,339,269 B weights (the heaviest of TP 1 × PP 4 GPUs"),
        "{pool}"
    );
    // PP 2 with 18 layers a stage: half the model each, as an even split.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&pp=2");
    assert_eq!(evaluate(&s).unwrap().weights_per_gpu.0, 8_198_018_826);
}

#[test]
fn gemma_builds_its_embedding_on_every_pipeline_stage() {
    // gemma-3-27b-it: 51.45 GiB = 55,244,016,844 B, 62 layers, one (tied) embedding of
    // 262,208 × 5,376 × 2 B = 2,819,260,416 B that vLLM builds on every stage, and a vision
    // encoder of 846,120,672 B that the first stage holds whole (every stage, up to 0.32). At PP 2
    // (31 + 31 layers) the first GPU holds ⌈(55,244,016,844 − 2,819,260,416 − 846,120,672) / 2⌉ +
    // 2,819,260,416 + 846,120,672 = 25,789,317,878 + 3,665,381,088 = 29,454,698,966 B (27.43 GiB),
    // not half the model (27,622,008,422 B, 25.72 GiB).
    let (s, _) = decode("?model=google/gemma-3-27b-it&gpu=h100-sxm&pp=2");
    assert_eq!(evaluate(&s).unwrap().weights_per_gpu.0, 29_454_698_966);
    // At PP 4 (15, 16, 16, 15 layers; the layers' share 51,578,635,756 B) a middle stage holds
    // ⌈51,578,635,756 × 16 / 62⌉ = 13,310,615,679 B of layers and, up to 0.32, the encoder too:
    // 13,310,615,679 + 2,819,260,416 + 846,120,672 = 16,975,996,767 B. On 0.33 only the first
    // stage holds it: ⌈51,578,635,756 × 15 / 62⌉ + 3,665,381,088 = 16,144,083,288 B is the most.
    // A log's "Model loading took" (rank 0, the first stage) gives the whole model back:
    // (29,454,698,966 − 3,665,381,088) × 62 / 31 + 3,665,381,088 = 55,244,016,844 B.
    let m = s.model_spec();
    assert_eq!(
        kvbudget::core::capacity::whole_weights(&m, kvbudget::core::Bytes(29_454_698_966), 1, 2).0,
        55_244_016_844
    );
    let (s, _) = decode("?model=google/gemma-3-27b-it&gpu=h100-sxm&pp=4&vllm=0.19");
    assert_eq!(evaluate(&s).unwrap().weights_per_gpu.0, 16_975_996_767);
    let (s, _) = decode("?model=google/gemma-3-27b-it&gpu=h100-sxm&pp=4&vllm=0.33");
    assert_eq!(evaluate(&s).unwrap().weights_per_gpu.0, 16_144_083_288);
    // Without the encoder's bytes (a URL that does not give `encoder_gib`) it is split like the
    // layers: ⌈(55,244,016,844 − 2,819,260,416) / 2⌉ + 2,819,260,416 = 29,031,638,630 B at PP 2.
    // A model brought as config.json carries it in the URL: `tied=every` (Gemma), `tied=1`.
    let (s, n) = decode("?model=custom&layers=62&heads=32&kv_heads=16&head_dim=128&weights_gib=51.45&vocab=262208&hidden=5376&tied=every&gpu=h100-sxm&pp=2");
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(evaluate(&s).unwrap().weights_per_gpu.0, 29_031_638_630);
    assert!(kvbudget::core::query::encode(&s).contains("tied=every"));
    let (_, n) = decode(
        "?model=custom&layers=62&heads=32&kv_heads=16&head_dim=128&weights_gib=51&tied=maybe",
    );
    assert_eq!(n.len(), 1, "{n:?}");
    assert!(format!("{:?}", n[0]).contains("tied"), "{n:?}");
}

#[test]
fn the_window_groups_text_names_the_tokens_in_flight_the_arithmetic_uses() {
    // gemma-3-27b: its sliding groups keep the window plus the scheduled tokens. From vLLM 0.26
    // that is twice max_num_batched_tokens (async scheduling keeps a step ahead): 2 × 8,192 =
    // 16,384 in flight; on 0.11, 8,192. The derivation says the number the blocks were counted with.
    let says = |q: &str| {
        let (s, notes) = decode(q);
        assert!(notes.is_empty(), "{notes:?}");
        let o = evaluate(&s).unwrap();
        explain(&s, &o)
            .derivations
            .into_iter()
            .map(|d| d.1)
            .find(|t| t.contains("for the window or chunk groups"))
            .unwrap()
    };
    let new = says("?model=google/gemma-3-27b-it&gpu=h100-sxm&ctx=32768&vllm=0.33");
    assert!(new.contains("the scheduler's 16,384 in flight"), "{new}");
    let old = says("?model=google/gemma-3-27b-it&gpu=h100-sxm&ctx=32768&vllm=0.11");
    assert!(old.contains("the scheduler's 8,192 in flight"), "{old}");
}

#[test]
fn a_decode_step_reads_a_windowed_layer_only_over_its_window() {
    // gemma-3-27b: 62 layers, every 6th full (10), 52 sliding over 1,024 tokens; 2 × 16 KV heads
    // × 128 × 2 B = 8,192 B per token per layer. At 32,768 tokens one sequence holds
    // 10 × 32,768 × 8,192 + 52 × 1,024 × 8,192 = 2,684,354,560 + 436,207,616 = 3,120,562,176 B,
    // and that is what a step reads, not 32,768 × 62 × 8,192 = 16,642,998,272 B. On an H100 SXM
    // (3,350 GB/s) with its 55,244,016,844 B of weights: 3,350 × 10⁹ / 58,364,579,020 = 57.40
    // tokens/s for one sequence (46.60 if every layer read every token).
    let (s, notes) = decode("?model=google/gemma-3-27b-it&gpu=h100-sxm&ctx=32768");
    assert!(notes.is_empty(), "{notes:?}");
    let o = evaluate(&s).unwrap();
    let (w, bpt, _) = kvbudget::core::calc::decode_terms(&s, &o.model, s.kv).unwrap();
    assert_eq!((w.0, bpt.0), (55_244_016_844, 507_904));
    assert!(
        (o.decode.per_sequence - 57.398).abs() < 0.01,
        "{}",
        o.decode.per_sequence
    );
    let decode_line = |s: &kvbudget::core::scenario::PageScenario,
                       o: &kvbudget::core::calc::Outcome| {
        let words = explain(s, o).derivations;
        words
            .into_iter()
            .find(|d| d.0 == "decode ceiling")
            .unwrap()
            .1
    };
    let line = decode_line(&s, &o);
    assert!(
        line.contains("55,244,016,844 B weights + 3,120,562,176 B of KV (32,768 tokens on the full-attention layers, at most 1,024 on the windowed ones)) = 57.4 tokens/s"),
        "{line}"
    );
    // A model of full layers still reads t × B_tok: Qwen3-8B, 8,192 × 147,456 B.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&ctx=8192");
    let o = evaluate(&s).unwrap();
    let line = decode_line(&s, &o);
    assert!(line.contains("+ 8,192 tokens × 147,456 B)"), "{line}");
}

#[test]
fn one_sequence_is_one_sequence_in_every_sentence() {
    // gemma-3-27b on an H100 at 32,768 tokens: vLLM's blocks give exactly one sequence
    // (⌊13,209 / 8,582⌋ = 1). No "1 sequences".
    let (s, _) = decode("?model=google/gemma-3-27b-it&gpu=h100-sxm&ctx=32768&vllm=0.33");
    let o = evaluate(&s).unwrap();
    assert_eq!(o.chosen.vllm_max, 1);
    let all: Vec<String> = explain(&s, &o)
        .derivations
        .into_iter()
        .map(|d| d.1)
        .collect();
    let text = all.join("\n");
    assert!(text.contains("= 1 sequence"), "{text}");
    assert!(
        text.contains("there is room for 1 sequence of 32,768 tokens"),
        "{text}"
    );
    assert!(!text.contains("1 sequences"), "{text}");
    // Nemotron-3-Nano's groups of 6 leave one padding layer.
    let (s2, _) = decode("?model=nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16&gpu=h100-sxm");
    let o2 = evaluate(&s2).unwrap();
    let groups = explain(&s2, &o2).derivations.into_iter().map(|d| d.1);
    assert!(groups
        .into_iter()
        .any(|d| d.contains("4 Mamba2 groups (1 padding layer);")));
    assert!(kvbudget::page::answer(&s, &o).starts_with("1 sequence of 32,768 tokens fits ·"));
}

#[test]
fn an_moe_decode_step_reads_only_the_experts_its_tokens_pick() {
    // Qwen3-30B-A3B: 61,064,245,248 B of weights, of which the routed experts are 48 layers ×
    // 128 experts × 3 matrices of 2,048 × 768 × 2 B = 57,982,058,496 B. One token picks 8 of 128
    // per layer, so one sequence reads the rest and 1/16 of the experts:
    // 61,064,245,248 − 57,982,058,496 × 15/16 = 6,706,065,408 B. Two sequences routed at random
    // miss a given expert with probability (15/16)² = 225/256, touching 128 × 31/256 = 15.5:
    // 61,064,245,248 − 57,982,058,496 × 225/256 = 10,103,451,648 B.
    // KV: 48 layers × 2 × 4 heads × 128 × 2 B = 98,304 B per token; 4,096 tokens = 402,653,184 B.
    // H100 SXM, 3,350 GB/s: one sequence 3,350 × 10⁹ / 7,108,718,592 = 471.25 tokens/s (a dense
    // read of all the weights would give 54.5); two together 2 × 3,350 × 10⁹ / (10,103,451,648 +
    // 2 × 402,653,184) = 614.18 tokens/s.
    let (s, notes) = decode("?model=Qwen/Qwen3-30B-A3B&gpu=h100-sxm&ctx=4096&seqs=2");
    assert!(notes.is_empty(), "{notes:?}");
    let o = evaluate(&s).unwrap();
    assert_eq!(o.chosen.capped, 2);
    assert!(
        (o.decode.per_sequence - 471.25).abs() < 0.01,
        "{:?}",
        o.decode
    );
    assert!((o.decode.aggregate - 614.18).abs() < 0.01, "{:?}", o.decode);
    let line = explain(&s, &o)
        .derivations
        .into_iter()
        .find(|d| d.0 == "decode ceiling")
        .unwrap()
        .1;
    assert!(
        line.ends_with("2 sequences together: 614.2 tokens/s; 2 sequences routed at random use about 15.5 of the 128 experts per layer, 10,103,451,648 B of weights"),
        "{line}"
    );
    assert!(
        line.starts_with("each step reads the weights it uses and every sequence's KV: 3,350 GB/s (10⁹ B/s) / (6,706,065,408 B of weights: the 61,064,245,248 B less the routed experts a token does not pick (8 of 128 per layer) + 4,096 tokens × 98,304 B) = 471.3 tokens/s"),
        "{line}"
    );
    // Many sequences touch nearly every expert: at 64, (15/16)⁶⁴ = 0.0161, 128 × 0.9839 = 125.94.
    let m = &o.model;
    let touched = kvbudget::core::capacity::experts_touched(m, 64).unwrap();
    assert!((touched - 125.94).abs() < 0.01, "{touched}");
    // A log's weights for the preset (here half of them) keep the experts' share: half of
    // 57,982,058,496 B.
    let mut half = s.clone();
    half.weights = Some(kvbudget::core::Bytes(61_064_245_248 / 2));
    assert_eq!(half.model_spec().extras.routed.0, 28_991_029_248);
    // Over TP 2 each GPU holds half of everything and reads half as much: ⌈61,064,245,248 / 2⌉ −
    // ⌈57,982,058,496 / 2⌉ × 15/16 = 30,532,122,624 − 27,179,089,920 = 3,353,032,704 B.
    assert_eq!(
        kvbudget::core::capacity::decode_weights(m, 2, 1),
        3_353_032_704.0
    );
    // A URL's own MoE with `experts` but no `routed_gib`: the routed bytes from its geometry,
    // 48 layers × 128 × 3 × 2,048 × 768 × 2 B = 57,982,058,496 B as the preset's, so one sequence
    // reads its weights less 15/16 of those: W − 54,358,179,840 B.
    let (s, notes) = decode(
        "?model=custom&layers=48&heads=32&kv_heads=4&head_dim=128&weights_gib=56.87&hidden=2048\
         &experts_per_tok=8&moe_inter=768&experts=128&gpu=h100-sxm&ctx=4096",
    );
    assert!(notes.is_empty(), "{notes:?}");
    let m = s.model_spec();
    assert_eq!(kvbudget::core::capacity::routed_bytes(&m), 57_982_058_496);
    assert_eq!(
        kvbudget::core::capacity::decode_weights(&m, 1, 1),
        (m.weights.0 - 54_358_179_840) as f64
    );
    // With MXFP4 experts the geometry in BF16 (gpt-oss-20b: 24 × 32 × 3 × 2,880 × 2,880 × 2 B =
    // 38,220,595,200 B) is more than the 13.47 GiB of weights: nothing is known of what a step
    // leaves unread, and it reads them all.
    let (s, _) = decode(
        "?model=custom&layers=24&heads=64&kv_heads=8&head_dim=64&weights_gib=13.47&hidden=2880\
         &experts_per_tok=4&moe_inter=2880&experts=32&gpu=h100-sxm",
    );
    let m = s.model_spec();
    assert_eq!(kvbudget::core::capacity::routed_bytes(&m), 0);
    assert_eq!(kvbudget::core::capacity::experts_touched(&m, 1), None);
    assert_eq!(
        kvbudget::core::capacity::decode_weights(&m, 1, 1),
        m.weights.0 as f64
    );
    // A dense model reads all its weights whatever the batch.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm");
    let o = evaluate(&s).unwrap();
    assert_eq!(kvbudget::core::capacity::experts_touched(&o.model, 8), None);
    assert_eq!(
        kvbudget::core::capacity::decode_weights(&o.model, 2, 8),
        (o.model.weights.0.div_ceil(2)) as f64
    );
}

#[test]
fn where_the_low_end_refuses_it_serves_no_sequence() {
    // Qwen3-8B on a 4090 with max_model_len 32,768 (4.5 GiB of KV for one request at 147,456 B a
    // token) is near the edge: at the estimate's high overhead one such request no longer fits and
    // vLLM refuses to start. A prompt + trace of 8,000 tokens does not change that (vLLM checks
    // max_model_len), so the range's low end is 0 sequences and 0 tokens, not the 3 that 8,000-token
    // sequences would give in that pool.
    for q in [
        "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=32768&prompt=2000&trace=6000",
        "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=32768",
    ] {
        let (s, _) = decode(q);
        let o = evaluate(&s).unwrap();
        let g = o.range.unwrap();
        assert!(g.low_refuses, "{q}");
        assert_eq!((g.seqs.0, g.tokens.0), (0, 0), "{q}");
        assert!(g.seqs.1 >= 1, "{q}: {g:?}");
        let w = explain(&s, &o).warnings.join(" ");
        assert!(
            w.contains("(0 sequences at the low end of the range)"),
            "{q}: {w}"
        );
    }
}

#[test]
fn counts_past_a_thousand_are_written_with_separators_in_the_derivation() {
    // Qwen2.5-7B-Instruct with FP8 KV on an MI300X at 1,024 tokens: 5,803 sequences fit and
    // max_num_seqs 1,024 caps them. The derivation wrote "= 5803", "min(5803, max_num_seqs 1024)"
    // and the warning "below the 5803 sequences".
    let (s, _) = decode("?model=Qwen/Qwen2.5-7B-Instruct&gpu=mi300x&kv=fp8&ctx=1024&seqs=1024");
    let o = evaluate(&s).unwrap();
    assert_eq!(
        (o.chosen.seed_max, o.chosen.vllm_max, o.chosen.capped),
        (5803, 5803, 1024)
    );
    let e = explain(&s, &o);
    let get = |k: &str| {
        e.derivations
            .iter()
            .find(|(t, _)| *t == k)
            .unwrap()
            .1
            .clone()
    };
    assert!(
        get("after the cap").contains("min(5,803, max_num_seqs 1,024) = 1,024"),
        "{e:?}"
    );
    assert!(get("sequences (formula)").ends_with("= 5,803"), "{e:?}");
    assert!(
        e.warnings
            .iter()
            .any(|w| w.contains("max_num_seqs (1,024) caps concurrency below the 5,803 sequences")),
        "{e:?}"
    );
}

/// One of a thing reads in the singular: a 16-token context is ⌈16 / 16⌉ = 1 block per
/// sequence, and a one-layer custom model has "1 layer" (2 × 1 layer × 8 KV heads × 128 × 2 B =
/// 4,096 B per token).
#[test]
fn one_block_and_one_layer_read_in_the_singular() {
    let text = |q: &str| {
        let (s, notes) = decode(q);
        assert!(notes.is_empty(), "{notes:?}");
        let o = evaluate(&s).unwrap();
        format!("{:?}", explain(&s, &o).derivations)
    };
    let e = text("?model=Qwen/Qwen3-8B&ctx=16");
    assert!(
        e.contains("⌈16 / 16⌉ = 1 block") && !e.contains("1 blocks"),
        "{e}"
    );
    let e = text("?model=custom&layers=1&heads=32&kv_heads=8&head_dim=128&weights_gib=1");
    assert!(e.contains("1 layer ") && !e.contains("1 layers"), "{e}");
    assert!(e.contains("4,096 B"), "{e}");
}

#[test]
fn fixes_try_the_same_gpu_first() {
    // Qwen3.5-35B-A3B on an H100 at 32,768 tokens with vLLM 0.33's default 1,024 sequences: the
    // profile run samples 1,024 rows and leaves 0.72 GiB, less than one request needs. Fewer
    // sequences shrink that batch; of the powers of two below 1,024 the most sequences fit at
    // 128 and 64 (4 each; `kvbudget vllm … --max-num-seqs 128` prints 3,891,061,945 B and 174
    // blocks), and the larger wins the tie. It comes first, before the shorter context, FP8 KV
    // and a higher utilization, all on this GPU.
    let (s, _) = decode("?model=Qwen/Qwen3.5-35B-A3B&gpu=h100-sxm&ctx=32768");
    let o = evaluate(&s).unwrap();
    assert_eq!(
        o.chosen.report.refusal.unwrap().kind,
        RefusalKind::MaxModelLen
    );
    let f = fixes(&s, &o);
    let keys: Vec<&str> = f.iter().map(|x| x.change.key()).collect();
    assert_eq!(
        f[0].label,
        "--max-num-seqs 128: 4 sequences of 32,768 tokens fit"
    );
    assert_eq!(keys[..5], ["seqs", "ctx", "kv", "util", "tp"], "{keys:?}");
    // Other GPUs only when their memory differs: not the A100 80GB (79.15 GiB against the
    // H100's 79.22), which would start only through its own default max_num_seqs.
    let gpus: Vec<String> = f
        .iter()
        .filter(|x| x.change.key() == "gpu")
        .map(|x| x.change.flag())
        .collect();
    assert!(!gpus.iter().any(|g| g.contains("A100")), "{gpus:?}");
    assert!(!gpus.is_empty());
    each_starts_vllm(&s, &f);
}

#[test]
fn v1_subtracts_only_the_growth_of_non_torch_memory_from_0_9_1() {
    // vLLM 0.9.0's V1 worker subtracts all non-torch memory on the card (`non_torch_allocations =
    // total_allocated_bytes − torch_allocated_bytes`); 0.9.1's only its growth during startup
    // (`memory_profiling`, v1/worker/gpu_worker.py of each wheel, PR #19312), as 0.10's does.
    let non_torch = |v: &str| {
        let (s, _) = decode(&format!("?model=Qwen/Qwen3-8B&gpu=l4&ctx=4096&vllm={v}"));
        evaluate(&s)
            .unwrap()
            .chosen
            .report
            .overhead
            .unwrap()
            .non_torch
    };
    assert_eq!(non_torch("0.9.1"), non_torch("0.10"));
    assert!(non_torch("0.9") > non_torch("0.9.1"));
    // The whole card's context (0.443 GiB, fitted) against its growth at TP 1 (0.144 GiB).
    assert_eq!(
        (
            (non_torch("0.9").as_gib() * 1000.0).round(),
            (non_torch("0.9.1").as_gib() * 1000.0).round()
        ),
        (443.0, 144.0)
    );
}
