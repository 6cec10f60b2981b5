//! The URL keys of a model a user describes: its attention kind and a hybrid's state layers.

use crate::error::{KvError, Result};
use crate::fields::*;
use crate::model::{
    Attention, HeadShape, ModelDtype, NoFloat16, SharedKv, StateFamily, StateKind, StateLayers,
    MAX_DIM,
};

use super::{custom, nonzero, Params};
use crate::scenario::PageScenario;

/// `no_fp16=gemma2|gemma3|gemma3_text|glm4`: a model type vLLM will not run in float16.
pub(super) fn no_float16(v: &str) -> Result<NoFloat16> {
    match NoFloat16::of(v.trim()) {
        NoFloat16::None => Err(KvError::Invalid {
            field: "no_fp16",
            message: crate::tf!(
                ERR_NOT_ONE_OF,
                crate::error::quoted(v, 20),
                "gemma2, gemma3, gemma3_text, glm4"
            ),
        }),
        t => Ok(t),
    }
}

/// `attn=full|sliding|mla` with the keys it is read with (`window` and `sliding_layers`, `latent`).
pub(super) fn attention(v: &str, params: &Params, layers: u64) -> Result<Attention> {
    let get = |k: &str| params.get(k).map(String::as_str);
    match v.trim() {
        "full" => Ok(Attention::Full),
        "sliding" => match (get("window"), get("sliding_layers")) {
            (Some(w), Some(l)) => Ok(Attention::SlidingWindow {
                window: parse_window(w)?,
                sliding_layers: parse_sliding_layers(l, layers)?,
                full: pair(get("full_kv"), "full_kv", |q| crate::tf!(ERR_FULL_KV, q))?
                    .map(|(kv_heads, head_dim)| HeadShape { kv_heads, head_dim }),
                shared: pair(get("kv_shared"), "kv_shared", |q| {
                    crate::tf!(ERR_KV_SHARED, q)
                })?
                .map_or(SharedKv::NONE, |(sliding, full)| SharedKv { sliding, full }),
            }),
            (w, l) => {
                // A bad value present is the better message; else say what is missing.
                w.map(parse_window).transpose()?;
                l.map(|l| parse_sliding_layers(l, layers)).transpose()?;
                Err(KvError::Invalid {
                    field: "attn",
                    message: crate::t!(ERR_ATTN_SLIDING).into(),
                })
            }
        },
        "mla" => match get("latent") {
            Some(l) => Ok(Attention::Mla {
                latent: parse_dim("latent", l)?,
                indexer: get("indexer")
                    .map(|i| parse_dim("indexer", i))
                    .transpose()?
                    .unwrap_or(0),
            }),
            None => Err(KvError::Invalid {
                field: "attn",
                message: crate::t!(ERR_ATTN_MLA).into(),
            }),
        },
        "chunked" => match (get("chunk"), get("local_layers")) {
            (Some(c), Some(l)) => Ok(Attention::ChunkedLocal {
                chunk: whole(
                    "chunk",
                    c,
                    1,
                    1 << 40,
                    "a whole number of tokens from 1 to 2^40",
                )?,
                local_layers: whole(
                    "local_layers",
                    l,
                    0,
                    layers,
                    "a whole number up to the layer count",
                )?,
            }),
            _ => Err(KvError::Invalid {
                field: "attn",
                message: crate::t!(ERR_ATTN_CHUNKED).into(),
            }),
        },
        other => Err(KvError::Invalid {
            field: "attn",
            message: crate::tf!(
                ERR_NOT_ONE_OF,
                crate::error::quoted(other, 20),
                "full, sliding, mla, chunked"
            ),
        }),
    }
}

/// Two whole numbers as `a-b`, each at most 1,048,576 (`MAX_DIM`): `full_kv=2-512` (KV heads
/// and head dimension of the full-attention layers), `kv_shared=16-4` (sliding and full layers
/// without a cache of their own).
/// None when the key is absent; a value of another form is `field`'s error, `says` wording it
/// for the quoted value.
fn pair(
    v: Option<&str>,
    field: &'static str,
    says: impl Fn(String) -> String,
) -> Result<Option<(u64, u64)>> {
    let Some(v) = v else { return Ok(None) };
    let n = |p: &str| p.trim().parse::<u64>().ok().filter(|x| *x <= MAX_DIM);
    let read = v.split_once('-').and_then(|(a, b)| Some((n(a)?, n(b)?)));
    read.map(Some).ok_or_else(|| KvError::Invalid {
        field,
        message: says(crate::error::quoted(v, 24)),
    })
}

/// A hybrid's state layers as one URL value:
/// `kind-layers-kernel-heads-head_dim-state_dim-groups-conv_dtype-ssm_dtype-chunk`, kind `mamba2`,
/// `mamba2.nemotronh`, `mamba2.falconh1`, `gdn` or `gdn.qwen35` (the model class whose state dtype vLLM overrides),
/// dtypes `auto` or a dtype name, chunk the Mamba2 scan's chunk (0: unknown):
/// `gdn.qwen35-24-4-32-128-128-16-auto-float32-0` is Qwen3.5-9B.
pub fn state_text(st: &StateLayers) -> String {
    let dt = |d: Option<ModelDtype>| d.map_or("auto", ModelDtype::name);
    let kind = match st.kind {
        StateKind::Mamba2 => "mamba2",
        StateKind::GatedDeltaNet => "gdn",
    };
    let family = match st.family {
        StateFamily::Generic => "",
        StateFamily::Qwen35 => ".qwen35",
        StateFamily::NemotronH => ".nemotronh",
        StateFamily::FalconH1 => ".falconh1",
    };
    format!(
        "{kind}{family}-{}-{}-{}-{}-{}-{}-{}-{}-{}",
        st.layers,
        st.conv_kernel,
        st.heads,
        st.head_dim,
        st.state_dim,
        st.groups,
        dt(st.conv_dtype),
        dt(st.ssm_dtype),
        st.chunk_size
    )
}

/// Reads [`state_text`]'s format (`none` for a model without state layers).
pub fn parse_state(v: &str, layers: u64) -> Result<Option<StateLayers>> {
    let v = v.trim();
    if v == "none" || v.is_empty() {
        return Ok(None);
    }
    let bad = || KvError::Invalid {
        field: "state layers",
        message: crate::tf!(ERR_STATE_FORMAT, crate::error::quoted(v, 40)),
    };
    let parts: Vec<&str> = v.split('-').collect();
    if parts.len() != 10 {
        return Err(bad());
    }
    let (kind, family) = match parts[0] {
        "mamba2" => (StateKind::Mamba2, StateFamily::Generic),
        "mamba2.nemotronh" => (StateKind::Mamba2, StateFamily::NemotronH),
        "mamba2.falconh1" => (StateKind::Mamba2, StateFamily::FalconH1),
        "gdn" => (StateKind::GatedDeltaNet, StateFamily::Generic),
        "gdn.qwen35" => (StateKind::GatedDeltaNet, StateFamily::Qwen35),
        _ => return Err(bad()),
    };
    let mut n = [0u64; 6];
    for (slot, p) in n.iter_mut().zip(&parts[1..7]) {
        *slot = p
            .parse()
            .ok()
            .filter(|x| (1..=MAX_DIM).contains(x))
            .ok_or_else(bad)?;
    }
    let dt = |p: &str| -> Result<Option<ModelDtype>> {
        if p == "auto" {
            Ok(None)
        } else {
            ModelDtype::parse(p).map(Some).map_err(|_| bad())
        }
    };
    let chunk_size: u64 = parts[9]
        .parse()
        .ok()
        .filter(|x| *x <= MAX_DIM)
        .ok_or_else(bad)?;
    let st = StateLayers {
        kind,
        layers: n[0],
        conv_kernel: n[1],
        heads: n[2],
        head_dim: n[3],
        state_dim: n[4],
        groups: n[5],
        conv_dtype: dt(parts[7])?,
        ssm_dtype: dt(parts[8])?,
        family,
        chunk_size,
    };
    if layers > 0 && st.layers > layers {
        return Err(KvError::Invalid {
            field: "state layers",
            message: crate::tf!(ERR_STATE_LAYERS, st.layers, layers),
        });
    }
    Ok(Some(st))
}

// The keys of the attention kinds, read from a model a user describes (written through `attn`).

pub(super) fn window(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::SlidingWindow { window, .. } => Some(window.to_string()),
        _ => None,
    }
}

pub(super) fn sliding_layers(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::SlidingWindow { sliding_layers, .. } => Some(sliding_layers.to_string()),
        _ => None,
    }
}

pub(super) fn full_kv(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::SlidingWindow { full: Some(f), .. } => {
            Some(format!("{}-{}", f.kv_heads, f.head_dim))
        }
        _ => None,
    }
}

pub(super) fn kv_shared(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::SlidingWindow { shared, .. } if shared.total() > 0 => {
            Some(format!("{}-{}", shared.sliding, shared.full))
        }
        _ => None,
    }
}

pub(super) fn latent(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::Mla { latent, .. } => Some(latent.to_string()),
        _ => None,
    }
}

pub(super) fn indexer(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::Mla { indexer, .. } => nonzero(indexer),
        _ => None,
    }
}

pub(super) fn chunk(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::ChunkedLocal { chunk, .. } => Some(chunk.to_string()),
        _ => None,
    }
}

pub(super) fn local_layers(s: &PageScenario) -> Option<String> {
    match custom(s)?.attention {
        Attention::ChunkedLocal { local_layers, .. } => Some(local_layers.to_string()),
        _ => None,
    }
}

/// `mm_item`: a prefix LM's largest multimodal item, in tokens.
pub(super) fn set_mm_item(s: &mut PageScenario, v: &str, _: &Params) -> Result<()> {
    let range = "a whole number of tokens from 0 to 2^40";
    let n = whole("mm_item", v, 0, 1 << 40, range)?;
    super::set_custom(s, |c| c.extras.mm_item_tokens = n);
    Ok(())
}
