//! Reads a Hugging Face `config.json` the way vLLM does (VLLM-ACCOUNTING §3) into a [`ModelSpec`],
//! with the default `max_model_len` and an estimate of the weights from the config.

use crate::error::truncate;
use crate::error::{KvError, Result};
use crate::model::{Attention, Embeddings, Extras, ModelDtype, ModelSpec, NoFloat16};

mod keys;
mod layers;
mod weights;
use crate::units::{thousands, Bytes};
use serde_json::{Map, Value};

type Obj = Map<String, Value>;

/// The weights computed from a config.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsEstimate {
    /// Bytes as loaded.
    pub bytes: Bytes,
    /// The routed experts' part of `bytes` (0 for a dense model).
    pub routed: Bytes,
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

impl Imported {
    /// What the import read, in one sentence.
    pub fn summary(&self) -> String {
        let s = &self.spec;
        crate::tf!(
            CF_SUMMARY,
            s.id,
            s.layers,
            s.kinds_text(),
            crate::units::fixed2(s.weights.as_gib()),
            self.weights.explain
        )
    }
}

/// The name of an imported model that nothing names (a pasted or dropped config without
/// `_name_or_path`).
pub const UNNAMED: &str = crate::i18n::en::CF_UNNAMED;

/// [`UNNAMED`] in the page's language.
pub fn unnamed() -> &'static str {
    crate::t!(CF_UNNAMED)
}

/// What to call an imported model: `name`, unless that is [`UNNAMED`] (a pasted or dropped config
/// has no id of its own): then its `_name_or_path`, else its architecture's class or its
/// `model_type`, said as a config (`Qwen3ForCausalLM config`).
fn own_name(top: &Map<String, Value>, name: &str) -> String {
    let given = |n: Option<&str>| n.map(str::trim).filter(|n| !n.is_empty()).map(String::from);
    if name != UNNAMED && name != unnamed() {
        return name.into();
    }
    let architecture = top
        .get("architectures")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str);
    // (A class is no model id: said as a config, never as a name `vllm serve` could load.)
    given(s(top, "_name_or_path"))
        .or_else(|| {
            given(architecture)
                .or_else(|| given(s(top, "model_type")))
                .map(|c| crate::tf!(CF_UNNAMED_OF, c))
        })
        .unwrap_or_else(|| name.into())
}

/// The preset an imported model is, when its geometry is a preset's (layers, heads, KV heads,
/// head_dim, attention, dtype, vocabulary and default length): its weights figure is vLLM's own.
pub fn matching_preset(m: &ModelSpec) -> Option<&'static crate::presets::ModelPreset> {
    crate::presets::MODELS.iter().find(|p| {
        let q = &p.spec;
        // MLA caches one latent: its KV heads and head_dim do not size the cache.
        let mla = matches!(m.attention, Attention::Mla { .. });
        (
            q.layers,
            q.attention_heads,
            q.attention,
            q.dtype,
            q.vocab,
            q.state,
        ) == (
            m.layers,
            m.attention_heads,
            m.attention,
            m.dtype,
            m.vocab,
            m.state,
        ) && (mla || (q.kv_heads, q.head_dim) == (m.kv_heads, m.head_dim))
            && q.max_position == m.max_position
            && q.extras.hidden == m.extras.hidden
    })
}

/// The largest config kvbudget reads (a config is a few KB).
pub const MAX_CONFIG_BYTES: usize = 1 << 20;

/// What a config class fills in when the file omits a key, as vLLM sees it through
/// transformers: Gemma 3's `Gemma3TextConfig` defaults (gemma-3-12b-it ships without them), and
/// the older families' lengths.
fn class_default(model_type: &str, key: &str) -> Option<u64> {
    let gemma3 = model_type.starts_with("gemma3");
    match (model_type, key) {
        // The older families' lengths: `FalconConfig.max_position_embeddings`,
        // `MptConfig.max_seq_len`, `GPT2Config` / `GPTBigCodeConfig.n_positions`.
        ("falcon" | "mpt", "max_position_embeddings") => Some(2048),
        ("gpt2" | "gpt_bigcode", "max_position_embeddings") => Some(1024),
        (_, "head_dim") if gemma3 => Some(256),
        (_, "vocab_size") if gemma3 => Some(262_208),
        (_, "max_position_embeddings") if gemma3 => Some(131_072),
        (_, "sliding_window_pattern") if gemma3 => Some(6),
        _ => None,
    }
}

/// Each KV head serves a group of query heads, every group the same size: more KV heads than
/// heads, or groups of unequal size, is no model (grouped-query attention repeats each KV head
/// for heads / KV heads query heads; vLLM's `Attention` asserts num_heads % num_kv_heads == 0).
/// MLA caches one latent, whatever its KV heads: only the first holds for it (as
/// `ModelSpec::validate` has it).
fn check_groups(kv_heads: u64, heads: u64, attention: &Attention) -> Result<()> {
    let mla = matches!(attention, Attention::Mla { .. });
    if kv_heads > heads {
        return Err(bad(crate::tf!(CF_KV_OVER_HEADS, kv_heads, heads)));
    }
    if !mla && heads % kv_heads.max(1) != 0 {
        return Err(bad(crate::tf!(CF_KV_UNEVEN, kv_heads, heads)));
    }
    Ok(())
}

/// vLLM's KV heads (`ModelConfig.get_total_num_kv_heads`: vllm/config.py through 0.10,
/// vllm/config/model.py since; SGLang's `model_config.py` has the same rule, read in 0.5.23):
/// `multi_query` is one KV head (GPT-BigCode, Falcon-7B) unless a Falcon has
/// `new_decoder_architecture`; then the first of `n_head_kv`, `num_kv_heads`,
/// `num_key_value_heads`, `multi_query_group_num`; else as many as the attention heads.
fn kv_heads(m: &Obj, top: &Obj, heads: u64, notes: &mut Vec<String>) -> Result<u64> {
    let falcon = matches!(
        s(top, "model_type"),
        Some("falcon" | "RefinedWeb" | "RefinedWebModel")
    );
    // (`FalconConfig` defaults `multi_query` to true.)
    let multi_query = b(m, "multi_query").unwrap_or(falcon);
    if multi_query && !(falcon && b(top, "new_decoder_architecture") == Some(true)) {
        notes.push(crate::tf!(CF_MULTI_QUERY, heads));
        return Ok(1);
    }
    let keys = [
        "n_head_kv",
        "num_kv_heads",
        "num_key_value_heads",
        "multi_query_group_num",
    ];
    // MPT and DBRX: `attn_config.kv_n_heads` (`DbrxAttentionConfig` defaults it to 1).
    let listed = match nested(m, "attn_config", "kv_n_heads") {
        Some(n) if n > 0 => Some(n),
        _ if s(top, "model_type") == Some("dbrx") => Some(1),
        _ => optional(m, &keys)?,
    };
    Ok(listed.unwrap_or_else(|| {
        notes.push(crate::t!(CF_NO_KV_HEADS).into());
        heads
    }))
}

/// A count MPT and DBRX keep in a nested object (`attn_config.kv_n_heads`; DBRX's experts in
/// `ffn_config`), read where the other families keep it at the top.
fn nested(m: &Obj, outer: &str, inner: &str) -> Option<u64> {
    m.get(outer)
        .and_then(Value::as_object)
        .and_then(|o| u(o, &[inner]))
}

/// Whether the LM head is the embedding matrix: `tie_word_embeddings`, else the config class's
/// default in transformers (`PretrainedConfig`'s True where the class keeps it: Gemma, GPT-2,
/// GPT-BigCode, Falcon, MPT; Llama, Qwen, Mistral and most others set False).
fn tied(m: &Obj, top: &Obj) -> bool {
    let class_ties = matches!(
        s(m, "model_type"),
        Some(t) if t.starts_with("gemma") || matches!(t, "gpt2" | "gpt_bigcode" | "falcon" | "mpt")
    );
    b(m, "tie_word_embeddings")
        .or_else(|| b(top, "tie_word_embeddings"))
        .unwrap_or(class_ties)
}

fn bad(message: String) -> KvError {
    KvError::Invalid {
        field: "config.json",
        message,
    }
}

fn u(m: &Map<String, Value>, keys: &[&str]) -> Option<u64> {
    keys.iter().find_map(|k| match m.get(*k) {
        Some(Value::Number(n)) => n.as_u64().or_else(|| {
            // (Written as a float: whole, and below 2⁶⁴, else no count; `as` would saturate.)
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 18_446_744_073_709_551_616.0)
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

/// A value as the file gives it, briefly: a number as written (without serde_json's own float
/// writer, which the page's worker would otherwise link), a text quoted, else its kind.
fn shown(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => n.as_f64().map(crate::floatfmt::display).unwrap_or_default(),
        },
        Value::String(t) => crate::error::quoted(t, 24),
        Value::Bool(b) => b.to_string(),
        Value::Array(_) => "[…]".into(),
        _ => "{…}".into(),
    }
}

fn need(m: &Map<String, Value>, keys: &[&str], what: &'static str) -> Result<u64> {
    match u(m, keys) {
        Some(v) if v > 0 => Ok(v),
        // Present but 0: say which field, rather than that it is missing.
        Some(_) => {
            let key = keys
                .iter()
                .find(|k| u(m, &[**k]) == Some(0))
                .unwrap_or(&keys[0]);
            Err(bad(crate::tf!(CF_ZERO, key)))
        }
        // Present but not a count (negative, fractional, past 2⁶⁴, text): say so, with the value.
        None => match keys.iter().find_map(|k| m.get(*k).map(|v| (k, v))) {
            Some((key, v)) if !v.is_null() => Err(bad(crate::tf!(CF_NOT_COUNT, key, shown(v)))),
            _ => Err(bad(crate::tf!(
                CF_NEED,
                crate::i18n::tr(what),
                keys.join(", ")
            ))),
        },
    }
}

/// A count the config may leave out (absent or `null`: `None`), refused when it is there but 0
/// or not a count, naming the field, rather than taken as absent.
fn optional(m: &Map<String, Value>, keys: &[&str]) -> Result<Option<u64>> {
    let Some((key, v)) = keys
        .iter()
        .find_map(|k| m.get(*k).filter(|v| !v.is_null()).map(|v| (*k, v)))
    else {
        return Ok(None);
    };
    match u(m, &[key]) {
        Some(0) => Err(bad(crate::tf!(CF_ZERO, key))),
        Some(n) => Ok(Some(n)),
        None => Err(bad(crate::tf!(CF_NOT_COUNT, key, shown(v)))),
    }
}

/// Reads `text` as a config.json. `name` is what to call the model (e.g. its Hugging Face id).
pub fn import(text: &str, name: &str) -> Result<Imported> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(bad(format!(
            "is {} bytes; a config.json is a few KB (at most 1 MiB is read)",
            thousands(text.len() as u64)
        )));
    }
    let root: Value = serde_json::from_str(text).map_err(|e| {
        // serde_json explains in English only; other languages name the position.
        let detail = match crate::i18n::lang() {
            crate::i18n::Lang::En => e.to_string(),
            _ => crate::tf!(CF_JSON_AT, e.line(), e.column()),
        };
        bad(crate::tf!(CF_NOT_JSON, detail))
    })?;
    let top = root
        .as_object()
        .ok_or_else(|| bad(crate::t!(CF_NOT_OBJECT).into()))?;
    let mut notes = Vec::new();
    // Multimodal configs keep the language model under text_config (llm_config for some).
    let (m, multimodal) = match top
        .get("text_config")
        .or_else(|| top.get("llm_config"))
        .and_then(Value::as_object)
    {
        Some(t) => {
            notes.push(crate::t!(CF_TEXT_CONFIG).into());
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

    let layers = need(
        m,
        &["num_hidden_layers", "n_layer", "num_layers", "n_layers"],
        crate::i18n::en::CF_LAYER_COUNT,
    )?;
    let heads = need(
        m,
        &["num_attention_heads", "n_head", "num_heads", "n_heads"],
        crate::i18n::en::CF_HEAD_COUNT,
    )?;
    let hidden = need(m, &["hidden_size", "n_embd", "d_model"], "hidden_size")?;
    let kv_heads = kv_heads(m, top, heads, &mut notes)?;
    let head_dim = match optional(m, &["head_dim"])?
        .or_else(|| class_default(&model_type, "head_dim"))
        .filter(|v| *v > 0)
    {
        Some(h) => {
            if h != hidden / heads {
                notes.push(crate::tf!(CF_HEAD_DIM, h, hidden / heads));
            }
            h
        }
        None => hidden / heads,
    };
    // A key that lays the cache out otherwise than the reading below assumes: refused by name.
    keys::refuse_unmodelled(
        m,
        &keys::Read {
            head_dim,
            kv_heads,
            gemma4: model_type.starts_with("gemma4"),
        },
    )?;
    let vocab = u(m, &["vocab_size", "padded_vocab_size"])
        .or_else(|| u(top, &["vocab_size"]))
        .or_else(|| class_default(&model_type, "vocab_size"))
        .unwrap_or(0);

    let (dtype, f32_checkpoint) = dtype(m, top, &model_type, &mut notes);
    let shape = crate::model::HeadShape { kv_heads, head_dim };
    let kinds = layers::read(m, &model_type, layers, hidden, dtype, shape, &mut notes)?;
    check_groups(kv_heads, heads, &kinds.attention)?;
    let quant = top
        .get("quantization_config")
        .or_else(|| m.get("quantization_config"))
        .and_then(Value::as_object);

    let default_len = default_max_model_len(m, &model_type, &mut notes);

    let experts_per_token = u(
        m,
        &[
            "num_experts_per_tok",
            "moe_topk",
            "num_experts_per_token",
            "top_k_experts",
        ],
    )
    .or_else(|| nested(m, "ffn_config", "moe_top_k"))
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
    .or_else(|| nested(m, "ffn_config", "moe_num_experts"))
    .unwrap_or(0);
    // A token is routed to some of the experts: to more than there are is no model.
    if experts > 0 && experts_per_token > experts {
        let e = crate::tf!(CF_TOPK_OVER_EXPERTS, experts_per_token, experts);
        return Err(bad(e));
    }
    let intermediate =
        u(m, &["intermediate_size", "ffn_hidden_size", "n_inner"]).unwrap_or(hidden * 4);
    let moe_intermediate = if experts > 0 {
        u(m, &["moe_intermediate_size", "expert_intermediate_size"])
            .or_else(|| nested(m, "ffn_config", "ffn_hidden_size"))
            .unwrap_or(intermediate)
    } else {
        0
    };

    let name = own_name(top, name);
    let mut spec = ModelSpec {
        id: truncate(name.trim(), 120).into(),
        layers: kinds.cached,
        attention_heads: heads,
        kv_heads: kv_heads.min(heads),
        head_dim,
        attention: kinds.attention,
        dtype,
        max_position: default_len,
        vocab,
        weights: Bytes(0),
        extras: Extras {
            hidden,
            intermediate: dense_width(m, &model_type, experts, intermediate, moe_intermediate),
            experts_per_token: if experts > 0 { experts_per_token } else { 0 },
            moe_intermediate,
            experts: if experts_per_token > 0 { experts } else { 0 },
            routed: Bytes(0),
            multimodal,
            ungated_experts: experts > 0 && s(m, "mlp_hidden_act") == Some("relu2"),
            encoder: Bytes(0),
            vision_heads: top
                .get("vision_config")
                .and_then(Value::as_object)
                .and_then(|v| u(v, &["num_attention_heads", "num_heads"]))
                .unwrap_or(0),
            // Gemma ties its embeddings (transformers' default) and vLLM builds them on every
            // pipeline stage; the others as `tie_word_embeddings` says ([`tied`]).
            embeddings: if s(m, "model_type").is_some_and(|t| t.starts_with("gemma")) {
                Embeddings::EveryStage
            } else if tied(m, top) {
                Embeddings::Tied
            } else {
                Embeddings::Untied
            },
            // vLLM reads the top config's type (`hf_config.model_type`): `gemma3` for
            // gemma-3-12b-it, whose text_config says `gemma3_text`.
            no_float16: NoFloat16::of(s(top, "model_type").unwrap_or(&model_type)),
            f32_checkpoint,
            // Gemma 4's bidirectional-vision sizes: the video item, 32 frames × (70 + 2 + 6)
            // tokens (`gemma4_mm.py`, `get_mm_max_tokens_per_item`, vLLM 0.25).
            mm_item_tokens: if model_type.starts_with("gemma4")
                && s(m, "use_bidirectional_attention") == Some("vision")
            {
                2496
            } else {
                0
            },
        },
        state: kinds.state,
    };
    spec.validate()?;
    let weights = weights::weights(m, top, &spec, experts, &kinds, quant, &mut notes);
    spec.weights = weights.bytes;
    spec.extras.routed = weights.routed;
    spec.extras.encoder = siglip(top, hidden, dtype).min(weights.bytes);
    Ok(Imported {
        spec,
        model_type,
        default_max_model_len: default_len,
        weights,
        notes,
    })
}

/// The width of the dense MLP the activation peak sees (`intermediate_size` for a dense model).
/// An MoE whose every layer routes has no dense MLP but a shared one (Qwen2-MoE,
/// Qwen3-Next, Qwen3.5: `shared_expert_intermediate_size`; DeepSeek-style
/// `n_shared_experts` × `moe_shared_expert_intermediate_size`, else × the experts'
/// width; Llama 4: as wide as a routed expert, and its interleaved dense layers
/// `intermediate_size_mlp`); its `intermediate_size` sizes no layer.
fn dense_width(
    m: &Obj,
    model_type: &str,
    experts: u64,
    intermediate: u64,
    moe_intermediate: u64,
) -> u64 {
    if experts > 0 && u(m, &["first_k_dense_replace"]).unwrap_or(0) == 0 {
        let llama4 = model_type.starts_with("llama4");
        if llama4 && u(m, &["interleave_moe_layer_step"]).unwrap_or(1) > 1 {
            u(m, &["intermediate_size_mlp"]).unwrap_or(intermediate)
        } else if llama4 {
            moe_intermediate
        } else if model_type.starts_with("gemma4") {
            // Gemma 4's dense MLP beside its experts (`enable_moe_block`).
            intermediate
        } else {
            u(m, &["shared_expert_intermediate_size"])
                .or_else(|| {
                    let n = u(m, &["n_shared_experts"]).filter(|&n| n > 0)?;
                    let w =
                        u(m, &["moe_shared_expert_intermediate_size"]).unwrap_or(moe_intermediate);
                    Some(n.saturating_mul(w))
                })
                .unwrap_or(0)
        }
    } else {
        intermediate
    }
}

/// Gemma 3's SigLIP vision tower and projector (`vision_config` of a `gemma3` config): the patch
/// embedding (3 × p² × h + h), the positions ((image / p)² × h), per layer two LayerNorms (4h),
/// q/k/v/o with biases (4h² + 4h) and the MLP (2 h i + i + h), a final LayerNorm (2h), and the
/// projector to the text model's width and its norm (h × hidden + h), in the model's dtype. 0 for
/// other models: their encoders are not counted apart from the weights.
fn siglip(top: &Map<String, Value>, hidden: u64, dtype: ModelDtype) -> Bytes {
    let Some(v) = top.get("vision_config").and_then(Value::as_object) else {
        return Bytes(0);
    };
    if s(top, "model_type") != Some("gemma3") {
        return Bytes(0);
    }
    let get = |k: &str, d: u64| u(v, &[k]).unwrap_or(d) as u128;
    let (h, i, l) = (
        get("hidden_size", 1152),
        get("intermediate_size", 4304),
        get("num_hidden_layers", 27),
    );
    let (p, img) = (get("patch_size", 14).max(1), get("image_size", 896));
    let params = 3 * p * p * h
        + h
        + (img / p) * (img / p) * h
        + l * (4 * h * h + 9 * h + 2 * h * i + i)
        + 2 * h
        + h * hidden as u128
        + h;
    Bytes((params * dtype.bytes() as u128).min(u64::MAX as u128) as u64)
}

/// The dtype the model runs in. vLLM runs a float32 checkpoint in 16 bits by default (`--dtype
/// auto`): float16 up to 0.9.0
/// (`_get_and_verify_dtype`, vllm/config.py 0.8.5: "we use float16 for float32 models"), and
/// from 0.9.1 the platform's first dtype (`_resolve_auto_dtype`: bfloat16 where the GPU has it,
/// float16 on a T4). Taken as float16 here: the same 2 B per element as bfloat16, and a T4 before
/// 0.9.1 starts it as vLLM does. Gemma 2 and 3 and GLM-4, which vLLM 0.9.1+ never runs in float16
/// (`_FLOAT16_NOT_SUPPORTED_MODELS`), are taken as bfloat16, as their presets are. Float32 KV
/// needs `--dtype float32` or `--kv-cache-dtype float32`. A config that names no dtype is taken as
/// bfloat16: vLLM reads its weights' dtype then (`_find_dtype`, vllm/config.py 0.9.2: the
/// safetensors metadata), and the checkpoints that leave it out (gpt-oss) store bfloat16. Also
/// whether a type of those three came as float32 (`Extras::f32_checkpoint`: before 0.9.1 vLLM
/// chose otherwise).
fn dtype(
    m: &Map<String, Value>,
    top: &Map<String, Value>,
    model_type: &str,
    notes: &mut Vec<String>,
) -> (ModelDtype, bool) {
    let sixteen = if NoFloat16::of(model_type) != NoFloat16::None {
        ModelDtype::Bf16
    } else {
        ModelDtype::F16
    };
    let dtype_name = s(m, "torch_dtype")
        .or_else(|| s(m, "dtype"))
        .or_else(|| s(top, "torch_dtype"))
        .or_else(|| s(top, "dtype"));
    match dtype_name.map(ModelDtype::parse) {
        Some(Ok(ModelDtype::F32)) => {
            notes.push(crate::t!(CF_FLOAT32).into());
            (sixteen, sixteen == ModelDtype::Bf16)
        }
        Some(Ok(d)) => (d, false),
        None | Some(Err(_)) => (ModelDtype::Bf16, false),
    }
}

/// vLLM's default `max_model_len`: `max_position_embeddings`, scaled by rope scaling as vLLM does.
fn default_max_model_len(m: &Map<String, Value>, model_type: &str, notes: &mut Vec<String>) -> u64 {
    // vLLM's `_get_and_verify_max_len` (vllm/config.py; `derive_max_model_len_and_key` in
    // vllm/config/model.py since 0.11): the smallest of these keys, Command-R's
    // `model_max_length` over all of them, and 2,048 when the config has none.
    let keys = [
        "max_position_embeddings",
        "n_positions",
        "max_seq_len",
        "seq_length",
        "model_max_length",
        "max_target_positions",
        "max_sequence_length",
        "max_seq_length",
        "seq_len",
    ];
    let max_pos = u(m, &["model_max_length"])
        .filter(|&n| n > 0)
        .or_else(|| keys.iter().filter_map(|k| u(m, &[k])).min())
        .or_else(|| class_default(model_type, "max_position_embeddings"))
        .unwrap_or_else(|| {
            notes.push(crate::t!(CF_NO_MAX_LEN).into());
            2048
        });
    let mut default_len = max_pos;
    // Gemma 3's 128K is already scaled: vLLM skips the factor for it
    // (`_get_and_verify_max_len`, vllm/config.py, "Gemma3's max_model_len (128K) is already scaled").
    let rope_scaling = m
        .get("rope_scaling")
        .filter(|_| !model_type.starts_with("gemma3"));
    if let Some(rs) = rope_scaling.and_then(Value::as_object) {
        let kind = s(rs, "rope_type").or_else(|| s(rs, "type")).unwrap_or("");
        if let Some(factor) = f(rs, "factor") {
            if !matches!(kind, "su" | "longrope" | "llama3") && factor.is_finite() && factor > 0.0 {
                let base = if kind == "yarn" {
                    u(rs, &["original_max_position_embeddings"]).unwrap_or(max_pos)
                } else {
                    max_pos
                };
                default_len = (base as f64 * factor) as u64;
                notes.push(crate::tf!(
                    CF_ROPE,
                    kind,
                    crate::floatfmt::display(factor),
                    thousands(default_len)
                ));
            }
        }
    }
    default_len
}
