//! Decimal text to `f64`, correctly rounded (ties to even), accepting exactly the text that
//! `str::parse::<f64>` accepts: an optional sign, then `inf`, `infinity` or `nan` in any case, or
//! digits with at most one `.` and at least one digit, then an optional exponent (`e` or `E`, an
//! optional sign, digits).
//!
//! The standard parser's fast path (Eisel–Lemire) carries a table of 650 128-bit powers of five,
//! 10.4 KB that gzip cannot shrink, on every page load for the few numbers a user types. Here the
//! common case is Clinger's exact fast path (at most 15 significant digits and a power of ten up
//! to 10²², both exact in an `f64`, so one correctly rounded multiplication or division), and
//! anything else is computed exactly with a small big integer. `tests/decimal.rs` checks it against
//! the standard parser, exact halfway points included.

use crate::big::Big;
use std::cmp::Ordering;

/// Significant digits kept: any halfway point between two `f64`s has at most 767, so 800 with a
/// note of whether a nonzero digit was dropped decide every rounding.
const KEEP: usize = 800;

/// 10⁰ … 10²², every one exact in an `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `text` as an `f64`, or `None` where `str::parse::<f64>` refuses it.
pub fn parse_f64(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let (negative, rest) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let v = magnitude(rest)?;
    Some(if negative { -v } else { v })
}

fn magnitude(b: &[u8]) -> Option<f64> {
    if b.eq_ignore_ascii_case(b"inf") || b.eq_ignore_ascii_case(b"infinity") {
        return Some(f64::INFINITY);
    }
    if b.eq_ignore_ascii_case(b"nan") {
        return Some(f64::NAN);
    }
    // value = digits × 10^exp10 (digits without leading zeros).
    let mut digits: Vec<u8> = Vec::new();
    let mut exp10: i64 = 0;
    let mut dropped = false;
    let (mut i, mut seen, mut fraction) = (0, false, false);
    while let Some(&c) = b.get(i) {
        if c.is_ascii_digit() {
            seen = true;
            let d = c - b'0';
            if fraction {
                exp10 -= 1;
            }
            if digits.len() < KEEP {
                if d != 0 || !digits.is_empty() {
                    digits.push(d);
                }
            } else {
                dropped |= d != 0;
                exp10 += 1;
            }
        } else if c == b'.' && !fraction {
            fraction = true;
        } else {
            break;
        }
        i += 1;
    }
    if !seen {
        return None;
    }
    if i < b.len() {
        if !matches!(b[i], b'e' | b'E') {
            return None;
        }
        i += 1;
        let negative = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp = b.get(i..).filter(|e| !e.is_empty())?;
        let mut e: i64 = 0;
        for &c in exp {
            if !c.is_ascii_digit() {
                return None;
            }
            // (Saturated: any exponent this large already means 0 or infinity.)
            e = (e * 10 + i64::from(c - b'0')).min(1_000_000_000);
        }
        exp10 += if negative { -e } else { e };
    }
    while digits.last() == Some(&0) {
        digits.pop();
        exp10 += 1;
    }
    let n = digits.len() as i64;
    if n == 0 {
        return Some(0.0);
    }
    // value < 10^(n + exp10): below 10⁻³²⁵ it rounds to 0; from 10³¹⁰ it is infinite.
    if n + exp10 < -324 {
        return Some(0.0);
    }
    if n + exp10 > 310 {
        return Some(f64::INFINITY);
    }
    if n <= 15 && exp10.abs() <= 22 && !dropped {
        let d = digits.iter().fold(0u64, |a, &d| a * 10 + u64::from(d)) as f64;
        let p = POW10[exp10.unsigned_abs() as usize];
        return Some(if exp10 < 0 { d / p } else { d * p });
    }
    let mut x = Big(vec![]);
    digits.iter().for_each(|&d| x.mul_add(10, u32::from(d)));
    if exp10 >= 0 {
        (0..exp10).for_each(|_| x.mul_add(10, 0));
        return Some(round(&x, 0, dropped));
    }
    // x / 10^k: a quotient of 66 or 67 bits, and whether a remainder is left.
    let mut p = Big(vec![1]);
    (0..-exp10).for_each(|_| p.mul_add(10, 0));
    let s = 66 + p.bits() as i64 - x.bits() as i64;
    let (mut a, b) = if s >= 0 {
        (x.shl(s as usize), p)
    } else {
        (x, p.shl((-s) as usize))
    };
    let mut q = Big(vec![]);
    for k in (0..=a.bits().saturating_sub(b.bits())).rev() {
        let bk = b.shl(k);
        if a.cmp(&bk) != Ordering::Less {
            a.sub(&bk);
            q.set_bit(k);
        }
    }
    Some(round(&q, -s, dropped || !a.is_zero()))
}

/// The `f64` nearest to x × 2^t (ties to even); `sticky`: the value is a little more than that.
fn round(x: &Big, t: i64, sticky: bool) -> f64 {
    let e = x.bits() as i64 - 1 + t;
    if e > 1023 {
        return f64::INFINITY;
    }
    // The exponent of the result's last bit: 52 below its leading bit, or that of subnormals.
    let mut u = (e - 52).max(-1074);
    let mut m = if u >= t {
        let sh = (u - t) as usize;
        let m = x.bits_from(sh);
        let half = sh > 0 && x.bit(sh - 1);
        let rest = sticky || (sh > 1 && x.any_below(sh - 1));
        m + u64::from(half && (rest || m & 1 == 1))
    } else {
        x.bits_from(0) << (t - u)
    };
    if m == 1 << 53 {
        m >>= 1;
        u += 1;
    }
    if u + 52 > 1023 {
        return f64::INFINITY;
    }
    // m < 2⁵³ and the product is representable, so both conversions are exact.
    let p2 = if u >= -1022 {
        f64::from_bits(((u + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (u + 1074))
    };
    m as f64 * p2
}
