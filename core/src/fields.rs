//! One validator per field of the scenario. The URL decoder, the page's inputs and a log's
//! adoption all use these, so a value is refused with the same message, naming the field and the
//! accepted range, wherever it comes from.

use crate::error::{check_range, KvError, Result};
use crate::i18n::tr;
use crate::model::MAX_DIM;
use crate::tf;
use crate::units::{thousands, Bytes};

/// The longest `max_model_len` (and prompt or trace) the page accepts: 10 × 2²⁰ tokens.
pub const MAX_CTX: u64 = 10 * 1024 * 1024;
/// The shortest `max_model_len` the page accepts.
pub const MIN_CTX: u64 = 16;
/// The largest tensor-parallel size the page accepts.
pub const MAX_TP: u64 = 64;
/// The largest pipeline-parallel size the page accepts.
pub const MAX_PP: u64 = 64;

/// Reads a whole number, allowing `8,192`, `8_192`, `8 192`, and `32k` / `32K` for 32 × 1,024
/// (how contexts are spoken of: a 32K context is 32,768 tokens).
pub fn whole(field: &'static str, s: &str, lo: u64, hi: u64, range: &'static str) -> Result<u64> {
    // A separator groups thousands: `1,5` is not 15, nor `,1024` 1024.
    let grouped: String = s.trim().replace(['_', ' '], ",");
    if !thousands_commas(grouped.strip_suffix(['k', 'K']).unwrap_or(&grouped)) {
        return Err(KvError::Invalid {
            field,
            message: tf!(ERR_WHOLE_GROUPS, crate::error::quoted(s, 24), tr(range)),
        });
    }
    let t: String = s
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    if let Some(k) = t.strip_suffix(['k', 'K']).filter(|k| !k.is_empty()) {
        let v: u64 = k.parse().map_err(|_| KvError::Invalid {
            field,
            message: tf!(ERR_NOT, crate::error::quoted(s, 24), tr(range)),
        })?;
        let v = v.checked_mul(1024).ok_or(KvError::OutOfRange {
            field,
            range,
            got: s.trim().into(),
        })?;
        return check_range(field, v, lo, hi, range);
    }
    if t.is_empty() {
        return Err(KvError::Invalid {
            field,
            message: tf!(ERR_EMPTY_ENTER, tr(range)),
        });
    }
    let v: u64 = t.parse().map_err(|_| KvError::Invalid {
        field,
        message: tf!(ERR_NOT, crate::error::quoted(s, 24), tr(range)),
    })?;
    check_range(field, v, lo, hi, range)
}

/// Reads a finite decimal number (`,` as a thousands separator).
pub fn decimal(field: &'static str, s: &str) -> Result<f64> {
    decimal_with_unit(field, s, "")
}

/// Whether the commas in `t` separate thousands (`1,234.5`), not a fraction (`1,5`, `0,95`,
/// `1.234,5`): each after one to three digits, then groups of three, none after the point.
fn thousands_commas(t: &str) -> bool {
    if !t.contains(',') {
        return true;
    }
    let int = t.split(['.', 'e', 'E']).next().unwrap_or("");
    let mut groups = int.trim_start_matches(['-', '+']).split(',');
    let first = groups.next().unwrap_or("");
    !t[int.len()..].contains(',') && (1..=3).contains(&first.len()) && groups.all(|g| g.len() == 3)
}

/// Reads a finite decimal number, allowing `unit` after it (`1 GiB` in a GiB field).
fn decimal_with_unit(field: &'static str, s: &str, unit: &str) -> Result<f64> {
    let t = s.trim();
    let t = match t.get(t.len().saturating_sub(unit.len())..) {
        Some(end) if !unit.is_empty() && end.eq_ignore_ascii_case(unit) => {
            t[..t.len() - unit.len()].trim_end()
        }
        _ => t,
    };
    if !thousands_commas(t) {
        return Err(KvError::Invalid {
            field,
            message: tf!(ERR_DECIMAL_COMMA, crate::error::quoted(s, 24)),
        });
    }
    let t = t.replace(',', "");
    if t.is_empty() {
        return Err(KvError::Invalid {
            field,
            message: crate::t!(ERR_EMPTY_NUMBER).into(),
        });
    }
    // `str::parse` also reads `inf`, `NaN` and `1e400` (infinite): refused just below.
    let v: f64 = t.parse().map_err(|_| KvError::Invalid {
        field,
        message: tf!(ERR_NOT_NUMBER, crate::error::quoted(s, 24)),
    })?;
    if !v.is_finite() {
        return Err(KvError::Invalid {
            field,
            message: tf!(ERR_NOT_FINITE, crate::error::quoted(s, 24)),
        });
    }
    Ok(v)
}

/// `gpu_memory_utilization`: a number in (0, 1].
pub fn parse_util(s: &str) -> Result<f64> {
    let v = decimal("gpu_memory_utilization", s)?;
    if v <= 0.0 || v > 1.0 {
        return Err(KvError::OutOfRange {
            field: "gpu_memory_utilization",
            range: "greater than 0 and at most 1",
            got: s.trim().into(),
        });
    }
    Ok(v)
}

/// `max_model_len`: 16 … 10,485,760 tokens.
pub fn parse_ctx(s: &str) -> Result<u64> {
    whole(
        "max_model_len",
        s,
        MIN_CTX,
        MAX_CTX,
        "a whole number of tokens from 16 to 10,485,760",
    )
}
/// `max_num_seqs`: 1 … 65,536.
pub fn parse_seqs(s: &str) -> Result<u64> {
    whole(
        "max_num_seqs",
        s,
        1,
        65_536,
        "a whole number from 1 to 65,536",
    )
}
/// Tensor-parallel size: 1 … 64.
pub fn parse_tp(s: &str) -> Result<u64> {
    whole(
        "tensor-parallel size",
        s,
        1,
        MAX_TP,
        "a whole number from 1 to 64",
    )
}
/// Decode-context-parallel size: 1 … 64, as the knob keeps it ([`dcp_knob`]).
pub fn parse_dcp(s: &str) -> Result<u64> {
    whole(
        "decode-context-parallel size",
        s,
        1,
        MAX_TP,
        "a whole number from 1 to 64",
    )
    .map(dcp_knob)
}
/// A decode-context-parallel size as the knob keeps it: 1 (none) as 0, the knob's default, so one
/// value means none and a link reads back the same.
pub fn dcp_knob(d: u64) -> u64 {
    if d > 1 {
        d
    } else {
        0
    }
}
/// Pipeline-parallel size: 1 … 64.
pub fn parse_pp(s: &str) -> Result<u64> {
    whole(
        "pipeline-parallel size",
        s,
        1,
        MAX_PP,
        "a whole number from 1 to 64",
    )
}
/// Prompt tokens: 0 … 10,485,760.
pub fn parse_prompt(s: &str) -> Result<u64> {
    whole(
        "prompt tokens",
        s,
        0,
        MAX_CTX,
        "a whole number of tokens from 0 to 10,485,760",
    )
}
/// Reasoning-trace tokens: 0 … 10,485,760.
pub fn parse_trace(s: &str) -> Result<u64> {
    whole(
        "reasoning-trace tokens",
        s,
        0,
        MAX_CTX,
        "a whole number of tokens from 0 to 10,485,760",
    )
}
/// Layers, heads, KV heads, head_dim, an MLA latent: 1 … 1,048,576.
pub fn parse_dim(field: &'static str, s: &str) -> Result<u64> {
    whole(field, s, 1, MAX_DIM, "a whole number from 1 to 1,048,576")
}
/// A size of the overhead estimate (vocabulary, hidden, MLP widths, experts): 0 … 2³².
pub fn parse_size(field: &'static str, s: &str) -> Result<u64> {
    whole(field, s, 0, 1 << 32, "a whole number from 0 to 2^32")
}
/// A model's default `max_model_len` (0: unknown).
pub fn parse_max_pos(s: &str) -> Result<u64> {
    whole(
        "max_pos",
        s,
        0,
        1 << 40,
        "a whole number of tokens from 0 to 2^40",
    )
}
/// A sliding window in tokens.
pub fn parse_window(s: &str) -> Result<u64> {
    whole(
        "window",
        s,
        1,
        1 << 40,
        "a whole number of tokens from 1 to 2^40",
    )
}
/// How many of `layers` slide.
pub fn parse_sliding_layers(s: &str, layers: u64) -> Result<u64> {
    whole(
        "sliding_layers",
        s,
        0,
        layers,
        "a whole number up to the layer count",
    )
}
/// KV memory taken as given, in bytes: 1 … 2⁵⁰.
pub fn parse_kv_bytes(s: &str) -> Result<Bytes> {
    whole(
        "kv_bytes",
        s,
        1,
        1 << 50,
        "a whole number of bytes from 1 to 2^50",
    )
    .map(Bytes)
}
/// A yes/no flag: `1`/`true` or `0`/`false`.
pub fn parse_flag(field: &'static str, s: &str) -> Result<bool> {
    match s.trim() {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(KvError::Invalid {
            field,
            message: crate::t!(ERR_FLAG).into(),
        }),
    }
}

/// The URL's `mm`: 0 or 1 (a multimodal model), or its vision encoder's head count.
pub fn parse_mm(v: &str) -> Result<(bool, u64)> {
    match parse_flag("mm", v) {
        Ok(b) => Ok((b, 0)),
        Err(e) => Ok((true, parse_size("mm", v).map_err(|_| e)?)),
    }
}

/// A decimal number within `lo ..= hi`.
fn decimal_in(field: &'static str, s: &str, lo: f64, hi: f64, range: &'static str) -> Result<f64> {
    let v = decimal(field, s)?;
    if !(lo..=hi).contains(&v) {
        return Err(KvError::OutOfRange {
            field,
            range,
            got: s.trim().into(),
        });
    }
    Ok(v)
}

/// A figure in `unit` bytes (2³⁰ for GiB, 10⁹ for GB) within `lo ..= hi`, as whole bytes
/// ⌊g × unit⌋; the unit may be typed after the number (`1 GiB`, `16GB`).
fn bytes_in(
    field: &'static str,
    s: &str,
    (lo, hi): (f64, f64),
    unit: fn(f64) -> Option<Bytes>,
    range: &'static str,
) -> Result<Bytes> {
    let name = if range.contains("GiB") { "GiB" } else { "GB" };
    let v = decimal_with_unit(field, s, name)?;
    if !(lo..=hi).contains(&v) {
        return Err(KvError::OutOfRange {
            field,
            range,
            got: s.trim().into(),
        });
    }
    unit(v).ok_or(KvError::OutOfRange {
        field,
        range,
        got: s.trim().into(),
    })
}

/// A GiB figure within `0 ..= max_gib`, as bytes ⌊g × 2³⁰⌋ (`range` says so in words).
pub fn parse_gib(field: &'static str, s: &str, max_gib: f64, range: &'static str) -> Result<Bytes> {
    bytes_in(field, s, (0.0, max_gib), Bytes::from_gib_f64, range)
}

/// Overhead: 0 … 1,024 GiB.
pub fn parse_overhead(s: &str) -> Result<Bytes> {
    bytes_in(
        "overhead",
        s,
        (0.0, 1024.0),
        Bytes::from_gib_f64,
        "a number of GiB from 0 to 1,024",
    )
}
/// Weights: 0 … 4,096 GiB.
pub fn parse_weights_gib(s: &str) -> Result<Bytes> {
    bytes_in(
        "weights",
        s,
        (0.0, 4096.0),
        Bytes::from_gib_f64,
        RANGE_GIB_4096,
    )
}
/// The range of a weights figure in GiB.
pub const RANGE_GIB_4096: &str = "a number of GiB from 0 to 4,096";
/// Weights in decimal GB: 0 … 4,398 GB (the same ceiling as 4,096 GiB).
pub fn parse_weights_gb(s: &str) -> Result<Bytes> {
    bytes_in(
        "weights",
        s,
        (0.0, 4398.0),
        Bytes::from_gb_f64,
        "a number of GB from 0 to 4,398",
    )
}
/// GPU memory as vLLM sees it: 1 … 4,096 GiB.
pub fn parse_gpu_gib(s: &str) -> Result<Bytes> {
    const RANGE: &str = "a number of GiB from 1 to 4,096 (or of MiB, with the unit)";
    // A figure in MiB, as nvidia-smi prints it ("24564 MiB"): 2²⁰ B each, exactly.
    let t = s.trim();
    if t.get(t.len().saturating_sub(3)..)
        .is_some_and(|u| u.eq_ignore_ascii_case("MiB"))
    {
        let mib = decimal_with_unit("GPU memory", t, "MiB")?;
        if !(1024.0..=4096.0 * 1024.0).contains(&mib) {
            return Err(KvError::OutOfRange {
                field: "GPU memory",
                range: RANGE,
                got: t.into(),
            });
        }
        return Ok(Bytes((mib * (1u64 << 20) as f64) as u64));
    }
    bytes_in("GPU memory", s, (1.0, 4096.0), Bytes::from_gib_f64, RANGE)
}
/// Bandwidth: 1 … 100,000 GB/s.
pub fn parse_bw(s: &str) -> Result<f64> {
    decimal_in(
        "bandwidth",
        s,
        1.0,
        100_000.0,
        "a number of GB/s from 1 to 100,000",
    )
}
/// Peak dense 16-bit TFLOPS of a custom GPU: 0 (unknown) … 100,000.
pub fn parse_tflops(s: &str) -> Result<f64> {
    decimal_in(
        "TFLOPS",
        s,
        0.0,
        100_000.0,
        "a number of TFLOPS from 0 (unknown) to 100,000",
    )
}
/// A model name for a custom model: 1 to 120 characters of any text (a longer one is refused,
/// not shortened, so nothing typed is silently lost).
pub fn parse_name(s: &str) -> Result<String> {
    let t = s.trim();
    let n = t.chars().count();
    if n == 0 || n > 120 {
        return Err(KvError::Invalid {
            field: "name",
            message: if n == 0 {
                crate::t!(ERR_NO_NAME).into()
            } else {
                tf!(ERR_LONG_NAME, thousands(n as u64))
            },
        });
    }
    // A leading `-` would make `vllm serve <name>` read it as an option; control characters, the
    // line and paragraph separators (U+2028/9) and the text-direction marks (U+061C, U+200E/F,
    // U+202A–E, U+2066–9) would make the name, the command and the URL read otherwise than they
    // hold.
    let hidden = |c: char| {
        c.is_control()
            || matches!(
                c,
                '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
            )
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if t.starts_with('-') || t.chars().any(hidden) {
        return Err(KvError::Invalid {
            field: "name",
            message: crate::t!(ERR_NAME_CHARS).into(),
        });
    }
    Ok(t.into())
}

/// SGLang's `--mem-fraction-static`: a number in (0, 1].
pub fn parse_mfs(s: &str) -> Result<f64> {
    let v = decimal("mem_fraction_static", s)?;
    if v <= 0.0 || v > 1.0 {
        return Err(KvError::OutOfRange {
            field: "mem_fraction_static",
            range: "greater than 0 and at most 1",
            got: s.trim().into(),
        });
    }
    Ok(v)
}

/// SGLang's `--page-size`: 1 … 4,096 tokens.
pub fn parse_page_size(s: &str) -> Result<u64> {
    whole(
        "page_size",
        s,
        1,
        4096,
        "a whole number of tokens from 1 to 4,096",
    )
}

/// SGLang's `--chunked-prefill-size`: −1 (no chunking) or 1 … 1,048,576 tokens.
pub fn parse_chunked_prefill(s: &str) -> Result<i64> {
    if s.trim() == "-1" {
        return Ok(-1);
    }
    whole(
        "chunked_prefill_size",
        s,
        1,
        1 << 20,
        "-1 or a whole number of tokens from 1 to 1,048,576",
    )
    .map(|n| n as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_accept_separators() {
        assert_eq!(parse_ctx("32,768").unwrap(), 32_768);
        assert_eq!(parse_ctx(" 8_192 ").unwrap(), 8192);
        assert!(parse_ctx("9223372036854775808").is_err());
        assert!(parse_ctx("")
            .unwrap_err()
            .to_string()
            .contains("max_model_len: empty; enter a whole number"));
        assert!(parse_util("1.5")
            .unwrap_err()
            .to_string()
            .contains("at most 1"));
        assert!(parse_util("inf").is_err());
    }

    #[test]
    fn a_separator_in_a_whole_number_groups_thousands_or_is_refused() {
        // "1,5" in the TP field was read as 15, ",1024" as 1024 and "8,1,9,2" as 8192.
        for bad in [
            "1,5", "8,1,9,2", ",1024", "1024,", "1,,000", "1_5", "32,76k",
        ] {
            let e = parse_ctx(bad).unwrap_err().to_string();
            assert!(e.contains("groups of three digits"), "{bad}: {e}");
            assert!(e.contains("from 16 to 10,485,760"), "{bad}: {e}");
        }
        for (good, v) in [
            ("8,192", 8192),
            ("1,048,576", 1_048_576),
            ("8 192", 8192),
            ("32k", 32_768),
            ("1_024k", 1_048_576),
        ] {
            assert_eq!(parse_ctx(good).unwrap(), v, "{good}");
        }
    }

    #[test]
    fn a_comma_in_a_decimal_separates_thousands_or_is_refused() {
        // "1,5" is not 15 (nor 1.5, as written in much of Europe): refused, saying why.
        for bad in ["1,5", "0,95", "2,25", "1.234,5", ",5", "1,2345", "1,5 GiB"] {
            let e = decimal_with_unit("overhead", bad, "GiB")
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("a comma only separates thousands here"),
                "{bad}: {e}"
            );
        }
        assert!(parse_util("0,95")
            .unwrap_err()
            .to_string()
            .starts_with("gpu_memory_utilization: \"0,95\": a comma only separates thousands"));
        // Thousands are still read: 1,234.5 and 1,234,567 with or without the unit.
        assert_eq!(decimal("x", "1,234.5").unwrap(), 1234.5);
        assert_eq!(decimal("x", "-1,234,567").unwrap(), -1_234_567.0);
        assert_eq!(decimal_with_unit("x", "1,024 GiB", "GiB").unwrap(), 1024.0);
        assert_eq!(decimal("x", "0.95").unwrap(), 0.95);
    }

    #[test]
    fn a_decimal_field_reads_what_str_parse_reads_and_only_finite_numbers() {
        // A sign, a bare point on either side and an exponent are read: 1e5 = 100,000.
        for (good, v) in [
            ("1e5", 100_000.0),
            ("2.5E-1", 0.25),
            ("+1", 1.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("-0.75", -0.75),
            (" 0.9 ", 0.9),
        ] {
            assert_eq!(decimal("x", good).unwrap(), v, "{good}");
        }
        // Infinities and NaN parse, but are no figure: refused as not finite (1e400 > f64::MAX).
        for bad in ["inf", "-Infinity", "NaN", "nan", "1e400"] {
            let e = decimal("x", bad).unwrap_err().to_string();
            assert!(e.contains("is not a finite number"), "{bad}: {e}");
        }
        // What is no decimal number at all.
        for bad in ["0x10", "1_000", "1e", "e5", ".", "1.2.3", "--1", "½", "1 5"] {
            let e = decimal("x", bad).unwrap_err().to_string();
            assert!(e.contains("is not a number"), "{bad}: {e}");
        }
        assert!(decimal("x", "").is_err());
    }

    #[test]
    fn contexts_in_k_and_sizes_with_their_unit() {
        // "32k" and "32K" are 32 × 1,024 = 32,768 tokens; "1 GiB" is 2³⁰ bytes.
        assert_eq!(parse_ctx("32k").unwrap(), 32_768);
        assert_eq!(parse_ctx("32K").unwrap(), 32_768);
        assert!(parse_ctx("k").is_err());
        assert!(parse_ctx("99999999999999999999k").is_err());
        assert_eq!(parse_overhead("1 GiB").unwrap(), Bytes(1 << 30));
        assert_eq!(parse_overhead("1.5gib").unwrap(), Bytes(3 << 29));
        assert_eq!(parse_weights_gb("16 GB").unwrap(), Bytes(16_000_000_000));
        // A GB figure in a GiB field is refused, not misread.
        assert!(parse_overhead("1 GB").is_err());
    }

    #[test]
    fn weights_in_gb_and_gib() {
        // 16 GB = 16 × 10⁹ B; 16 GiB = 16 × 2³⁰ = 17,179,869,184 B.
        assert_eq!(parse_weights_gb("16").unwrap(), Bytes(16_000_000_000));
        assert_eq!(parse_weights_gib("16").unwrap(), Bytes(17_179_869_184));
        let e = parse_weights_gb("5000").unwrap_err().to_string();
        assert!(e.contains("weights") && e.contains("4,398"), "{e}");
        assert!(parse_weights_gb("NaN").is_err());
    }
}
