//! Floats as the page and the reports write them, by the standard formatter: [`fixed`] is `{:.N}`
//! and [`display`] is `{}`. Named, not `format!` at each call site, so that a figure says which of
//! the two forms it takes (a float given to a text template does not compile: `i18n::Arg`).
//! Python's `repr`, which the course lab's twin prints (`1.0`, `1e+20`), is
//! [`crate::units::py_float_repr`], built on the same formatter.

/// `format!("{x:.decimals$}")`: the exact binary value rounded to `decimals` places, exact ties to
/// even (`1.125` → `1.12`, `0.375` → `0.38`), as Python's `"%.2f" % x` rounds it.
pub fn fixed(x: f64, decimals: usize) -> String {
    format!("{x:.decimals$}")
}

/// `format!("{x}")`: the shortest digits that read back as x, never in scientific notation
/// (`0.9`, `1`, `0.30000000000000004`).
pub fn display(x: f64) -> String {
    x.to_string()
}
