//! Reads the KV-cache figures out of a vLLM startup log, any version from V0 to 0.33.
//!
//! Hand-written matching on fixed markers (no regex engine): every line is scanned once.

use crate::model::ModelDtype;

/// The first capacity figure found, as the log states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KvFigure {
    /// V1: `GPU KV cache size: N tokens`.
    Tokens(u64),
    /// V0: `# GPU blocks: N` (also `# CUDA blocks`, `# cuda blocks`).
    Blocks(u64),
}

/// `Maximum concurrency for L tokens per request: C x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Concurrency {
    /// The request length it is computed for.
    pub tokens_per_request: u64,
    /// The printed value.
    pub value: f64,
}

/// Why vLLM refused to start, as its log says.
#[derive(Clone, Debug, PartialEq)]
pub enum LogError {
    /// V1: one max-length request does not fit.
    RequestTooLong {
        /// `max seq len (N)`.
        max_model_len: u64,
        /// `(X GiB KV cache is needed`.
        needed_gib: f64,
        /// `available KV cache memory (Y GiB)`.
        available_gib: f64,
        /// `the estimated maximum model length is E`.
        estimated_max_len: Option<u64>,
    },
    /// V0: the cache holds fewer tokens than one request.
    V0TooLong {
        /// `max seq len (N)`.
        max_model_len: u64,
        /// `stored in KV cache (M)`.
        kv_tokens: u64,
    },
    /// `No available memory for the cache blocks.`
    NoMemory,
    /// `Bfloat16 is only supported on GPUs with compute capability of at least 8.0.` (a bfloat16
    /// model on a T4 before 0.9.0).
    NoBfloat16,
}

/// Everything kvbudget reads from a log. Fields are `None` when the log does not have them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedLog {
    /// vLLM's version, when the log names it.
    pub version: Option<String>,
    /// The model, from the non-default arguments or the engine's config line.
    pub model: Option<String>,
    /// `max_model_len`, from the arguments or the concurrency line.
    pub max_model_len: Option<u64>,
    /// `kv_cache_dtype` from the arguments.
    pub kv_cache_dtype: Option<String>,
    /// The dtype the model ran in: `'dtype'` from the arguments, or `dtype=torch.X` from the
    /// engine's configuration line.
    pub dtype: Option<ModelDtype>,
    /// `tensor_parallel_size` from the arguments.
    pub tensor_parallel_size: Option<u64>,
    /// Whether prefix caching was on: `enable_prefix_caching=True` in the engine's configuration
    /// line, or `'enable_prefix_caching': True` in the arguments (a hybrid then keeps more state
    /// blocks per request, `vllm/v1/kv_cache_interface.py` `MambaSpec`).
    pub prefix_caching: Option<bool>,
    /// Speculative tokens per step (0: no speculative decoding): `num_spec_tokens=N` in the
    /// engine's `speculative_config=SpeculativeConfig(…)`, `speculative_config=None`, or
    /// `'num_speculative_tokens': N` in the arguments (a hybrid then keeps that many more state
    /// blocks per group per request, `vllm/v1/kv_cache_interface.py` `MambaSpec`).
    pub speculative_tokens: Option<u64>,
    /// `pipeline_parallel_size` from the arguments.
    pub pipeline_parallel_size: Option<u64>,
    /// `decode_context_parallel_size` (the engine's configuration line or the arguments).
    pub decode_context_parallel_size: Option<u64>,
    /// The log overrode the block count (`num_gpu_blocks_override`): its count is not what its
    /// memory gives.
    pub blocks_overridden: bool,
    /// The first KV capacity line.
    pub kv: Option<KvFigure>,
    /// The full text of that line.
    pub kv_line: Option<String>,
    /// A capacity line whose figure is not a count kvbudget reads (a whole number up to 2⁶⁴ − 1,
    /// `18,446,744,073,709,551,615`), when no readable one came before it: its text.
    pub kv_unreadable: Option<String>,
    /// `# CPU blocks: M` (V0).
    pub cpu_blocks: Option<u64>,
    /// The concurrency line.
    pub max_concurrency: Option<Concurrency>,
    /// `Available KV cache memory: X GiB`.
    pub available_kv_gib: Option<f64>,
    /// `Model loading took X GiB`.
    pub model_loading_gib: Option<f64>,
    /// `total_gpu_memory (T GiB)` or `total_memory=T GiB`.
    pub total_gpu_gib: Option<f64>,
    /// `gpu_memory_utilization (U)`.
    pub gpu_memory_utilization: Option<f64>,
    /// `… = R GiB` of the budget line.
    pub requested_gib: Option<f64>,
    /// `model weights take W GiB`.
    pub weights_gib: Option<f64>,
    /// `non_torch_memory takes N GiB` or `non-torch forward increase memory: N GiB`.
    pub non_torch_gib: Option<f64>,
    /// `PyTorch activation peak memory takes A GiB` or `torch peak memory increase: A GiB`.
    pub activation_peak_gib: Option<f64>,
    /// `the rest of the memory reserved for KV Cache is K GiB`.
    pub budget_kv_gib: Option<f64>,
    /// `Estimated CUDA graph memory: G GiB total`.
    pub cudagraph_estimate_gib: Option<f64>,
    /// A refusal to start.
    pub error: Option<LogError>,
}

impl ParsedLog {
    /// Total cached tokens: V1 tokens as printed, V0 blocks × `block_size` (the seed's `verify.py`).
    pub fn cached_tokens(&self, block_size: u64) -> Option<u64> {
        match self.kv? {
            KvFigure::Tokens(t) => Some(t),
            KvFigure::Blocks(b) => Some(b.saturating_mul(block_size)),
        }
    }
}

/// What the parser looks for, for the message when nothing is found.
pub const LOOKED_FOR: &str =
    "a KV capacity line: 'GPU KV cache size: N tokens' (vLLM V1) or '# GPU blocks: N' / \
'# CUDA blocks: N' / '# cuda blocks: N' (vLLM V0)";

/// Skips spaces, then reads a number made of digits, commas and one dot.
fn number_at(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    let n = s[..end].trim_end_matches(['.', ',']);
    // An exponent ("1e400"): vLLM prints these figures with `%.2f` or whole, never so; read
    // as "1" it would be a figure the log does not hold. (A unit may follow: "14.99GiB", "1.77x".)
    let mut after = s[n.len()..].chars();
    let exponent = matches!(after.next(), Some('e' | 'E'))
        && after
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '+' || c == '-');
    if n.is_empty() || !n.starts_with(|c: char| c.is_ascii_digit()) || exponent {
        None
    } else {
        Some((n, &s[n.len()..]))
    }
}

/// The figure after `marker`: `None` without one, `Some(None)` when it is there but no count
/// (past 2⁶⁴ − 1, or with a decimal point).
fn count_after(line: &str, marker: &str) -> Option<Option<u64>> {
    let i = line.find(marker)?;
    let (n, _) = number_at(&line[i + marker.len()..])?;
    Some(n.replace(',', "").parse().ok())
}

fn int_after(line: &str, marker: &str) -> Option<u64> {
    count_after(line, marker).flatten()
}

fn float_after(line: &str, marker: &str) -> Option<f64> {
    let i = line.find(marker)?;
    let (n, _) = number_at(&line[i + marker.len()..])?;
    n.replace(',', "").parse().ok()
}

/// The settings a line states beyond the arguments' basics: the engine's configuration line
/// (and an `args: Namespace(…)` line) write them as `name=value`; prefix caching and speculative
/// decoding from either form.
fn engine_settings(p: &mut ParsedLog, line: &str) {
    // The engine's configuration line (and an `args: Namespace(…)` line) write the settings as
    // `name=value`.
    set(
        &mut p.tensor_parallel_size,
        int_after(line, " tensor_parallel_size="),
    );
    set(
        &mut p.pipeline_parallel_size,
        int_after(line, " pipeline_parallel_size="),
    );
    set(
        &mut p.decode_context_parallel_size,
        int_after(line, "decode_context_parallel_size=")
            .or_else(|| int_after(line, "'decode_context_parallel_size': ")),
    );
    if p.kv_cache_dtype.is_none() {
        if let Some(i) = line.find(" kv_cache_dtype=") {
            let rest = &line[i + " kv_cache_dtype=".len()..];
            let end = rest.find([',', ' ', ')']).unwrap_or(rest.len());
            let v = rest[..end].trim_matches('\'');
            if !v.is_empty() {
                p.kv_cache_dtype = Some(v.chars().take(20).collect());
            }
        }
    }
    if line.contains("num_gpu_blocks_override") && !line.contains("num_gpu_blocks_override=None") {
        p.blocks_overridden = true;
    }
    set(
        &mut p.speculative_tokens,
        int_after(line, "num_spec_tokens=")
            .or_else(|| int_after(line, "'num_speculative_tokens': "))
            .or_else(|| line.contains("speculative_config=None").then_some(0)),
    );
    // What the engine ran with (its configuration line) wins over what was asked (the arguments):
    // vLLM may turn it off for a model.
    for (key, engine) in [
        ("'enable_prefix_caching': ", false),
        ("enable_prefix_caching=", true),
    ] {
        if let Some(i) = line.find(key) {
            let rest = &line[i + key.len()..];
            let on = [("True", true), ("False", false)]
                .into_iter()
                .find_map(|(t, b)| rest.starts_with(t).then_some(b));
            if engine && on.is_some() {
                p.prefix_caching = on;
            } else {
                set(&mut p.prefix_caching, on);
            }
        }
    }
}

fn set<T>(slot: &mut Option<T>, v: Option<T>) {
    if slot.is_none() {
        *slot = v;
    }
}

/// The KV capacity line, V1's tokens or V0's blocks. One whose figure is there but not a count
/// (past 2⁶⁴ − 1, or with a decimal point) is noted, so the check can say so rather than that
/// the log has no such line.
fn kv_figure(line: &str, p: &mut ParsedLog) {
    const V1: &str = "GPU KV cache size:";
    const V0: [&str; 3] = ["# GPU blocks:", "# CUDA blocks:", "# cuda blocks:"];
    if let Some(t) = int_after(line, V1) {
        if line.contains("tokens") {
            p.kv = Some(KvFigure::Tokens(t));
            p.kv_line = Some(trim_prefix(line));
        }
    } else {
        for device in V0 {
            if let Some(b) = int_after(line, device) {
                p.kv = Some(KvFigure::Blocks(b));
                p.kv_line = Some(trim_prefix(line));
                set(&mut p.cpu_blocks, int_after(line, "# CPU blocks:"));
                break;
            }
        }
    }
    let not_a_count = |marker| count_after(line, marker) == Some(None);
    if p.kv.is_none() && p.kv_unreadable.is_none() && [V1].into_iter().chain(V0).any(not_a_count) {
        p.kv_unreadable = Some(trim_prefix(line));
    }
}

/// Parses a whole log. Never fails: what it cannot find stays `None`.
pub fn parse(text: &str) -> ParsedLog {
    let mut p = ParsedLog::default();
    for line in text.lines() {
        scan_line(line, &mut p);
    }
    p
}

/// The dtype a line names: `'dtype': 'half'` in the arguments or `dtype=torch.float16` in the
/// engine's configuration line (`kv_cache_dtype=` is not read: it has no `torch.`).
fn dtype_in(line: &str) -> Option<ModelDtype> {
    let after = |marker: &str| {
        let i = line.find(marker)?;
        let rest = &line[i + marker.len()..];
        Some(&rest[..rest.find(|c: char| !c.is_ascii_alphanumeric())?])
    };
    let name = after("'dtype': '").or_else(|| after(" dtype=torch."))?;
    ModelDtype::parse(name).ok()
}

/// Updates `p` from one line (first occurrence of each figure wins).
pub fn scan_line(line: &str, p: &mut ParsedLog) {
    if p.version.is_none() {
        for marker in ["vLLM API server version ", "LLM engine (v", "vLLM version "] {
            if let Some(i) = line.find(marker) {
                let rest = &line[i + marker.len()..];
                let v: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '+')
                    .collect();
                if v.starts_with(|c: char| c.is_ascii_digit()) {
                    p.version = Some(v);
                    break;
                }
            }
        }
    }
    if p.model.is_none() {
        for marker in ["'model': '", "model='"] {
            if let Some(i) = line.find(marker) {
                let rest = &line[i + marker.len()..];
                if let Some(end) = rest.find('\'') {
                    let id = &rest[..end];
                    if !id.is_empty() && id.len() <= 200 {
                        p.model = Some(id.to_string());
                        break;
                    }
                }
            }
        }
    }
    if p.dtype.is_none() {
        p.dtype = dtype_in(line);
    }
    // The arguments, else the engine's configuration line (`max_seq_len=` in "Initializing a V1
    // LLM engine …", vllm/config), else "Using max model len N" (vllm/config/model.py); the
    // concurrency line's length below is the last resort.
    set(&mut p.max_model_len, int_after(line, "'max_model_len': "));
    set(&mut p.max_model_len, int_after(line, " max_seq_len="));
    set(
        &mut p.max_model_len,
        int_after(line, "Using max model len "),
    );
    set(
        &mut p.tensor_parallel_size,
        int_after(line, "'tensor_parallel_size': "),
    );
    engine_settings(p, line);
    set(
        &mut p.pipeline_parallel_size,
        int_after(line, "'pipeline_parallel_size': "),
    );
    if p.kv_cache_dtype.is_none() {
        if let Some(i) = line.find("'kv_cache_dtype': '") {
            let rest = &line[i + "'kv_cache_dtype': '".len()..];
            p.kv_cache_dtype = rest
                .find('\'')
                .map(|end| rest[..end].chars().take(20).collect());
        }
    }
    set(
        &mut p.gpu_memory_utilization,
        float_after(line, "'gpu_memory_utilization': "),
    );
    if p.kv.is_none() {
        kv_figure(line, p);
    }
    if p.max_concurrency.is_none() {
        if let Some(i) = line.find("Maximum concurrency for ") {
            let rest = &line[i..];
            let len = int_after(rest, "Maximum concurrency for ");
            let val = float_after(rest, "tokens per request:");
            if let (Some(tokens_per_request), Some(value)) = (len, val) {
                p.max_concurrency = Some(Concurrency {
                    tokens_per_request,
                    value,
                });
                // vLLM prints its max_model_len as the tokens per request.
                set(&mut p.max_model_len, Some(tokens_per_request));
            }
        }
    }
    set(
        &mut p.available_kv_gib,
        float_after(line, "Available KV cache memory:"),
    );
    set(
        &mut p.model_loading_gib,
        float_after(line, "Model loading took"),
    );
    set(
        &mut p.total_gpu_gib,
        float_after(line, "total_gpu_memory ("),
    );
    set(&mut p.total_gpu_gib, float_after(line, "total_memory="));
    set(
        &mut p.gpu_memory_utilization,
        float_after(line, "gpu_memory_utilization ("),
    );
    if line.contains("gpu_memory_utilization (") {
        if let Some(i) = line.rfind(") = ") {
            set(&mut p.requested_gib, float_after(&line[i..], ") = "));
        }
    }
    set(&mut p.weights_gib, float_after(line, "model weights take"));
    set(&mut p.weights_gib, float_after(line, "weights memory:"));
    set(
        &mut p.non_torch_gib,
        float_after(line, "non_torch_memory takes"),
    );
    set(
        &mut p.non_torch_gib,
        float_after(line, "non-torch forward increase memory:"),
    );
    set(
        &mut p.activation_peak_gib,
        float_after(line, "PyTorch activation peak memory takes"),
    );
    set(
        &mut p.activation_peak_gib,
        float_after(line, "torch peak memory increase:"),
    );
    set(
        &mut p.budget_kv_gib,
        float_after(line, "the rest of the memory reserved for KV Cache is"),
    );
    set(
        &mut p.cudagraph_estimate_gib,
        float_after(line, "Estimated CUDA graph memory:"),
    );
    if p.error.is_none() {
        if line.contains("KV cache is needed, which is larger than the available KV cache memory") {
            if let (Some(max_model_len), Some(needed_gib), Some(available_gib)) = (
                int_after(line, "max seq len ("),
                float_after(line, "), ("),
                float_after(line, "available KV cache memory ("),
            ) {
                p.error = Some(LogError::RequestTooLong {
                    max_model_len,
                    needed_gib,
                    available_gib,
                    estimated_max_len: int_after(line, "estimated maximum model length is"),
                });
            }
        } else if line.contains("No available memory for the cache blocks") {
            p.error = Some(LogError::NoMemory);
        } else if line.contains("Bfloat16 is only supported on GPUs with compute capability") {
            p.error = Some(LogError::NoBfloat16);
        } else if line
            .contains("is larger than the maximum number of tokens that can be stored in KV cache")
        {
            if let (Some(max_model_len), Some(kv_tokens)) = (
                int_after(line, "max seq len ("),
                int_after(line, "stored in KV cache ("),
            ) {
                p.error = Some(LogError::V0TooLong {
                    max_model_len,
                    kv_tokens,
                });
            }
        }
    }
}

/// The message part of a log line, without vLLM's `INFO 04-22 15:13:20 [file.py:1319]` prefix.
fn trim_prefix(line: &str) -> String {
    let msg = match line.find("] ") {
        Some(i) if line[..i].contains('[') => &line[i + 2..],
        _ => line,
    };
    msg.trim().to_string()
}
