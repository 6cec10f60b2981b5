//! A non-negative big integer, just what exact binary → decimal conversion needs (`floatfmt`).

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
