//! `f64` to decimal text, exactly as Rust's formatter writes it: [`fixed`] is `{:.N}`, [`display`]
//! is `{}` and [`exp`] is `{:e}` (the shortest digits that read back as the same float).
//!
//! The standard library's float formatting (Grisu with its table of cached powers, and Dragon4's
//! big-number fallback, about 16 KB of wasm) was on every page load for the few figures the page
//! writes with decimals. Here a float's exact decimal expansion is computed with a small big
//! integer (a float is m × 2^e, so its expansion is finite) and rounded as a string: ties to
//! even, like Rust and Python's `"%.2f"`. Shortest digits are the fewest correctly rounded digits
//! that `str::parse` reads back as the same float, the nearer of the two
//! neighbours when both would. `tests/floatfmt.rs` checks all three against the standard
//! formatter.

use crate::big::Big;

/// The exact expansion of a finite, nonzero |x|: digits D (no leading or trailing zeros) and
/// `point`, with |x| = 0.D × 10^point.
fn exact(x: f64) -> (Vec<u8>, i32) {
    let bits = x.to_bits();
    let (frac, biased) = (bits & ((1 << 52) - 1), ((bits >> 52) & 0x7ff) as i32);
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), biased - 1075)
    };
    let mut big = Big(vec![m as u32, (m >> 32) as u32]);
    // m × 2^e = m × 5^k / 10^k for e = −k.
    let k = (-e).max(0);
    let big = if e >= 0 {
        big.shl(e as usize)
    } else {
        for _ in 0..k / 13 {
            big.mul_add(1_220_703_125, 0); // 5¹³
        }
        for _ in 0..k % 13 {
            big.mul_add(5, 0);
        }
        big
    };
    let mut digits = big.decimal_digits();
    let point = digits.len() as i32 - k;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, point)
}

/// Whether D cut after `keep` digits rounds up: more than half a unit of the last kept digit
/// follows, or exactly half and that digit is odd (ties to even; `{:.N}`'s rule) or, with
/// `ties_up`, exactly half (the shortest digits' rule, which takes the upper of two equally near).
fn rounds_up(d: &[u8], keep: i32, ties_up: bool) -> bool {
    if keep < 0 {
        return false;
    }
    let keep = keep as usize;
    match d.get(keep) {
        None => false,
        Some(&f) if f != 5 => f > 5,
        // Exactly half (D has no trailing zeros, so 5 is its last digit) or more.
        Some(_) if keep + 1 < d.len() => true,
        Some(_) => ties_up || (keep > 0 && d[keep - 1] % 2 == 1),
    }
}

/// D's first `keep` digits, rounded (when `up`): the digits and the point, which moves up by one
/// when a carry adds a digit.
fn cut(d: &[u8], point: i32, keep: i32, up: bool) -> (Vec<u8>, i32) {
    let mut out: Vec<u8> = d[..keep.clamp(0, d.len() as i32) as usize].to_vec();
    out.resize(keep.max(0) as usize, 0);
    let mut point = point;
    if up {
        let mut i = out.len();
        loop {
            if i == 0 {
                out.insert(0, 1);
                point += 1;
                break;
            }
            i -= 1;
            if out[i] == 9 {
                out[i] = 0;
            } else {
                out[i] += 1;
                break;
            }
        }
    }
    (out, point)
}

fn special(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("NaN")
    } else if x == f64::INFINITY {
        Some("inf")
    } else if x == f64::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

fn sign(x: f64) -> &'static str {
    if x.is_sign_negative() {
        "-"
    } else {
        ""
    }
}

/// `format!("{x:.decimals$}")`.
pub fn fixed(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s.into();
    }
    // |x| × 10^decimals rounded to an integer (its digits; none for 0), then the point put back.
    let digits = if x == 0.0 {
        String::new()
    } else {
        let (d, point) = exact(x);
        let keep = point + decimals as i32;
        text(&cut(&d, point, keep, rounds_up(&d, keep, false)).0)
    };
    let padded = format!("{digits:0>width$}", width = decimals + 1);
    let (int, frac) = padded.split_at(padded.len() - decimals);
    let dot = if decimals > 0 { "." } else { "" };
    format!("{}{int}{dot}{frac}", sign(x))
}

/// The shortest digits of a finite, nonzero |x| that read back as x, with the point:
/// |x| = 0.D × 10^point.
fn shortest(x: f64) -> (Vec<u8>, i32) {
    let x = x.abs();
    let (d, point) = exact(x);
    let reads_back =
        |digits: &[u8], point: i32| format!("0.{}e{point}", text(digits)).parse::<f64>() == Ok(x);
    for p in 1..d.len() as i32 {
        let up = rounds_up(&d, p, true);
        let (near, np) = cut(&d, point, p, up);
        if reads_back(&near, np) {
            return trimmed(near, np);
        }
        // The other neighbour (the interval that reads back is narrower below a power of two).
        let (far, fp) = cut(&d, point, p, !up);
        if reads_back(&far, fp) {
            return trimmed(far, fp);
        }
    }
    (d, point)
}

fn trimmed(mut d: Vec<u8>, point: i32) -> (Vec<u8>, i32) {
    while d.len() > 1 && d.last() == Some(&0) {
        d.pop();
    }
    (d, point)
}

/// Digit values as text.
fn text(d: &[u8]) -> String {
    d.iter().map(|&d| char::from(b'0' + d)).collect()
}

/// Shortest digits and decimal exponent of a finite, nonzero |x|: |x| = d₁.d₂… × 10^exponent.
pub fn sci_digits(x: f64) -> (String, i32) {
    let (d, point) = shortest(x);
    (text(&d), point - 1)
}

/// Digits d₁d₂… × 10^exponent (as [`sci_digits`] gives them) without an exponent:
/// `0.000ddd`, `ddd000` or `dd.dd`. (`{}` writes floats so; so does Python's `repr` from 10⁻⁴
/// to 10¹⁶, with `.0` after an integral value.)
pub fn positional(digits: &str, exponent: i32) -> String {
    let point = exponent + 1;
    let n = digits.len() as i32;
    if point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else if point >= n {
        format!("{digits}{}", "0".repeat((point - n) as usize))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    }
}

/// `format!("{x}")`: the shortest digits, never in scientific notation.
pub fn display(x: f64) -> String {
    if let Some(s) = special(x) {
        return s.into();
    }
    if x == 0.0 {
        return format!("{}0", sign(x));
    }
    let (digits, exponent) = sci_digits(x);
    format!("{}{}", sign(x), positional(&digits, exponent))
}

/// `format!("{x:e}")`: the shortest digits as `d.ddde±x` (`1.6384e5`, `-2.5e-7`, `0e0`).
pub fn exp(x: f64) -> String {
    if let Some(s) = special(x) {
        return s.into();
    }
    if x == 0.0 {
        return format!("{}0e0", sign(x));
    }
    let (digits, exponent) = sci_digits(x);
    let (first, rest) = digits.split_at(1);
    let dot = if rest.is_empty() { "" } else { "." };
    format!("{}{first}{dot}{rest}e{exponent}", sign(x))
}
