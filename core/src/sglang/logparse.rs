//! Reads the memory figures out of an SGLang startup log, any release from 0.3 to 0.5.23:
//! the free memory before and after loading, every KV pool allocation, the scheduler's summary,
//! the sliding-window and Mamba pools, the server arguments that size them, and the refusals.
//!
//! Hand-written matching on fixed markers (no regex engine); lines may carry SGLang's
//! `[2025-01-23 19:35:15 TP0]` prefix or none.

/// One `KV Cache is allocated.` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Allocation {
    /// `Full` / `SWA` (0.5.17+ sliding-window pools), when labelled.
    pub label: Option<String>,
    /// `dtype: torch.X` (0.5.13+).
    pub dtype: Option<String>,
    /// `#tokens: N` (0.4.5+).
    pub tokens: Option<u64>,
    /// `K size: X GB` as printed.
    pub k_size: Option<String>,
    /// `V size: Y GB` as printed.
    pub v_size: Option<String>,
    /// `KV size: X GB` as printed (MLA).
    pub kv_size: Option<String>,
    /// The line without the logger prefix.
    pub line: String,
}

/// Why SGLang refused to start, as its log says.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// `Not enough memory. Please try to increase --mem-fraction-static.` (with the fraction
    /// from 0.5.3 when printed).
    NotEnoughMemory {
        /// `Current value: …mem_fraction_static=M`.
        mem_fraction_static: Option<f64>,
    },
    /// `max_total_tokens=A is larger than the profiled value B` with `B ≤ 0` and no pool after
    /// it: up to 0.5.10 the next thing SGLang does is raise `Not enough memory`.
    EmptyProfile {
        /// The profiled value.
        profiled: i64,
    },
    /// 0.5.14+: `Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=M.`
    NoRest {
        /// The fraction in force.
        mem_fraction_static: Option<f64>,
        /// `Raise --mem-fraction-static above X`.
        suggested: Option<f64>,
    },
}

/// Everything kvbudget reads from an SGLang log. Fields are `None` when the log lacks them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedLog {
    /// `model_path='…'` from the server arguments.
    pub model: Option<String>,
    /// `mem_fraction_static=` from the server arguments.
    pub mem_fraction_static: Option<f64>,
    /// `tp_size=`.
    pub tp_size: Option<u64>,
    /// `pp_size=`.
    pub pp_size: Option<u64>,
    /// `dp_size=`.
    pub dp_size: Option<u64>,
    /// `kv_cache_dtype='…'`.
    pub kv_cache_dtype: Option<String>,
    /// `page_size=`.
    pub page_size: Option<u64>,
    /// `max_total_tokens=` from the server arguments (the cap).
    pub max_total_tokens_arg: Option<u64>,
    /// `Load weight begin. avail mem=` (GiB).
    pub pre_load_free_gib: Option<f64>,
    /// The first `Load weight end. … avail mem=` (GiB).
    pub post_load_free_gib: Option<f64>,
    /// `mem usage=` of that line (GiB).
    pub weights_gib: Option<f64>,
    /// `type=` of that line.
    pub architecture: Option<String>,
    /// Every KV pool allocation, in order (a draft's pool follows the target's).
    pub allocations: Vec<Allocation>,
    /// The first `Memory pool end. avail mem=` (GiB).
    pub pool_end_free_gib: Option<f64>,
    /// `max_total_num_tokens=` of the scheduler's summary.
    pub max_total_num_tokens: Option<u64>,
    /// `chunked_prefill_size=` of the summary (−1 when disabled).
    pub chunked_prefill_size: Option<i64>,
    /// `max_prefill_tokens=`.
    pub max_prefill_tokens: Option<u64>,
    /// `max_running_requests=`.
    pub max_running_requests: Option<u64>,
    /// `context_len=`.
    pub context_len: Option<u64>,
    /// `available_gpu_mem=` (GiB).
    pub available_gpu_mem_gib: Option<f64>,
    /// `full_layer_tokens=` / `swa_layer_tokens=` of a sliding-window pool.
    pub swa_split: Option<(u64, u64)>,
    /// `max_mamba_cache_size:` of a Mamba pool.
    pub mamba_slots: Option<u64>,
    /// `The profiled value B` of a `max_total_tokens=A is larger…` warning.
    pub profiled_value: Option<i64>,
    /// A refusal to start.
    pub refusal: Option<Refusal>,
}

impl ParsedLog {
    /// The free memory before loading: printed (`Load weight begin`), else the free memory
    /// after loading plus the `mem usage` of the same line.
    pub fn pre_load_free_gib_or_derived(&self) -> Option<f64> {
        self.pre_load_free_gib.or_else(|| {
            self.post_load_free_gib
                .zip(self.weights_gib)
                .map(|(a, w)| a + w)
        })
    }

    /// The first allocation's line when its `#tokens` is there but not a count (past 2⁶⁴ − 1, or
    /// with a decimal point), so the check can say so rather than that the log has no pool line.
    pub fn pool_line_not_a_count(&self) -> Option<&str> {
        let a = self.allocations.first()?;
        (a.tokens.is_none() && num_after(&a.line, "#tokens:").is_some()).then_some(a.line.as_str())
    }

    /// The pool's size in tokens: the summary's `max_total_num_tokens`, else the first
    /// allocation's `#tokens`.
    pub fn total_tokens(&self) -> Option<u64> {
        self.max_total_num_tokens
            .or_else(|| self.allocations.iter().find_map(|a| a.tokens))
    }
}

/// What the parser looks for, for the message when nothing is found.
pub const LOOKED_FOR: &str =
    "an SGLang pool line: 'max_total_num_tokens=N' or 'KV Cache is allocated. #tokens: N'";

/// Whether a log reads like SGLang's (its memory lines or its server arguments).
pub fn is_sglang(text: &str) -> bool {
    [
        "max_total_num_tokens=",
        "KV Cache is allocated",
        "Memory pool end. avail mem=",
        "Load weight end. ",
        "Please try to increase --mem-fraction-static",
        "Loaded weights leave no GPU memory",
        "server_args=ServerArgs(",
        "Mamba Cache is allocated",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// A number right after `marker`: digits, one dot, an optional leading minus.
fn num_after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let i = line.find(marker)?;
    let rest = line[i + marker.len()..].trim_start();
    let end = rest
        .char_indices()
        .find(|&(k, c)| !(c.is_ascii_digit() || c == '.' || (k == 0 && c == '-')))
        .map_or(rest.len(), |(k, _)| k);
    let n = rest[..end].trim_end_matches('.');
    (!n.is_empty() && n != "-").then_some(n)
}

fn u_after(line: &str, marker: &str) -> Option<u64> {
    num_after(line, marker)?.parse().ok()
}

fn i_after(line: &str, marker: &str) -> Option<i64> {
    num_after(line, marker)?.parse().ok()
}

fn f_after(line: &str, marker: &str) -> Option<f64> {
    num_after(line, marker)?.parse().ok()
}

/// The printed `%.2f` after `marker` (as text, to compare to the character).
fn size_after(line: &str, marker: &str) -> Option<String> {
    num_after(line, marker).map(str::to_string)
}

/// A word after `marker` up to one of `,)' ` (at most 200 characters).
fn word_after(line: &str, marker: &str) -> Option<String> {
    let i = line.find(marker)?;
    let rest = &line[i + marker.len()..];
    let end = rest
        .find([',', ')', '\'', ' '])
        .unwrap_or(rest.len())
        .min(200);
    let w = &rest[..end];
    (!w.is_empty()).then(|| w.to_string())
}

fn set<T>(slot: &mut Option<T>, v: Option<T>) {
    if slot.is_none() {
        *slot = v;
    }
}

/// The message without SGLang's `[date time TPn]` prefix.
fn message(line: &str) -> &str {
    let t = line.trim();
    match (t.starts_with('['), t.find("] ")) {
        (true, Some(i)) => t[i + 2..].trim(),
        _ => t,
    }
}

/// Parses a whole log. Never fails: what it cannot find stays `None`.
/// A line that ends in a comma continues on the next (logs pasted with wrapping).
pub fn parse(text: &str) -> ParsedLog {
    let mut p = ParsedLog::default();
    let mut carry = String::new();
    for line in text.lines() {
        if carry.is_empty() {
            carry.push_str(line);
        } else {
            carry.push(' ');
            carry.push_str(line.trim());
        }
        if carry.trim_end().ends_with(',') && carry.len() < 4000 {
            continue;
        }
        scan_line(&carry, &mut p);
        carry.clear();
    }
    if !carry.is_empty() {
        scan_line(&carry, &mut p);
    }
    if let (None, None, Some(b)) = (&p.refusal, p.total_tokens(), p.profiled_value) {
        if b <= 0 {
            p.refusal = Some(Refusal::EmptyProfile { profiled: b });
        }
    }
    p
}

fn scan_server_args(line: &str, p: &mut ParsedLog) {
    if !line.contains("ServerArgs(") && !line.contains("server_args=") {
        return;
    }
    set(&mut p.model, word_after(line, "model_path='"));
    set(
        &mut p.mem_fraction_static,
        f_after(line, "mem_fraction_static="),
    );
    set(&mut p.tp_size, u_after(line, "tp_size="));
    set(&mut p.pp_size, u_after(line, "pp_size="));
    set(&mut p.dp_size, u_after(line, "dp_size="));
    set(&mut p.kv_cache_dtype, word_after(line, "kv_cache_dtype='"));
    set(&mut p.page_size, u_after(line, "page_size="));
    set(
        &mut p.max_total_tokens_arg,
        u_after(line, " max_total_tokens="),
    );
}

fn scan_allocation(line: &str, p: &mut ParsedLog) {
    let msg = message(line);
    let Some(i) = msg.find("KV Cache is allocated.") else {
        return;
    };
    let label = msg[..i].trim();
    p.allocations.push(Allocation {
        label: (!label.is_empty()).then(|| label.chars().take(40).collect()),
        dtype: word_after(msg, "dtype: "),
        tokens: u_after(msg, "#tokens:"),
        k_size: size_after(msg, " K size:"),
        v_size: size_after(msg, ", V size:"),
        kv_size: size_after(msg, "KV size:"),
        line: msg.chars().take(400).collect(),
    });
}

/// Updates `p` from one line (the first occurrence of each figure wins).
pub fn scan_line(line: &str, p: &mut ParsedLog) {
    scan_server_args(line, p);
    scan_allocation(line, p);
    if line.contains("Load weight begin.") {
        set(&mut p.pre_load_free_gib, f_after(line, "avail mem="));
    }
    if line.contains("Load weight end.") {
        set(&mut p.post_load_free_gib, f_after(line, "avail mem="));
        set(&mut p.weights_gib, f_after(line, "mem usage="));
        set(&mut p.architecture, word_after(line, "type="));
    }
    if line.contains("Memory pool end.") {
        set(&mut p.pool_end_free_gib, f_after(line, "avail mem="));
    }
    if line.contains("max_total_num_tokens=") {
        set(
            &mut p.max_total_num_tokens,
            u_after(line, "max_total_num_tokens="),
        );
        set(
            &mut p.chunked_prefill_size,
            i_after(line, "chunked_prefill_size="),
        );
        set(
            &mut p.max_prefill_tokens,
            u_after(line, "max_prefill_tokens="),
        );
        set(
            &mut p.max_running_requests,
            u_after(line, "max_running_requests="),
        );
        set(&mut p.context_len, u_after(line, "context_len="));
        set(
            &mut p.available_gpu_mem_gib,
            f_after(line, "available_gpu_mem="),
        );
    }
    if line.contains("full_layer_tokens=") || line.contains("(all SWA)") {
        if let Some(s) = u_after(line, "swa_layer_tokens=") {
            set(
                &mut p.swa_split,
                Some((u_after(line, "full_layer_tokens=").unwrap_or(0), s)),
            );
        }
    }
    set(&mut p.mamba_slots, u_after(line, "max_mamba_cache_size:"));
    if line.contains("is larger than the profiled value") {
        set(&mut p.profiled_value, i_after(line, "the profiled value"));
    }
    if p.refusal.is_none() {
        if line.contains("Loaded weights leave no GPU memory") {
            p.refusal = Some(Refusal::NoRest {
                mem_fraction_static: f_after(line, "--mem-fraction-static="),
                suggested: f_after(line, "Raise --mem-fraction-static above"),
            });
        } else if line.contains("Not enough memory. Please try to increase --mem-fraction-static") {
            p.refusal = Some(Refusal::NotEnoughMemory {
                mem_fraction_static: f_after(line, "mem_fraction_static="),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_04_log() {
        let log = "[2025-01-23 19:35:15 TP0] Load weight begin. avail mem=78.81 GB\n\
[2025-01-23 19:35:20 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.72 GB\n\
[2025-01-23 19:35:20 TP0] KV Cache is allocated. K size: 27.13 GB, V size: 27.13 GB.\n\
[2025-01-23 19:35:20 TP0] Memory pool end. avail mem=8.34 GB\n\
[2025-01-23 19:35:27 TP0] max_total_num_tokens=444500, max_prefill_tokens=16384, max_running_requests=2049, context_len=131072";
        assert!(is_sglang(log));
        let p = parse(log);
        assert_eq!(p.pre_load_free_gib, Some(78.81));
        assert_eq!(p.post_load_free_gib, Some(63.72));
        assert_eq!(p.architecture.as_deref(), Some("LlamaForCausalLM"));
        assert_eq!(p.allocations.len(), 1);
        assert_eq!(p.allocations[0].k_size.as_deref(), Some("27.13"));
        assert_eq!(p.allocations[0].v_size.as_deref(), Some("27.13"));
        assert_eq!(p.allocations[0].tokens, None);
        assert_eq!(p.total_tokens(), Some(444_500));
        assert_eq!(p.max_running_requests, Some(2049));
        assert_eq!(p.chunked_prefill_size, None);
    }

    #[test]
    fn reads_newer_lines_and_refusals() {
        let log = "[2026-06-08 07:20:53 TP0] Full KV Cache is allocated. dtype: torch.bfloat16, #tokens: 1106304, K size: 25.32 GB, V size: 25.32 GB\n\
KV Cache is allocated. #tokens: 209413, KV size: 13.71 GB\n\
[2025-07-02 07:41:59 DP0 TP0] max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value instead.\n\
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: self.server_args.mem_fraction_static=0.95\n\
max_total_num_tokens=2618868, chunked_prefill_size=-1, max_prefill_tokens=16384, max_running_requests=48, context_len=16384, available_gpu_mem=13.38 GB";
        let p = parse(log);
        assert_eq!(p.allocations[0].label.as_deref(), Some("Full"));
        assert_eq!(p.allocations[0].dtype.as_deref(), Some("torch.bfloat16"));
        assert_eq!(p.allocations[0].tokens, Some(1_106_304));
        assert_eq!(p.allocations[1].kv_size.as_deref(), Some("13.71"));
        assert_eq!(p.allocations[1].k_size, None);
        assert_eq!(p.profiled_value, Some(-561_981));
        assert_eq!(
            p.refusal,
            Some(Refusal::NotEnoughMemory {
                mem_fraction_static: Some(0.95)
            })
        );
        assert_eq!(p.chunked_prefill_size, Some(-1));
        let q = parse("[2025-07-02 07:41:58 DP0 TP0] Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=21.73 GB, mem usage=166.59 GB.\n\
[2025-07-02 07:41:59 DP0 TP0] max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value instead.");
        assert_eq!(
            q.refusal,
            Some(Refusal::EmptyProfile { profiled: -561_981 })
        );
        assert!((q.pre_load_free_gib_or_derived().unwrap() - 188.32).abs() < 1e-9);
        assert_eq!(p.available_gpu_mem_gib, Some(13.38));
        assert!(!is_sglang("INFO GPU KV cache size: 42,656 tokens"));
    }
}
