//! Config keys that change how a model lays out its KV cache in ways kvbudget does not model. A
//! config that sets one is refused, naming the key and its value, rather than sized as if the key
//! were not there. Each key is read by the model files named beside it (vLLM's
//! `vllm/model_executor/models/`, and transformers' configuration classes, which define them).

use super::{shown, Obj};
use crate::error::KvError;
use crate::i18n::en;
use serde_json::Value;

/// The geometry the importer reads, against which a key's value changes the layout or not.
pub(super) struct Read {
    pub head_dim: u64,
    pub kv_heads: u64,
    /// A Gemma 4 config, whose full-attention shape and KV sharing are modelled.
    pub gemma4: bool,
}

/// Whether a key's value changes the KV layout of a model read as `r`.
type Changes = fn(&Value, &Obj, &Read) -> bool;

fn yes(v: &Value) -> bool {
    v.as_bool() == Some(true)
}

/// A count as the file writes it, whole numbers written as floats (`512.0`) included.
fn count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1e15)
            .map(|f| f as u64)
    })
}

fn listed(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        Value::Null => false,
        _ => true,
    }
}

/// The keys, what each does to the cache, and when its value does it.
const KEYS: [(&str, &str, Changes); 13] = [
    // Gemma 4 (`gemma4.py`; transformers' `Gemma4TextConfig`): full-attention layers with their
    // own head dimension (512 beside the sliding layers' 256) and KV heads, and K = V there.
    // Modelled for Gemma 4's own model types (`layers::gemma4`), refused on any other.
    ("global_head_dim", en::CF_K_GLOBAL_HEAD_DIM, |v, _, r| {
        !r.gemma4 && count(v).is_some_and(|d| d != r.head_dim)
    }),
    (
        "num_global_key_value_heads",
        en::CF_K_GLOBAL_KV_HEADS,
        |v, _, r| !r.gemma4 && count(v).is_some_and(|h| h != r.kv_heads),
    ),
    ("attention_k_eq_v", en::CF_K_K_EQ_V, |v, _, r| {
        !r.gemma4 && yes(v)
    }),
    // Gemma 3n and Gemma 4 (`gemma3n.py`, `gemma4.py`): the last layers read the KV cache of an
    // earlier layer of their kind and keep none of their own (modelled for Gemma 4).
    ("num_kv_shared_layers", en::CF_K_KV_SHARED, |v, _, r| {
        !r.gemma4 && count(v).is_some_and(|n| n > 0)
    }),
    // transformers 5.15+ (Gemma 4's `per_layer_config`): shapes per layer, read for Gemma 4.
    ("per_layer_config", en::CF_K_PER_LAYER, |v, _, r| {
        !r.gemma4 && listed(v)
    }),
    // Hunyuan (`hunyuan_v1.py`): cross-layer attention, one KV cache for `cla_share_factor` layers.
    ("use_cla", en::CF_K_CLA, |v, _, _| yes(v)),
    // MiMo-V2-Flash (`mimo_v2_flash.py`): sliding-window layers with their own heads and widths.
    ("swa_head_dim", en::CF_K_SWA, |v, _, r| {
        count(v).is_some_and(|d| d != r.head_dim)
    }),
    ("swa_num_key_value_heads", en::CF_K_SWA, |v, _, r| {
        count(v).is_some_and(|h| h != r.kv_heads)
    }),
    // K and V of different widths outside MLA (MiMo-V2-Flash: 192 and 128); with
    // `kv_lora_rank`, `v_head_dim` is MLA's and modelled.
    ("v_head_dim", en::CF_K_V_HEAD_DIM, |v, m, r| {
        m.get("kv_lora_rank").is_none_or(Value::is_null)
            && count(v).is_some_and(|d| d != r.head_dim)
    }),
    // DeepSeek V4: layers that keep a compressed cache (`compress_ratios`, one per layer).
    ("compress_ratios", en::CF_K_COMPRESS, |v, _, _| listed(v)),
    // Kimi Linear (`kimi_linear.py`): Kimi Delta Attention layers, each with a state of its own.
    ("linear_attn_config", en::CF_K_KDA, |v, _, _| listed(v)),
    // Llama 3.2 Vision (`mllama.py`): cross-attention layers cache the image encoder's K and V.
    ("cross_attention_layers", en::CF_K_CROSS, |v, _, _| {
        listed(v)
    }),
    // DeciLM / Nemotron NAS (`nemotron_nas.py`): each layer's attention set apart, some none.
    ("block_configs", en::CF_K_BLOCKS, |v, _, _| listed(v)),
];

/// The first key of `m` (the language model's config) that changes the KV layout of the model
/// read as `r`, refused: the key, its value and what it does.
pub(super) fn refuse_unmodelled(m: &Obj, r: &Read) -> Result<(), KvError> {
    for (key, what, changes) in KEYS {
        if let Some(v) = m.get(key).filter(|v| changes(v, m, r)) {
            return Err(KvError::Unsupported(crate::tf!(
                CF_KEY_UNMODELLED,
                key,
                shown(v),
                crate::i18n::tr(what)
            )));
        }
    }
    Ok(())
}
