//! A vLLM log beside the scenario: the comparison, and adopting the log's numbers.

use kvbudget::core::calc::evaluate;
use kvbudget::core::query::decode;
use kvbudget::core::scenario::ModelChoice;
use kvbudget::core::verify::{adopt, align, compare, mismatches, Verdict};
use kvbudget::core::vllm::logparse::parse;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/logs/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn adopting_a_v1_log_reproduces_its_blocks_and_tokens() {
    // The 0.11 log of Qwen3-14B: 6.51 GiB, 42,656 tokens at 32,768 (2,666 blocks).
    let log = parse(&fixture("v1_0.11_two_line.log"));
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    let (adopted, notes) = adopt(&s, &log);
    // The note lists what changed; the log's model is a preset and stays one, with the log's weights.
    assert!(
        notes.contains(&"model: Qwen/Qwen3-8B → Qwen/Qwen3-14B".to_string()),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"max_model_len: 8,192 → 32,768".to_string()),
        "{notes:?}"
    );
    assert!(
        notes.iter().all(|n| !n.contains("not a preset")),
        "{notes:?}"
    );
    // The log prints no GPU memory, so the page keeps its RTX 4090 (23.55 GiB), which cannot hold
    // the log's 27.52 GiB of weights (27.5191 rounded) and 6.51 GiB of KV memory: the note says so,
    // and that memory is not taken (no `--kv-cache-memory` the GPU cannot hold).
    assert!(
        notes.contains(&"the GPU (23.55 GiB) cannot hold the KV memory the log's figures give (6.51 GiB) beside the weights (27.52 GiB), so that memory is not taken: choose the GPU the log came from".to_string()),
        "{notes:?}"
    );
    assert_eq!(adopted.kv_memory, None);
    // On an H100 (79.19 GiB) they fit: no such note, and the log's memory is taken.
    let (h100, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm");
    let (adopted, notes) = adopt(&h100, &log);
    assert!(
        notes.iter().all(|n| !n.contains("cannot hold")),
        "{notes:?}"
    );
    assert!(matches!(adopted.model, ModelChoice::Preset(_)));
    assert_eq!(adopted.model.name(), "Qwen/Qwen3-14B");
    assert_eq!(adopted.ctx, 32_768);
    assert_eq!(adopted.version.to_string(), "0.11");
    // A block is 16 tokens × 40 layers × 4,096 B per token per layer = 2,621,440 B. The log's
    // 6.51 GiB = ⌊6.51 × 2³⁰⌋ = 6,990,059,274 B gives ⌊6,990,059,274 / 2,621,440⌋ = 2,666 blocks,
    // the log's own, so the log's figure is kept (the page prints 6.51 GiB as the log does).
    assert_eq!(adopted.kv_memory.map(|b| b.0), Some(6_990_059_274));
    // Printed as 6.50 GiB (6,979,321,856 B: 2,662 blocks), the figure would not give the log's
    // 42,656 tokens, so adopting takes the fewest bytes that do: 2,666 × 2,621,440 = 6,987,710,464 B.
    let edited =
        parse(&fixture("v1_0.11_two_line.log").replace("memory: 6.51 GiB", "memory: 6.50 GiB"));
    assert_eq!(
        adopt(&h100, &edited).0.kv_memory.map(|b| b.0),
        Some(2666 * 2_621_440)
    );
    let o = evaluate(&adopted).unwrap();
    let rows = compare(&adopted, &o, &log);
    let get = |k: &str| rows.iter().find(|r| r.key == k).unwrap().clone();
    assert_eq!(get("tokens").difference, Some(0.0));
    assert_eq!(get("blocks").difference, Some(0.0));
    assert_eq!(get("concurrency").difference, Some(0.0));
    assert_eq!(get("tokens").printed, "42,656");
    // And the URL carries it: decoding the encoded scenario gives the same numbers.
    let q = kvbudget::core::query::encode(&adopted);
    let (again, n) = decode(&q);
    assert!(n.is_empty(), "{q}: {n:?}");
    assert_eq!(again, adopted, "{q}");
    assert_eq!(
        evaluate(&again).unwrap().chosen.report.gpu_kv_cache_tokens,
        Some(42_656)
    );
}

#[test]
fn adopting_a_v0_log() {
    // V0: "# GPU blocks: 2960" of Qwen3-14B-AWQ at 8,192 (the seed lab's pair: 47,360 tokens). A
    // block is 16 tokens × 40 layers × 4,096 B = 2,621,440 B, so 2,960 blocks take
    // 7,759,462,400 B = 7.23 GiB, which the page's RTX 5080 (15.50 GiB; the log prints no GPU
    // memory the page reads) cannot hold beside the log's 9.44 GiB of weights: adopting says so,
    // and puts no such KV memory into the scenario (nor a `--kv-cache-memory` into its command).
    let text = fixture("v0_gpu_blocks.log");
    let (s, _) = decode("?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-5080");
    let (adopted, notes) = adopt(&s, &parse(&text));
    assert_eq!(adopted.kv_memory, None);
    assert!(
        notes.contains(
            &"the GPU (15.50 GiB) cannot hold the KV memory the log's figures give (7.23 GiB) \
              beside the weights (9.44 GiB), so that memory is not taken: choose the GPU the log \
              came from"
                .to_string()
        ),
        "{notes:?}"
    );
    // On an RTX 4090 (23.55 GiB), which holds them, the log's blocks are reproduced.
    let log = parse(&text);
    let (s, _) = decode("?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090");
    let (adopted, _) = adopt(&s, &log);
    assert_eq!(adopted.version.to_string(), "0.6");
    let o = evaluate(&adopted).unwrap();
    assert_eq!(o.chosen.report.num_gpu_blocks, Some(2960));
    assert_eq!(
        o.chosen.report.lines[0],
        "# GPU blocks: 2960, # CPU blocks: 1638"
    );
}

#[test]
fn a_log_for_another_model_keeps_the_scenario_model_and_says_so() {
    let log = parse("INFO non-default args: {'model': 'someone/unknown-7b', 'max_model_len': 4096}\nGPU KV cache size: 10,000 tokens\n");
    let (s, _) =
        decode("?model=custom&name=mine&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14");
    let (adopted, notes) = adopt(&s, &log);
    assert!(matches!(adopted.model, ModelChoice::Custom(ref c) if c.id == "mine"));
    assert!(
        notes
            .iter()
            .any(|n| n.contains("someone/unknown-7b is not a preset")),
        "{notes:?}"
    );
    // 10,000 tokens / 16 = 625 blocks.
    assert_eq!(
        evaluate(&adopted).unwrap().chosen.report.num_gpu_blocks,
        Some(625)
    );
}

#[test]
fn pipeline_parallel_weights_agree_across_page_log_check_and_cli() {
    // Weights per GPU under --pipeline-parallel-size 2 used to be divided by TP only on the page
    // and in the log check, but by TP × PP in vLLM's report (and so the CLI).
    // Qwen3-14B: ⌊27.52 × 2³⁰⌋ = 29,549,374,996 B over TP 1 × PP 2 → ⌈/ 2⌉ = 14,774,687,498 B
    // = 13.76 GiB on each GPU.
    let (s, notes) = decode("?model=Qwen/Qwen3-14B&gpu=h100-sxm&pp=2&overhead_gib=1");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(s.pp, 2);
    let o = evaluate(&s).unwrap();
    // The page.
    assert_eq!(o.weights_per_gpu.0, 14_774_687_498);
    // The report behind the page and behind `kvbudget vllm` (which prints it as
    // budget.weights_per_gpu_bytes, tests/cli.rs) carries the same bytes.
    assert_eq!(
        o.chosen.report.budget.unwrap().weights_per_gpu.0,
        14_774_687_498
    );
    let mut cli = kvbudget::core::calc::vllm_scenario(&s, &o.model, s.kv, s.ctx);
    cli.max_num_seqs = None;
    let r = kvbudget::core::vllm::report(&cli).unwrap();
    assert_eq!(r.budget.unwrap().weights_per_gpu.0, 14_774_687_498);
    // The log check compares the log's per-GPU "Model loading took" with the same figure.
    let log = parse(
        "INFO Model loading took 13.76 GiB and 12.3 seconds\nGPU KV cache size: 10,000 tokens\n",
    );
    let rows = compare(&s, &o, &log);
    let w = rows.iter().find(|r| r.key == "weights").unwrap();
    assert_eq!(w.predicted, "13.76 GiB");
    // No sign on a difference that shows as zero (it used to read "−0.00").
    assert_eq!(w.difference_text, "0.00 GiB");
}

#[test]
fn a_log_that_refused_is_adopted_as_a_refusal() {
    // After "Use these numbers" on a log that ended in vLLM's "max seq len … estimated maximum
    // model length" error, the page said sequences fit, the opposite of the log. The log's
    // available memory, taken as the KV memory, makes the page refuse as the log did.
    let log = parse(&fixture("v1_error_too_long.log"));
    assert_eq!(Verdict::of(&log), Verdict::Refused);
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    let (adopted, _) = adopt(&s, &log);
    let o = evaluate(&adopted).unwrap();
    assert_eq!(o.chosen.capped, 0);
    assert_eq!(
        o.chosen.report.refusal.map(|r| r.kind),
        Some(kvbudget::core::vllm::RefusalKind::MaxModelLen)
    );
}

#[test]
fn differences_name_the_settings_before_boot_variation() {
    // A 0.11 log (utilization 0.90) beside the default 0.33 scenario (0.92): the available-memory
    // row names the version and the utilization, not boot-to-boot variation.
    let log = parse(&fixture("v1_0.11_two_line.log"));
    let (s, _) = decode("?model=Qwen/Qwen3-14B&gpu=h100-sxm&ctx=32768");
    let o = evaluate(&s).unwrap();
    let rows = compare(&s, &o, &log);
    let why = &rows.iter().find(|r| r.key == "available").unwrap().why;
    assert!(
        why.contains("vLLM version 0.33 here, 0.11 in the log"),
        "{why}"
    );
    assert!(
        why.contains("gpu_memory_utilization 0.92 here, 0.9 in the log"),
        "{why}"
    );
    assert!(!why.contains("boots"), "{why}");
    // Aligned to the log, the settings no longer differ.
    let aligned = align(&s, &log);
    assert!(
        mismatches(&aligned, &log).is_empty(),
        "{:?}",
        mismatches(&aligned, &log)
    );
}

#[test]
fn adopting_an_sglang_log_prints_its_pool() {
    // SGLang 0.5.8, Qwen3-8B on a 24 GB card, capped by --max-total-tokens 20480: the page takes
    // SGLang as the engine, the log's mem_fraction_static (0.847), context (40,960) and its pool of
    // 20,480 tokens, so SGLang's lines on the page carry the log's #tokens.
    let text = fixture("sglang_0.5.8_capped.log");
    assert!(kvbudget::core::sglang::logparse::is_sglang(&text));
    let log = kvbudget::core::sglang::logparse::parse(&text);
    let (s, _) = decode("?model=Qwen/Qwen3-14B&gpu=rtx-4090");
    let (adopted, notes) = kvbudget::core::engines::adopt_sglang_log(&s, &log);
    assert!(
        notes.contains(&"engine: vLLM → SGLang".to_string()),
        "{notes:?}"
    );
    assert_eq!(adopted.model.name(), "Qwen/Qwen3-8B");
    assert_eq!(adopted.ctx, 40_960);
    assert_eq!(adopted.sglang.mem_fraction_static, Some(0.847));
    let o = kvbudget::core::engines::sglang_outcome(&adopted).unwrap();
    assert_eq!(o.report.max_total_num_tokens, Some(20_480));
    assert!(
        o.report.lines.iter().any(|l| l.contains("#tokens: 20480")),
        "{:?}",
        o.report.lines
    );
    // And the URL carries it.
    let (again, n) = decode(&kvbudget::core::query::encode(&adopted));
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(again, adopted);
}

#[test]
fn a_log_without_arguments_gives_its_length_from_its_lines() {
    // vLLM 0.20's one-line report names max_model_len only as the tokens per request; aligning the
    // page to it took the version but left the context at 8,192, so the concurrency rows could
    // never agree (4.25x here, 8.51x in the log).
    let text = "INFO 05-01 10:00:00 [kv_cache_utils.py:1] GPU KV cache size: 34,848 tokens\n\
                INFO 05-01 10:00:00 [kv_cache_utils.py:2] Maximum concurrency for 4,096 tokens per request: 8.51x\n";
    let log = parse(text);
    assert_eq!(log.max_model_len, Some(4_096));
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    assert_eq!(align(&s, &log).ctx, 4_096);
    // The engine's configuration line and "Using max model len" come before it, and win.
    for line in [
        "INFO Initializing a V1 LLM engine (v0.19.0) with config: model='Qwen/Qwen3.5-9B', max_seq_len=262144, download_dir=None",
        "INFO [model.py:1] Using max model len 262144",
    ] {
        let log = parse(&format!("{line}\n{text}"));
        assert_eq!(log.max_model_len, Some(262_144), "{line}");
    }
}

#[test]
fn a_log_pool_beside_weights_larger_than_the_card_is_flagged() {
    // "Use these numbers" with a Qwen3.5-9B L40S log while the page showed an RTX 4090: 17.66 GiB of
    // weights + 21,730,689,024 B (20.24 GiB) of KV memory = 37.90 GiB on a 23.55 GiB card. The
    // page said 66 sequences fit with no word of warning; now the results say it cannot happen.
    let q =
        "?model=Qwen/Qwen3.5-9B&weights_gib=17.66&vllm=0.19&util=0.9&ctx=8192&kv_bytes=21730689024";
    let (s, _) = decode(&format!("{q}&gpu=rtx-4090"));
    let o = evaluate(&s).unwrap();
    let w = kvbudget::core::explain::explain(&s, &o).warnings;
    assert!(
        w.iter().any(|x| x.starts_with(
            "The given KV memory (20.24 GiB) and the weights (17.66 GiB) add up to more than this GPU's 23.55 GiB"
        )),
        "{w:?}"
    );
    // On the L40S the log came from (44.39 GiB) both fit: no such warning.
    let (s, _) = decode(&format!("{q}&gpu=l40s"));
    let o = evaluate(&s).unwrap();
    let w = kvbudget::core::explain::explain(&s, &o).warnings;
    assert!(
        !w.iter().any(|x| x.contains("The given KV memory")),
        "{w:?}"
    );
}

#[test]
fn adopting_a_pipeline_parallel_log_keeps_its_weights_per_gpu() {
    // A Qwen3-8B log at PP 4 whose rank 0 (the first stage: 9 of 36 layers and the embedding,
    // 151,936 × 4,096 × 2 = 1,244,659,712 B) loaded 4.3971 GiB = ⌊4.3971 × 2³⁰⌋ = 4,721,350,174 B.
    // The whole model is (4,721,350,174 − 1,244,659,712) × 4 + 2 × 1,244,659,712 = 16,396,081,272 B
    // (an even split would say 4 × 4,721,350,174 = 18,885,400,696 B, 17.59 GiB), and the adopted
    // scenario puts the logged 4,721,350,174 B back on the first stage.
    let text = fixture("v1_0.11_two_line.log")
        .replace(
            "'model': 'Qwen/Qwen3-14B', 'max_model_len': 32768",
            "'model': 'Qwen/Qwen3-8B', 'max_model_len': 32768, 'pipeline_parallel_size': 4",
        )
        .replace("took 27.5191 GiB", "took 4.3971 GiB");
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm");
    let (adopted, notes) = adopt(&s, &parse(&text));
    assert_eq!(adopted.pp, 4, "{notes:?}");
    assert_eq!(adopted.weights.map(|b| b.0), Some(16_396_081_272));
    assert_eq!(evaluate(&adopted).unwrap().weights_per_gpu.0, 4_721_350_174);
}

/// A log whose count the printed KV memory cannot give for the scenario's model is another
/// model's: the check says so first, and adopting it makes up no KV memory. The 0.33 log of
/// Qwen3-8B (taken here on an H100, which holds its 15.27 GiB of weights and its KV memory) prints
/// 9.96 GiB and 72,496 tokens at 40,960: 72,496 / 16 = 4,531 blocks of 16 × 147,456 B =
/// 2,359,296 B, 10,689,970,176 B = 9.956 GiB, its own. Edited to 101,600 tokens
/// (6,350 blocks: 6,350 × 2,359,296 = 14,981,529,600 B = 13.95 GiB) beside the same 9.96 GiB, it
/// cannot come from Qwen3-8B (a model sharing KV across layers prints such pairs).
#[test]
fn a_log_that_cannot_come_from_the_model_is_said_so_and_adopts_no_kv_memory() {
    use kvbudget::core::handoff::log::{log_view, Loaded};
    use kvbudget::core::verify::not_this_model;
    // (With the engine's configuration line, which states the layout: one GPU, one stage.)
    let engine = "(EngineCore pid=211) INFO 10-11 18:02:20 [v1/engine/core.py:105] Initializing a V1 LLM engine (v0.33.0) with config: model='Qwen/Qwen3-8B', speculative_config=None, dtype=torch.bfloat16, max_seq_len=40960, tensor_parallel_size=1, pipeline_parallel_size=1, decode_context_parallel_size=1, kv_cache_dtype=auto, enable_prefix_caching=True\n";
    let text = engine.to_string() + &fixture("v1_0.33_one_line.log");
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=h100-sxm&ctx=40960");
    let own = parse(&text);
    assert_eq!(own.tensor_parallel_size, Some(1));
    // (A transformer's prefix caching changes no memory: not a setting that differs.)
    assert_eq!(own.prefix_caching, Some(true));
    assert!(
        mismatches(&s, &own).is_empty(),
        "{:?}",
        mismatches(&s, &own)
    );
    assert!(!align(&s, &own).knobs.prefix_caching);
    assert_eq!(not_this_model(&s, &own), None);
    assert!(adopt(&s, &own).0.kv_memory.is_some());
    let other = parse(&text.replace("72,496 tokens", "101,600 tokens"));
    let why = "the model does not match the log: for this model its 101,600 tokens take 13.95 GiB \
               of KV memory, and it printed 9.96 GiB; the log's model lays out its KV cache \
               otherwise, so its KV memory is not taken";
    assert_eq!(not_this_model(&s, &other).as_deref(), Some(why));
    let (adopted, notes) = adopt(&s, &other);
    assert_eq!(adopted.kv_memory, None);
    assert!(notes.iter().any(|n| n == why), "{notes:?}");
    // The log check leads with it, before the settings that differ.
    let v = log_view(&s, &Loaded::Vllm(other));
    assert_eq!(v.mismatches.first().map(String::as_str), Some(why));
    // Where the log's count is not one GPU's of one known layout, nothing is claimed: two
    // pipeline stages (vLLM takes the smallest count of its ranks, and prints rank 0's memory),
    // a draft's layers, decode context parallelism, an overridden block count, or no stated
    // tensor-parallel size.
    let edited = text.replace("72,496 tokens", "101,600 tokens");
    for (from, to) in [
        ("pipeline_parallel_size=1", "pipeline_parallel_size=2"),
        (
            "speculative_config=None",
            "speculative_config=SpeculativeConfig(method='eagle3', num_spec_tokens=3)",
        ),
        (
            "decode_context_parallel_size=1",
            "decode_context_parallel_size=2",
        ),
        (
            "kv_cache_dtype=auto",
            "kv_cache_dtype=auto, num_gpu_blocks_override=6350",
        ),
        (" tensor_parallel_size=1,", ""),
    ] {
        let log = parse(&edited.replace(from, to));
        assert_eq!(not_this_model(&s, &log), None, "{to}");
    }
}

/// A log that ran with prefix caching is read as such: a hybrid then keeps two state blocks per
/// GDN group per request instead of one (`mamba_cache_mode` "align", vLLM 0.19
/// `v1/kv_cache_interface.py`), which lowers the printed concurrency while the token line stays.
/// Qwen3.5-9B on an L40S with 0.19 at 262,144 tokens (VLLM-HYBRID example 1): 1,258 blocks of 528
/// tokens; per request ⌈262,144 / 528⌉ = 497 attention blocks + 3 groups × 2 state blocks = 503,
/// 1,258 / 503 = 2.501 → "2.50x" (without prefix caching 497 + 3 = 500: "2.52x").
#[test]
fn a_hybrid_log_with_prefix_caching_is_adopted_with_it() {
    let log_text = || {
        "INFO 04-22 16:02:00 [api_server.py:1351] vLLM API server version 0.19.0\n\
         INFO 04-22 16:02:00 [utils.py:233] non-default args: {'model': 'Qwen/Qwen3.5-9B', 'max_model_len': 262144, 'enable_prefix_caching': True}\n\
         INFO 04-22 16:03:34 [gpu_worker.py:436] Available KV cache memory: 20.27 GiB\n\
         INFO 04-22 16:03:34 [kv_cache_utils.py:1319] GPU KV cache size: 165,792 tokens\n\
         INFO 04-22 16:03:34 [kv_cache_utils.py:1324] Maximum concurrency for 262,144 tokens per request: 2.50x\n"
            .to_string()
    };
    let log = parse(&log_text());
    assert_eq!(log.prefix_caching, Some(true));
    let (s, _) = decode("?model=Qwen/Qwen3.5-9B&gpu=l40s&ctx=262144&vllm=0.19");
    assert!(mismatches(&s, &log)
        .iter()
        .any(|m| m.what == "prefix caching" && m.scenario == "off" && m.log == "on"));
    assert!(align(&s, &log).knobs.prefix_caching);
    let (adopted, notes) = adopt(&s, &log);
    assert!(adopted.knobs.prefix_caching, "{notes:?}");
    let o = evaluate(&adopted).unwrap();
    let lines = &o.chosen.report.lines;
    assert!(
        lines.contains(&"GPU KV cache size: 165,792 tokens".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"Maximum concurrency for 262,144 tokens per request: 2.50x".to_string()),
        "{lines:?}"
    );
    // Read without it, no block count gives both of the log's figures: the printed 20.27 GiB
    // holds ⌊21,764,918,722 / 17,301,504⌋ = 1,257 blocks, which print the same tokens and
    // 1,257 / 500 = 2.514 → "2.51x", not the log's 2.50x.
    let (plain, _) = adopt(
        &s,
        &parse(&log_text().replace(", 'enable_prefix_caching': True", "")),
    );
    assert!(!plain.knobs.prefix_caching);
    let lines = evaluate(&plain).unwrap().chosen.report.lines;
    assert!(
        lines.contains(&"Maximum concurrency for 262,144 tokens per request: 2.51x".to_string()),
        "{lines:?}"
    );
}

/// Speculative decoding as the log ran it is named when the scenario has another: with MTP's 3
/// tokens a hybrid keeps 3 more state blocks per group per request, so the log's concurrency
/// cannot be the scenario's. Read from the engine's configuration line, or from the arguments.
#[test]
fn a_logs_speculative_tokens_are_named_when_they_differ() {
    let engine = parse(
        "INFO [core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='Qwen/Qwen3.5-9B', speculative_config=SpeculativeConfig(method='mtp', model='Qwen/Qwen3.5-9B', num_spec_tokens=3), tokenizer='Qwen/Qwen3.5-9B'\n",
    );
    assert_eq!(engine.speculative_tokens, Some(3));
    let args = parse("INFO [utils.py:233] non-default args: {'model': 'Qwen/Qwen3.5-9B', 'speculative_config': {'method': 'mtp', 'num_speculative_tokens': 2}}\n");
    assert_eq!(args.speculative_tokens, Some(2));
    let none = parse("INFO [core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='x', speculative_config=None, tokenizer='x'\n");
    assert_eq!(none.speculative_tokens, Some(0));
    let (s, _) = decode("?model=Qwen/Qwen3.5-9B&gpu=l40s&vllm=0.19");
    let m = mismatches(&s, &engine);
    assert!(
        m.iter()
            .any(|m| m.what == "speculative tokens per step" && m.scenario == "0" && m.log == "3"),
        "{m:?}"
    );
    assert!(mismatches(&s, &none)
        .iter()
        .all(|m| m.what != "speculative tokens per step"));
}
