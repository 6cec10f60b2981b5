//! How the URL writes numbers: integers without `.0`, other figures in Python's shortest form,
//! byte counts as the shortest GiB figure that reads back to the same bytes (and a custom model's GiB
//! keys read back into it).

use crate::units::{py_float_repr, Bytes};

/// A number as the URL writes it: integers without `.0`, others in Python's shortest form.
pub(crate) fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        py_float_repr(x)
    }
}

/// A byte count as a GiB figure for the URL, exact enough to come back to the same bytes.
pub(super) fn gib(b: Bytes) -> String {
    // Shortest decimal that parses back to a float whose ⌊× 2³⁰⌋ is the same byte count.
    for digits in 0..=12 {
        let t = crate::floatfmt::fixed(b.as_gib(), digits);
        let x: f64 = t.parse().unwrap_or(f64::NAN);
        if Bytes::from_gib_f64(x) == Some(b) {
            return num(x);
        }
    }
    py_float_repr(b.as_gib())
}

/// A count for the URL, absent when 0.
pub(super) fn nonzero(v: u64) -> Option<String> {
    (v > 0).then(|| v.to_string())
}

/// A byte count for the URL in GiB ([`gib`]), absent when 0.
pub(super) fn nonzero_gib(b: Bytes) -> Option<String> {
    (b.0 > 0).then(|| gib(b))
}

/// A custom model's byte count in GiB (`routed_gib`, `encoder_gib`): 0 … 4,096 GiB, set by `set`.
pub(super) fn set_custom_gib(
    s: &mut crate::scenario::PageScenario,
    key: &'static str,
    v: &str,
    set: fn(&mut crate::model::Extras, Bytes),
) -> crate::error::Result<()> {
    let b = crate::fields::parse_gib(key, v, 4096.0, crate::fields::RANGE_GIB_4096)?;
    super::set_custom(s, |c| set(&mut c.extras, b));
    Ok(())
}
