//! `core::decimal::parse_f64` against the standard library's parser: the same text accepted and the
//! same bits out, on generated decimals, on every float's own digits, and on the exact halfway
//! points between neighbouring floats (where ties go to the even one).

use kvbudget::core::decimal::parse_f64;
use proptest::prelude::*;

/// Both parsers on `t`: the same refusal, or the same bits (any NaN counts as the same NaN).
fn same(t: &str) -> Result<(), TestCaseError> {
    let ours = parse_f64(t);
    let std = t.parse::<f64>().ok();
    match (ours, std) {
        (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {
            prop_assert_eq!(a.is_sign_negative(), b.is_sign_negative(), "{}", t)
        }
        (a, b) => prop_assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{}", t),
    }
    Ok(())
}

/// A decimal number as little-endian base-10 digits, for exact halfway points.
fn times(digits: &mut Vec<u8>, m: u8) {
    let mut carry = 0u32;
    for d in digits.iter_mut() {
        let v = u32::from(*d) * u32::from(m) + carry;
        *d = (v % 10) as u8;
        carry = v / 10;
    }
    while carry > 0 {
        digits.push((carry % 10) as u8);
        carry /= 10;
    }
}

/// The exact decimal of the point halfway between positive finite `x` and the next float up:
/// x = m × 2^e, so the midpoint is (2m + 1) × 2^(e − 1) = (2m + 1) × 5^k × 10^−k for k = 1 − e.
fn midpoint(x: f64) -> String {
    let bits = x.to_bits();
    let (exp, frac) = ((bits >> 52) as i64, bits & ((1 << 52) - 1));
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    let mut digits: Vec<u8> = (2 * m + 1)
        .to_string()
        .bytes()
        .rev()
        .map(|c| c - b'0')
        .collect();
    let k = 1 - e;
    let factor = if k > 0 { 5 } else { 2 };
    (0..k.abs()).for_each(|_| times(&mut digits, factor));
    let text: String = digits.iter().rev().map(|d| char::from(b'0' + d)).collect();
    if k > 0 {
        format!("{text}e-{k}")
    } else {
        text
    }
}

#[test]
fn known_cases() {
    for t in [
        "0.9", "0.85", "1", "1.", ".5", "-.5", "+1.5e3", "1e", "e5", ".", "+", "-", "", "1..2", "1.2.3",
        "1e+", "1e-", "1e5x", " 1", "1 ", "1_000", "0x10", "inf", "-INF", "Infinity", "+infinity",
        "infinit", "nan", "-NaN", "NAN", "0", "-0", "0e999999999999999999999", "1e-400", "1e400",
        "9007199254740992", "9007199254740993", "9007199254740995", "10000000000000005",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203126",
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125001e-324",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "2e308",
        "4.9e-324", "5e-324", "2.2250738585072011e-308", "2.2250738585072014e-308",
    ] {
        same(t).unwrap();
    }
    // What the page types most: a utilization, and Python's round trip of a figure.
    assert_eq!(parse_f64("0.9"), Some(0.9));
    assert_eq!(parse_f64("1,0"), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Generated decimal text, short and long, with and without exponents.
    #[test]
    fn generated_decimals(t in "[+-]?[0-9]{0,30}(\\.[0-9]{0,30})?([eE][+-]?[0-9]{1,4})?") {
        same(&t)?;
    }

    /// Every finite float's own digits, shortest and longer, read back.
    #[test]
    fn every_floats_digits(bits in any::<u64>(), p in 0usize..40) {
        let x = f64::from_bits(bits);
        for t in [format!("{x:e}"), format!("{x}"), format!("{x:.p$e}"), format!("{x:.p$}")] {
            same(&t)?;
        }
    }

    /// Exact halfway points between neighbours, and a hair above them.
    #[test]
    fn halfway_points(bits in 1u64..0x7fef_ffff_ffff_ffff) {
        let t = midpoint(f64::from_bits(bits));
        same(&t)?;
        let above = match t.split_once('e') {
            Some((d, e)) => format!("{d}.000000000000000000001e{e}"),
            None => format!("{t}.000000000000000000001"),
        };
        same(&above)?;
    }
}
