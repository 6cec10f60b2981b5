//! The scenario as a URL query with readable keys, and back.
//!
//! One table, [`PARAMS`], lists every key once with how it is read from the scenario and written
//! into it; decoding, encoding and the set of known keys all derive from it. Its order is the
//! order of the query string and of decoding (a model before its geometry, a version before the
//! utilization whose default it sets).

use crate::error::{KvError, Result};
use crate::fields::*;
use crate::floatfmt::display;
use crate::model::{Attention, Embeddings, KvDtype, ModelDtype, ModelSpec, NoFloat16};
use crate::presets;
use crate::scenario::{
    custom_start, Engine, GpuChoice, ModelChoice, PageScenario, CUSTOM_GPU_BW_GBS,
    CUSTOM_GPU_TOTAL, DEFAULT_CTX, DEFAULT_GPU, DEFAULT_MODEL,
};
use crate::sglang::{Version as SglangVersion, NEWEST as SGLANG_NEWEST};
use crate::tf;
use crate::units::{fixed2, Bytes};
use crate::vllm::{Version, NEWEST};
use std::collections::HashMap;

/// A problem with one URL parameter: it was ignored and that field's default used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The parameter's key as it appeared (shortened).
    pub param: String,
    /// What was wrong and what was used instead.
    pub message: String,
    /// What was wrong, alone (for a scenario that is not a URL's: an import, a log's numbers).
    pub cause: String,
}

/// The query's parameters by key.
pub type Params = HashMap<String, String>;

/// Writes a parameter's value into the scenario; the other parameters are there for keys read
/// together (a sliding window and its layer count).
type Write = fn(&mut PageScenario, &str, &Params) -> Result<()>;

/// One URL parameter.
pub struct Param {
    /// The key.
    pub key: &'static str,
    /// The value for a scenario; None leaves the key out.
    read: fn(&PageScenario) -> Option<String>,
    /// None: the key is read by another key's `write` (or accepted and ignored).
    write: Option<Write>,
    /// What a refused value falls back to, in words.
    default: fn(&PageScenario) -> String,
}

mod flags;
mod model;
mod numbers;
mod settle;
mod view;
pub use flags::FLAG_PARAMS;
use model::attention;
pub use model::{parse_state, state_text};
pub(crate) use numbers::num;
use numbers::{gib, nonzero, nonzero_gib, set_custom_gib};
pub use view::VIEW_PARAMS;

/// Every parameter in query order: the scenario's, the view's, then vLLM's other flags and the
/// plan.
pub fn all_params() -> impl Iterator<Item = &'static Param> {
    PARAMS.iter().chain(VIEW_PARAMS).chain(FLAG_PARAMS)
}

fn custom(s: &PageScenario) -> Option<&ModelSpec> {
    s.model.custom()
}

/// Applies `f` to the custom model, when there is one (custom keys beside a preset are ignored).
fn set_custom(s: &mut PageScenario, f: impl FnOnce(&mut ModelSpec)) {
    if let Some(c) = s.model.custom_mut() {
        f(c)
    }
}

fn custom_gpu(s: &PageScenario) -> Option<(Bytes, f64, f64)> {
    match s.gpu {
        GpuChoice::Custom {
            total,
            bw_gbs,
            tflops,
        } => Some((total, bw_gbs, tflops)),
        GpuChoice::Preset(_) => None,
    }
}

/// Every parameter, in query order.
pub const PARAMS: &[Param] = &[
    Param {
        key: "model",
        read: |s| {
            Some(match &s.model {
                ModelChoice::Preset(p) => p.id().to_string(),
                ModelChoice::Custom(_) => "custom".into(),
            })
        },
        write: Some(|s, v, _| {
            let m = v.trim();
            if m.eq_ignore_ascii_case("custom") {
                s.set_model(ModelChoice::Custom(custom_start()));
                return Ok(());
            }
            let p = presets::model(m).ok_or_else(|| KvError::Invalid {
                field: "model",
                message: tf!(ERR_NOT_MODEL, crate::error::quoted(m, 60)),
            })?;
            s.set_model(ModelChoice::Preset(p));
            Ok(())
        }),
        default: |_| DEFAULT_MODEL.into(),
    },
    Param {
        key: "name",
        read: |s| custom(s).map(|c| c.id.to_string()),
        write: Some(|s, v, _| {
            let n = parse_name(v)?;
            set_custom(s, |c| c.id = n.into());
            Ok(())
        }),
        default: |s| custom(s).map(|c| c.id.to_string()).unwrap_or_default(),
    },
    Param {
        key: "layers",
        read: |s| custom(s).map(|c| c.layers.to_string()),
        write: Some(|s, v, _| {
            let n = parse_dim("layers", v)?;
            set_custom(s, |c| c.layers = n);
            Ok(())
        }),
        default: |_| custom_start().layers.to_string(),
    },
    Param {
        key: "heads",
        read: |s| custom(s).map(|c| c.attention_heads.to_string()),
        write: Some(|s, v, _| {
            let n = parse_dim("attention heads", v)?;
            set_custom(s, |c| c.attention_heads = n);
            Ok(())
        }),
        default: |_| custom_start().attention_heads.to_string(),
    },
    Param {
        key: "kv_heads",
        read: |s| custom(s).map(|c| c.kv_heads.to_string()),
        write: Some(|s, v, _| {
            let n = parse_dim("KV heads", v)?;
            set_custom(s, |c| c.kv_heads = n);
            Ok(())
        }),
        default: |_| custom_start().kv_heads.to_string(),
    },
    Param {
        key: "head_dim",
        read: |s| custom(s).map(|c| c.head_dim.to_string()),
        write: Some(|s, v, _| {
            let n = parse_dim("head_dim", v)?;
            set_custom(s, |c| c.head_dim = n);
            Ok(())
        }),
        default: |_| custom_start().head_dim.to_string(),
    },
    Param {
        key: "weights_gib",
        read: |s| match custom(s) {
            Some(c) => Some(gib(c.weights)),
            None => s.weights.map(gib),
        },
        write: Some(|s, v, _| {
            let b = parse_weights_gib(v)?;
            match s.model.custom_mut() {
                Some(c) => c.weights = b,
                None => s.weights = Some(b),
            }
            Ok(())
        }),
        default: |_| format!("{} GiB", fixed2(custom_start().weights.as_gib())),
    },
    Param {
        key: "attn",
        read: |s| {
            custom(s).and_then(|c| match c.attention {
                Attention::Full => None,
                Attention::SlidingWindow { .. } => Some("sliding".into()),
                Attention::Mla { .. } => Some("mla".into()),
                Attention::ChunkedLocal { .. } => Some("chunked".into()),
            })
        },
        write: Some(|s, v, params| {
            let layers = custom(s).map(|c| c.layers).unwrap_or(0);
            let attention = attention(v, params, layers)?;
            set_custom(s, |c| c.attention = attention);
            Ok(())
        }),
        default: |_| crate::t!(IN_FULL_ATTENTION).into(),
    },
    Param {
        key: "window",
        read: model::window,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "sliding_layers",
        read: model::sliding_layers,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "full_kv",
        read: model::full_kv,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "kv_shared",
        read: model::kv_shared,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "latent",
        read: model::latent,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "indexer",
        read: model::indexer,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "chunk",
        read: model::chunk,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "local_layers",
        read: model::local_layers,
        write: None,
        default: |_| String::new(),
    },
    Param {
        key: "state",
        read: |s| custom(s)?.state.map(|st| state_text(&st)),
        write: Some(|s, v, _| {
            let layers = custom(s).map(|c| c.layers).unwrap_or(0);
            let st = parse_state(v, layers)?;
            set_custom(s, |c| c.state = st);
            Ok(())
        }),
        default: |_| crate::t!(D_NONE).into(),
    },
    Param {
        key: "dtype",
        read: |s| {
            custom(s)
                .filter(|c| c.dtype != ModelDtype::Bf16)
                .map(|c| c.dtype.name().into())
        },
        write: Some(|s, v, _| {
            let d = ModelDtype::parse(v)?;
            set_custom(s, |c| c.dtype = d);
            Ok(())
        }),
        default: |_| "bfloat16".into(),
    },
    Param {
        key: "no_fp16",
        read: |s| {
            custom(s)
                .map(|c| c.extras.no_float16)
                .filter(|&t| t != NoFloat16::None)
                .map(|t| t.model_type().into())
        },
        write: Some(|s, v, _| {
            let t = model::no_float16(v)?;
            set_custom(s, |c| c.extras.no_float16 = t);
            Ok(())
        }),
        default: |_| crate::t!(D_NONE).into(),
    },
    Param {
        key: "f32_ckpt",
        read: |s| {
            custom(s)
                .filter(|c| c.extras.f32_checkpoint)
                .map(|_| "1".into())
        },
        write: Some(|s, v, _| {
            let f = parse_flag("f32_ckpt", v)?;
            set_custom(s, |c| c.extras.f32_checkpoint = f);
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "max_pos",
        read: |s| custom(s).and_then(|c| nonzero(c.max_position)),
        write: Some(|s, v, _| {
            let n = parse_max_pos(v)?;
            set_custom(s, |c| c.max_position = n);
            Ok(())
        }),
        default: |_| crate::t!(D_UNKNOWN).into(),
    },
    Param {
        key: "vocab",
        read: |s| custom(s).and_then(|c| nonzero(c.vocab)),
        write: Some(|s, v, _| {
            let n = parse_size("vocab", v)?;
            set_custom(s, |c| c.vocab = n);
            Ok(())
        }),
        default: |_| crate::t!(D_UNKNOWN).into(),
    },
    Param {
        key: "hidden",
        read: |s| custom(s).and_then(|c| nonzero(c.extras.hidden)),
        write: Some(|s, v, _| {
            let n = parse_size("hidden", v)?;
            set_custom(s, |c| c.extras.hidden = n);
            Ok(())
        }),
        default: |_| crate::t!(D_UNKNOWN).into(),
    },
    Param {
        key: "inter",
        read: |s| custom(s).and_then(|c| nonzero(c.extras.intermediate)),
        write: Some(|s, v, _| {
            let n = parse_size("inter", v)?;
            set_custom(s, |c| c.extras.intermediate = n);
            Ok(())
        }),
        default: |_| crate::t!(D_UNKNOWN).into(),
    },
    Param {
        key: "experts_per_tok",
        read: |s| custom(s).and_then(|c| nonzero(c.extras.experts_per_token)),
        write: Some(|s, v, _| {
            let n = parse_size("experts_per_tok", v)?;
            set_custom(s, |c| c.extras.experts_per_token = n);
            Ok(())
        }),
        default: |_| crate::t!(D_DENSE).into(),
    },
    Param {
        key: "moe_inter",
        read: |s| custom(s).and_then(|c| nonzero(c.extras.moe_intermediate)),
        write: Some(|s, v, _| {
            let n = parse_size("moe_inter", v)?;
            set_custom(s, |c| c.extras.moe_intermediate = n);
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "experts",
        read: |s| custom(s).and_then(|c| nonzero(c.extras.experts)),
        write: Some(|s, v, _| {
            let n = parse_size("experts", v)?;
            set_custom(s, |c| c.extras.experts = n);
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "routed_gib",
        read: |s| custom(s).and_then(|c| nonzero_gib(c.extras.routed)),
        write: Some(|s, v, _| set_custom_gib(s, "routed_gib", v, |e, b| e.routed = b)),
        default: |_| "0 GiB".into(),
    },
    Param {
        key: "encoder_gib",
        read: |s| custom(s).and_then(|c| nonzero_gib(c.extras.encoder)),
        write: Some(|s, v, _| set_custom_gib(s, "encoder_gib", v, |e, b| e.encoder = b)),
        default: |_| "0 GiB".into(),
    },
    Param {
        key: "mm",
        // 1 for a multimodal model, or its vision encoder's head count (`mm=16`).
        read: |s| {
            let c = custom(s).filter(|c| c.extras.multimodal)?;
            Some(c.extras.vision_heads.max(1).to_string())
        },
        write: Some(|s, v, _| {
            let (mm, heads) = parse_mm(v)?;
            set_custom(s, |c| {
                (c.extras.multimodal, c.extras.vision_heads) = (mm, heads)
            });
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "mm_item",
        // A prefix LM's largest multimodal item in tokens (Gemma 4 26B-A4B / 31B: 2496).
        read: |s| nonzero(custom(s)?.extras.mm_item_tokens),
        write: Some(model::set_mm_item),
        default: |_| "0".into(),
    },
    Param {
        key: "ungated",
        read: |s| custom(s).and_then(|c| c.extras.ungated_experts.then(|| "1".into())),
        write: Some(|s, v, _| {
            let b = parse_flag("ungated", v)?;
            set_custom(s, |c| c.extras.ungated_experts = b);
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "tied",
        read: |s| custom(s).and_then(|c| c.extras.embeddings.key().map(Into::into)),
        write: Some(|s, v, _| {
            let e = Embeddings::parse(v)?;
            set_custom(s, |c| c.extras.embeddings = e);
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "kv",
        read: |s| Some(s.kv.name().into()),
        write: Some(|s, v, _| {
            s.kv = KvDtype::parse(v)?;
            Ok(())
        }),
        default: |_| KvDtype::Auto.name().into(),
    },
    Param {
        key: "gpu",
        read: |s| {
            Some(match &s.gpu {
                GpuChoice::Preset(g) => g.slug.into(),
                GpuChoice::Custom { .. } => "custom".into(),
            })
        },
        write: Some(|s, v, _| {
            let g = v.trim();
            s.gpu = if g.eq_ignore_ascii_case("custom") {
                GpuChoice::Custom {
                    total: CUSTOM_GPU_TOTAL,
                    bw_gbs: CUSTOM_GPU_BW_GBS,
                    tflops: 0.0,
                }
            } else {
                GpuChoice::Preset(presets::gpu(g).ok_or_else(|| KvError::Invalid {
                    field: "gpu",
                    message: tf!(ERR_NOT_GPU, crate::error::quoted(g, 40)),
                })?)
            };
            Ok(())
        }),
        default: |_| DEFAULT_GPU.into(),
    },
    Param {
        key: "gpu_gib",
        read: |s| custom_gpu(s).map(|(t, _, _)| gib(t)),
        write: Some(|s, v, _| {
            let b = parse_gpu_gib(v)?;
            if let GpuChoice::Custom { total, .. } = &mut s.gpu {
                *total = b;
            }
            Ok(())
        }),
        default: |_| format!("{} GiB", CUSTOM_GPU_TOTAL.0 / crate::units::GIB),
    },
    Param {
        key: "bw_gbs",
        read: |s| custom_gpu(s).map(|(_, bw, _)| num(bw)),
        write: Some(|s, v, _| {
            let b = parse_bw(v)?;
            if let GpuChoice::Custom { bw_gbs, .. } = &mut s.gpu {
                *bw_gbs = b;
            }
            Ok(())
        }),
        default: |_| format!("{} GB/s", num(CUSTOM_GPU_BW_GBS)),
    },
    Param {
        key: "tflops",
        read: |s| custom_gpu(s).filter(|g| g.2 > 0.0).map(|(_, _, t)| num(t)),
        write: Some(|s, v, _| {
            let t = parse_tflops(v)?;
            if let GpuChoice::Custom { tflops, .. } = &mut s.gpu {
                *tflops = t;
            }
            Ok(())
        }),
        default: |_| crate::t!(D_NO_ROOF).into(),
    },
    Param {
        key: "vllm",
        read: |s| Some(s.version.to_string()),
        write: Some(|s, v, _| {
            s.version = Version::parse(v)?.canonical();
            Ok(())
        }),
        default: |_| NEWEST.to_string(),
    },
    Param {
        key: "util",
        read: |s| s.util.map(num),
        write: Some(|s, v, _| {
            s.util = Some(parse_util(v)?);
            Ok(())
        }),
        default: |s| tf!(D_UTIL, display(s.version.default_util()), s.version),
    },
    Param {
        key: "ctx",
        read: |s| Some(s.ctx.to_string()),
        write: Some(|s, v, _| {
            s.ctx = parse_ctx(v)?;
            Ok(())
        }),
        default: |_| DEFAULT_CTX.to_string(),
    },
    Param {
        key: "seqs",
        read: |s| s.seqs.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.seqs = Some(parse_seqs(v)?);
            Ok(())
        }),
        default: |_| crate::t!(D_VLLM_DEFAULT).into(),
    },
    Param {
        key: "tp",
        read: |s| Some(s.tp.to_string()),
        write: Some(|s, v, _| {
            s.tp = parse_tp(v)?;
            Ok(())
        }),
        default: |_| "1".into(),
    },
    Param {
        key: "pp",
        read: |s| (s.pp != 1).then(|| s.pp.to_string()),
        write: Some(|s, v, _| {
            s.pp = parse_pp(v)?;
            Ok(())
        }),
        default: |_| "1".into(),
    },
    Param {
        key: "prompt",
        read: |s| s.prompt.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.prompt = Some(parse_prompt(v)?);
            Ok(())
        }),
        default: |_| crate::t!(D_CTX_NONE).into(),
    },
    Param {
        key: "trace",
        read: |s| s.trace.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.trace = Some(parse_trace(v)?);
            Ok(())
        }),
        default: |_| crate::t!(D_NONE).into(),
    },
    Param {
        key: "overhead_gib",
        read: |s| s.overhead.map(gib),
        write: Some(|s, v, _| {
            s.overhead = Some(parse_overhead(v)?);
            Ok(())
        }),
        default: |_| crate::t!(D_ESTIMATE).into(),
    },
    Param {
        key: "kv_bytes",
        read: |s| s.kv_memory.map(|b| b.0.to_string()),
        write: Some(|s, v, _| {
            s.kv_memory = Some(parse_kv_bytes(v)?);
            Ok(())
        }),
        default: |_| crate::t!(D_BUDGET).into(),
    },
    Param {
        key: "engine",
        read: |s| s.engine.key().map(String::from),
        write: Some(|s, v, _| {
            s.engine = Engine::parse(v).ok_or_else(|| KvError::Invalid {
                field: "engine",
                message: tf!(
                    ERR_NOT_ONE_OF,
                    crate::error::quoted(v.trim(), 24),
                    "vllm, sglang"
                ),
            })?;
            Ok(())
        }),
        default: |_| "vllm".into(),
    },
    Param {
        key: "sglang",
        read: |s| s.sglang.version.map(|v| v.to_string()),
        write: Some(|s, v, _| {
            s.sglang.version = Some(SglangVersion::parse(v)?);
            Ok(())
        }),
        default: |_| SGLANG_NEWEST.to_string(),
    },
    Param {
        key: "mfs",
        read: |s| s.sglang.mem_fraction_static.map(num),
        write: Some(|s, v, _| {
            s.sglang.mem_fraction_static = Some(parse_mfs(v)?);
            Ok(())
        }),
        default: |s| tf!(D_SG_DEFAULT, s.sglang.version()),
    },
    Param {
        key: "page_size",
        read: |s| s.sglang.page_size.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.sglang.page_size = Some(parse_page_size(v)?);
            Ok(())
        }),
        default: |_| "1".into(),
    },
    Param {
        key: "chunked",
        read: |s| s.sglang.chunked_prefill_size.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.sglang.chunked_prefill_size = Some(parse_chunked_prefill(v)?);
            Ok(())
        }),
        default: |s| tf!(D_SG_DEFAULT, s.sglang.version()),
    },
    Param {
        key: "sg_tokens",
        read: |s| s.sglang.num_tokens.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.sglang.num_tokens = Some(whole(
                "SGLang pool tokens",
                v,
                1,
                1 << 40,
                "a whole number of tokens from 1 to 2^40",
            )?);
            Ok(())
        }),
        default: |_| crate::t!(D_POOL).into(),
    },
];

/// Whether `key` is a parameter kvbudget knows.
pub fn is_known(key: &str) -> bool {
    all_params().any(|p| p.key == key)
}

/// Decodes a query string (with or without the leading `?`). Every bad or unknown parameter
/// becomes a notice and leaves that one field at its default; nothing else is lost.
pub fn decode(query: &str) -> (PageScenario, Vec<Notice>) {
    let q = query.strip_prefix('?').unwrap_or(query);
    let mut s = PageScenario::default();
    let (params, mut notes) = settle::read_keys(q);
    for p in all_params() {
        let (Some(write), Some(v)) = (p.write, params.get(p.key)) else {
            continue;
        };
        let default = (p.default)(&s);
        if let Err(e) = write(&mut s, v, &params) {
            notes.push(Notice {
                param: p.key.into(),
                message: tf!(Q_USING_DEFAULT, e, default),
                cause: e.to_string(),
            });
        }
    }
    settle::settle(&mut s, &mut notes);
    (s, notes)
}

/// The query string (without `?`) for a scenario; decoding it gives the scenario back.
pub fn encode(s: &PageScenario) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for p in all_params() {
        if let Some(v) = (p.read)(s) {
            q.append_pair(p.key, &v);
        }
    }
    q.finish()
}
