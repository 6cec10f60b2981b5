//! The one error type of the core. Its `Display` is the message a user reads next to the field.

use thiserror::Error;

/// Why an input or a computation was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum KvError {
    /// A number outside the range the field accepts.
    #[error("{field} must be {range} (got {got})")]
    OutOfRange {
        /// The field's name as the user sees it.
        field: &'static str,
        /// The accepted range, in words.
        range: &'static str,
        /// What was given.
        got: String,
    },
    /// Text that is not a number or not one of the accepted words.
    #[error("{field}: {message}")]
    Invalid {
        /// The field's name as the user sees it.
        field: &'static str,
        /// What is wrong and what is accepted.
        message: String,
    },
    /// A model kind whose KV cache this arithmetic does not describe.
    #[error("{0}")]
    Unsupported(String),
    /// A product of user numbers that does not fit in 64 bits.
    #[error("{0} is too large to compute exactly (over 2^64 bytes)")]
    Overflow(&'static str),
}

/// `Result` with [`KvError`].
pub type Result<T> = std::result::Result<T, KvError>;

/// Checks `lo ≤ v ≤ hi` for an integer field.
pub fn check_range(
    field: &'static str,
    v: u64,
    lo: u64,
    hi: u64,
    range: &'static str,
) -> Result<u64> {
    if v < lo || v > hi {
        Err(KvError::OutOfRange {
            field,
            range,
            got: v.to_string(),
        })
    } else {
        Ok(v)
    }
}

/// At most `n` characters of `s`, for quoting user text in a message.
pub fn truncate(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    out
}
