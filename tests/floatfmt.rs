//! The page's float formatting (`core::floatfmt`) against the standard formatter it replaces:
//! `{:.N}`, `{}` and `{:e}` for generated floats of every magnitude, exact ties, round values,
//! subnormals, the extremes and the special values.

use kvbudget::core::floatfmt::{display, exp, fixed};
use proptest::prelude::*;

fn check(x: f64) {
    for n in 0..=6 {
        assert_eq!(fixed(x, n), format!("{x:.n$}"), "{x:e} to {n} decimals");
    }
    assert_eq!(display(x), format!("{x}"), "{x:e}");
    assert_eq!(exp(x), format!("{x:e}"), "{x:e}");
}

#[test]
fn edge_cases() {
    for x in [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        0.5,
        1.5,
        2.5,
        0.125,
        0.375,
        1.125,
        2.625,
        // Ties to even at two decimals (exact in binary): 1.125 → 1.12, 2.625 → 2.62, 0.375 → 0.38.
        0.005,
        0.015,
        0.045,
        9.995,
        99.995,
        999.9999,
        13.000000000000002,
        5.92,
        6.51,
        23.55,
        0.92,
        1e-7,
        1e15,
        1e16,
        1e21,
        1e22,
        1e23,
        123456789012345680.0,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        // The largest subnormal.
        f64::from_bits(0x000F_FFFF_FFFF_FFFF),
        f64::EPSILON,
        2f64.powi(60),
        2f64.powi(-60),
        9007199254740993.0,
        // |x| × 10^N just under and over 2⁶⁴, and 2⁶⁴ itself (where an integer shortcut would have
        // to hand over to the exact expansion).
        18446744073709549568.0,
        2f64.powi(64),
        1844674407370955.2,
        1844674407370955.0,
        184467440737.09552,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        check(x);
    }
    // Powers of two, where the interval that reads back is narrower below than above.
    for k in -1074..=1023 {
        check(2f64.powi(k));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn any_bits(bits in any::<u64>()) {
        check(f64::from_bits(bits));
    }

    #[test]
    fn page_sized_values(x in -1e7f64..1e7) {
        check(x);
    }

    #[test]
    fn short_decimals(n in 0u64..10_000_000, scale in 0u32..8) {
        check(n as f64 / 10f64.powi(scale as i32));
    }
}
