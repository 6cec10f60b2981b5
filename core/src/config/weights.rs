//! The weights a config implies: parameters by part (embeddings, attention, a hybrid's
//! recurrent mixers, MLPs and experts, norms) × the bytes each part is stored in, with the
//! quantization formats vLLM loads (AWQ/GPTQ, FP8, MXFP4, NVFP4, compressed-tensors).

use super::layers::Layers;
use super::{b, s, u, WeightsEstimate};
use crate::model::{Attention, ModelSpec, StateKind};
use crate::units::{thousands, Bytes};
use serde_json::{Map, Value};

type Obj = Map<String, Value>;

/// Parameters by part.
struct Parts {
    /// Embeddings and the LM head.
    embed: u128,
    /// Attention projections of every attention layer.
    attention: u128,
    /// A hybrid's recurrent mixers (projections and convolutions).
    mixers: u128,
    /// Dense MLPs, shared experts and routers.
    dense: u128,
    /// Routed experts.
    experts: u128,
    /// Norms.
    norms: u128,
    /// MoE layers × experts, for formats that store experts their own way.
    expert_slots: u128,
}

impl Parts {
    fn linear(&self) -> u128 {
        self.attention + self.mixers + self.dense + self.experts
    }
    fn total(&self) -> u128 {
        self.embed + self.linear() + self.norms
    }
}

fn parts(m: &Obj, top: &Obj, spec: &ModelSpec, experts: u64, l: &Layers) -> (Parts, bool) {
    let h = spec.extras.hidden as u128;
    let heads = spec.attention_heads as u128;
    let (kv, hd) = (spec.kv_heads as u128, spec.head_dim as u128);
    let tied = super::tied(m, top);
    let gemma4 = s(m, "model_type").is_some_and(|t| t.starts_with("gemma4"));
    // Gemma 4's per-layer inputs (`Gemma4TextConfig`, transformers 5.5–5.14: 256 wide unless the
    // file says otherwise; 0 on 26B-A4B and 31B): a second embedding of `ple` per layer per
    // vocabulary entry, its projection from the hidden state, and per layer a gate and a
    // projection back.
    let ple = if gemma4 {
        u(m, &["hidden_size_per_layer_input"]).unwrap_or(256) as u128
    } else {
        0
    };
    let layers = spec.layers as u128;
    let ple_vocab = u(m, &["vocab_size_per_layer_input"]).map_or(spec.vocab, |v| v) as u128;
    let embed = spec.vocab as u128 * h * if tied { 1 } else { 2 }
        + ple_vocab * layers * ple
        + h * layers * ple;
    let attn = match spec.attention {
        Attention::Mla { latent, indexer } => {
            let nope = u(m, &["qk_nope_head_dim"]).unwrap_or(128) as u128;
            let rope = u(m, &["qk_rope_head_dim"]).unwrap_or(64) as u128;
            let vh = u(m, &["v_head_dim"]).unwrap_or(128) as u128;
            let rank = latent as u128 - rope;
            let q_rank = u(m, &["q_lora_rank"]).map(|r| r as u128);
            let q = match q_rank {
                Some(r) => h * r + r * heads * (nope + rope),
                None => h * heads * (nope + rope),
            };
            // The V3.2 indexer: its query from the q latent, its key and head weights.
            let index = if indexer > 0 {
                let ih = u(m, &["index_n_heads"]).unwrap_or(64) as u128;
                q_rank.unwrap_or(h) * ih * indexer as u128 + h * indexer as u128 + h * ih
            } else {
                0
            };
            q + h * latent as u128 + rank * heads * (nope + vh) + heads * vh * h + index
        }
        _ => {
            // Qwen3.5 / Qwen3-Next gate the attention output with a second query-sized projection.
            let gdn = l
                .state
                .is_some_and(|st| st.kind == StateKind::GatedDeltaNet);
            let gate = if b(m, "attn_output_gate") == Some(true) || gdn {
                h * heads * hd
            } else {
                0
            };
            h * heads * hd * 2 + h * kv * hd * 2 + gate
        }
    };
    // Gemma 4's full-attention layers project to their own shape (vLLM builds K and V there even
    // with `attention_k_eq_v`, and on the layers that share a cache).
    let attention = match spec.attention {
        Attention::SlidingWindow { full: Some(f), .. } => {
            let (fkv, fhd) = (f.kv_heads as u128, f.head_dim as u128);
            spec.sliding_layers() as u128 * attn
                + spec.full_layers() as u128 * (h * heads * fhd * 2 + h * fkv * fhd * 2)
        }
        _ => spec.attention_layers() as u128 * attn,
    };
    let mixer = match &l.state {
        Some(st) => {
            let (nh, hdim, n, g, k) = (
                st.heads as u128,
                st.head_dim as u128,
                st.state_dim as u128,
                st.groups as u128,
                st.conv_kernel as u128,
            );
            let inner = nh * hdim;
            let conv = (inner + 2 * g * n) * k;
            let per_layer = match st.kind {
                // in_proj (x, z, B, C, dt), conv1d, out_proj.
                StateKind::Mamba2 => h * (2 * inner + 2 * g * n + nh) + conv + inner * h,
                // in_proj_qkvz, in_proj_ba, conv1d, out_proj.
                StateKind::GatedDeltaNet => {
                    h * (2 * g * n + 2 * inner) + h * 2 * nh + conv + inner * h
                }
            };
            st.layers as u128 * per_layer
        }
        None => 0,
    };
    // Nemotron-H's MLP is relu² (two matrices), as are the GELU MLPs of the older families
    // (GPT-2's line, Falcon, StarCoder, MPT); the rest gate (three).
    let gated = !matches!(
        s(m, "model_type").unwrap_or(""),
        "phi"
            | "gpt2"
            | "gpt_neox"
            | "gptj"
            | "opt"
            | "bloom"
            | "falcon"
            | "starcoder2"
            | "gpt_bigcode"
            | "mpt"
    ) && s(m, "mlp_hidden_act") != Some("relu2");
    let mats: u128 = if gated { 3 } else { 2 };
    let inter = u(m, &["intermediate_size", "ffn_hidden_size", "n_inner"])
        .unwrap_or(spec.extras.hidden * 4) as u128;
    let mlp_layers = l.mlp_layers as u128;
    let (dense, routed, expert_slots) = if experts > 0 {
        let mi = spec.extras.moe_intermediate as u128;
        let shared = u(m, &["n_shared_experts"]).unwrap_or(0) as u128
            * mats
            * h
            * u(m, &["moe_shared_expert_intermediate_size"]).map_or(mi, |x| x as u128)
            + u(m, &["shared_expert_intermediate_size"])
                .map(|s| mats * h * s as u128 + h)
                .unwrap_or(0)
            // Llama 4's MoE layers each add a shared expert as wide as a routed one
            // (`Llama4TextMoe.shared_expert`, intermediate_size); Gemma 4's run a dense MLP of
            // `intermediate_size` beside the experts (`enable_moe_block`).
            + if s(m, "model_type").is_some_and(|t| t.starts_with("llama4")) {
                mats * h * mi
            } else if gemma4 {
                mats * h * inter
            } else {
                0
            };
        let moe_layers = match l.moe_layers {
            Some(n) => n as u128,
            None => {
                mlp_layers - (u(m, &["first_k_dense_replace"]).unwrap_or(0) as u128).min(mlp_layers)
            }
        };
        let dense_layers = mlp_layers - moe_layers.min(mlp_layers);
        (
            dense_layers * mats * h * inter + moe_layers * (shared + h * experts as u128),
            moe_layers * experts as u128 * mats * h * mi,
            moe_layers * experts as u128,
        )
    } else {
        // Gemma 4 E2B's layers that share a cache have MLPs twice as wide (`use_double_wide_mlp`).
        let wide = if b(m, "use_double_wide_mlp") == Some(true) {
            spec.kv_shared().total() as u128
        } else {
            0
        };
        ((mlp_layers + wide) * mats * h * inter, 0, 0)
    };
    (
        Parts {
            embed,
            attention,
            mixers: mixer,
            dense: dense + layers * 2 * h * ple,
            experts: routed,
            norms: spec.layers as u128 * 2 * h + h,
            expert_slots,
        },
        tied,
    )
}

/// Parameters from the config × bytes per parameter, with quantized linear layers.
pub(super) fn weights(
    m: &Obj,
    top: &Obj,
    spec: &ModelSpec,
    experts: u64,
    layers: &Layers,
    quant: Option<&Obj>,
    notes: &mut Vec<String>,
) -> WeightsEstimate {
    let (p, tied) = parts(m, top, spec, experts, layers);
    let act = spec.dtype.bytes() as u128;
    let unquantized = (p.embed + p.norms) * act;
    let method = quant.map(|q| (s(q, "quant_method").unwrap_or("").to_ascii_lowercase(), q));
    // The routed experts in their own layout where the format gives them one (MXFP4).
    let mut routed_own = None;
    let (bytes, how) = match method {
        Some((method, q)) if method == "awq" || method == "gptq" => {
            let bits = u(q, &["bits", "w_bit"]).unwrap_or(4) as u128;
            let group = u(q, &["group_size", "q_group_size"])
                .filter(|g| *g > 0)
                .unwrap_or(128) as u128;
            let lin = p.linear();
            // packed weights + a 16-bit scale and a packed zero point per group
            let bytes = lin * bits / 8 + lin / group * 2 + lin / group * bits / 8;
            (
                bytes + unquantized,
                crate::tf!(CF_QUANT_GROUP, method, bits, group, act),
            )
        }
        Some((method, _)) if method == "fp8" => (p.linear() + unquantized, crate::tf!(CF_FP8, act)),
        Some((method, _)) if method == "mxfp4" => {
            // vLLM's Marlin MXFP4 layout (the default on A100, and on H100 in 0.10): each expert's
            // width padded to 128 and the hidden size to 256 (`mxfp4.py`, "n % 256 == 0 and
            // k % 128 == 0"), 4 bits per weight and a 1-byte scale per 32 (17/32 B), bf16 expert
            // biases; plus gpt-oss's float32 YaRN cos/sin cache, max_position × head_dim × 4 B.
            // Triton on H100 (0.11+) stores about 2 % less.
            let round = |x: u128, m: u128| x.div_ceil(m) * m;
            let (h, i) = (
                spec.extras.hidden as u128,
                spec.extras.moe_intermediate as u128,
            );
            let (hp, ip) = (round(h, 256), round(i, 128));
            let experts =
                p.expert_slots * 3 * ip * hp * 17 / 32 + p.expert_slots * (2 * ip + hp) * 2;
            let rope = spec.max_position as u128 * spec.head_dim as u128 * 4;
            routed_own = Some(experts);
            (
                experts + rope + (p.linear() - p.experts) * act + unquantized,
                crate::tf!(CF_MXFP4, ip, hp, act),
            )
        }
        Some((method, q)) if is_nvfp4(&method, q) => (
            // 4-bit weights and one FP8 scale per 16: 9 B per 16 weights.
            p.linear() * 9 / 16 + unquantized,
            crate::tf!(CF_NVFP4, act),
        ),
        Some((method, q)) if method == "compressed-tensors" => {
            let (bits, group) = compressed_weights(q);
            let bits = bits as u128;
            // A 16-bit scale per group ("strategy": "group"); per-channel and per-tensor scales
            // are a few bytes per row or tensor, left out.
            let (scales, scale_text) = match group {
                Some(g) => (
                    p.linear() / g.max(1) as u128 * 2,
                    crate::tf!(CF_SCALE_PER, g),
                ),
                None => (0, String::new()),
            };
            (
                p.linear() * bits / 8 + scales + unquantized,
                crate::tf!(CF_COMPRESSED, bits, scale_text, act),
            )
        }
        Some((method, _)) if !method.is_empty() => {
            notes.push(crate::tf!(CF_QUANT_UNKNOWN, method, act));
            (
                p.total() * act,
                crate::tf!(CF_PER_PARAM_UNMODELLED, act, method),
            )
        }
        _ => (
            p.total() * act,
            crate::tf!(CF_PER_PARAM, act, spec.dtype.name()),
        ),
    };
    // Else the routed experts' share of the linear layers' bytes (scales go with their weights).
    let routed = routed_own
        .unwrap_or_else(|| (bytes - unquantized).saturating_mul(p.experts) / p.linear().max(1));
    if spec.extras.multimodal {
        notes.push(crate::t!(CF_ENCODER).into());
    }
    let mixers = if p.mixers > 0 {
        crate::tf!(CF_MIXERS, thousands(p.mixers as u64))
    } else {
        String::new()
    };
    let experts_text = if p.experts > 0 {
        crate::tf!(CF_EXPERTS, thousands(p.experts as u64))
    } else {
        String::new()
    };
    let explain = crate::tf!(
        CF_PARAMS,
        thousands(p.total() as u64),
        thousands((spec.vocab as u128 * spec.extras.hidden as u128) as u64),
        if tied {
            crate::t!(CF_TIED)
        } else {
            crate::t!(CF_UNTIED)
        },
        thousands(p.attention as u64),
        mixers,
        thousands((p.dense + p.experts) as u64),
        experts_text,
        thousands(p.norms as u64),
        how
    );
    WeightsEstimate {
        bytes: Bytes(bytes.min(u64::MAX as u128) as u64),
        routed: Bytes(routed.min(bytes).min(u64::MAX as u128) as u64),
        params: p.total().min(u64::MAX as u128) as u64,
        explain,
    }
}

/// ModelOpt's or compressed-tensors' NVFP4.
fn is_nvfp4(method: &str, q: &Obj) -> bool {
    let algo = s(q, "quant_algo").unwrap_or("").to_ascii_uppercase();
    (method == "modelopt" || method == "modelopt_fp4") && algo.contains("FP4")
        || method == "nvfp4"
        || (method == "compressed-tensors" && s(q, "format") == Some("nvfp4-pack-quantized"))
}

/// The weight bits and, for per-group scales, the group size of a compressed-tensors config
/// (`config_groups.*.weights`: `num_bits`, `strategy`, `group_size`); 8 bits when it says none.
fn compressed_weights(q: &Obj) -> (u64, Option<u64>) {
    let weights = q
        .get("config_groups")
        .and_then(Value::as_object)
        .and_then(|g| g.values().find_map(|g| g.get("weights")?.as_object()));
    let Some(w) = weights else {
        return (8, None);
    };
    let bits = u(w, &["num_bits"]).unwrap_or(8);
    let group = (s(w, "strategy") == Some("group")).then(|| u(w, &["group_size"]).unwrap_or(128));
    (bits, group)
}
