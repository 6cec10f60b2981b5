//! How figures are written: `core::floatfmt` (`{:.N}` and `{}`) and Python's `repr`
//! (`units::py_float_repr`), on values whose binary expansion decides the rounding. Every
//! expected text is what Python 3 prints for the same float (`"%.Nf" % x`, `repr(x)`), except
//! `display`, which is Rust's `{}`: Python's `repr` digits laid out without an exponent or `.0`.

use kvbudget::core::floatfmt::{display, fixed};
use kvbudget::core::units::py_float_repr;

#[test]
fn fixed_rounds_the_exact_binary_value_ties_to_even() {
    for (x, n, text) in [
        // Exact in binary (k / 2^m), so exact ties: to the even digit.
        (1.125, 2, "1.12"),
        (2.625, 2, "2.62"),
        (0.375, 2, "0.38"),
        (0.5, 0, "0"),
        (1.5, 0, "2"),
        (2.5, 0, "2"),
        (3.5, 0, "4"),
        // Not exact: 0.005 is stored as 0.005000000000000000104…, 0.015 as 0.01499999999999999944…,
        // 0.045 as 0.04499999999999999833…, 9.995 as 9.99499999999999921840…, 99.995 as
        // 99.99500000000000454747…, 2.675 as 2.67499999999999982236….
        (0.005, 2, "0.01"),
        (0.015, 2, "0.01"),
        (0.045, 2, "0.04"),
        (9.995, 2, "9.99"),
        (99.995, 2, "100.00"),
        (-2.675, 2, "-2.67"),
        (1.0000005, 6, "1.000001"),
        (123.456, 1, "123.5"),
        // The sign of zero is kept; past 2⁶⁴ every integer digit is written.
        (-0.0, 1, "-0.0"),
        (1e21, 1, "1000000000000000000000.0"),
        (5e-324, 3, "0.000"),
        (0.9, 4, "0.9000"),
    ] {
        assert_eq!(fixed(x, n), text, "{x} to {n} decimals");
    }
}

#[test]
fn display_writes_the_shortest_digits_without_an_exponent() {
    for (x, text) in [
        (0.9, "0.9"),
        (1.0, "1"),
        (-0.0, "-0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (0.7932499999999999, "0.7932499999999999"),
        (1e-7, "0.0000001"),
        (1e21, "1000000000000000000000"),
        (123456789012345680.0, "123456789012345680"),
    ] {
        assert_eq!(display(x), text);
    }
    // The smallest subnormal, 4.94… × 10⁻³²⁴: "5" after 323 zeros.
    assert_eq!(display(5e-324), format!("0.{}5", "0".repeat(323)));
}

#[test]
fn repr_writes_what_python_prints() {
    for (x, text) in [
        (1.0, "1.0"),
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (9.995, "9.995"),
        (0.0001, "0.0001"),
        (1e15, "1000000000000000.0"),
        // From 10¹⁶ and below 10⁻⁴: an exponent with its sign and at least two digits.
        (1e16, "1e+16"),
        (1e20, "1e+20"),
        (1.5e-5, "1.5e-05"),
        (-1e-7, "-1e-07"),
        (123456789012345680.0, "1.2345678901234568e+17"),
        (f64::MAX, "1.7976931348623157e+308"),
        (5e-324, "5e-324"),
        // The largest subnormal.
        (
            f64::from_bits(0x000F_FFFF_FFFF_FFFF),
            "2.225073858507201e-308",
        ),
    ] {
        assert_eq!(py_float_repr(x), text);
    }
}
