//! When vLLM would refuse to start: the changes that make it start, each checked by computing
//! the scenario with it, as data the page turns into one-click actions.

use crate::calc::{checked_context, side, Outcome};
use crate::fields::{MAX_TP, MIN_CTX};
use crate::model::KvDtype;
use crate::presets::{GpuPreset, ModelPreset, MODELS};
use crate::scenario::{GpuChoice, ModelChoice, PageScenario};
use crate::units::thousands;
use crate::vllm::{tp_refusal, RefusalKind, LOAD_RESERVE};

/// One change to the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    /// Another preset (a quantized checkpoint of the same model).
    Model(&'static ModelPreset),
    /// FP8 KV.
    Kv(KvDtype),
    /// A shorter `--max-model-len`.
    Ctx(u64),
    /// Another `--tensor-parallel-size`.
    Tp(u64),
    /// Another GPU.
    Gpu(&'static GpuPreset),
    /// A higher `--gpu-memory-utilization`.
    Util(f64),
    /// Another `--max-num-batched-tokens`.
    Mnbt(u64),
    /// Another `--max-num-seqs`.
    Seqs(u64),
    /// Another `--decode-context-parallel-size` (1: none).
    Dcp(u64),
    /// `--dtype half`: a bfloat16 model run in float16.
    Half,
    /// `--dtype auto` (no `--dtype half`): the model in the dtype vLLM chooses for it.
    Auto,
}

impl Change {
    /// The scenario with the change made.
    pub fn apply(&self, s: &mut PageScenario) {
        match *self {
            Change::Model(p) => {
                s.set_model(ModelChoice::Preset(p));
                s.kv_memory = None;
            }
            Change::Kv(k) => s.kv = k,
            Change::Ctx(c) => {
                s.ctx = c;
                // A prompt + trace longer than the new length falls back to it (the label says
                // the context that then fits).
                if s.context() > c {
                    (s.prompt, s.trace) = (None, None);
                }
            }
            Change::Tp(t) => s.tp = t,
            Change::Gpu(g) => s.gpu = GpuChoice::Preset(g),
            Change::Util(u) => s.util = Some(u),
            Change::Mnbt(n) => s.mnbt = Some(n),
            Change::Seqs(n) => s.seqs = Some(n),
            Change::Dcp(n) => s.knobs.dcp = crate::fields::dcp_knob(n),
            Change::Half => s.knobs.dtype_half = true,
            Change::Auto => s.knobs.dtype_half = false,
        }
    }
    /// A stable key for the kind of change (`data-fix` on the page).
    pub fn key(&self) -> &'static str {
        match self {
            Change::Model(_) => "model",
            Change::Kv(_) => "kv",
            Change::Ctx(_) => "ctx",
            Change::Tp(_) => "tp",
            Change::Gpu(_) => "gpu",
            Change::Util(_) => "util",
            Change::Mnbt(_) => "mnbt",
            Change::Seqs(_) => "seqs",
            Change::Dcp(_) => "dcp",
            Change::Half => "half",
            Change::Auto => "auto",
        }
    }
    /// The change as the flag or choice a user makes.
    pub fn flag(&self) -> String {
        match self {
            Change::Model(p) => crate::tf!(FX_PRESET, p.id()),
            Change::Kv(k) => format!("--kv-cache-dtype {}", k.name()),
            Change::Ctx(c) => format!("--max-model-len {c}"),
            Change::Tp(t) => format!("--tensor-parallel-size {t}"),
            Change::Gpu(g) => crate::tf!(FX_GPU, g.name),
            Change::Util(u) => format!("--gpu-memory-utilization {}", crate::floatfmt::display(*u)),
            Change::Mnbt(n) => format!("--max-num-batched-tokens {n}"),
            Change::Seqs(n) => format!("--max-num-seqs {n}"),
            Change::Dcp(n) => format!("--decode-context-parallel-size {n}"),
            Change::Half => "--dtype half".into(),
            Change::Auto => "--dtype auto".into(),
        }
    }
}

/// A change that makes vLLM start, with what then fits.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// The change.
    pub change: Change,
    /// What fits with it, e.g. `--kv-cache-dtype fp8: 1 sequence of 40,960 tokens fits`.
    pub label: String,
}

/// Sequences that fit once vLLM starts with `t` (None when it would still refuse).
fn fits(t: &PageScenario) -> Option<u64> {
    let context = checked_context(t).ok()?;
    let model = t.model_spec();
    let x = side(t, &model, t.kv, context).ok()?;
    (x.report.refusal.is_none() && x.capped > 0).then_some(x.capped)
}

fn fix(s: &PageScenario, change: Change) -> Option<Fix> {
    let mut t = s.clone();
    change.apply(&mut t);
    let n = fits(&t)?;
    Some(Fix {
        change,
        label: if n == 1 {
            crate::tf!(
                FX_LABEL_ONE,
                change.flag(),
                thousands(n),
                thousands(t.context())
            )
        } else {
            crate::tf!(
                FX_LABEL,
                change.flag(),
                thousands(n),
                thousands(t.context())
            )
        },
    })
}

/// The tensor-parallel sizes vLLM accepts for the model, from 1 up.
fn valid_tps(s: &PageScenario) -> impl Iterator<Item = u64> {
    let (model, version) = (s.model.spec(), s.version);
    (1..=MAX_TP).filter(move |&t| tp_refusal(&model, t, version).is_none())
}

/// Presets of the same model with smaller weights (a quantized checkpoint: `<id>-AWQ`, …).
fn smaller_checkpoints(s: &PageScenario) -> impl Iterator<Item = &'static ModelPreset> {
    let (id, weights) = match &s.model {
        ModelChoice::Preset(p) => (p.id().to_string(), p.spec.weights),
        ModelChoice::Custom(c) => (c.id.to_string(), c.weights),
    };
    MODELS.iter().filter(move |m| {
        m.id().len() > id.len()
            && m.id()[..id.len()].eq_ignore_ascii_case(&id)
            && m.id()[id.len()..].starts_with('-')
            && m.spec.weights < weights
    })
}

/// Whether vLLM starts once `c` is made.
fn starts(s: &PageScenario, c: &Change) -> bool {
    let mut t = s.clone();
    c.apply(&mut t);
    fits(&t).is_some()
}

/// The lowest utilization (in hundredths, above the current one) at which vLLM starts, when one
/// below what the GPU can give exists (vLLM refuses a request above the free memory at start).
fn higher_util(s: &PageScenario) -> Option<Change> {
    let total = s.gpu.total();
    let ceiling = 1.0 - LOAD_RESERVE.0 as f64 / total.0.max(1) as f64;
    let from = (s.util() * 100.0).floor() as u32 + 1;
    (from..=99)
        .map(|h| h as f64 / 100.0)
        .take_while(|u| *u <= ceiling)
        .map(Change::Util)
        .find(|c| starts(s, c))
}

/// A `--max-num-seqs` below the one in force (a power of two) at which vLLM starts: the profile
/// run's batch (the sampler's rows, a hybrid's state) shrinks with it and leaves more memory to
/// the KV cache. Of those, the one where the most sequences then fit (the larger on a tie).
fn fewer_seqs(s: &PageScenario) -> Option<Change> {
    let now = s.seqs();
    (0..11)
        .map(|k| 1u64 << k)
        .filter(|&n| n < now)
        .filter_map(|n| {
            let mut t = s.clone();
            Change::Seqs(n).apply(&mut t);
            fits(&t).map(|fit| (fit, n))
        })
        .max()
        .map(|(_, n)| Change::Seqs(n))
}

/// The changes that make vLLM start, for the refusal of `o` (empty when it starts).
pub fn fixes(s: &PageScenario, o: &Outcome) -> Vec<Fix> {
    let r = &o.chosen.report;
    let Some(refusal) = r.refusal else {
        return Vec::new();
    };
    let mut changes: Vec<Change> = Vec::new();
    match refusal.kind {
        RefusalKind::InvalidTp => {
            let below = valid_tps(s).take_while(|&t| t < s.tp).last();
            let above = valid_tps(s).find(|&t| t > s.tp);
            changes.extend(below.into_iter().chain(above).map(Change::Tp));
            // Decode context parallelism splits the TP group: the largest size that divides
            // this TP (1: none) starts it too, when TP alone is not the reason.
            let dcp = s.knobs.dcp.max(1);
            if dcp > 1 && s.tp % dcp != 0 {
                changes.push(Change::Dcp(crate::capacity::largest_divisor(s.tp, dcp - 1)));
            }
        }
        RefusalKind::BatchedTokens => {
            // As many batched tokens as sequences, or as many sequences as batched tokens.
            let (batched, seqs) = (r.max_num_batched_tokens, r.max_num_seqs);
            return [Change::Mnbt(seqs), Change::Seqs(batched)]
                .into_iter()
                .filter_map(|c| fix(s, c))
                .collect();
        }
        RefusalKind::ModelLimit => {
            // Only a shorter --max-model-len: the model's own limit, or, when one request of
            // that length does not fit the KV cache, vLLM's estimate of the longest that does.
            let mut t = s.clone();
            t.ctx = o.model.max_position;
            let at_limit = side(&t, &o.model, t.kv, t.ctx).ok();
            let longest = at_limit
                .and_then(|x| x.report.estimated_max_len)
                .filter(|&l| l > 0)
                .unwrap_or(t.ctx);
            // (Not below the shortest max_model_len the page takes.)
            return (longest >= MIN_CTX)
                .then(|| fix(s, Change::Ctx(longest)))
                .flatten()
                .into_iter()
                .collect();
        }
        RefusalKind::MaxModelLen => {
            // The same GPU first: fewer sequences, a shorter context, FP8 KV, more memory.
            changes.extend(fewer_seqs(s));
            let longest = r.estimated_max_len.filter(|&l| l >= MIN_CTX);
            changes.extend(longest.map(Change::Ctx));
            if s.kv.bytes(o.model.dtype) > 1 {
                changes.push(Change::Kv(KvDtype::Fp8));
            }
            changes.extend(higher_util(s));
        }
        RefusalKind::NoKvMemory => {
            changes.extend(fewer_seqs(s));
            changes.extend(higher_util(s));
            changes.extend(smaller_checkpoints(s).map(Change::Model));
        }
        RefusalKind::WeightsDoNotFit => {
            changes.extend(smaller_checkpoints(s).map(Change::Model));
        }
        RefusalKind::NoBfloat16 => changes.push(Change::Half),
        RefusalKind::NoFloat16 => changes.push(Change::Auto),
    }
    if refusal.kind != RefusalKind::InvalidTp {
        if let Some(t) = valid_tps(s)
            .filter(|&t| t > s.tp)
            .find(|&t| starts(s, &Change::Tp(t)))
        {
            changes.push(Change::Tp(t));
        }
        // Then other GPUs: the smallest (as vLLM sees them) where it fits, up to three, and
        // only those whose memory differs from this one's by more than 5 % (an A100 80GB for an
        // H100 would start only through another default, which is a flag on this GPU).
        let total = s.gpu.total().0 as f64;
        changes.extend(
            crate::presets::gpus_smallest_first()
                .into_iter()
                .filter(|g| (g.total.0 as f64 - total).abs() > 0.05 * total)
                .map(Change::Gpu)
                .filter(|c| starts(s, c))
                .take(3),
        );
    }
    changes.into_iter().filter_map(|c| fix(s, c)).collect()
}
