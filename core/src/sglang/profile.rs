//! From a scenario to SGLang's pool: the inputs checked, the KV dtype as SGLang spells it, the
//! geometry on the GPU that sets the size, the free memory (given or predicted), the fraction in
//! force, and the profile with its cap, page rounding, split and refusals.

use super::cards;
use super::defaults::{self, Defaults, Inputs, MfsDefault, SpecAlgorithm};
use super::lines;
use super::pool::{self, Geometry, Kind, MambaPool};
use super::report::{Memory, Scenario};
use super::version::{MultimodalRule, SpecPool, SwaRule, Version};
use crate::capacity;
use crate::error::{check_range, truncate, KvError, Result};
use crate::model::{Attention, KvDtype, ModelDtype};
use crate::units::{Bytes, GIB, MIB};

/// `--kv-cache-dtype` as SGLang spells it, its element bytes and its torch name.
pub(super) fn kv_type(s: &Scenario) -> Result<(&'static str, u64, &'static str)> {
    let model_torch = match s.model.dtype {
        ModelDtype::Bf16 => "torch.bfloat16",
        ModelDtype::F16 => "torch.float16",
        ModelDtype::F32 => "torch.float32",
    };
    let (name, bytes, torch) = match s.kv_dtype {
        KvDtype::Auto => ("auto", s.model.dtype.bytes(), model_torch),
        KvDtype::Fp8E4m3 => ("fp8_e4m3", 1, "torch.float8_e4m3fn"),
        KvDtype::Fp8E5m2 => ("fp8_e5m2", 1, "torch.float8_e5m2"),
        KvDtype::Bfloat16 => ("bfloat16", 2, "torch.bfloat16"),
        other => {
            return Err(KvError::Invalid {
                field: "kv_cache_dtype",
                message: format!(
                    "SGLang {} has no {:?}; use one of {}",
                    s.version,
                    other.name(),
                    s.version.kv_dtypes().join(", ")
                ),
            })
        }
    };
    if !s.version.kv_dtypes().contains(&name) {
        return Err(KvError::Invalid {
            field: "kv_cache_dtype",
            message: format!(
                "SGLang {} accepts {} (got {name})",
                s.version,
                s.version.kv_dtypes().join(", ")
            ),
        });
    }
    Ok((name, bytes, torch))
}

fn check_fraction(field: &'static str, x: f64) -> Result<f64> {
    if x.is_finite() && x > 0.0 && x <= 1.0 {
        Ok(x)
    } else {
        Err(KvError::OutOfRange {
            field,
            range: "a number greater than 0 and at most 1",
            got: crate::floatfmt::display(x),
        })
    }
}

fn check_gib(field: &'static str, x: Option<f64>) -> Result<Option<f64>> {
    match x {
        Some(g) if !(g.is_finite() && (0.0..=1e7).contains(&g)) => Err(KvError::OutOfRange {
            field,
            range: "a number of GiB from 0 to 10,000,000",
            got: crate::floatfmt::display(g),
        }),
        other => Ok(other),
    }
}

/// Range checks on everything a user controls.
pub(super) fn validate(s: &Scenario) -> Result<()> {
    s.model.validate()?;
    // SGLang sizes a hybrid's Mamba / GDN state in a pool of its own (`MambaPool`,
    // `--max-mamba-cache-size`), Llama 4's chunked layers and V3.2's indexer its own way;
    // SGLANG-ACCOUNTING covers none of them, so kvbudget says so rather than guess.
    let unmodelled = match s.model.attention {
        Attention::ChunkedLocal { .. } => Some("uses chunked local attention"),
        Attention::Mla { indexer, .. } if indexer > 0 => {
            Some("caches DeepSeek-V3.2's sparse-attention indexer")
        }
        // Gemma 4 (SGLang 0.5.11+, `gemma4_causal.py`): its two layer shapes in two pools, and
        // whether the layers that share a cache are counted in them (0.5.23's pools list every
        // layer of `layer_types`) is not settled from a log.
        _ if s.model.split_kv() => Some(
            "has full-attention layers of their own shape or layers sharing a KV cache (Gemma 4)",
        ),
        _ => None,
    };
    if let Some(what) = unmodelled {
        return Err(KvError::Unsupported(format!(
            "{} {what}; kvbudget's SGLang emulation does not derive it: pick vLLM for this model",
            truncate(&s.model.id, 60)
        )));
    }
    let par = "a whole number from 1 to 1,024";
    check_range("tp_size", s.tp, 1, 1024, par)?;
    check_range("pp_size", s.pp, 1, 1024, par)?;
    check_range("dp_size", s.dp, 1, 1024, par)?;
    capacity::check_stages("pp_size", s.pp, s.model.layers)?;
    if s.dp_attention && (s.dp < 2 || s.tp % s.dp != 0) {
        return Err(KvError::Invalid {
            field: "dp_size",
            message: format!(
                "DP attention needs a dp_size above 1 that divides tp_size (got dp {} with tp {})",
                s.dp, s.tp
            ),
        });
    }
    if let Some(m) = s.mem_fraction_static {
        check_fraction("mem_fraction_static", m)?;
    }
    if let Some(r) = s.extras.swa_full_tokens_ratio {
        check_fraction("swa_full_tokens_ratio", r)?;
    }
    check_gib("pre-load free memory", s.pre_load_free_gib)?;
    check_gib("post-load free memory", s.post_load_free_gib)?;
    let tokens = "a whole number of tokens from 1 to 2^40";
    for (field, v) in [
        ("context_length", s.context_length),
        ("max_total_tokens", s.max_total_tokens),
        ("num_tokens", s.num_tokens),
        ("page_size", s.page_size),
        ("cuda_graph_max_bs", s.cuda_graph_max_bs),
        ("max_running_requests", s.max_running_requests),
    ] {
        if let Some(v) = v {
            check_range(field, v, 1, 1 << 40, tokens)?;
        }
    }
    if let Some(c) = s.chunked_prefill_size {
        if c == 0 || !(-1..=1 << 40).contains(&c) {
            return Err(KvError::OutOfRange {
                field: "chunked_prefill_size",
                range: "-1 (no chunking) or a whole number of tokens from 1 to 2^40",
                got: c.to_string(),
            });
        }
    }
    if s.page_size.is_some_and(|p| p > 1) && !s.version.has_pages() {
        return Err(KvError::Invalid {
            field: "page_size",
            message: format!("exists from SGLang 0.4.4 (got {})", s.version),
        });
    }
    if s.prefill_graph == Some(true)
        && s.version.prefill_graph() == super::version::PrefillGraph::Absent
    {
        return Err(KvError::Invalid {
            field: "prefill CUDA graphs",
            message: format!("exist from SGLang 0.5.4 (got {})", s.version),
        });
    }
    if let Some(g) = s.gpu_mib {
        check_range(
            "GPU memory",
            g,
            1024,
            1 << 24,
            "a whole number of MiB from 1,024 to 2^24",
        )?;
    }
    if let Some(m) = s.mamba() {
        if m.full_attention_layers > s.model.layers || m.conv_bytes + m.ssm_bytes == 0 {
            return Err(KvError::Invalid {
                field: "mamba state",
                message: "needs full-attention layers at most the model's layers and a state of at least 1 byte per request".into(),
            });
        }
        if !(m.ratio.is_finite() && m.ratio > 0.0 && m.ratio <= 100.0) {
            return Err(KvError::OutOfRange {
                field: "mamba_full_memory_ratio",
                range: "a number greater than 0 and at most 100",
                got: crate::floatfmt::display(m.ratio),
            });
        }
    }
    Ok(())
}

/// The architecture SGLang names, if known.
pub(super) fn architecture(s: &Scenario) -> Option<String> {
    s.extras
        .architecture
        .clone()
        .or_else(|| cards::architecture(&s.model.id).map(str::to_string))
}

/// The pool's geometry on the GPU that sets its size.
pub(super) fn geometry(s: &Scenario, elem: u64) -> Geometry {
    let attn_tp = if s.dp_attention { s.tp / s.dp } else { s.tp };
    let stage = capacity::max_stage_layers(s.model.layers, s.pp);
    let scale = |n: u64| capacity::stage_share(n, s.model.layers, s.pp);
    let kind = match s.model.attention {
        Attention::Mla { latent, .. } => Kind::Mla { latent },
        _ => Kind::Mha {
            kv_heads: (s.model.kv_heads / attn_tp.max(1)).max(1),
            head_dim: s.model.head_dim,
            v_head_dim: s.extras.v_head_dim.unwrap_or(s.model.head_dim),
        },
    };
    let hybrid_swa = s.extras.hybrid_swa.unwrap_or_else(|| {
        architecture(s).is_some_and(|a| cards::HYBRID_SWA_ARCHS.contains(&a.as_str()))
    });
    let swa = match s.model.attention {
        Attention::SlidingWindow { .. } if hybrid_swa && s.version.swa_rule() != SwaRule::None => {
            Some((
                scale(s.model.sliding_layers()),
                s.extras.swa_full_tokens_ratio.unwrap_or(0.8),
            ))
        }
        _ => None,
    };
    let layers = match s.mamba() {
        Some(m) => scale(m.full_attention_layers),
        None => stage,
    };
    Geometry {
        kind,
        layers,
        elem,
        swa,
    }
}

/// The free memory before and after loading (GiB), and how it was obtained.
pub(super) fn memory(s: &Scenario, context: Bytes) -> Result<(f64, f64, Memory)> {
    let weights = capacity::weights_per_gpu(s.model.weights, s.tp, s.pp).as_gib();
    let need_weights = |what: &str| {
        if s.model.weights.0 == 0 {
            Err(KvError::Invalid {
                field: "weights",
                message: format!("are needed to predict the free memory {what} loading; give the weights, or both free-memory figures"),
            })
        } else {
            Ok(())
        }
    };
    Ok(match (s.pre_load_free_gib, s.post_load_free_gib) {
        (Some(pre), Some(after)) => (pre, after, Memory::Measured),
        (Some(pre), None) => {
            need_weights("after")?;
            (pre, pre - weights, Memory::HalfPredicted)
        }
        (None, Some(after)) => {
            need_weights("before")?;
            (after + weights, after, Memory::HalfPredicted)
        }
        (None, None) => {
            let gpu = s.gpu_mib.ok_or(KvError::Invalid {
                field: "GPU",
                message: "give the GPU (its nvidia-smi MiB), the free memory before and after loading, or a pool size in tokens".into(),
            })?;
            need_weights("after")?;
            let total = gpu.saturating_mul(MIB);
            let pre = total.saturating_sub(context.0) as f64 / GIB as f64;
            (pre, pre - weights, Memory::Predicted)
        }
    })
}

/// The settings the defaults read.
pub(super) fn inputs(s: &Scenario) -> Inputs {
    Inputs {
        version: s.version,
        gpu_mib: s.gpu_mib,
        tp: s.tp,
        pp: s.pp,
        dp: s.dp,
        dp_attention: s.dp_attention,
        chunked_prefill_size: s.chunked_prefill_size,
        cuda_graph_max_bs: s.cuda_graph_max_bs,
        max_running_requests: s.max_running_requests,
        max_total_tokens: s.max_total_tokens,
        context_length: s.context_length,
        speculative: s.speculative,
        prefill_graph: s.prefill_graph,
        mla: matches!(s.model.attention, Attention::Mla { .. }),
        multimodal: s.model.extras.multimodal.then_some(s.extras.vit),
        llama2: s.model.id.to_ascii_lowercase().contains("llama-2"),
    }
}

/// `mem_fraction_static` in force: the user's (multiplied for a multimodal model up to 0.4.8)
/// or the default.
pub(super) fn fraction(s: &Scenario, d: &Defaults) -> (f64, Option<MfsDefault>) {
    match s.mem_fraction_static {
        Some(m) => {
            let m = match (s.model.extras.multimodal, s.version.multimodal_rule()) {
                (
                    true,
                    MultimodalRule::Times {
                        factor,
                        user_too: true,
                    },
                ) => m * factor,
                _ => m,
            };
            (m, None)
        }
        None => {
            let def = defaults::default_mfs(&inputs(s), d);
            (def.value, Some(def))
        }
    }
}

/// The pool as SGLang sizes it from the memory, or its refusal.
#[derive(Clone, Debug, Default)]
pub(super) struct Pool {
    pub(super) rest_gib: Option<f64>,
    pub(super) profiled: Option<i64>,
    pub(super) tokens: Option<i64>,
    pub(super) swa: Option<i64>,
    pub(super) mamba: Option<MambaPool>,
    pub(super) cell: u64,
    pub(super) warning: Option<String>,
    pub(super) error: Option<(String, &'static str)>,
}

/// `(steps, topk, draft_tokens)` SGLang picks for a draft (`auto_choose_speculative_params`).
fn spec_params(s: &Scenario) -> (i64, i64, i64) {
    let mla = matches!(s.model.attention, Attention::Mla { .. });
    if s.speculative == Some(SpecAlgorithm::Standalone)
        || (mla && s.version >= Version::new(0, 5, 0))
    {
        (3, 1, 4)
    } else {
        (5, 4, 8)
    }
}

/// The profile: rest, Mamba state, cell, tokens, cap, page rounding, split and refusals.
pub(super) fn size_pool(
    s: &Scenario,
    g: &Geometry,
    mfs: f64,
    pre: f64,
    after: f64,
    page: u64,
    ctx: u64,
) -> Pool {
    let v = s.version;
    let mut p = Pool::default();
    let mut rest = pool::rest_gib(pre, after, mfs);
    if s.model.extras.multimodal && v.reserves_vlm_cache() {
        rest -= 100.0 / 1024.0;
    }
    if let Some(m) = s.mamba().filter(|_| rest > 0.0) {
        let mp = pool::mamba_pool(v, rest, m.conv_bytes + m.ssm_bytes, m.ratio, m.max_slots);
        rest -= mp.state_gib;
        p.mamba = Some(mp);
    }
    p.rest_gib = Some(rest);
    // (A refusal leaves the cell as it is: a token's size does not depend on the pool.)
    p.cell = g.cell(v);
    if v.refuses_no_rest() && rest <= 0.0 {
        p.error = Some((lines::no_rest(mfs, pre, after), "ValueError"));
        return p;
    }
    let mut cell = p.cell;
    let drafted = matches!(
        s.speculative,
        Some(SpecAlgorithm::Eagle | SpecAlgorithm::Standalone)
    );
    if drafted && v.spec_pool() == SpecPool::CellScaled && g.layers > 0 {
        let d = s.extras.draft_layers.unwrap_or(1) as f64;
        cell = (cell as f64 * (1.0 + d / g.layers as f64)) as u64;
    }
    p.cell = cell;
    let mut t = match (v.swa_rule(), g.swa_cell(v)) {
        (SwaRule::Cell, Some(c)) => pool::profiled_tokens_float_cell(rest, c),
        _ => pool::profiled_tokens(v, rest, cell),
    };
    p.profiled = Some(t);
    let align = |x: i64| {
        if v.has_pages() {
            x.div_euclid(page as i64) * page as i64
        } else {
            x
        }
    };
    let new_config = v >= Version::new(0, 5, 11);
    if new_config && align(t) <= 0 {
        // pool_configurator.py: the profiled config refuses before any cap applies.
        p.error = Some((lines::not_enough(v, mfs), "RuntimeError"));
        return p;
    }
    if drafted && v.spec_pool() == SpecPool::Inflated {
        // 0.4.5–0.5.6: the shared pool makes room for drafts and verification of every request.
        let reqs = s
            .max_running_requests
            .map_or_else(|| pool::request_estimate(v, t, ctx), |u| u as i64);
        let (steps, topk, draft) = spec_params(s);
        t += reqs * (steps * topk + draft) + 100;
    }
    if let Some(cap) = s.max_total_tokens {
        if cap as i64 > t {
            p.warning = Some(lines::cap_warning(cap, t));
        }
        t = t.min(cap as i64);
    }
    t = align(t);
    if let Some((full, swa)) = pool::swa_split(v, t, g, page) {
        t = full;
        p.swa = Some(swa);
    }
    if t <= 0 {
        p.error = Some((lines::not_enough(v, mfs), "RuntimeError"));
        return p;
    }
    p.tokens = Some(t);
    p
}
