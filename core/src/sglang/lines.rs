//! SGLang's startup lines and refusals, in each release's wording (the f-strings of
//! `model_executor/model_runner.py`, `mem_cache/memory_pool.py`, `managers/scheduler.py` and,
//! from 0.5.11, `model_executor/pool_configurator.py`). Only the message is returned, without
//! the `[2025-01-23 19:35:15 TP0]` prefix. `…` stands where SGLang prints what kvbudget cannot
//! know (the load time; the architecture of a model given by geometry).

use super::version::{KvLine, LoadEndLine, NotEnough, SchedulerLine, Version};
use crate::units::{fixed2, py_float_repr, GIB};

/// Python's `%.2f` of a byte count in GiB (`x / GB` with SGLang's `GB = 1 << 30`).
pub fn gib2(bytes: u64) -> String {
    fixed2(bytes as f64 / GIB as f64)
}

/// `Load weight begin. avail mem=A GB`.
pub fn load_begin(pre_gib: f64) -> String {
    format!("Load weight begin. avail mem={} GB", fixed2(pre_gib))
}

/// What `Load weight end.` names.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadEnd<'a> {
    /// `type(self.model).__name__`.
    pub architecture: &'a str,
    /// `torch.bfloat16` and the like.
    pub torch_dtype: &'a str,
    /// `quant=awq, bits=4` and the like (0.5.10+).
    pub quant: Option<&'a str>,
    /// Free memory before loading, GiB.
    pub pre_gib: f64,
    /// Free memory after loading, GiB.
    pub after_gib: f64,
}

/// `Load weight end. …` in the release's wording.
pub fn load_end(v: Version, l: &LoadEnd) -> String {
    let avail = fixed2(l.after_gib);
    let usage = fixed2(l.pre_gib - l.after_gib);
    let (arch, dtype) = (l.architecture, l.torch_dtype);
    match v.load_end_line() {
        LoadEndLine::Plain => {
            format!("Load weight end. type={arch}, dtype={dtype}, avail mem={avail} GB")
        }
        LoadEndLine::MemUsage => format!(
            "Load weight end. type={arch}, dtype={dtype}, avail mem={avail} GB, mem usage={usage} GB."
        ),
        LoadEndLine::ElapsedDtype => format!(
            "Load weight end. elapsed=… s, type={arch}, dtype={dtype}, avail mem={avail} GB, mem usage={usage} GB."
        ),
        LoadEndLine::ElapsedQuant => {
            let quant = l.quant.map(|q| format!("{q}, ")).unwrap_or_default();
            format!(
                "Load weight end. elapsed=… s, type={arch}, {quant}avail mem={avail} GB, mem usage={usage} GB."
            )
        }
    }
}

/// `Using KV cache dtype: torch.X` (0.5.3–0.5.12).
pub fn kv_dtype(torch_dtype: &str) -> String {
    format!("Using KV cache dtype: {torch_dtype}")
}

/// `max_total_tokens=A is larger than the profiled value B. Use the profiled value instead.`
pub fn cap_warning(cap: u64, profiled: i64) -> String {
    format!(
        "max_total_tokens={cap} is larger than the profiled value {profiled}. Use the profiled value instead."
    )
}

/// One pool's allocation line, or `None` where the release prints none.
#[derive(Clone, Debug, PartialEq)]
pub struct Alloc<'a> {
    /// `Full` / `SWA` for a sliding-window pool's halves (0.5.17+).
    pub label: Option<&'a str>,
    /// The pool's dtype (`dtype:` form, 0.5.13+).
    pub torch_dtype: &'a str,
    /// `#tokens`.
    pub tokens: u64,
    /// K bytes (the latent buffer for MLA).
    pub k: u64,
    /// V bytes (`None`: one latent buffer, printed as `KV size`).
    pub v: Option<u64>,
}

/// `KV Cache is allocated. …` in the release's wording.
pub fn kv_alloc(ver: Version, a: &Alloc) -> Option<String> {
    let sizes = match a.v {
        Some(v) => format!("K size: {} GB, V size: {} GB", gib2(a.k), gib2(v)),
        None => format!("KV size: {} GB", gib2(a.k)),
    };
    match ver.kv_line() {
        KvLine::None => None,
        // 0.4.1.post6–0.4.4: only the MHA pool logs, without `#tokens`, with a full stop.
        KvLine::Sizes => a.v.map(|_| format!("KV Cache is allocated. {sizes}.")),
        KvLine::Tokens => {
            // The MLA pool logs from 0.4.6.
            if a.v.is_none() && ver < Version::new(0, 4, 6) {
                None
            } else {
                Some(format!(
                    "KV Cache is allocated. #tokens: {}, {sizes}",
                    a.tokens
                ))
            }
        }
        KvLine::Dtype => {
            let name = match a.label {
                Some(l) => format!("{l} KV Cache"),
                None => "KV Cache".into(),
            };
            Some(format!(
                "{name} is allocated. dtype: {}, #tokens: {}, {sizes}",
                a.torch_dtype, a.tokens
            ))
        }
    }
}

/// `Use [Ss]liding window memory pool. full_layer_tokens=F, swa_layer_tokens=S` (0.4.10+).
pub fn swa_pool(v: Version, full: i64, swa: i64) -> String {
    let s = if v.swa_line_capital() { "S" } else { "s" };
    if full == 0 && v >= Version::new(0, 5, 10) {
        format!("Use {s}liding window memory pool (all SWA). swa_layer_tokens={swa}")
    } else {
        format!(
            "Use {s}liding window memory pool. full_layer_tokens={full}, swa_layer_tokens={swa}"
        )
    }
}

/// `SWAKVPool mem usage: X GB, swa size: S, full size: F` (0.5.4+).
pub fn swa_usage(bytes: u64, swa: i64, full: i64) -> String {
    format!(
        "SWAKVPool mem usage: {} GB, swa size: {swa}, full size: {full}",
        gib2(bytes)
    )
}

/// `Mamba Cache is allocated. [max_mamba_cache_size: N, ]conv_state size: XGB, ssm_state size: YGB `
/// (with its trailing space).
pub fn mamba_alloc(v: Version, slots: i64, conv: u64, ssm: u64) -> String {
    let size = if v.mamba_line_names_size() {
        format!("max_mamba_cache_size: {slots}, ")
    } else {
        String::new()
    };
    format!(
        "Mamba Cache is allocated. {size}conv_state size: {}GB, ssm_state size: {}GB ",
        gib2(conv),
        gib2(ssm)
    )
}

/// `Memory pool end. avail mem=A GB`.
pub fn pool_end(avail_gib: f64) -> String {
    format!("Memory pool end. avail mem={} GB", fixed2(avail_gib))
}

/// The scheduler's summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// `max_total_num_tokens`.
    pub tokens: i64,
    /// `chunked_prefill_size` (−1 when disabled).
    pub chunked: i64,
    /// `max_prefill_tokens` (16,384 unless set).
    pub max_prefill: u64,
    /// `max_running_requests`.
    pub requests: i64,
    /// `context_len`.
    pub context_len: u64,
    /// `available_gpu_mem` in GiB (0.4.8+).
    pub available_gib: f64,
}

/// `max_total_num_tokens=…, …` in the release's wording.
pub fn summary(v: Version, s: &Summary) -> String {
    let head = format!("max_total_num_tokens={}, ", s.tokens);
    let tail = format!(
        "max_prefill_tokens={}, max_running_requests={}, context_len={}",
        s.max_prefill, s.requests, s.context_len
    );
    match v.scheduler_line() {
        SchedulerLine::NoChunked => format!("{head}{tail}"),
        SchedulerLine::Chunked => format!("{head}chunked_prefill_size={}, {tail}", s.chunked),
        SchedulerLine::Available => format!(
            "{head}chunked_prefill_size={}, {tail}, available_gpu_mem={} GB",
            s.chunked,
            fixed2(s.available_gib)
        ),
    }
}

/// `Not enough memory. Please try to increase --mem-fraction-static.` with the release's suffix.
pub fn not_enough(v: Version, mfs: f64) -> String {
    let base = "Not enough memory. Please try to increase --mem-fraction-static.";
    match v.not_enough_wording() {
        NotEnough::Plain => base.into(),
        NotEnough::SelfValue => format!(
            "{base} Current value: self.server_args.mem_fraction_static={}",
            py_float_repr(mfs)
        ),
        NotEnough::Value => format!(
            "{base} Current value: mem_fraction_static={}",
            py_float_repr(mfs)
        ),
    }
}

/// 0.5.14+: `Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=M. …`
/// with `minimum = 1 − available / pre` and the suggestion `ceil(minimum × 1000) / 1000`.
pub fn no_rest(mfs: f64, pre_gib: f64, after_gib: f64) -> String {
    let minimum = 1.0 - after_gib / pre_gib;
    let suggested = (minimum * 1000.0).ceil() / 1000.0;
    format!(
        "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static={}. \
         Raise --mem-fraction-static above {} (minimum viable = 1 - available/pre = {}). \
         If using speculative decoding, draft weights are now counted.",
        py_float_repr(mfs),
        crate::floatfmt::fixed(suggested, 3),
        crate::floatfmt::fixed(minimum, 4)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kv_lines_by_release() {
        let a = Alloc {
            label: None,
            torch_dtype: "torch.bfloat16",
            tokens: 20480,
            k: 6144 * 20481,
            v: Some(6144 * 20481),
        };
        assert_eq!(kv_alloc(Version::new(0, 4, 0), &a), None);
        assert_eq!(
            kv_alloc(Version::new(0, 4, 2), &a).unwrap(),
            "KV Cache is allocated. K size: 0.12 GB, V size: 0.12 GB."
        );
        assert_eq!(
            kv_alloc(Version::new(0, 5, 8), &a).unwrap(),
            "KV Cache is allocated. #tokens: 20480, K size: 0.12 GB, V size: 0.12 GB"
        );
        assert_eq!(
            kv_alloc(Version::new(0, 5, 20), &a).unwrap(),
            "KV Cache is allocated. dtype: torch.bfloat16, #tokens: 20480, K size: 0.12 GB, V size: 0.12 GB"
        );
    }

    #[test]
    fn refusals() {
        assert_eq!(
            not_enough(Version::new(0, 5, 4), 0.88),
            "Not enough memory. Please try to increase --mem-fraction-static. Current value: self.server_args.mem_fraction_static=0.88"
        );
        // 1 − 14.47 / 23.09 = 0.37332… → above 0.374.
        let t = no_rest(0.3, 23.09, 14.47);
        assert!(t.contains("--mem-fraction-static=0.3. Raise --mem-fraction-static above 0.374 (minimum viable = 1 - available/pre = 0.3733)"), "{t}");
    }

    #[test]
    fn summaries() {
        let s = Summary {
            tokens: 444_500,
            chunked: 8192,
            max_prefill: 16384,
            requests: 2049,
            context_len: 131_072,
            available_gib: 7.5,
        };
        assert_eq!(
            summary(Version::post(0, 4, 1, 7), &s),
            "max_total_num_tokens=444500, max_prefill_tokens=16384, max_running_requests=2049, context_len=131072"
        );
        assert!(summary(Version::new(0, 5, 8), &s).ends_with("available_gpu_mem=7.50 GB"));
    }
}
