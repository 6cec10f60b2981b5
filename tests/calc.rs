//! The calculator page's numbers, checked by hand and against the CLI's arithmetic.

use kvbudget::charts;
use kvbudget::core::calc::evaluate;
use kvbudget::core::chart_data;
use kvbudget::core::explain::explain;
use kvbudget::core::query::decode;

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
        .starts_with("2 × 40 × 8 × 128 × 1 = 81,920 B = 80 KiB per token"));
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
    let (s, _) = decode("?model=Qwen/Qwen3-8B&ctx=4096&prompt=1000&trace=4000");
    assert!(evaluate(&s)
        .unwrap_err()
        .to_string()
        .contains("more than max_model_len"));
}

#[test]
fn weights_larger_than_the_card() {
    // Qwen3-8B BF16 (15.27 GiB) on a 16 GB RTX 5080 (15.5 GiB × 0.92 = 14.26 GiB): nothing left.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-5080&kv=fp8");
    let o = evaluate(&s).unwrap();
    assert!(o.chosen.pool < 0);
    assert_eq!(o.chosen.capped, 0);
    assert!(o
        .chosen
        .report
        .error
        .as_deref()
        .unwrap()
        .starts_with("No available memory"));
}

#[test]
fn charts_render_as_svg() {
    let (s, _) = decode("?model=google/gemma-2-9b-it&gpu=l40s&kv=fp8");
    let o = evaluate(&s).unwrap();
    for svg in [
        charts::memory(&chart_data::build(&s, &o).unwrap()),
        charts::concurrency(&chart_data::build(&s, &o).unwrap()),
        charts::roofline(&chart_data::build(&s, &o).unwrap()),
    ] {
        let svg = svg.unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        assert!(svg.contains("currentColor"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
    // Both KV dtypes are drawn: the concurrency chart has two curves and the cap's legend.
    let c = charts::concurrency(&chart_data::build(&s, &o).unwrap()).unwrap();
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
        charts::memory(&chart_data::build(&s, &o).unwrap()),
        charts::concurrency(&chart_data::build(&s, &o).unwrap()),
        charts::roofline(&chart_data::build(&s, &o).unwrap()),
    ] {
        assert!(!svg.unwrap().contains("<img"));
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
    assert_eq!(
        explain(&s, &o).instead[0],
        "--max-model-len 39264: one sequence of 39,264 tokens fits in this pool"
    );
    assert_eq!(
        explain(&s, &o).instead[1],
        "--kv-cache-dtype fp8: 1 sequence of 40,960 tokens fit"
    );
    // No memory at all: GPUs where it fits are listed.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-5080");
    let o = evaluate(&s).unwrap();
    assert!(explain(&s, &o)
        .instead
        .iter()
        .any(|l| l.starts_with("GPUs where at least one sequence fits")
            && l.contains("RTX 4090")
            && !l.contains("RTX 5080")));
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
