//! The app shell's table: the repertoire at 8K on an RTX 4090, checked by hand.

use kvbudget::core::capacity::Overhead;
use kvbudget::core::model::KvDtype;
use kvbudget::core::presets;
use kvbudget::core::query::GpuChoice;
use kvbudget::core::repertoire::rows;
use kvbudget::core::vllm::Version;

#[test]
fn repertoire_on_a_4090_at_8k() {
    let gpu = presets::gpu("rtx-4090").unwrap();
    let r = rows(
        &GpuChoice::Preset(gpu),
        8192,
        Version::new(0, 33),
        0.92,
        Overhead::SEED,
    )
    .unwrap();
    assert_eq!(r.len(), 6);
    // Qwen3-8B BF16: total ⌊23.55 × 2³⁰⌋ = 25,286,619,955; ceil(× 0.92) = 23,263,690,359;
    // − ⌊15.27 × 2³⁰⌋ = 16,396,037,652 − 1 GiB = 5,793,910,883 B of pool.
    // One 8K sequence: 8,192 × 147,456 = 1,207,959,552 B → 5,793,910,883 / 1,207,959,552 = 4.80 → 4.
    let q3 = &r[0];
    assert_eq!((q3.model, q3.kv), ("Qwen/Qwen3-8B", KvDtype::Auto));
    assert_eq!(q3.bytes_per_token.0, 147_456);
    assert_eq!(q3.pool, 5_793_910_883);
    assert_eq!(q3.seed_max_seqs, 4);
    // vLLM: 5,793,910,883 // 65,536 // 36 = 2,455 blocks; 2,455 // 512 per request = 4.
    assert_eq!(q3.vllm_max_seqs, 4);
    // FP8 halves the bytes: 73,728 per token; 5,793,910,883 // 32,768 // 36 = 4,911 blocks // 512 = 9.
    assert_eq!(r[1].bytes_per_token.0, 73_728);
    assert_eq!(r[1].seed_max_seqs, 9);
    // Qwen2.5-7B BF16: pool 23,263,690,359 − ⌊14.25 × 2³⁰⌋ 15,300,820,992 − 1 GiB = 6,889,127,543;
    // one 8K sequence = 8,192 × 57,344 = 469,762,048 → 14.66 → 14.
    assert_eq!(r[4].model, "Qwen/Qwen2.5-7B-Instruct");
    assert_eq!(r[4].seed_max_seqs, 14);
    assert!(r.iter().all(|row| row.error.is_none()));
}
