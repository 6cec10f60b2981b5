//! A non-negative big integer, just what exact decimal ↔ binary conversion needs
//! (`decimal` reads decimal text, `floatfmt` writes it).

use std::cmp::Ordering;

/// A non-negative big integer, 32-bit limbs, least significant first.
pub(crate) struct Big(pub(crate) Vec<u32>);

impl Big {
    pub(crate) fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    pub(crate) fn bits(&self) -> usize {
        self.0
            .iter()
            .rposition(|&l| l != 0)
            .map_or(0, |i| i * 32 + 32 - self.0[i].leading_zeros() as usize)
    }

    pub(crate) fn bit(&self, i: usize) -> bool {
        self.0.get(i / 32).is_some_and(|l| l >> (i % 32) & 1 == 1)
    }

    pub(crate) fn set_bit(&mut self, i: usize) {
        if self.0.len() <= i / 32 {
            self.0.resize(i / 32 + 1, 0);
        }
        self.0[i / 32] |= 1 << (i % 32);
    }

    /// Whether any of the bits below `i` is set.
    pub(crate) fn any_below(&self, i: usize) -> bool {
        (0..i).any(|k| self.bit(k))
    }

    /// The bits from `i` up (at most 64 of them are asked for).
    pub(crate) fn bits_from(&self, i: usize) -> u64 {
        (0..64).fold(0, |a, k| a | (u64::from(self.bit(i + k)) << k))
    }

    pub(crate) fn shl(&self, k: usize) -> Big {
        let mut out = Big(vec![0; k / 32]);
        let r = k % 32;
        let mut carry = 0u32;
        for &l in &self.0 {
            out.0.push(if r == 0 { l } else { (l << r) | carry });
            carry = if r == 0 { 0 } else { l >> (32 - r) };
        }
        out.0.push(carry);
        out
    }

    pub(crate) fn cmp(&self, other: &Big) -> Ordering {
        let n = self.0.len().max(other.0.len());
        for i in (0..n).rev() {
            let (a, b) = (
                self.0.get(i).copied().unwrap_or(0),
                other.0.get(i).copied().unwrap_or(0),
            );
            if a != b {
                return a.cmp(&b);
            }
        }
        Ordering::Equal
    }

    /// self − other, for other ≤ self.
    pub(crate) fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let v = i64::from(self.0[i]) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            self.0[i] = v.rem_euclid(1 << 32) as u32;
            borrow = i64::from(v < 0);
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Divides by `d` (nonzero), returning the remainder.
    pub(crate) fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let v = (rem << 32) | u64::from(*limb);
            *limb = (v / u64::from(d)) as u32;
            rem = v % u64::from(d);
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        rem as u32
    }

    /// The decimal digits (values 0–9, most significant first; none for zero).
    pub(crate) fn decimal_digits(mut self) -> Vec<u8> {
        let mut chunks = Vec::new();
        while !self.is_zero() {
            chunks.push(self.div_small(1_000_000_000));
        }
        let mut out = Vec::with_capacity(chunks.len() * 9);
        for (i, c) in chunks.iter().rev().enumerate() {
            let mut nine = [0u8; 9];
            let mut c = *c;
            for d in nine.iter_mut().rev() {
                *d = (c % 10) as u8;
                c /= 10;
            }
            // The leading chunk without its leading zeros.
            let skip = if i == 0 {
                nine.iter().take_while(|&&d| d == 0).count()
            } else {
                0
            };
            out.extend_from_slice(&nine[skip..]);
        }
        out
    }
}
