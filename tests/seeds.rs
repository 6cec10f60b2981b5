//! Every worked number of the two course texts (shared seeds), derived by hand in the comments.

use kvbudget::core::capacity::{
    self, bytes_per_sequence, bytes_per_token, bytes_per_token_mha, max_sequences,
};
use kvbudget::core::model::KvDtype;
use kvbudget::core::presets;
use kvbudget::core::units::{fixed2, Bytes, GIB, KIB, MIB};
use kvbudget::core::ModelSpec;

fn preset(id: &str) -> ModelSpec {
    presets::model(id).expect("preset").spec()
}

fn btok(id: &str, kv: KvDtype) -> u64 {
    bytes_per_token(&preset(id), kv, 1, 1).unwrap().0
}

#[test]
fn bytes_per_token_of_the_repertoire() {
    // Qwen3-8B: 2 × 36 × 8 × 128 × 2 = 147,456 B = 144 KiB; FP8 halves it to 72 KiB.
    assert_eq!(btok("Qwen/Qwen3-8B", KvDtype::Auto), 147_456);
    assert_eq!(btok("Qwen/Qwen3-8B", KvDtype::Auto), 144 * KIB);
    assert_eq!(btok("Qwen/Qwen3-8B", KvDtype::Fp8), 72 * KIB);
    // Qwen3-14B-AWQ: 2 × 40 × 8 × 128 × 2 = 163,840 B = 160 KiB (AWQ runs KV in fp16 under auto).
    assert_eq!(btok("Qwen/Qwen3-14B-AWQ", KvDtype::Auto), 160 * KIB);
    assert_eq!(btok("Qwen/Qwen3-14B-AWQ", KvDtype::Fp8E4m3), 80 * KIB);
    // Qwen2.5-7B: 2 × 28 × 4 × 128 × 2 = 57,344 B = 56 KiB.
    assert_eq!(btok("Qwen/Qwen2.5-7B-Instruct", KvDtype::Bfloat16), 57_344);
    assert_eq!(btok("Qwen/Qwen2.5-7B-Instruct", KvDtype::Auto), 56 * KIB);
}

#[test]
fn what_gqa_bought() {
    // Qwen3-8B as plain MHA: 2 × 36 × 32 × 128 × 2 = 589,824 B = 576 KiB, 4× the GQA figure.
    let q3 = preset("Qwen/Qwen3-8B");
    let mha = bytes_per_token_mha(&q3, KvDtype::Auto).unwrap().0;
    assert_eq!(mha, 576 * KIB);
    assert_eq!(mha / btok("Qwen/Qwen3-8B", KvDtype::Auto), 4);
    // "a single full-context sequence would need 18 GiB": 576 KiB × 32,768 = 18 GiB.
    assert_eq!(mha * 32_768, 18 * GIB);
    // Qwen2.5-7B as MHA: 2 × 28 × 28 × 128 × 2 = 401,408 B = 392 KiB, 7× the GQA figure.
    let q25 = preset("Qwen/Qwen2.5-7B-Instruct");
    let mha = bytes_per_token_mha(&q25, KvDtype::Auto).unwrap().0;
    assert_eq!(mha, 392 * KIB);
    assert_eq!(mha / btok("Qwen/Qwen2.5-7B-Instruct", KvDtype::Auto), 7);
}

#[test]
fn full_context_sequence_bf16_and_fp8() {
    // Qwen3-8B at 32K: 32,768 × 147,456 = 4,831,838,208 B = 4.5 GiB; FP8: 2.25 GiB.
    let m = preset("Qwen/Qwen3-8B");
    assert_eq!(
        bytes_per_sequence(&m, KvDtype::Auto, 1, 1, 32_768)
            .unwrap()
            .0,
        9 * GIB / 2
    );
    assert_eq!(
        bytes_per_sequence(&m, KvDtype::Fp8, 1, 1, 32_768)
            .unwrap()
            .0,
        9 * GIB / 4
    );
}

#[test]
fn the_14b_awq_table_on_a_5_9_gib_pool() {
    // Pool 5.9 GiB, 160 KiB/token. 4K: 4096 × 160 KiB = 0.625 GiB → 5.9 / 0.625 = 9.44 → 9;
    // 8K: 1.25 GiB → 4.72 → 4; 32K: 5 GiB → 1.18 → 1.
    let pool = Bytes::from_gib_f64(5.9).unwrap().0 as i128;
    let b = Bytes(160 * KIB);
    assert_eq!(max_sequences(pool, 4096, b), 9);
    assert_eq!(max_sequences(pool, 8192, b), 4);
    assert_eq!(max_sequences(pool, 32_768, b), 1);
}

#[test]
fn the_hyperbola_on_a_6_gib_pool() {
    // 6 GiB, 160 KiB/token. 2K: 320 MiB each → 19.2 → 19; 8K: 1.25 GiB → 4.8 → 4; 32K: 5 GiB → 1.2 → 1.
    let pool = (6 * GIB) as i128;
    let b = Bytes(160 * KIB);
    assert_eq!(max_sequences(pool, 2048, b), 19);
    assert_eq!(max_sequences(pool, 8192, b), 4);
    assert_eq!(max_sequences(pool, 32_768, b), 1);
    // The inverse: the longest context for 4 sequences is ⌊6 GiB / (4 × 160 KiB)⌋ = 9,830 tokens.
    assert_eq!(capacity::longest_context(pool, 4, b), 9830);
}

#[test]
fn a_reasoning_trace() {
    // 1,000 prompt + 4,000 trace tokens on Qwen3-8B: 5,000 × 147,456 = 737,280,000 B = 703.125 MiB.
    let m = preset("Qwen/Qwen3-8B");
    let b = bytes_per_sequence(&m, KvDtype::Auto, 1, 1, 1000 + 4000).unwrap();
    assert_eq!(b.0, 737_280_000);
    assert_eq!(b.0 / MIB, 703);
    assert_eq!(format!("{:.0}", b.as_mib()), "703");
}

#[test]
fn kv_read_in_the_roofline() {
    // 8,000 tokens × 147,456 B = 1,179,648,000 B = 1.0986 GiB ≈ 1.1 GiB of KV read per decoded token.
    let m = preset("Qwen/Qwen3-8B");
    let b = bytes_per_sequence(&m, KvDtype::Auto, 1, 1, 8000).unwrap();
    assert_eq!(b.0, 1_179_648_000);
    assert_eq!(format!("{:.1}", b.as_gib()), "1.1");
    // With ~16.4 GB of weights on a 1,008 GB/s card the ceiling barely moves:
    // 1008e9 / 16.4e9 = 61.46 tok/s alone, 1008e9 / (16.4e9 + 1.18e9) = 57.34 tok/s at 8K.
    let short = capacity::decode_ceiling(1008.0, Bytes(16_400_000_000), 0, Bytes(147_456), 1);
    let long = capacity::decode_ceiling(1008.0, Bytes(16_400_000_000), 8000, Bytes(147_456), 1);
    assert_eq!(format!("{:.2}", short.per_sequence), "61.46");
    assert_eq!(format!("{:.2}", long.per_sequence), "57.34");
    // Four such sequences together: 4 × 1008e9 / (16.4e9 + 4 × 1.179648e9) = 4.032e12 / 21.118592e9 = 190.92 tok/s.
    let four = capacity::decode_ceiling(1008.0, Bytes(16_400_000_000), 8000, Bytes(147_456), 4);
    assert_eq!(format!("{:.2}", four.aggregate), "190.92");
}

#[test]
fn qwen25_per_sequence_sizes() {
    // kv_cache_size.py: 57,344 B × {2048, 8192, 32768} = 0.11, 0.44, 1.75 GiB (%.2f).
    let m = preset("Qwen/Qwen2.5-7B-Instruct");
    let gib = |s| {
        fixed2(
            bytes_per_sequence(&m, KvDtype::Auto, 1, 1, s)
                .unwrap()
                .as_gib(),
        )
    };
    assert_eq!(gib(2048), "0.11");
    assert_eq!(gib(8192), "0.44");
    assert_eq!(gib(32_768), "1.75");
    // "Run 8 such sequences and you've spent ~14 GiB": 8 × 1.75 GiB = 14 GiB exactly.
    assert_eq!(
        8 * bytes_per_sequence(&m, KvDtype::Auto, 1, 1, 32_768)
            .unwrap()
            .0,
        14 * GIB
    );
}

#[test]
fn about_22_sequences_on_24_gb() {
    // "Remaining ≈ 10 GiB / 0.44 ≈ ~22": 10 GiB / (8192 × 57,344 B = 0.4375 GiB) = 22.86 → 22.
    let m = preset("Qwen/Qwen2.5-7B-Instruct");
    let per_seq = bytes_per_sequence(&m, KvDtype::Auto, 1, 1, 8192).unwrap();
    assert_eq!(capacity::max_sequences_for((10 * GIB) as i128, per_seq), 22);
}

#[test]
fn self_check_128_kib() {
    // L = 32, n_kv = 8, d_h = 128, BF16: 2 × 32 × 8 × 128 × 2 = 131,072 B = 128 KiB.
    let m = ModelSpec::from_geometry("self-check", 32, 8, 128);
    assert_eq!(bytes_per_token(&m, KvDtype::Auto, 1, 1).unwrap().0, 131_072);
    assert_eq!(
        bytes_per_token(&m, KvDtype::Auto, 1, 1).unwrap().0,
        128 * KIB
    );
    // Llama-3.1-8B has this geometry.
    assert_eq!(
        btok("meta-llama/Llama-3.1-8B-Instruct", KvDtype::Auto),
        128 * KIB
    );
}

#[test]
fn the_lab_log_tokens_are_blocks_times_16() {
    // "GPU KV cache size: 47,360 tokens" ≡ "# GPU blocks: 2960" × 16; at 8,192 context → 5 sequences.
    assert_eq!(2960 * 16, 47_360);
    assert_eq!(47_360 / 8192, 5);
}
