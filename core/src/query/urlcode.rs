//! `application/x-www-form-urlencoded`, as the URL standard defines it and as the
//! `form_urlencoded` crate writes and reads it (its tests below hold the two equal). Written here
//! because the crate's percent-encoding table and generic code cost the page's first load 657 B
//! gzip (measured in commit 8042309) for two short loops.

/// Appends `key=value` to a query, after a `&` unless it is the first: bytes other than ASCII
/// letters, digits and `*-._` as `%XX` (upper-case hex), a space as `+`.
pub fn append_pair(out: &mut String, k: &str, v: &str) {
    if !out.is_empty() {
        out.push('&');
    }
    encode_into(out, k);
    out.push('=');
    encode_into(out, v);
}

fn encode_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 15) as usize] as char);
            }
        }
    }
}

/// The pairs of a query (without `?`): split at `&` (empty parts skipped) and at each part's
/// first `=` (none: an empty value); `+` read as a space, `%XX` as its byte (a `%` not followed
/// by two hex digits kept as it is), and bytes that are not UTF-8 as U+FFFD.
pub fn parse(q: &str) -> impl Iterator<Item = (String, String)> + '_ {
    q.split('&').filter(|p| !p.is_empty()).map(|p| {
        let (k, v) = p.split_once('=').unwrap_or((p, ""));
        (decode(k), decode(v))
    })
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |j: usize| b.get(j).and_then(|&c| (c as char).to_digit(16));
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => match (hex(i + 1), hex(i + 2)) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts that exercise every rule: reserved and unreserved ASCII, spaces and pluses, `%`
    /// before good, bad and missing hex, multi-byte UTF-8, and bytes that decode to invalid UTF-8.
    fn samples() -> Vec<String> {
        let mut v: Vec<String> = [
            "",
            "a",
            "Qwen/Qwen3-8B",
            "a b+c",
            "100%",
            "%",
            "%4",
            "%41%4a%4A",
            "%zz%4g",
            "%E4%B8%AD%E6%96%87",
            "%FF%FE",
            "%C3",
            "==a=b",
            "&&x&",
            "k=v&k2=&=v3&k4",
            "中文 ü ☃ 🦀",
            "<script>alert(1)</script>",
            "*-._~!'()",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every ASCII byte alone and after a `%`, and a pseudo-random mix of them.
        for c in 0u8..128 {
            v.push((c as char).to_string());
            v.push(format!("%{}", c as char));
        }
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..500 {
            let mut s = String::new();
            for _ in 0..(x % 24) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(match x % 9 {
                    0 => '%',
                    1 => '&',
                    2 => '=',
                    3 => '+',
                    4 => '中',
                    5 => char::from(b"0123456789abcdefABCDEFxyz"[(x >> 8) as usize % 25]),
                    _ => char::from(32 + (x >> 16) as u8 % 95),
                });
            }
            v.push(s);
        }
        v
    }

    #[test]
    fn reads_queries_as_form_urlencoded_does() {
        for q in samples() {
            let ours: Vec<(String, String)> = parse(&q).collect();
            let theirs: Vec<(String, String)> = form_urlencoded::parse(q.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            assert_eq!(ours, theirs, "{q:?}");
        }
    }

    #[test]
    fn writes_pairs_as_form_urlencoded_does() {
        let s = samples();
        for w in s.windows(2) {
            let mut ours = String::new();
            append_pair(&mut ours, &w[0], &w[1]);
            append_pair(&mut ours, "k", &w[0]);
            let mut theirs = form_urlencoded::Serializer::new(String::new());
            theirs.append_pair(&w[0], &w[1]).append_pair("k", &w[0]);
            assert_eq!(ours, theirs.finish(), "{w:?}");
            // And what it writes reads back.
            let back: Vec<(String, String)> = parse(&ours).collect();
            assert_eq!(back[0], (w[0].clone(), w[1].clone()));
        }
    }
}
