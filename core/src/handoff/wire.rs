//! Records on the wire between the page and its worker: one record a line, its fields separated by
//! tabs, with `\`, tab and newline escaped inside a field. Plain text both ways, so neither side
//! needs a JSON library for it.

/// Writes one record (no trailing newline).
pub fn record<S: AsRef<str>>(fields: &[S]) -> String {
    let mut out = String::new();
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push('\t');
        }
        for c in f.as_ref().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                c => out.push(c),
            }
        }
    }
    out
}

/// Reads one record back into its fields.
pub fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        let last = out.last_mut().expect("never empty");
        match c {
            '\t' => out.push(String::new()),
            '\\' => match chars.next() {
                Some('t') => last.push('\t'),
                Some('n') => last.push('\n'),
                Some(other) => last.push(other),
                None => {}
            },
            c => last.push(c),
        }
    }
    out
}

/// A record's fields, read by position; a missing field reads as empty.
pub struct Fields(Vec<String>);

impl Fields {
    /// The fields of `line`.
    pub fn of(line: &str) -> Self {
        Fields(fields(line))
    }
    /// Field `i`, or "".
    pub fn text(&self, i: usize) -> String {
        self.0.get(i).cloned().unwrap_or_default()
    }
    /// Field `i` as a number, or `None` when empty or not a number.
    pub fn number(&self, i: usize) -> Option<u64> {
        self.0.get(i).and_then(|f| f.parse().ok())
    }
}

/// An optional number as a field: empty for `None`.
pub fn opt(n: Option<u64>) -> String {
    n.map(|n| n.to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_tabs_newlines_and_backslashes_read_back() {
        let f = ["a\tb", "line 1\nline 2", "C:\\x\\t", "", "plain"];
        let line = record(&f);
        assert!(!line.contains('\n'));
        // Five fields: four separating tabs, the field's own tab escaped.
        assert_eq!(line.matches('\t').count(), 4);
        assert_eq!(fields(&line), f);
    }

    #[test]
    fn missing_fields_read_as_empty() {
        let r = Fields::of("x\t42");
        assert_eq!(r.text(0), "x");
        assert_eq!(r.number(1), Some(42));
        assert_eq!(r.text(5), "");
        assert_eq!(r.number(0), None);
        assert_eq!(opt(None), "");
    }
}
