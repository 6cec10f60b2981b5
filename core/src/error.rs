//! The one error type of the core. Its `Display` is the message a user reads next to the field,
//! in the page's language: field names and ranges are kept in English and shown through
//! `i18n::tr`; messages are written in the language current when the error is made.

use crate::i18n::tr;
use crate::tf;

/// Why an input or a computation was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum KvError {
    /// A number outside the range the field accepts.
    OutOfRange {
        /// The field's name as the user sees it.
        field: &'static str,
        /// The accepted range, in words.
        range: &'static str,
        /// What was given.
        got: String,
    },
    /// Text that is not a number or not one of the accepted words.
    Invalid {
        /// The field's name as the user sees it.
        field: &'static str,
        /// What is wrong and what is accepted.
        message: String,
    },
    /// A model kind whose KV cache this arithmetic does not describe.
    Unsupported(String),
    /// A product of user numbers that does not fit in 64 bits.
    Overflow(&'static str),
}

impl std::fmt::Display for KvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&match self {
            KvError::OutOfRange { field, range, got } => {
                tf!(ERR_OUT_OF_RANGE, tr(field), tr(range), got)
            }
            KvError::Invalid { field, message } => tf!(ERR_INVALID, tr(field), message),
            KvError::Unsupported(m) => m.clone(),
            KvError::Overflow(what) => tf!(ERR_OVERFLOW, tr(what)),
        })
    }
}

impl std::error::Error for KvError {}

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

/// At most `n` characters of `s` in double quotes, for quoting user text in a message: `"`, `\`
/// and control characters escaped as in Rust (a line break shows as `\n`).
pub fn quoted(s: &str, n: usize) -> String {
    let mut out = String::from("\"");
    for c in truncate(s, n).chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// At most `n` characters of `s`, for quoting user text in a message.
pub fn truncate(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    out
}

/// A template's argument, as it displays (the texts name it in either language).
impl crate::i18n::Arg for KvError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_escapes_like_rust_debug_for_the_characters_people_type() {
        for s in [
            "x1",
            "a\"b",
            "back\\slash",
            "two\nlines",
            "tab\there",
            "bell\u{7}",
            "汉字",
        ] {
            assert_eq!(quoted(s, 40), format!("{s:?}"), "{s}");
        }
        assert_eq!(quoted("abcdef", 3), "\"abc…\"");
    }
}
