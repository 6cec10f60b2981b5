//! The layer kinds of a config, read the way vLLM's model classes read them: full, sliding
//! (window), chunked local (Llama 4), MLA with or without the V3.2 indexer, and a hybrid's
//! recurrent layers (Mamba2, Gated DeltaNet) with their state dtypes (VLLM-HYBRID §a–§d).

use super::{b, bad, s, u};
use crate::error::{truncate, KvError, Result};
use crate::i18n::en;
use crate::model::{
    Attention, HeadShape, ModelDtype, SharedKv, StateFamily, StateKind, StateLayers,
};
use crate::units::thousands;
use serde_json::{Map, Value};

type Obj = Map<String, Value>;

/// What a config says about its layers.
pub(super) struct Layers {
    /// Layers that keep a cache (attention or state); a Nemotron-H MLP or MoE layer keeps none.
    pub cached: u64,
    /// The attention kind of the attention layers.
    pub attention: Attention,
    /// The recurrent layers, when the model is a hybrid.
    pub state: Option<StateLayers>,
    /// Layers with an MLP or MoE block (all for most models; Nemotron-H's `-` and `E`).
    pub mlp_layers: u64,
    /// Of those, the MoE layers (None: decided by the MoE fields, as for a transformer).
    pub moe_layers: Option<u64>,
}

/// Model types whose recurrent or linear layers kvbudget does not model, with the field that
/// shows it. Their state is not a Mamba2 or Gated DeltaNet state.
const UNMODELLED: [(&str, &str); 8] = [
    ("jamba", en::CF_U_JAMBA),
    ("falcon_mamba", en::CF_U_FALCON_MAMBA),
    ("mamba", en::CF_U_MAMBA),
    ("minimax", en::CF_U_MINIMAX),
    ("lfm2", en::CF_U_LFM2),
    ("rwkv", en::CF_U_RWKV),
    ("recurrent_gemma", en::CF_U_RECURRENT_GEMMA),
    ("zamba", en::CF_U_ZAMBA),
];

/// Model types that always mix state layers in, and the fields that describe them.
const HYBRIDS: [(&str, &str); 6] = [
    ("qwen3_next", en::CF_H_QWEN),
    ("qwen3_5", en::CF_H_QWEN),
    ("nemotron_h", "hybrid_override_pattern"),
    ("granitemoehybrid", en::CF_H_LAYER_TYPES_MAMBA),
    ("bamba", "attn_layer_indices"),
    ("mamba2", en::CF_H_HEADS_STATE),
];

fn unmodelled(model_type: &str, what: &'static str) -> KvError {
    KvError::Unsupported(crate::tf!(
        CF_UNMODELLED,
        truncate(model_type, 40),
        crate::i18n::tr(what)
    ))
}

/// Reads the layer kinds of a config with `layers` hidden layers.
pub(super) fn read(
    m: &Obj,
    model_type: &str,
    layers: u64,
    hidden: u64,
    dtype: ModelDtype,
    shape: HeadShape,
    notes: &mut Vec<String>,
) -> Result<Layers> {
    let t = model_type.to_ascii_lowercase();
    // `mamba2` is modelled; plain `mamba` and the others are not.
    if t != "mamba2" {
        if let Some((_, what)) = UNMODELLED.iter().find(|(k, _)| t.starts_with(k)) {
            return Err(unmodelled(model_type, what));
        }
    }
    let mut out = Layers {
        cached: layers,
        attention: Attention::Full,
        state: None,
        mlp_layers: layers,
        moe_layers: None,
    };
    if let Some(st) = gated_deltanet(m, &t, layers, notes)? {
        out.state = Some(st);
    } else if let Some(pattern) = s(m, "hybrid_override_pattern") {
        // Nemotron-H: M Mamba2, * attention, - MLP, E MoE; one letter per layer.
        let count = |c: char| pattern.chars().filter(|&x| x == c).count() as u64;
        let (mamba, attn) = (count('M'), count('*'));
        notes.push(crate::tf!(CF_PATTERN, mamba, attn, count('-'), count('E')));
        out.cached = mamba + attn;
        out.mlp_layers = count('-') + count('E');
        out.moe_layers = Some(count('E'));
        out.state = Some(mamba2(m, &t, mamba, hidden, notes)?);
    } else if t.starts_with("falcon_h1") {
        // Falcon-H1 runs attention and Mamba2 side by side in every layer.
        notes.push(crate::tf!(CF_FALCON, layers));
        out.cached = layers * 2;
        out.state = Some(mamba2(m, &t, layers, hidden, notes)?);
    } else if let Some(n) = mamba_layer_count(m, layers) {
        out.state = Some(mamba2(m, &t, n, hidden, notes)?);
    }
    if out.state.is_none() {
        if let Some((_, fields)) = HYBRIDS.iter().find(|(k, _)| t.starts_with(k)) {
            return Err(bad(crate::tf!(
                CF_HYBRID_MISSING,
                truncate(model_type, 40),
                crate::i18n::tr(fields)
            )));
        }
    }
    if let Some(st) = &out.state {
        if st.layers > out.cached {
            return Err(bad(format!(
                "lists {} state layers among {} layers",
                st.layers, out.cached
            )));
        }
    }
    let attention_layers = out.cached - out.state.map_or(0, |st| st.layers);
    out.attention = if t.starts_with("gemma4") {
        gemma4(m, layers, shape, notes)?
    } else {
        attention(m, &t, attention_layers, notes)?
    };
    if let Some(st) = &out.state {
        // As the newest release allocates it (older ones may differ: StateLayers::resolved).
        let st = st.resolved((0, 33));
        let dt = |d: Option<ModelDtype>| d.unwrap_or(dtype).name();
        notes.push(crate::tf!(
            CF_STATE_DTYPES,
            dt(st.conv_dtype),
            dt(st.ssm_dtype.or(st.conv_dtype))
        ));
    }
    Ok(out)
}

/// Gated DeltaNet layers (Qwen3-Next, Qwen3.5): `layer_types` "linear_attention" or every layer
/// but each `full_attention_interval`-th; the temporal state's dtype from `mamba_ssm_dtype`
/// (Qwen3.5 ships float32; vLLM copies it, model_executor/models/config.py 0.19).
fn gated_deltanet(
    m: &Obj,
    t: &str,
    layers: u64,
    notes: &mut Vec<String>,
) -> Result<Option<StateLayers>> {
    let listed = kinds(m).map(|k| k.iter().filter(|k| k.contains("linear")).count() as u64);
    let by_interval = u(m, &["full_attention_interval"])
        .filter(|i| *i > 0)
        .map(|i| layers - layers / i);
    let Some(n) = listed
        .filter(|n| *n > 0)
        .or(by_interval.filter(|_| m.contains_key("linear_num_value_heads")))
    else {
        return Ok(None);
    };
    let need = |k: &str| -> Result<u64> {
        u(m, &[k])
            .filter(|v| *v > 0)
            .ok_or_else(|| bad(crate::tf!(CF_NO_LINEAR_FIELD, k)))
    };
    let st = StateLayers {
        kind: StateKind::GatedDeltaNet,
        layers: n,
        conv_kernel: need("linear_conv_kernel_dim")?,
        heads: need("linear_num_value_heads")?,
        head_dim: need("linear_value_head_dim")?,
        state_dim: need("linear_key_head_dim")?,
        groups: need("linear_num_key_heads")?,
        conv_dtype: None,
        ssm_dtype: state_dtype(m)?,
        family: if t.starts_with("qwen3_5") {
            StateFamily::Qwen35
        } else {
            StateFamily::Generic
        },
        chunk_size: 0,
    };
    notes.push(crate::tf!(
        CF_GDN,
        n,
        st.groups,
        st.state_dim,
        st.heads,
        st.head_dim,
        st.conv_kernel,
        layers - n
    ));
    Ok(Some(st))
}

/// Gemma 4 (`gemma4`, `gemma4_text`), as vLLM's `gemma4.py` (0.19–0.34) reads transformers'
/// `Gemma4TextConfig` (5.5–5.14; later releases fold the same values into `per_layer_config`):
/// `layer_types` (by default every sixth layer full, and the last always), one `sliding_window`
/// (512 by default) on the sliding layers with `shape` (`head_dim`, `num_key_value_heads`); the
/// full layers `global_head_dim` wide (512 by default) with `num_global_key_value_heads` when
/// `attention_k_eq_v` (K and V both cached: V normed, K roped), else `num_key_value_heads`; the
/// last `num_kv_shared_layers` read the cache of the last earlier layer of their kind and keep
/// none (`kv_sharing_target_layer_name`).
fn gemma4(m: &Obj, layers: u64, shape: HeadShape, notes: &mut Vec<String>) -> Result<Attention> {
    let sliding: Vec<bool> = match kinds(m) {
        Some(k) if k.len() as u64 == layers => k.iter().map(|k| k.contains("sliding")).collect(),
        _ => (0..layers)
            .map(|i| (i + 1) % 6 != 0 && i + 1 != layers)
            .collect(),
    };
    let mut window = u(m, &["sliding_window"]).filter(|w| *w > 0).unwrap_or(512);
    // transformers halves the window for bidirectional attention on every layer.
    if s(m, "use_bidirectional_attention") == Some("all") {
        window = window / 2 + 1;
    }
    let k_eq_v = b(m, "attention_k_eq_v") == Some(true);
    let full = match m.get("per_layer_config").and_then(Value::as_object) {
        // transformers 5.15+ writes the full layers' shape per layer instead.
        Some(per_layer) => per_layer_shape(per_layer, &sliding, shape)?,
        None => HeadShape {
            kv_heads: match u(m, &["num_global_key_value_heads"]).filter(|_| k_eq_v) {
                Some(h) if h > 0 => h,
                _ => shape.kv_heads,
            },
            head_dim: u(m, &["global_head_dim"]).filter(|d| *d > 0).unwrap_or(512),
        },
    };
    let n_shared = u(m, &["num_kv_shared_layers"]).unwrap_or(0).min(layers) as usize;
    let tail = &sliding[sliding.len() - n_shared..];
    let shared = SharedKv {
        sliding: tail.iter().filter(|s| **s).count() as u64,
        full: tail.iter().filter(|s| !**s).count() as u64,
    };
    let n_sliding = sliding.iter().filter(|s| **s).count() as u64;
    notes.push(crate::tf!(
        CF_GEMMA4,
        n_sliding,
        thousands(window),
        shape.kv_heads,
        shape.head_dim,
        layers - n_sliding,
        full.kv_heads,
        full.head_dim
    ));
    if shared.total() > 0 {
        notes.push(crate::tf!(
            CF_GEMMA4_SHARED,
            shared.total(),
            shared.sliding,
            shared.full
        ));
    }
    Ok(Attention::SlidingWindow {
        window,
        sliding_layers: n_sliding,
        full: (full != shape).then_some(full),
        shared,
    })
}

/// The full layers' shape from `per_layer_config` (transformers 5.15+: `{"5": {"head_dim": 512,
/// "num_key_value_heads": 2}, …}`, the layers it leaves out at `shape`). Overrides that give the
/// full layers more than one shape, or a sliding layer its own, are a layout kvbudget does not
/// model: refused by name.
fn per_layer_shape(per_layer: &Obj, sliding: &[bool], shape: HeadShape) -> Result<HeadShape> {
    let refuse = || {
        KvError::Unsupported(crate::tf!(
            CF_KEY_UNMODELLED,
            "per_layer_config",
            super::shown(&Value::Object(per_layer.clone())),
            crate::i18n::tr(en::CF_K_PER_LAYER)
        ))
    };
    let mut full = None;
    for (i, is_sliding) in sliding.iter().enumerate() {
        let o = per_layer.get(&i.to_string()).and_then(Value::as_object);
        let at = HeadShape {
            kv_heads: o
                .and_then(|o| u(o, &["num_key_value_heads"]))
                .unwrap_or(shape.kv_heads),
            head_dim: o
                .and_then(|o| u(o, &["head_dim"]))
                .unwrap_or(shape.head_dim),
        };
        match (is_sliding, full) {
            (true, _) if at != shape => return Err(refuse()),
            (true, _) => {}
            (false, Some(f)) if f != at => return Err(refuse()),
            (false, _) => full = Some(at),
        }
    }
    Ok(full.unwrap_or(shape))
}

/// `layer_types` / `layers_block_type` as strings.
fn kinds(m: &Obj) -> Option<Vec<&str>> {
    ["layer_types", "layers_block_type"].iter().find_map(|k| {
        m.get(*k)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
    })
}

/// Mamba2 layers listed in `layer_types` / `layers_block_type` (Granite-4.0-H) or all but
/// `attn_layer_indices` (Bamba); a pure Mamba2 model has only them.
fn mamba_layer_count(m: &Obj, layers: u64) -> Option<u64> {
    if let Some(k) = kinds(m) {
        let n = k.iter().filter(|k| k.contains("mamba")).count() as u64;
        return (n > 0).then_some(n);
    }
    if let Some(Value::Array(idx)) = m.get("attn_layer_indices") {
        return Some(layers.saturating_sub(idx.len() as u64));
    }
    (s(m, "model_type") == Some("mamba2")).then_some(layers)
}

/// A Mamba2 mixer's shape, from Nemotron-H's names (`mamba_num_heads`, `mamba_head_dim`,
/// `ssm_state_size`, `n_groups`, `conv_kernel`) or Granite / Bamba / Falcon-H1's (`mamba_n_heads`,
/// `mamba_d_head`, `mamba_d_state`, `mamba_n_groups`, `mamba_d_conv`, `mamba_expand`).
fn mamba2(m: &Obj, t: &str, n: u64, hidden: u64, notes: &mut Vec<String>) -> Result<StateLayers> {
    let get = |keys: &[&str]| u(m, keys).filter(|v| *v > 0);
    let heads = get(&["mamba_num_heads", "mamba_n_heads", "num_heads"])
        .ok_or_else(|| bad(crate::t!(CF_NO_MAMBA_HEADS).into()))?;
    let expand = get(&["mamba_expand", "expand"]).unwrap_or(2);
    let inner = get(&["mamba_d_ssm", "intermediate_size_ssm"]).unwrap_or(expand * hidden);
    // A pure Mamba2 config names its head dim `head_dim`; in a hybrid that is attention's.
    let pure = t.starts_with("mamba2");
    let head_dim = get(&["mamba_head_dim", "mamba_d_head"])
        .or_else(|| get(&["head_dim"]).filter(|_| pure))
        .unwrap_or(inner / heads);
    let st = StateLayers {
        kind: StateKind::Mamba2,
        layers: n,
        conv_kernel: get(&["conv_kernel", "mamba_d_conv"]).unwrap_or(4),
        heads,
        head_dim,
        state_dim: get(&["ssm_state_size", "mamba_d_state", "state_size"])
            .ok_or_else(|| bad(crate::t!(CF_NO_MAMBA_STATE).into()))?,
        groups: get(&["n_groups", "mamba_n_groups"]).unwrap_or(1),
        conv_dtype: None,
        ssm_dtype: state_dtype(m)?,
        family: if t.starts_with("nemotron_h") {
            StateFamily::NemotronH
        } else if t.starts_with("falcon_h1") {
            StateFamily::FalconH1
        } else {
            StateFamily::Generic
        },
        chunk_size: get(&["mamba_chunk_size", "chunk_size"]).unwrap_or(0),
    };
    notes.push(crate::tf!(
        CF_MAMBA,
        n,
        st.heads,
        st.head_dim,
        st.state_dim,
        st.groups,
        st.conv_kernel
    ));
    Ok(st)
}

/// The temporal state's dtype the config declares (`mamba_ssm_cache_dtype` / `mamba_ssm_dtype`);
/// whether vLLM uses it depends on the model class and the release ([`StateLayers::resolved`]).
fn state_dtype(m: &Obj) -> Result<Option<ModelDtype>> {
    match s(m, "mamba_ssm_cache_dtype").or_else(|| s(m, "mamba_ssm_dtype")) {
        Some("auto") | None => Ok(None),
        Some(d) => ModelDtype::parse(d).map(Some).map_err(|_| {
            bad(format!(
                "mamba_ssm_dtype {:?} is not bfloat16, float16 or float32",
                truncate(d, 20)
            ))
        }),
    }
}

/// The attention kind of `n` attention layers: MLA (with the V3.2 indexer), Llama 4's chunked
/// local attention, or sliding windows.
fn attention(m: &Obj, t: &str, n: u64, notes: &mut Vec<String>) -> Result<Attention> {
    if let (Some(rank), Some(rope)) = (u(m, &["kv_lora_rank"]), u(m, &["qk_rope_head_dim"])) {
        let indexer = u(m, &["index_head_dim"]).unwrap_or(0);
        notes.push(crate::tf!(
            CF_MLA,
            rank,
            rope,
            rank + rope,
            if indexer > 0 {
                crate::tf!(CF_MLA_INDEXER, indexer)
            } else {
                String::new()
            }
        ));
        return Ok(Attention::Mla {
            latent: rank + rope,
            indexer,
        });
    }
    if let Some(chunk) = u(m, &["attention_chunk_size"]).filter(|c| *c > 0) {
        // Llama 4: a layer with RoPE attends within its chunk; `no_rope_layers[i] == 0` marks
        // a global NoPE layer (every 4th by default).
        let local = match m.get("no_rope_layers").and_then(Value::as_array) {
            Some(a) if !a.is_empty() => a.iter().filter(|x| x.as_u64() != Some(0)).count() as u64,
            _ => n - n / 4,
        }
        .min(n);
        notes.push(crate::tf!(CF_CHUNKED, thousands(chunk), local, n - local));
        return Ok(Attention::ChunkedLocal {
            chunk,
            local_layers: local,
        });
    }
    Ok(sliding(m, t, n, notes))
}

/// Sliding-window layers, from `layer_types`, `sliding_window_pattern`, gemma2's alternation, or
/// `sliding_window` + `use_sliding_window` on every layer.
fn sliding(m: &Obj, model_type: &str, layers: u64, notes: &mut Vec<String>) -> Attention {
    let window = u(m, &["sliding_window", "attention_window"]).filter(|w| *w > 0);
    let Some(window) = window else {
        return Attention::Full;
    };
    if let Some(kinds) = kinds(m) {
        let n = kinds.iter().filter(|k| k.contains("sliding")).count() as u64;
        notes.push(crate::tf!(
            CF_LAYER_TYPES,
            n,
            window,
            layers.saturating_sub(n)
        ));
        return if n == 0 {
            Attention::Full
        } else {
            Attention::sliding(window, n.min(layers))
        };
    }
    if let Some(p) = u(m, &["sliding_window_pattern"])
        .or_else(|| super::class_default(model_type, "sliding_window_pattern"))
        .filter(|p| *p > 1)
    {
        let full = layers / p;
        notes.push(crate::tf!(
            CF_SLIDING_PATTERN,
            p,
            full,
            layers - full,
            window
        ));
        return Attention::sliding(window, layers - full);
    }
    if model_type.starts_with("gemma2") {
        let n = layers.div_ceil(2);
        notes.push(crate::tf!(CF_GEMMA2, window, n));
        return Attention::sliding(window, n);
    }
    if b(m, "use_sliding_window") == Some(false) {
        notes.push(crate::tf!(CF_NO_SLIDING, window));
        return Attention::Full;
    }
    notes.push(crate::tf!(CF_SLIDING_ALL, window));
    Attention::sliding(window, layers)
}
