//! The log parser on fixtures written for every format and error vLLM prints.

use kvbudget::core::vllm::logparse::{parse, KvFigure, LogError};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/logs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn v1_two_lines() {
    let p = parse(&fixture("v1_0.11_two_line.log"));
    assert_eq!(p.version.as_deref(), Some("0.11.0"));
    assert_eq!(p.kv, Some(KvFigure::Tokens(42_656)));
    assert_eq!(
        p.kv_line.as_deref(),
        Some("GPU KV cache size: 42,656 tokens")
    );
    assert_eq!(p.cached_tokens(16), Some(42_656)); // tokens are never multiplied by the block size
    let c = p.max_concurrency.unwrap();
    assert_eq!((c.tokens_per_request, c.value), (32_768, 1.30));
    assert_eq!(p.available_kv_gib, Some(6.51));
    assert_eq!(p.model_loading_gib, Some(27.5191));
    assert_eq!(p.error, None);
}

#[test]
fn v1_one_line() {
    let p = parse(&fixture("v1_0.33_one_line.log"));
    assert_eq!(p.version.as_deref(), Some("0.33.0"));
    assert_eq!(p.kv, Some(KvFigure::Tokens(72_496)));
    let c = p.max_concurrency.unwrap();
    assert_eq!((c.tokens_per_request, c.value), (40_960, 1.77));
    assert_eq!(p.available_kv_gib, Some(9.96));
    assert_eq!(p.model_loading_gib, Some(15.27));
    assert_eq!(p.cudagraph_estimate_gib, Some(0.41));
}

#[test]
fn v0_gpu_blocks_times_block_size() {
    // "# GPU blocks: 2960" × 16 = 47,360 tokens (the seed lab's pair).
    let p = parse(&fixture("v0_gpu_blocks.log"));
    assert_eq!(p.version.as_deref(), Some("0.6.3"));
    assert_eq!(p.kv, Some(KvFigure::Blocks(2960)));
    // 4 GiB of swap / (16 × 40 layers × 2 × 8 × 128 × 2 B = 2.5 MiB per block) = 1,638 CPU blocks.
    assert_eq!(p.cpu_blocks, Some(1638));
    assert_eq!(p.cached_tokens(16), Some(47_360));
    assert_eq!(p.cached_tokens(32), Some(94_720));
    assert_eq!(p.max_concurrency.unwrap().tokens_per_request, 8192);
}

#[test]
fn v0_cuda_blocks_and_budget_line() {
    let p = parse(&fixture("v0_cuda_blocks.log"));
    assert_eq!(p.version.as_deref(), Some("0.8.5"));
    assert_eq!(p.kv, Some(KvFigure::Blocks(1952)));
    assert_eq!(p.cached_tokens(16), Some(31_232));
    assert_eq!(p.total_gpu_gib, Some(23.58));
    assert_eq!(p.gpu_memory_utilization, Some(0.90));
    assert_eq!(p.requested_gib, Some(21.22));
    assert_eq!(p.weights_gib, Some(14.99));
    assert_eq!(p.non_torch_gib, Some(0.17));
    assert_eq!(p.activation_peak_gib, Some(2.25));
    assert_eq!(p.budget_kv_gib, Some(3.81));
    let c = p.max_concurrency.unwrap();
    assert_eq!((c.tokens_per_request, c.value), (20_000, 1.56));
}

#[test]
fn v0_lowercase_cuda_and_its_error() {
    let p = parse(&fixture("v0_cuda_lower.log"));
    assert_eq!(p.kv, Some(KvFigure::Blocks(1478)));
    assert_eq!(p.cached_tokens(16), Some(23_648));
    assert_eq!(
        p.error,
        Some(LogError::V0TooLong {
            max_model_len: 29_000,
            kv_tokens: 23_648
        })
    );
}

#[test]
fn v1_request_too_long() {
    let p = parse(&fixture("v1_error_too_long.log"));
    assert_eq!(p.version.as_deref(), Some("0.9.1"));
    assert_eq!(p.kv, None);
    assert_eq!(
        p.error,
        Some(LogError::RequestTooLong {
            max_model_len: 29_000,
            needed_gib: 3.54,
            available_gib: 2.89,
            estimated_max_len: Some(23_648)
        })
    );
}

#[test]
fn v1_no_memory() {
    let p = parse(&fixture("v1_error_no_memory.log"));
    assert_eq!(p.error, Some(LogError::NoMemory));
    // A negative figure is not a number the parser accepts as memory.
    assert_eq!(p.available_kv_gib, None);
}

#[test]
fn no_kv_line() {
    let p = parse(&fixture("no_kv_line.log"));
    assert_eq!(p.kv, None);
    assert_eq!(p.cached_tokens(16), None);
    assert_eq!(p.error, None);
    assert_eq!(p.model_loading_gib, Some(15.2683));
}

#[test]
fn first_kv_line_wins_and_crlf_is_fine() {
    let p = parse("GPU KV cache size: 1,000 tokens\r\nGPU KV cache size: 2,000 tokens\r\n");
    assert_eq!(p.kv, Some(KvFigure::Tokens(1000)));
}

#[test]
fn a_number_in_an_exponent_is_no_figure() {
    // vLLM prints these figures with `%.2f` (or whole): "1e400" is not "1", and a line whose
    // number cannot be read gives no figure rather than a wrong one. Units glued to the number
    // ("14.99GiB", "1.77x") are vLLM's own and still read.
    let p = parse("INFO Available KV cache memory: 1e400 GiB\nINFO model weights take 14.99GiB; non_torch_memory takes 0.18GiB\n");
    assert_eq!(p.available_kv_gib, None);
    assert_eq!(p.weights_gib, Some(14.99));
    let p = parse("INFO Available KV cache memory: 2E+3 GiB\nINFO Maximum concurrency for 40,960 tokens per request: 1.77x\n");
    assert_eq!(p.available_kv_gib, None);
    assert_eq!(p.max_concurrency.unwrap().value, 1.77);
}

#[test]
fn a_capacity_figure_that_is_not_a_count_is_named_as_such() {
    // 99,999,999,999,999,999,999 tokens is past 2⁶⁴ − 1 = 18,446,744,073,709,551,615, the largest
    // count kvbudget reads; "1.5" blocks is no count. The check used to say the log had no KV
    // line at all; it now quotes the line and says its figure is not a count.
    use kvbudget::core::handoff::log::log_status;
    let huge = "INFO 05-01 12:00:00 [kv_cache_utils.py:1] GPU KV cache size: 99,999,999,999,999,999,999 tokens";
    let p = parse(huge);
    assert_eq!(p.kv, None);
    assert_eq!(
        p.kv_unreadable.as_deref(),
        Some("GPU KV cache size: 99,999,999,999,999,999,999 tokens")
    );
    let status = log_status(&p);
    assert!(status.contains("not a count"), "{status}");
    // With the memory line before it, the log is still not "cut short after" that line.
    let p = parse(&format!("INFO Available KV cache memory: 6.51 GiB\n{huge}"));
    assert!(log_status(&p).contains("not a count"), "{}", log_status(&p));
    assert!(
        status.contains("99,999,999,999,999,999,999 tokens"),
        "{status}"
    );
    let p = parse("INFO # GPU blocks: 1.5, # CPU blocks: 2048");
    assert_eq!(p.kv, None);
    assert!(p.kv_unreadable.is_some());
    // 2⁶⁴ − 1 itself is a count; a readable line after an unreadable one is the figure.
    let p = parse("GPU KV cache size: 18,446,744,073,709,551,615 tokens");
    assert_eq!(p.kv, Some(KvFigure::Tokens(u64::MAX)));
    assert_eq!(p.kv_unreadable, None);
    let p = parse(&format!("{huge}\nGPU KV cache size: 2,000 tokens"));
    assert_eq!(p.kv, Some(KvFigure::Tokens(2000)));
    // A log with no capacity line at all still says what was looked for.
    let p = parse(&fixture("no_kv_line.log"));
    assert_eq!(p.kv_unreadable, None);
    assert!(
        log_status(&p).starts_with("No KV cache figures"),
        "{}",
        log_status(&p)
    );
}
