//! SGLang with a hybrid model's state derived from its layers (no state bytes given): the state
//! pool's line, checked on a real log.

use kvbudget::core::presets;
use kvbudget::core::sglang::{report, Mamba, Scenario, Version};

#[test]
fn qwen35_27b_state_matches_the_dgx_spark_log() {
    // Qwen3.5-27B: 48 GDN layers with 16 key heads × 128 and 48 value heads × 128, kernel 4.
    // Per request: convolution (2 × 16 × 128 + 48 × 128) × 3 × 2 B (bf16) × 48 = 2,949,120 B;
    // temporal state 48 × 128 × 128 × 4 B (float32) × 48 = 150,994,944 B.
    let mut s = Scenario::new(
        presets::model("Qwen/Qwen3.5-27B").unwrap().spec(),
        Version::parse("0.5.20").unwrap(),
        None,
    );
    let m = s.mamba().unwrap();
    assert_eq!(
        (m.full_attention_layers, m.conv_bytes, m.ssm_bytes),
        (16, 2_949_120, 150_994_944)
    );
    // The log ran --max-mamba-cache-size 360: 361 rows (one padding row) of each state:
    // 361 × 2,949,120 B = 0.99 GiB and 361 × 150,994,944 B = 50.77 GiB, as printed.
    s.extras.mamba = Some(Mamba {
        max_slots: Some(360),
        ..m
    });
    s.pre_load_free_gib = Some(110.0);
    s.post_load_free_gib = Some(95.0);
    s.mem_fraction_static = Some(0.7);
    let r = report(&s).unwrap();
    assert!(
        r.lines.iter().any(|l| l
            == "Mamba Cache is allocated. max_mamba_cache_size: 360, conv_state size: 0.99GB, ssm_state size: 50.77GB "),
        "{:?}",
        r.lines
    );
}
