//! Byte quantities and Python-compatible number formatting.
//!
//! vLLM prints its numbers with Python's formatting rules; these helpers reproduce them
//! character for character so that a predicted log line can be compared with a real one.

use crate::floatfmt::fixed;
use std::fmt;

/// 2³⁰ bytes.
pub const GIB: u64 = 1 << 30;
/// 2²⁰ bytes.
pub const MIB: u64 = 1 << 20;
/// 2¹⁰ bytes.
pub const KIB: u64 = 1 << 10;
/// 10⁹ bytes (marketed "GB").
pub const GB: u64 = 1_000_000_000;

/// A whole number of bytes. Binary units (KiB/MiB/GiB) and decimal ones (GB) are always named.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub u64);

impl Bytes {
    /// `n` bytes.
    pub const fn new(n: u64) -> Self {
        Bytes(n)
    }
    /// `n × 2³⁰` bytes (saturating).
    pub const fn gib(n: u64) -> Self {
        Bytes(n.saturating_mul(GIB))
    }
    /// The value in GiB as a float (for display and ratios only).
    pub fn as_gib(self) -> f64 {
        self.0 as f64 / GIB as f64
    }
    /// The value in MiB as a float.
    pub fn as_mib(self) -> f64 {
        self.0 as f64 / MIB as f64
    }
    /// The value in KiB as a float.
    pub fn as_kib(self) -> f64 {
        self.0 as f64 / KIB as f64
    }
    /// The value in decimal GB as a float.
    pub fn as_gb(self) -> f64 {
        self.0 as f64 / GB as f64
    }
    /// ⌊g × 2³⁰⌋ bytes for a GiB figure such as vLLM prints; `None` if `g` is not a finite,
    /// non-negative number below 2⁶⁴ bytes.
    pub fn from_gib_f64(g: f64) -> Option<Self> {
        let b = (g * GIB as f64).floor();
        if g.is_finite() && g >= 0.0 && b < u64::MAX as f64 {
            Some(Bytes(b as u64))
        } else {
            None
        }
    }
    /// ⌊g × 10⁹⌋ bytes for a marketed GB figure; `None` when not finite and non-negative.
    pub fn from_gb_f64(g: f64) -> Option<Self> {
        let b = (g * GB as f64).floor();
        if g.is_finite() && g >= 0.0 && b < u64::MAX as f64 {
            Some(Bytes(b as u64))
        } else {
            None
        }
    }
}

impl fmt::Display for Bytes {
    /// Human form in binary units, e.g. `144 KiB`, `4.50 GiB`, `11,250.00 GiB`, with the byte count
    /// kept exact below 1 KiB. (vLLM's own lines print GiB as `%.2f`, without separators:
    /// `vllm::printed::gib_text`.)
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        if n >= GIB {
            f.write_str(&gib_figure(*self))
        } else if n >= MIB {
            write!(f, "{} MiB", fixed(self.as_mib(), 1))
        } else if n >= KIB {
            if n % KIB == 0 {
                write!(f, "{} KiB", thousands(n / KIB))
            } else {
                write!(f, "{} KiB", fixed(self.as_kib(), 1))
            }
        } else {
            write!(f, "{n} B")
        }
    }
}

/// `b` in GiB with two decimals and separators: `0.50 GiB`, `11,250.00 GiB`.
pub fn gib_figure(b: Bytes) -> String {
    format!("{} GiB", grouped(&fixed(b.as_gib(), 2)))
}

/// A decimal with separators in its whole part: `1580.6` → `1,580.6`, `3350` → `3,350` (what
/// is not a plain non-negative decimal is returned as it is).
pub fn grouped(decimal: &str) -> String {
    let (int, frac) = decimal.split_at(decimal.find('.').unwrap_or(decimal.len()));
    match int.parse() {
        Ok(n) => format!("{}{frac}", thousands(n)),
        Err(_) => decimal.into(),
    }
}

/// Python's `f"{n:,}"`: `42656` → `42,656`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Python's `"%.2f" % x`: the exact binary value rounded to two decimals, exact ties to even
/// (`1.125` → `1.12`, `2.625` → `2.62`, `0.375` → `0.38`). Rust's formatter does the same.
pub fn fixed2(x: f64) -> String {
    fixed(x, 2)
}

/// Python's `round(x, ndigits)` for floats: correctly rounded from the exact binary value.
pub fn py_round(x: f64, ndigits: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    fixed(x, ndigits).parse().unwrap_or(x)
}

/// Python's `repr(float)` (also what `json.dumps` and `str` print): the shortest string that
/// round-trips, with `.0` on integral values and scientific notation below 1e-4 or from 1e16.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    // Rust's `{:e}` and `{}` write the same shortest round-trip digits as Python's `repr`, but not
    // its layout: Python writes them positionally from 1e-4 up to 1e16 with `.0` on an integral
    // value (`{}`: `1`), and otherwise with a signed exponent of at least two digits (`{:e}`:
    // `1e20`, `1e-5`; Python: `1e+20`, `1e-05`).
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..16).contains(&exp) {
        let p = format!("{x}");
        if p.contains('.') {
            p
        } else {
            format!("{p}.0")
        }
    } else {
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{esign}{:02}", exp.abs())
    }
}

/// Python's float floor division `a // b` (CPython's `float_floor_div`), which is not always
/// `(a / b).floor()`: it divides `a - fmod(a, b)` and corrects the quotient.
pub fn py_floordiv(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        return f64::NAN;
    }
    let mut m = a % b;
    let mut div = (a - m) / b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m += b;
            div -= 1.0;
        }
    } else {
        m = 0.0_f64.copysign(b);
    }
    let _ = m;
    if div != 0.0 {
        let mut floordiv = div.floor();
        if div - floordiv > 0.5 {
            floordiv += 1.0;
        }
        floordiv
    } else {
        0.0_f64.copysign(a / b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_like_python() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(42656), "42,656");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn gib_figures_have_separators() {
        // 11,250 × 2³⁰ B is 11,250 GiB exactly; 1,440.5 GiB; 999 GiB has no separator.
        assert_eq!(Bytes(11_250 * GIB).to_string(), "11,250.00 GiB");
        assert_eq!(Bytes(1_440 * GIB + GIB / 2).to_string(), "1,440.50 GiB");
        assert_eq!(Bytes(999 * GIB).to_string(), "999.00 GiB");
        assert_eq!(grouped("1580.6"), "1,580.6");
        assert_eq!(grouped("3350"), "3,350");
        assert_eq!(grouped("12.5"), "12.5");
        assert_eq!(grouped("inf"), "inf");
    }

    #[test]
    fn fixed2_ties_to_even_like_percent_format() {
        // VLLM-ACCOUNTING §1: 2304 / 2048 = 1.125 prints 1.12x; 2.625 → 2.62; 0.375 → 0.38.
        assert_eq!(fixed2(2304.0 / 2048.0), "1.12");
        assert_eq!(fixed2(2.625), "2.62");
        assert_eq!(fixed2(0.375), "0.38");
        // 2.675 is stored as 2.67499999…, so Python prints 2.67 too.
        assert_eq!(fixed2(2.675), "2.67");
    }

    #[test]
    fn repr_like_python() {
        assert_eq!(py_float_repr(160.0), "160.0");
        assert_eq!(py_float_repr(163840.0), "163840.0");
        assert_eq!(py_float_repr(0.625), "0.625");
        assert_eq!(py_float_repr(4.4), "4.4");
        assert_eq!(py_float_repr(1e16), "1e+16");
        assert_eq!(py_float_repr(1.5e16), "1.5e+16");
        assert_eq!(py_float_repr(123456789012345.6), "123456789012345.6");
        assert_eq!(py_float_repr(0.0001), "0.0001");
        assert_eq!(py_float_repr(0.00001), "1e-05");
        assert_eq!(py_float_repr(-2.5), "-2.5");
    }

    #[test]
    fn round_like_python() {
        assert_eq!(py_round(0.125, 2), 0.12);
        assert_eq!(py_round(4.3999, 2), 4.4);
        assert_eq!(py_round(0.15625, 3), 0.156);
    }

    #[test]
    fn floordiv_like_python() {
        assert_eq!(py_floordiv(7.0, 2.0), 3.0);
        assert_eq!(py_floordiv(-7.0, 2.0), -4.0);
        // 5.9 GiB // (8192 × 163840 B) = 4 (the seed lab's answer)
        assert_eq!(py_floordiv(5.9 * GIB as f64, 8192.0 * 163840.0), 4.0);
        // Python: 1 // 0.1 == 9.0 (not 10.0, which (1/0.1).floor() gives)
        assert_eq!(py_floordiv(1.0, 0.1), 9.0);
    }

    #[test]
    fn bytes_display_names_units() {
        assert_eq!(Bytes(147_456).to_string(), "144 KiB");
        assert_eq!(Bytes(GIB * 9 / 2).to_string(), "4.50 GiB");
        assert_eq!(Bytes(512).to_string(), "512 B");
        // 6.51 × 1,073,741,824 = 6,990,059,274.24 → floor
        assert_eq!(Bytes::from_gib_f64(6.51), Some(Bytes(6_990_059_274)));
        assert_eq!(Bytes::from_gib_f64(f64::NAN), None);
        assert_eq!(Bytes::from_gib_f64(-1.0), None);
    }
}
