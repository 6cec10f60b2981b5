//! Reading a llama.cpp startup log: the model's metadata (`print_info:`), the context's settings
//! (`llama_context:`), the build, and the KV lines it printed; and checking those lines against
//! what [`super::kv`] computes from the rest.

use super::{kv, CacheType, FlashAttn, Geometry, Settings, FIRST_BUILD, NEWEST_BUILD};
use crate::error::{KvError, Result};

/// What a llama.cpp log says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedLog {
    /// `build: NNNN (…)`.
    pub build: Option<u64>,
    /// `print_info:` and `llama_context:` values by name (`n_layer`, `n_ctx`, …).
    pub values: Vec<(String, String)>,
    /// The lines about the KV cache and the recurrent state, without their timestamps.
    pub kv_lines: Vec<String>,
}

impl ParsedLog {
    /// A value the log printed (`print_info: n_layer = 24` → `n_layer`).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn number(&self, name: &str) -> Option<u64> {
        self.value(name)?.parse().ok()
    }
}

/// The prefixes of the lines compared: the caches' summaries and the SWA wrapper's (with their
/// `_unified` forms before b6235), and before b5429 the `kv_size = …` and `KV self size` lines.
const KV_PREFIXES: [&str; 8] = [
    "llama_kv_cache: size =",
    "llama_kv_cache_iswa: creating",
    "llama_kv_cache_unified: size =",
    "llama_kv_cache_unified_iswa: creating",
    "llama_memory_recurrent: size =",
    "kv_size = ",
    "KV self size",
    "llama_kv_cache_unified: kv_size",
];

/// Whether a line is a KV cache's summary.
fn is_size(line: &str) -> bool {
    line.starts_with("llama_kv_cache: size =") || line.starts_with("llama_kv_cache_unified: size =")
}

/// Before b5429: the `kv_size = …` line's cells and layers, and its types.
fn kv_size_line(p: &ParsedLog) -> Option<(u64, u64, String, String)> {
    let line = p.kv_lines.iter().find(|l| l.contains("kv_size = "))?;
    let field = |name: &str| -> Option<String> {
        let rest = line.split_once(name)?.1;
        Some(rest.split([',', '\'']).next()?.trim().to_string())
    };
    Some((
        field("kv_size = ")?.parse().ok()?,
        field("n_layer = ")?.parse().ok()?,
        field("type_k = '")?,
        field("type_v = '")?,
    ))
}

/// Whether a log is llama.cpp's (its model loader's or its KV cache's lines).
pub fn is_llamacpp(text: &str) -> bool {
    [
        "print_info: ",
        "llm_load_print_meta: ",
        "llama_kv_cache",
        "llama_model_loader: ",
    ]
    .iter()
    .any(|x| text.contains(x))
}

/// Reads a log (any timestamps or level marks before the function name are dropped).
pub fn parse(text: &str) -> ParsedLog {
    let mut p = ParsedLog::default();
    for raw in text.lines() {
        let line = raw.trim_end();
        if let Some(i) = line.find("build: ") {
            if p.build.is_none() {
                p.build = line[i + 7..]
                    .split_whitespace()
                    .next()
                    .and_then(|b| b.parse().ok());
            }
        }
        for prefix in [
            "print_info: ",
            "llm_load_print_meta: ",
            "llama_context: ",
            "llama_init_from_model: ",
            "llama_new_context_with_model: ",
        ] {
            if let Some(i) = line.find(prefix) {
                if let Some((k, v)) = line[i + prefix.len()..].split_once(" = ") {
                    p.values.push((k.trim().to_string(), v.trim().to_string()));
                }
            }
        }
        // Lines are kept from their function's name on (`init: kv_size = …`).
        if let Some(i) = KV_PREFIXES.iter().filter_map(|x| line.find(x)).min() {
            let start = line[..i]
                .trim_end_matches(": ")
                .rfind(' ')
                .map_or(0, |j| j + 1);
            let start = if line[i..].starts_with("llama_") {
                i
            } else {
                start
            };
            p.kv_lines.push(line[start..].to_string());
        }
    }
    p
}

/// The numbers of a `size = … (N cells, L layers, …)` line: its cells and layers, and the K
/// and V types it names.
fn summary(line: &str) -> Option<(u64, u64, String, String)> {
    let inner = line.split_once('(')?.1;
    let (cells, rest) = inner.split_once(" cells,")?;
    let layers = rest.split_once(" layers")?.0;
    let (cells, layers) = (cells.trim().parse().ok()?, layers.trim().parse().ok()?);
    let ty = |tag: &str| -> Option<String> {
        let rest = line.split_once(tag)?.1;
        Some(rest.split_once(')')?.0.to_string())
    };
    Some((
        cells,
        layers,
        ty("K (").unwrap_or_default(),
        ty("V (").unwrap_or_default(),
    ))
}

/// The model and the flags the log shows, as [`super::kv`] takes them.
pub fn settings_of(p: &ParsedLog) -> Result<(Geometry, Settings, u64)> {
    let need = |name: &'static str| {
        p.number(name).ok_or_else(|| KvError::Invalid {
            field: "log",
            message: format!("the log has no {name} line (print_info or llama_context)"),
        })
    };
    let mut caches: Vec<(u64, u64, String, String)> = p
        .kv_lines
        .iter()
        .filter(|l| is_size(l))
        .filter_map(|l| summary(l))
        .collect();
    if caches.is_empty() {
        caches.extend(kv_size_line(p));
    }
    let Some(first) = caches.first() else {
        return Err(KvError::Invalid {
            field: "log",
            message: "the log has no `llama_kv_cache: size =` or `kv_size =` line".into(),
        });
    };
    let swa = caches
        .get(1)
        .filter(|_| p.kv_lines.iter().any(|l| l.contains("SWA KV cache")));
    let mut g = Geometry {
        n_layer: need("n_layer")?,
        full_layers: first.1,
        n_embd_k_gqa: need("n_embd_k_gqa")?,
        n_embd_v_gqa: need("n_embd_v_gqa")?,
        deepseek2: p.value("arch") == Some("deepseek2"),
        ..Geometry::default()
    };
    if let Some(s) = swa {
        g.swa_layers = s.1;
        g.n_swa = need("n_swa")?;
    }
    // A V the log prints as 0.00 MiB: an MLA cache without V.
    g.mla = p
        .kv_lines
        .iter()
        .any(|l| is_size(l) && l.ends_with("V (f16):    0.00 MiB"));
    if g.mla {
        g.n_embd_v_gqa = 0;
    }
    if p.kv_lines
        .iter()
        .any(|l| l.starts_with("llama_memory_recurrent"))
    {
        let (conv, inner, state, group) = (
            need("ssm_d_conv")?,
            need("ssm_d_inner")?,
            need("ssm_d_state")?,
            need("ssm_n_group")?,
        );
        // The attention layers are the KV cache's; the others carry the state.
        g.recurrent_layers = g.n_layer - g.full_layers - g.swa_layers;
        g.r_elems = (conv - 1) * (inner + 2 * group * state);
        g.s_elems = state * inner;
    }
    let flash_attn = match p.value("flash_attn") {
        Some("enabled" | "1" | "true" | "on") => FlashAttn::On,
        Some("disabled" | "0" | "false" | "off") => FlashAttn::Off,
        _ => FlashAttn::Auto,
    };
    let s = Settings {
        ctx: need("n_ctx")?,
        parallel: p.number("n_seq_max").unwrap_or(1),
        kv_unified: p.value("kv_unified") == Some("true"),
        flash_attn,
        type_k: CacheType::parse(&first.2)?,
        type_v: CacheType::parse(&first.3)?,
        ubatch: p.number("n_ubatch").unwrap_or(512),
        batch: p.number("n_batch").unwrap_or(2048),
        swa_full: swa.is_some_and(|s| s.0 == first.0),
        build: p.build.unwrap_or(NEWEST_BUILD),
    };
    Ok((g, s, p.number("n_ctx_train").unwrap_or(0)))
}

/// One printed line beside kvbudget's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineCheck {
    /// As the log printed it.
    pub logged: String,
    /// As kvbudget computes it (empty: no such line).
    pub computed: String,
}

/// The log's KV lines beside those kvbudget computes from its metadata and settings; `Err` when
/// the log lacks what that needs or its build is not modelled.
pub fn check(text: &str) -> Result<Vec<LineCheck>> {
    check_parsed(&parse(text))
}

/// [`check`] on a log already read.
pub fn check_parsed(p: &ParsedLog) -> Result<Vec<LineCheck>> {
    if let Some(b) = p
        .build
        .filter(|b| !(FIRST_BUILD..=NEWEST_BUILD).contains(b))
    {
        return Err(KvError::Unsupported(format!(
            "the log is of build b{b}; kvbudget models llama.cpp builds b{FIRST_BUILD} to \
             b{NEWEST_BUILD}"
        )));
    }
    let (g, s, n_ctx_train) = settings_of(p)?;
    let ours = kv(&g, &s, n_ctx_train)?.lines;
    let n = p.kv_lines.len().max(ours.len());
    Ok((0..n)
        .map(|i| LineCheck {
            logged: p.kv_lines.get(i).cloned().unwrap_or_default(),
            computed: ours.get(i).cloned().unwrap_or_default(),
        })
        .collect())
}
