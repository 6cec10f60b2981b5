//! Reads a Hugging Face `config.json` the way vLLM does (VLLM-ACCOUNTING §3) into a [`ModelSpec`],
//! with the default `max_model_len` and an estimate of the weights from the config.

use crate::error::truncate;
use crate::error::{KvError, Result};
use crate::model::{refuse_hybrid_state, Attention, Extras, ModelDtype, ModelSpec};
use crate::units::{thousands, Bytes};
use serde_json::{Map, Value};

/// The weights computed from a config.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsEstimate {
    /// Bytes as loaded.
    pub bytes: Bytes,
    /// Parameters of the language model.
    pub params: u64,
    /// How it was computed, for people.
    pub explain: String,
}

/// A model read from its config.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The model, with `weights` set to the estimate.
    pub spec: ModelSpec,
    /// `model_type` (of the text model for multimodal configs).
    pub model_type: String,
    /// vLLM's derived `max_model_len` (`max_position_embeddings` with rope scaling).
    pub default_max_model_len: u64,
    /// The weights estimate.
    pub weights: WeightsEstimate,
    /// What was read or assumed, for people.
    pub notes: Vec<String>,
}

/// The name of an imported model that nothing names (a pasted or dropped config without
/// `_name_or_path`).
pub const UNNAMED: &str = "imported model";

/// The preset an imported model is, when its geometry is a preset's (layers, heads, KV heads,
/// head_dim, attention, dtype, vocabulary and default length): its weights figure is vLLM's own.
pub fn matching_preset(m: &ModelSpec) -> Option<&'static crate::presets::ModelPreset> {
    crate::presets::MODELS.iter().find(|p| {
        let q = &p.spec;
        // MLA caches one latent: its KV heads and head_dim do not size the cache.
        let mla = matches!(m.attention, Attention::Mla { .. });
        (q.layers, q.attention_heads, q.attention, q.dtype, q.vocab)
            == (m.layers, m.attention_heads, m.attention, m.dtype, m.vocab)
            && (mla || (q.kv_heads, q.head_dim) == (m.kv_heads, m.head_dim))
            && q.max_position == m.max_position
            && q.extras.hidden == m.extras.hidden
    })
}

/// The largest config kvbudget reads (a config is a few KB).
pub const MAX_CONFIG_BYTES: usize = 1 << 20;

fn bad(message: String) -> KvError {
    KvError::Invalid {
        field: "config.json",
        message,
    }
}

fn u(m: &Map<String, Value>, keys: &[&str]) -> Option<u64> {
    keys.iter().find_map(|k| match m.get(*k) {
        Some(Value::Number(n)) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| f as u64)
        }),
        _ => None,
    })
}

fn f(m: &Map<String, Value>, key: &str) -> Option<f64> {
    m.get(key).and_then(Value::as_f64)
}

fn s<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    m.get(key).and_then(Value::as_str)
}

fn b(m: &Map<String, Value>, key: &str) -> Option<bool> {
    m.get(key).and_then(Value::as_bool)
}

fn need(m: &Map<String, Value>, keys: &[&str], what: &str) -> Result<u64> {
    u(m, keys)
        .filter(|v| *v > 0)
        .ok_or_else(|| bad(format!("has no {what} (looked for {})", keys.join(", "))))
}

/// Reads `text` as a config.json. `name` is what to call the model (e.g. its Hugging Face id).
pub fn import(text: &str, name: &str) -> Result<Imported> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(bad(format!(
            "is {} bytes; a config.json is a few KB (at most 1 MiB is read)",
            thousands(text.len() as u64)
        )));
    }
    let root: Value =
        serde_json::from_str(text).map_err(|e| bad(format!("is not valid JSON: {e}")))?;
    let top = root
        .as_object()
        .ok_or_else(|| bad("is not a JSON object".into()))?;
    let mut notes = Vec::new();
    // Multimodal configs keep the language model under text_config (llm_config for some).
    let (m, multimodal) = match top
        .get("text_config")
        .or_else(|| top.get("llm_config"))
        .and_then(Value::as_object)
    {
        Some(t) => {
            notes.push("read the language model from text_config".into());
            (t, true)
        }
        None => (
            top,
            top.contains_key("vision_config") || top.contains_key("audio_config"),
        ),
    };
    let model_type = s(m, "model_type")
        .or_else(|| s(top, "model_type"))
        .unwrap_or("unknown")
        .to_string();
    refuse_state_layers(m, &model_type)?;

    let layers = need(
        m,
        &["num_hidden_layers", "n_layer", "num_layers", "n_layers"],
        "layer count",
    )?;
    let heads = need(
        m,
        &["num_attention_heads", "n_head", "num_heads"],
        "attention head count",
    )?;
    let hidden = need(m, &["hidden_size", "n_embd", "d_model"], "hidden_size")?;
    let kv_heads = u(
        m,
        &[
            "num_key_value_heads",
            "n_head_kv",
            "num_kv_heads",
            "multi_query_group_num",
        ],
    )
    .filter(|v| *v > 0)
    .unwrap_or_else(|| {
        notes.push(
            "no KV-head count: plain multi-head attention (KV heads = attention heads)".into(),
        );
        heads
    });
    let head_dim = match u(m, &["head_dim"]).filter(|v| *v > 0) {
        Some(h) => {
            if h != hidden / heads {
                notes.push(format!(
                    "head_dim {h} from the config (hidden_size / heads would give {})",
                    hidden / heads
                ));
            }
            h
        }
        None => hidden / heads,
    };
    let vocab = u(m, &["vocab_size", "padded_vocab_size"])
        .or_else(|| u(top, &["vocab_size"]))
        .unwrap_or(0);

    // Attention kind.
    let attention = if let (Some(rank), Some(rope)) =
        (u(m, &["kv_lora_rank"]), u(m, &["qk_rope_head_dim"]))
    {
        notes.push(format!("MLA: one latent of kv_lora_rank {rank} + qk_rope_head_dim {rope} = {} per token per layer", rank + rope));
        Attention::Mla {
            latent: rank + rope,
            indexer: 0,
        }
    } else {
        sliding(m, &model_type, layers, &mut notes)
    };

    let dtype = dtype(m, top, &mut notes);
    let quant = top
        .get("quantization_config")
        .or_else(|| m.get("quantization_config"))
        .and_then(Value::as_object);

    let default_len = default_max_model_len(m, &mut notes);

    let experts_per_token = u(
        m,
        &["num_experts_per_tok", "moe_topk", "num_experts_per_token"],
    )
    .unwrap_or(0);
    let experts = u(
        m,
        &[
            "n_routed_experts",
            "num_experts",
            "num_local_experts",
            "moe_num_experts",
        ],
    )
    .unwrap_or(0);
    let intermediate =
        u(m, &["intermediate_size", "ffn_hidden_size", "n_inner"]).unwrap_or(hidden * 4);
    let moe_intermediate = if experts > 0 {
        u(m, &["moe_intermediate_size", "expert_intermediate_size"]).unwrap_or(intermediate)
    } else {
        0
    };

    // A pasted or dropped config has no id of its own: its `_name_or_path` names it when present.
    let name = match s(top, "_name_or_path").map(str::trim) {
        Some(n) if name == UNNAMED && !n.is_empty() => n,
        _ => name,
    };
    let mut spec = ModelSpec {
        id: truncate(name.trim(), 120).into(),
        layers,
        attention_heads: heads,
        kv_heads: kv_heads.min(heads),
        head_dim,
        attention,
        dtype,
        max_position: default_len,
        vocab,
        weights: Bytes(0),
        extras: Extras {
            hidden,
            intermediate: if experts > 0
                && u(m, &["first_k_dense_replace"]).unwrap_or(0) == 0
                && !m.contains_key("shared_expert_intermediate_size")
            {
                0
            } else {
                intermediate
            },
            experts_per_token: if experts > 0 { experts_per_token } else { 0 },
            moe_intermediate,
            multimodal,
        },
        state: None,
    };
    spec.validate()?;
    let weights = weights(m, top, &spec, experts, quant, &mut notes);
    spec.weights = weights.bytes;
    Ok(Imported {
        spec,
        model_type,
        default_max_model_len: default_len,
        weights,
        notes,
    })
}

/// Refuses models whose layers keep a fixed Mamba / linear-attention state beside the KV cache.
fn refuse_state_layers(m: &Map<String, Value>, model_type: &str) -> Result<()> {
    refuse_hybrid_state(model_type)?;
    for key in ["layer_types", "layers_block_type"] {
        if let Some(Value::Array(kinds)) = m.get(key) {
            if kinds.iter().any(|k| {
                k.as_str()
                    .is_some_and(|k| k.contains("mamba") || k.contains("linear"))
            }) {
                return Err(KvError::Unsupported(format!(
                    "{} mixes Mamba / linear-attention layers with attention: vLLM keeps a fixed per-request state for them and inflates the attention block size; kvbudget does not model that: not supported",
                    truncate(model_type, 40)
                )));
            }
        }
    }
    if m.contains_key("hybrid_override_pattern")
        || m.contains_key("mamba_d_state")
        || m.contains_key("linear_attn_config")
    {
        return Err(KvError::Unsupported(format!(
            "{} is a Mamba / linear-attention hybrid: not supported",
            truncate(model_type, 40)
        )));
    }
    Ok(())
}

/// The dtype the model runs in: vLLM runs float32 checkpoints in bfloat16 by default.
fn dtype(m: &Map<String, Value>, top: &Map<String, Value>, notes: &mut Vec<String>) -> ModelDtype {
    let dtype_name = s(m, "torch_dtype")
        .or_else(|| s(m, "dtype"))
        .or_else(|| s(top, "torch_dtype"))
        .or_else(|| s(top, "dtype"))
        .unwrap_or("bfloat16");
    match ModelDtype::parse(dtype_name) {
        Ok(ModelDtype::F32) => {
            notes.push("float32 checkpoint: vLLM runs it in bfloat16 by default".into());
            ModelDtype::Bf16
        }
        Ok(d) => d,
        Err(_) => ModelDtype::Bf16,
    }
}

/// vLLM's default `max_model_len`: `max_position_embeddings`, scaled by rope scaling as vLLM does.
fn default_max_model_len(m: &Map<String, Value>, notes: &mut Vec<String>) -> u64 {
    let max_pos = u(
        m,
        &[
            "max_position_embeddings",
            "n_positions",
            "max_sequence_length",
            "seq_length",
        ],
    )
    .unwrap_or(0);
    let mut default_len = max_pos;
    if let Some(rs) = m.get("rope_scaling").and_then(Value::as_object) {
        let kind = s(rs, "rope_type").or_else(|| s(rs, "type")).unwrap_or("");
        if let Some(factor) = f(rs, "factor") {
            if !matches!(kind, "su" | "longrope" | "llama3") && factor.is_finite() && factor > 0.0 {
                let base = if kind == "yarn" {
                    u(rs, &["original_max_position_embeddings"]).unwrap_or(max_pos)
                } else {
                    max_pos
                };
                default_len = (base as f64 * factor) as u64;
                notes.push(format!(
                    "rope scaling {kind} × {factor}: default max_model_len {}",
                    thousands(default_len)
                ));
            }
        }
    }
    default_len
}

/// Sliding-window layers, from `layer_types`, `sliding_window_pattern`, gemma2's alternation, or
/// `sliding_window` + `use_sliding_window` on every layer.
fn sliding(
    m: &Map<String, Value>,
    model_type: &str,
    layers: u64,
    notes: &mut Vec<String>,
) -> Attention {
    let window = u(m, &["sliding_window", "attention_window"]).filter(|w| *w > 0);
    let Some(window) = window else {
        return Attention::Full;
    };
    if let Some(Value::Array(kinds)) = m.get("layer_types") {
        let n = kinds
            .iter()
            .filter(|k| k.as_str().is_some_and(|k| k.contains("sliding")))
            .count() as u64;
        notes.push(format!(
            "layer_types: {n} sliding (window {window}), {} full",
            layers.saturating_sub(n)
        ));
        return if n == 0 {
            Attention::Full
        } else {
            Attention::SlidingWindow {
                window,
                sliding_layers: n.min(layers),
            }
        };
    }
    if let Some(p) = u(m, &["sliding_window_pattern"]).filter(|p| *p > 1) {
        let full = layers / p;
        notes.push(format!("sliding_window_pattern {p}: every {p}th layer full ({full}), {} sliding (window {window})", layers - full));
        return Attention::SlidingWindow {
            window,
            sliding_layers: layers - full,
        };
    }
    if model_type.starts_with("gemma2") {
        let n = layers.div_ceil(2);
        notes.push(format!(
            "gemma2 alternates sliding (window {window}) and full layers: {n} sliding"
        ));
        return Attention::SlidingWindow {
            window,
            sliding_layers: n,
        };
    }
    if b(m, "use_sliding_window") == Some(false) {
        notes.push(format!(
            "sliding_window {window} is present but use_sliding_window is false: full attention"
        ));
        return Attention::Full;
    }
    notes.push(format!("sliding window {window} on every layer"));
    Attention::SlidingWindow {
        window,
        sliding_layers: layers,
    }
}

/// Parameters from the config × bytes per parameter, with quantized linear layers.
fn weights(
    m: &Map<String, Value>,
    top: &Map<String, Value>,
    spec: &ModelSpec,
    experts: u64,
    quant: Option<&Map<String, Value>>,
    notes: &mut Vec<String>,
) -> WeightsEstimate {
    let h = spec.extras.hidden as u128;
    let v = spec.vocab as u128;
    let layers = spec.layers as u128;
    let heads = spec.attention_heads as u128;
    let kv = spec.kv_heads as u128;
    let hd = spec.head_dim as u128;
    // transformers' defaults when the config omits it: Gemma ties its embeddings, Llama/Qwen/Mistral do not.
    let tied_default = s(m, "model_type").is_some_and(|t| t.starts_with("gemma"));
    let tied = b(m, "tie_word_embeddings")
        .or_else(|| b(top, "tie_word_embeddings"))
        .unwrap_or(tied_default);
    let embed = v * h * if tied { 1 } else { 2 };
    let attn = match spec.attention {
        Attention::Mla { latent, .. } => {
            let nope = u(m, &["qk_nope_head_dim"]).unwrap_or(128) as u128;
            let rope = u(m, &["qk_rope_head_dim"]).unwrap_or(64) as u128;
            let vh = u(m, &["v_head_dim"]).unwrap_or(128) as u128;
            let rank = latent as u128 - rope;
            let q = match u(m, &["q_lora_rank"]) {
                Some(r) => h * r as u128 + r as u128 * heads * (nope + rope),
                None => h * heads * (nope + rope),
            };
            q + h * latent as u128 + rank * heads * (nope + vh) + heads * vh * h
        }
        _ => h * heads * hd * 2 + h * kv * hd * 2,
    };
    let gated = !matches!(
        s(m, "model_type").unwrap_or(""),
        "phi" | "gpt2" | "gpt_neox" | "gptj" | "opt" | "bloom" | "falcon" | "starcoder2"
    );
    let mats = if gated { 3 } else { 2 };
    let inter = u(m, &["intermediate_size", "ffn_hidden_size", "n_inner"])
        .unwrap_or(spec.extras.hidden * 4) as u128;
    let mlp_dense = mats * h * inter;
    let mlp = if experts > 0 {
        let mi = spec.extras.moe_intermediate as u128;
        let shared = u(m, &["n_shared_experts"]).unwrap_or(0) as u128 * mats * h * mi
            + u(m, &["shared_expert_intermediate_size"])
                .map(|s| mats * h * s as u128 + h)
                .unwrap_or(0);
        let moe_layer = experts as u128 * mats * h * mi + shared + h * experts as u128;
        let dense_layers = (u(m, &["first_k_dense_replace"]).unwrap_or(0) as u128).min(layers);
        dense_layers * mlp_dense + (layers - dense_layers) * moe_layer
    } else {
        layers * mlp_dense
    };
    let norms = layers * 2 * h + h;
    let linear = layers * attn + mlp;
    let params = embed + linear + norms;
    let act = spec.dtype.bytes() as u128;
    let (bytes, how) = match quant
        .map(|q| (s(q, "quant_method").unwrap_or("").to_ascii_lowercase(), q))
    {
        Some((method, q)) if method == "awq" || method == "gptq" => {
            let bits = u(q, &["bits", "w_bit"]).unwrap_or(4) as u128;
            let group = u(q, &["group_size", "q_group_size"])
                .filter(|g| *g > 0)
                .unwrap_or(128) as u128;
            // packed weights + a 16-bit scale and a packed zero point per group
            let lin = linear * bits / 8 + linear / group * 2 + linear / group * bits / 8;
            (lin + (embed + norms) * act, format!("{method} {bits}-bit, group {group}: linear layers {bits}/8 B per weight plus scales; embeddings and norms at {act} B"))
        }
        Some((method, _)) if method == "fp8" => (
            linear + (embed + norms) * act,
            format!(
                "fp8 checkpoint: linear layers 1 B per weight; embeddings and norms at {act} B"
            ),
        ),
        Some((method, _)) if !method.is_empty() => {
            notes.push(format!("quantization {method}: weights counted at {act} B per parameter; edit them if you know better"));
            (
                params * act,
                format!("{act} B per parameter ({method} not modelled)"),
            )
        }
        _ => (
            params * act,
            format!("{act} B per parameter ({})", spec.dtype.name()),
        ),
    };
    if spec.extras.multimodal {
        notes.push("the vision/audio encoder's weights are not counted".into());
    }
    let explain = format!(
        "{} parameters (embeddings {}{}, attention {}, MLP {}, norms {}) × {how}",
        thousands(params as u64),
        thousands((v * h) as u64),
        if tied { ", tied lm_head" } else { " + lm_head" },
        thousands((layers * attn) as u64),
        thousands(mlp as u64),
        thousands(norms as u64),
    );
    WeightsEstimate {
        bytes: Bytes(bytes.min(u64::MAX as u128) as u64),
        params: params.min(u64::MAX as u128) as u64,
        explain,
    }
}
