//! What SGLang would compute and print at startup for a scenario: the settings in force, the
//! memory it measures (given, or predicted from the GPU and the weights with a range), the pool,
//! its lines and its refusals.

use super::cards;
use super::defaults::{self, Defaults, MfsDefault, SpecAlgorithm, Vit};
use super::lines::{self, Alloc, LoadEnd, Summary};
use super::pool::{self, Geometry, Requests};
use super::profile::{self, Pool};
use super::version::{LongerContext, Version};
use crate::capacity;
use crate::error::{KvError, Result};
use crate::model::{KvDtype, ModelSpec};
use crate::units::{fixed2, py_float_repr, Bytes, GIB, MIB};

/// A Mamba / GDN / linear-attention hybrid: the state each request keeps beside its KV cache.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mamba {
    /// Layers with a KV cache (full attention); the others keep a fixed state.
    pub full_attention_layers: u64,
    /// Convolution-state bytes per request over all linear layers.
    pub conv_bytes: u64,
    /// SSM / recurrent-state bytes per request over all linear layers.
    pub ssm_bytes: u64,
    /// `--mamba-full-memory-ratio` (0.9): state bytes per KV byte.
    pub ratio: f64,
    /// `--max-mamba-cache-size`, when set.
    pub max_slots: Option<u64>,
}

/// SGLang-specific facts about the model beyond [`ModelSpec`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelExtras {
    /// `architectures[0]` of the config (`None`: from the preset, else unknown).
    pub architecture: Option<String>,
    /// `quant=…, bits=…` as 0.5.10+ logs it (`None`: from the preset).
    pub quantization: Option<String>,
    /// `v_head_dim` when it differs from `head_dim`.
    pub v_head_dim: Option<u64>,
    /// The vision tower of a multimodal model (`extras.multimodal`).
    pub vit: Vit,
    /// A Mamba hybrid's state.
    pub mamba: Option<Mamba>,
    /// Two pools, full and sliding-window (`None`: from the architecture).
    pub hybrid_swa: Option<bool>,
    /// `--swa-full-tokens-ratio` (0.8).
    pub swa_full_tokens_ratio: Option<f64>,
    /// Layers of the speculative draft (EAGLE/MTP heads: 1).
    pub draft_layers: Option<u64>,
}

/// A `python -m sglang.launch_server` scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The model.
    pub model: ModelSpec,
    /// What SGLang reads besides the geometry.
    pub extras: ModelExtras,
    /// The release.
    pub version: Version,
    /// GPU capacity in MiB as `nvidia-smi` reports it (the defaults and the prediction read it).
    pub gpu_mib: Option<u64>,
    /// `Load weight begin. avail mem=` in GiB, when known.
    pub pre_load_free_gib: Option<f64>,
    /// `Load weight end. avail mem=` in GiB, when known.
    pub post_load_free_gib: Option<f64>,
    /// Start from a known pool size (a printed `#tokens`) instead of the memory.
    pub num_tokens: Option<u64>,
    /// `--mem-fraction-static` (`None`: the release's default).
    pub mem_fraction_static: Option<f64>,
    /// `--tp-size`.
    pub tp: u64,
    /// `--pp-size`.
    pub pp: u64,
    /// `--dp-size`.
    pub dp: u64,
    /// `--enable-dp-attention`.
    pub dp_attention: bool,
    /// `--context-length` (`None`: the model's `max_position_embeddings`).
    pub context_length: Option<u64>,
    /// `--kv-cache-dtype`: auto, fp8_e5m2, fp8_e4m3 or bfloat16.
    pub kv_dtype: KvDtype,
    /// `--page-size` (`None`: 1).
    pub page_size: Option<u64>,
    /// `--chunked-prefill-size` (−1 disables chunking).
    pub chunked_prefill_size: Option<i64>,
    /// `--cuda-graph-max-bs`.
    pub cuda_graph_max_bs: Option<u64>,
    /// `--max-running-requests`.
    pub max_running_requests: Option<u64>,
    /// `--max-total-tokens`.
    pub max_total_tokens: Option<u64>,
    /// `--speculative-algorithm`.
    pub speculative: Option<SpecAlgorithm>,
    /// Prefill CUDA graphs on or off (`None`: the release's default).
    pub prefill_graph: Option<bool>,
}

impl Scenario {
    /// A scenario with SGLang's defaults for everything but the model, release and GPU.
    pub fn new(model: ModelSpec, version: Version, gpu_mib: Option<u64>) -> Self {
        Scenario {
            model,
            extras: ModelExtras::default(),
            version,
            gpu_mib,
            pre_load_free_gib: None,
            post_load_free_gib: None,
            num_tokens: None,
            mem_fraction_static: None,
            tp: 1,
            pp: 1,
            dp: 1,
            dp_attention: false,
            context_length: None,
            kv_dtype: KvDtype::Auto,
            page_size: None,
            chunked_prefill_size: None,
            cuda_graph_max_bs: None,
            max_running_requests: None,
            max_total_tokens: None,
            speculative: None,
            prefill_graph: None,
        }
    }

    /// The hybrid state SGLang keeps per request: the one given (`--full-attention-layers`,
    /// `--mamba-*-bytes`), else the model's state layers on one TP rank, the convolution state
    /// in the model's dtype and the temporal state in float32 (SGLang's `--mamba-ssm-dtype`
    /// default): Qwen3.5-27B's 48 GDN layers take 2,949,120 B and 150,994,944 B per request, the
    /// 0.99 GB and 50.77 GB of 361 slots a DGX Spark log prints.
    pub fn mamba(&self) -> Option<Mamba> {
        if let Some(m) = self.extras.mamba {
            return Some(m);
        }
        let st = self.model.state.filter(|st| st.layers > 0)?;
        let tp = self.tp.max(1);
        let fp32 = crate::model::StateLayers {
            ssm_dtype: Some(crate::model::ModelDtype::F32),
            ..st
        };
        Some(Mamba {
            full_attention_layers: self.model.attention_layers(),
            conv_bytes: st.layers * st.conv_bytes(self.model.dtype, tp, 0),
            ssm_bytes: st.layers * fp32.ssm_bytes(self.model.dtype, tp),
            ratio: 0.9,
            max_slots: None,
        })
    }
}

/// Where the free memory before and after loading came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Memory {
    /// Both figures given (as the log prints them).
    Measured,
    /// One given, the other from it and the weights on one GPU.
    HalfPredicted,
    /// Both predicted: `total − CUDA context` and that minus the weights, with a range.
    Predicted,
    /// Not needed: started from a known pool size.
    FromTokens,
}

/// The pool at either end of a predicted memory's range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// `max_total_num_tokens` when the GPU keeps the most (the least free memory).
    pub low_tokens: i64,
    /// … when it keeps the least.
    pub high_tokens: i64,
    /// Free memory before loading at the low end, GiB.
    pub low_pre_gib: f64,
    /// … at the high end.
    pub high_pre_gib: f64,
}

/// Everything SGLang would compute and print.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The release.
    pub version: Version,
    /// `mem_fraction_static` in force (after any multimodal adjustment).
    pub mem_fraction_static: f64,
    /// As SGLang prints it (`repr`).
    pub mem_fraction_static_text: String,
    /// The default and its reserve, when the fraction was not given.
    pub mfs_default: Option<MfsDefault>,
    /// `chunked_prefill_size`, `cuda_graph_max_bs` and the prefill graphs in force.
    pub defaults: Defaults,
    /// `page_size`.
    pub page_size: u64,
    /// `context_len`.
    pub context_len: u64,
    /// Bytes one token costs over the stage's KV layers (SGLang's `cell_size`, draft included
    /// from 0.5.14).
    pub cell_size_bytes: u64,
    /// Where the free memory figures came from.
    pub memory: Memory,
    /// Free memory before loading, GiB (measured or predicted).
    pub pre_load_free_gib: Option<f64>,
    /// Free memory after loading, GiB.
    pub post_load_free_gib: Option<f64>,
    /// `after − pre × (1 − mfs)` (less any Mamba state), GiB.
    pub rest_gib: Option<f64>,
    /// The profiled pool before the cap and page rounding.
    pub profiled_tokens: Option<i64>,
    /// `max_total_num_tokens` (`None` when SGLang refuses).
    pub max_total_num_tokens: Option<u64>,
    /// The sliding-window half of a hybrid pool.
    pub swa_tokens: Option<u64>,
    /// A hybrid sliding-window pool's price of one full-pool token, `F × L_full + r × F × L_swa`
    /// bytes (the sliding layers hold `r` as many tokens), and `r`: what the rest is divided by.
    pub swa_price: Option<(f64, f64)>,
    /// `max_mamba_cache_size` of a Mamba hybrid.
    pub mamba_slots: Option<i64>,
    /// `K size` as printed (MHA).
    pub k_size_gib: Option<String>,
    /// `V size` as printed (MHA).
    pub v_size_gib: Option<String>,
    /// `KV size` as printed (MLA).
    pub kv_size_gib: Option<String>,
    /// Bytes of every KV buffer.
    pub kv_bytes: u64,
    /// Bytes of a hybrid's recurrent-state buffers (conv and SSM, with the padding row).
    pub state_bytes: u64,
    /// `max_running_requests` as the scheduler prints it.
    pub max_running_requests: Option<u64>,
    /// The lines, in order, without the logger prefix.
    pub lines: Vec<String>,
    /// The refusal's message, when SGLang would not start.
    pub error: Option<String>,
    /// Its exception class (`RuntimeError`, `ValueError`).
    pub error_type: Option<&'static str>,
    /// The message is kvbudget's reckoning, not SGLang's text (out of memory while loading:
    /// PyTorch's message names the one allocation that failed, which kvbudget cannot know).
    pub error_reckoned: bool,
    /// The pool at the ends of a predicted memory's range.
    pub range: Option<Range>,
    /// What is estimated rather than computed, in words.
    pub notes: Vec<String>,
}

impl Report {
    /// The refusal as Python prints the exception: its class, then its message (a bare `assert`
    /// prints its class alone).
    pub fn error_line(&self) -> Option<String> {
        let e = self.error.as_ref().filter(|_| !self.error_reckoned)?;
        let kind = self.error_type.unwrap_or("RuntimeError");
        Some(if e.is_empty() {
            kind.to_string()
        } else {
            format!("{kind}: {e}")
        })
    }
}

/// The report for a scenario. `Err` is an input out of range; SGLang's own refusals are in
/// [`Report::error`].
pub fn report(s: &Scenario) -> Result<Report> {
    profile::validate(s)?;
    let (_, elem, torch) = profile::kv_type(s)?;
    let v = s.version;
    let d = defaults::defaults(&profile::inputs(s));
    let (mfs, mfs_default) = profile::fraction(s, &d);
    let page = if v.has_pages() {
        s.page_size.unwrap_or(1)
    } else {
        1
    };
    let ctx = s
        .context_length
        .or((s.model.max_position > 0).then_some(s.model.max_position))
        .ok_or(KvError::Invalid {
            field: "context_length",
            message: "is required when the model has no max_position_embeddings".into(),
        })?;
    let g = profile::geometry(s, elem);
    let context = cards::context_estimate(s.tp * s.pp);
    let (pre, after, memory, p) = match s.num_tokens {
        Some(n) => {
            let p = Pool {
                tokens: Some(n as i64),
                cell: g.cell(v),
                ..Pool::default()
            };
            (None, None, Memory::FromTokens, p)
        }
        None => {
            let (pre, after, mem) = profile::memory(s, context.point)?;
            let p = profile::size_pool(s, &g, mfs, pre, after, page, ctx);
            (Some(pre), Some(after), mem, p)
        }
    };
    let mut notes = Vec::new();
    let range = match memory {
        Memory::Predicted => {
            let at = |c: Bytes| -> Result<(i64, f64)> {
                let (pre, after, _) = profile::memory(s, c)?;
                let p = profile::size_pool(s, &g, mfs, pre, after, page, ctx);
                Ok((p.tokens.unwrap_or(0), pre))
            };
            let (low_tokens, low_pre_gib) = at(context.high)?;
            let (high_tokens, high_pre_gib) = at(context.low)?;
            notes.push(crate::tf!(
                SG_FREE_PREDICTED,
                fixed2(pre.unwrap_or(0.0)),
                fixed2(low_pre_gib),
                fixed2(high_pre_gib),
                s.gpu_mib.unwrap_or(0),
                fixed2(context.point.as_gib()),
                fixed2(context.low.as_gib()),
                fixed2(context.high.as_gib()),
                fixed2(capacity::weights_per_gpu(s.model.weights, s.tp, s.pp).as_gib()),
            ));
            Some(Range {
                low_tokens,
                high_tokens,
                low_pre_gib,
                high_pre_gib,
            })
        }
        Memory::HalfPredicted => {
            notes.push(crate::t!(SG_HALF_PREDICTED).into());
            None
        }
        _ => None,
    };
    let mut r = Report {
        version: v,
        mem_fraction_static: mfs,
        mem_fraction_static_text: py_float_repr(mfs),
        mfs_default,
        defaults: d,
        page_size: page,
        context_len: ctx,
        cell_size_bytes: p.cell,
        memory,
        pre_load_free_gib: pre,
        post_load_free_gib: after,
        rest_gib: p.rest_gib,
        profiled_tokens: p.profiled,
        max_total_num_tokens: None,
        swa_tokens: None,
        swa_price: None,
        mamba_slots: p.mamba.map(|m| m.slots),
        k_size_gib: None,
        v_size_gib: None,
        kv_size_gib: None,
        kv_bytes: 0,
        state_bytes: 0,
        error_reckoned: false,
        max_running_requests: None,
        lines: Vec::new(),
        error: None,
        error_type: None,
        range,
        notes,
    };
    // Read from the model's config before anything loads: a context length past the model's.
    // (A pool taken from a log is a start the log shows: the model it ran may not be the one
    // kvbudget knows by that geometry, so neither check below applies to it.)
    let from_log = s.num_tokens.is_some();
    if let Some(line) = longer_context(s, ctx).filter(|_| !from_log) {
        match v.longer_context() {
            LongerContext::Refused { warning_prefix } => {
                let w = if warning_prefix { "Warning: " } else { "" };
                let msg = format!(
                    "{w}{line} Note that the derived context_length may differ from max_position_embeddings in the model's config. To allow overriding this maximum, set the env var SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"
                );
                return Ok(refused(r, "ValueError", msg, g.cell(v)));
            }
            LongerContext::Warned => r.lines.push(format!("Warning: {line}")),
            LongerContext::Unchecked => {}
        }
    }
    // Building the model, after "Load weight begin": the layers' asserts on the TP size.
    let tp_refused = tp_refusal(&s.model, s.tp).filter(|_| !from_log);
    if let (Some(pre), Some((kind, msg))) = (r.pre_load_free_gib, tp_refused) {
        r.lines.push(lines::load_begin(pre));
        return Ok(refused(r, kind, msg, g.cell(v)));
    }
    // Weights larger than the memory free before loading them: SGLang runs out of memory while
    // loading, before `Load weight end` and any pool (torch raises; the message says why).
    if let (Some(pre), Some(after)) = (r.pre_load_free_gib, r.post_load_free_gib) {
        if after < 0.0 {
            r.lines.push(lines::load_begin(pre));
            // (Said as kvbudget's, in the page's language: PyTorch's message names the one
            // allocation that failed, which kvbudget cannot know.)
            r.error = Some(crate::tf!(
                RS_SG_LOAD_NEED,
                crate::units::gib_figure(capacity::weights_per_gpu(s.model.weights, s.tp, s.pp)),
                fixed2(pre)
            ));
            r.error_type = Some("torch.OutOfMemoryError");
            r.error_reckoned = true;
            r.cell_size_bytes = g.cell(v);
            return Ok(r);
        }
    }
    assemble(s, &g, &p, torch, &mut r);
    Ok(r)
}

/// A refusal that no memory changes (`kind: msg`, a token's `cell` as it is): no pool at either
/// end of the range.
fn refused(mut r: Report, kind: &'static str, msg: String, cell: u64) -> Report {
    r.error = Some(msg);
    r.error_type = Some(kind);
    r.cell_size_bytes = cell;
    if let Some(g) = &mut r.range {
        g.low_tokens = 0;
        g.high_tokens = 0;
    }
    r
}

/// The first sentence SGLang writes when `--context-length` exceeds the model's derived length
/// (taken here as its `max_position_embeddings` as kvbudget reads it, rope scaling included; SGLang
/// ignores a rope factor whose config names `original_max_position_embeddings`).
fn longer_context(s: &Scenario, ctx: u64) -> Option<String> {
    let derived = s.model.max_position;
    (s.context_length.is_some() && derived > 0 && ctx > derived).then(|| {
        format!(
            "User-specified context_length ({ctx}) is greater than the derived context_length ({derived}). This may lead to incorrect model outputs or CUDA errors."
        )
    })
}

/// The asserts SGLang's layers make on the TP size as the model is built, in order: the
/// vocabulary padded to 64 rows (`VocabParallelEmbedding` → `divide`, "{n} is not divisible by
/// {d}", `distributed/utils.py`), then the attention's bare asserts, the heads by TP and the KV
/// heads by TP or TP by them (`models/llama.py`, `qwen2.py`, `qwen3.py`, 0.3.6 and 0.5.23), and a
/// dense MLP's width (`MergedColumnParallelLinear`, `layers/linear.py` 0.5.23); a bare `assert`
/// prints nothing after its class. MLA caches one latent, so its KV heads do not count.
fn tp_refusal(m: &crate::model::ModelSpec, tp: u64) -> Option<(&'static str, String)> {
    use crate::capacity::{layers_split, padded_vocab};
    let tp = tp.max(1);
    let padded = padded_vocab(m);
    if padded % tp != 0 {
        return Some((
            "AssertionError",
            format!("{padded} is not divisible by {tp}"),
        ));
    }
    (m.attention_heads % tp != 0 || !layers_split(m, tp)).then(|| ("AssertionError", String::new()))
}

/// The buffers, `max_running_requests` and the lines, in SGLang's order.
fn assemble(s: &Scenario, g: &Geometry, p: &Pool, torch: &str, r: &mut Report) {
    let v = s.version;
    let arch = profile::architecture(s);
    let quant = s
        .extras
        .quantization
        .clone()
        .or_else(|| cards::quantization(&s.model.id).map(str::to_string));
    let model_torch = match s.model.dtype {
        crate::model::ModelDtype::Bf16 => "torch.bfloat16",
        crate::model::ModelDtype::F16 => "torch.float16",
        crate::model::ModelDtype::F32 => "torch.float32",
    };
    if let (Some(pre), Some(after)) = (r.pre_load_free_gib, r.post_load_free_gib) {
        r.lines.push(lines::load_begin(pre));
        r.lines.push(lines::load_end(
            v,
            &LoadEnd {
                architecture: arch.as_deref().unwrap_or("…"),
                torch_dtype: model_torch,
                quant: quant.as_deref(),
                pre_gib: pre,
                after_gib: after,
            },
        ));
    }
    if v.logs_kv_dtype() {
        r.lines.push(lines::kv_dtype(torch));
    }
    if let Some(w) = &p.warning {
        r.lines.push(w.clone());
    }
    if let Some((msg, kind)) = &p.error {
        r.error = Some(msg.clone());
        r.error_type = Some(kind);
        return;
    }
    let Some(t) = p.tokens else { return };
    let dp = if s.dp_attention { s.dp } else { 1 };
    let (requests, slots) = pool::max_running_requests(
        v,
        &Requests {
            profiled: p.profiled.unwrap_or(t),
            tokens: t,
            context_len: r.context_len,
            user: s.max_running_requests,
            dp,
            mamba_cap: p.mamba.map(|m| m.slots / 3),
        },
    );
    if s.speculative.is_some() {
        r.notes.push(crate::tf!(
            SG_SPEC,
            v,
            match v.spec_pool() {
                super::version::SpecPool::DraftOwn => crate::t!(SG_SPEC_OWN),
                super::version::SpecPool::Inflated => crate::t!(SG_SPEC_INFLATED),
                super::version::SpecPool::Shared => crate::t!(SG_SPEC_SHARED),
                super::version::SpecPool::CellScaled => crate::t!(SG_SPEC_CELL),
            }
        ));
    }
    r.max_total_num_tokens = Some(t as u64);
    r.max_running_requests = Some(requests.max(0) as u64);
    let page = r.page_size;
    let swa_layers = g.swa.map_or(0, |(l, _)| l);
    let (k, vv) = pool::buffer_bytes(v, g, t as u64, page, g.layers - swa_layers);
    let is_mla = vv == 0 && matches!(g.kind, pool::Kind::Mla { .. });
    if is_mla {
        r.kv_size_gib = Some(lines::gib2(k));
    } else {
        r.k_size_gib = Some(lines::gib2(k));
        r.v_size_gib = Some(lines::gib2(vv));
    }
    let full_alloc = Alloc {
        label: None,
        torch_dtype: torch,
        tokens: t as u64,
        k,
        v: (!is_mla).then_some(vv),
    };
    let mut kv_bytes = k + vv;
    if let (Some(m), Some(mp)) = (s.mamba(), p.mamba) {
        // The state buffers hold one padding row beyond `max_mamba_cache_size`.
        let rows = (mp.slots + 1).max(0) as u64;
        r.state_bytes = rows * (m.conv_bytes + m.ssm_bytes);
        r.lines.push(lines::mamba_alloc(
            v,
            mp.slots,
            rows * m.conv_bytes,
            rows * m.ssm_bytes,
        ));
    }
    let mut allocs = vec![full_alloc];
    if let Some(swa) = p.swa {
        r.swa_tokens = Some(swa as u64);
        r.swa_price = g.swa_cell(v).zip(g.swa.map(|(_, ratio)| ratio));
        r.lines.push(lines::swa_pool(v, t, swa));
        let (ks, vs) = pool::buffer_bytes(v, g, swa as u64, page, swa_layers);
        kv_bytes += ks + vs;
        let swa_alloc = Alloc {
            tokens: swa as u64,
            k: ks,
            v: (!is_mla).then_some(vs),
            ..allocs[0].clone()
        };
        if v.labels_swa_pools() {
            allocs[0].label = Some("Full");
            allocs.push(Alloc {
                label: Some("SWA"),
                ..swa_alloc
            });
        } else {
            allocs.insert(0, swa_alloc);
        }
    }
    r.lines
        .extend(allocs.iter().filter_map(|a| lines::kv_alloc(v, a)));
    if let Some(swa) = p.swa {
        if v.logs_swa_usage() {
            r.lines.push(lines::swa_usage(kv_bytes, swa, t));
        }
    }
    r.kv_bytes = kv_bytes;
    let Some(after) = r.post_load_free_gib else {
        r.notes
            .push("started from a pool size: the memory lines need the free memory".into());
        return;
    };
    // Estimates: the KV buffers, the Mamba state and the request table (`int32`, one row of
    // `context_len + 4` per request slot) leave the pool; CUDA graphs take about
    // 2 MiB per decode batch size and 8 MiB per prefill size.
    let mamba_gib = p.mamba.map_or(0.0, |m| m.state_gib);
    let table = slots.max(0) as u64 * (r.context_len + 4) * 4;
    let pool_end = after - (kv_bytes + table) as f64 / GIB as f64 - mamba_gib;
    let graphs = (r.defaults.cuda_graph_max_bs.unwrap_or(160) * 2
        + r.defaults.prefill_graph_sizes * 8)
        * MIB;
    r.lines.push(lines::pool_end(pool_end));
    r.lines.push(lines::summary(
        v,
        &Summary {
            tokens: t,
            chunked: r.defaults.chunked_prefill_size,
            max_prefill: 16384,
            requests,
            context_len: r.context_len,
            available_gib: pool_end - graphs as f64 / GIB as f64,
        },
    ));
    r.notes.push(crate::t!(SG_ESTIMATES).into());
}

/// `python -m sglang.launch_server …` for the scenario: the model and every setting that differs
/// from SGLang's default (the page's serve command).
pub fn launch_command(s: &Scenario) -> String {
    let mut c = format!("python -m sglang.launch_server --model-path {}", s.model.id);
    let mut flag = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            c.push_str(&format!(" --{name} {v}"));
        }
    };
    flag("tp-size", (s.tp > 1).then(|| s.tp.to_string()));
    flag("pp-size", (s.pp > 1).then(|| s.pp.to_string()));
    flag("dp-size", (s.dp > 1).then(|| s.dp.to_string()));
    flag("context-length", s.context_length.map(|x| x.to_string()));
    flag(
        "kv-cache-dtype",
        (s.kv_dtype != KvDtype::Auto).then(|| s.kv_dtype.name().to_string()),
    );
    flag(
        "mem-fraction-static",
        s.mem_fraction_static.map(py_float_repr),
    );
    flag("page-size", s.page_size.map(|x| x.to_string()));
    flag(
        "chunked-prefill-size",
        s.chunked_prefill_size.map(|x| x.to_string()),
    );
    flag(
        "cuda-graph-max-bs",
        s.cuda_graph_max_bs.map(|x| x.to_string()),
    );
    flag(
        "max-running-requests",
        s.max_running_requests.map(|x| x.to_string()),
    );
    flag(
        "max-total-tokens",
        s.max_total_tokens.map(|x| x.to_string()),
    );
    flag(
        "speculative-algorithm",
        s.speculative.map(|a| a.name().to_string()),
    );
    if s.dp_attention {
        c.push_str(" --enable-dp-attention");
    }
    match (s.version.prefill_graph(), s.prefill_graph) {
        (super::version::PrefillGraph::OptIn, Some(true)) => {
            c.push_str(" --enable-piecewise-cuda-graph")
        }
        (super::version::PrefillGraph::Default, Some(false)) => {
            c.push_str(" --disable-piecewise-cuda-graph")
        }
        _ => {}
    }
    c
}

/// Text for `mem_fraction_static` as SGLang prints it (`repr`).
pub fn mfs_text(m: f64) -> String {
    py_float_repr(m)
}

/// The default `mem_fraction_static` of a release on a GPU for a model, as its server arguments
/// print it (`server_args=ServerArgs(… mem_fraction_static=…)`).
pub fn default_fraction(s: &Scenario) -> f64 {
    let d = defaults::defaults(&profile::inputs(s));
    defaults::default_mfs(&profile::inputs(s), &d).printed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_command_names_what_differs() {
        let m = ModelSpec::from_geometry("Qwen/Qwen3-8B", 36, 8, 128);
        let mut s = Scenario::new(m, Version::new(0, 5, 8), Some(24_564));
        assert_eq!(
            launch_command(&s),
            "python -m sglang.launch_server --model-path Qwen/Qwen3-8B"
        );
        s.tp = 2;
        s.kv_dtype = KvDtype::Fp8E4m3;
        s.mem_fraction_static = Some(0.85);
        s.prefill_graph = Some(true);
        assert_eq!(
            launch_command(&s),
            "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2 --kv-cache-dtype fp8_e4m3 --mem-fraction-static 0.85 --enable-piecewise-cuda-graph"
        );
    }
}
