//! The panels the page's first load does without, answered by its worker as data: a plan, a
//! refusal's fixes, the GPU table, and the scenario their buttons give.

use super::Answer;
use crate::calc::{evaluate, plan as plan_of, Outcome};
use crate::fixes::fixes as fixes_of;
use crate::query::{decode, encode};
use crate::scenario::PageScenario;
use crate::units::Bytes;
use crate::vllm::RefusalKind;
use serde::{Deserialize, Serialize};

/// A refusal's fix, as its button shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixView {
    /// What it changes (`model`, `kv`, `ctx`, `tp`, `gpu`, `util`, …: `data-fix`).
    pub key: String,
    /// The change and what then fits.
    pub label: String,
}

/// A row of the GPU table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuRowView {
    /// The preset's slug (the row loads it) and name.
    pub slug: String,
    /// The GPU's name.
    pub name: String,
    /// The memory vLLM sees, in bytes.
    pub total: u64,
    /// Sequences that fit at the context after the cap (0 when refused).
    pub capped: u64,
    /// Why vLLM would not start there.
    pub refusal: Option<RefusalKind>,
    /// All sequences that fit decoding together, tokens/s (0 when none).
    pub aggregate: f64,
}

/// A utilization with its range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct UtilView {
    /// The estimate's.
    pub point: f64,
    /// The optimistic end.
    pub optimistic: f64,
    /// The safe end.
    pub safe: f64,
}

/// The plan's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanFigures {
    /// The lowest utilization giving the sequences, or why none does.
    pub util: Result<UtilView, String>,
    /// `--kv-cache-memory` bytes for exactly the sequences in whole blocks, and the blocks.
    pub kv_cache_memory: u64,
    /// The blocks those bytes hold.
    pub kv_cache_blocks: u64,
    /// When those bytes do not fit the GPU beside the weights: (bytes needed, the GPU's total).
    pub kv_cache_memory_over: Option<(u64, u64)>,
    /// The longest `max_model_len` for the sequences: the estimate's, the safe and the
    /// optimistic end.
    pub longest: (u64, u64, u64),
    /// The smallest tensor-parallel size that gives them.
    pub smallest_tp: Option<u64>,
    /// `max_num_seqs` in force when it is below the sequences.
    pub capped_at: Option<u64>,
    /// Where no utilization gives them with a 16-bit KV cache: the safe end of the lowest that
    /// does with an fp8 one.
    pub fp8_util: Option<f64>,
}

/// The plan for `n` sequences of `context` tokens on vLLM `version`, or why there is none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanView {
    /// The sequences planned for.
    pub n: u64,
    /// Their context, tokens.
    pub context: u64,
    /// The vLLM version.
    pub version: String,
    /// The figures, or why there are none.
    pub figures: Result<PlanFigures, String>,
}

/// A plan button: what it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanButton {
    /// The safe end of the utilization's range.
    Util,
    /// The KV memory in bytes.
    Kv,
    /// `max_num_seqs` raised to the sequences.
    Seqs,
    /// `max_model_len` set to the safe end of the longest for the sequences.
    Ctx,
    /// The smallest tensor-parallel size that holds them.
    Tp,
    /// An fp8 KV cache.
    Fp8,
}

/// The scenario of a query with its evaluation, or why there is none.
fn evaluated(query: &str) -> Result<(PageScenario, Outcome), String> {
    let (s, _) = decode(query);
    match evaluate(&s) {
        Ok(o) => Ok((s, o)),
        Err(e) => Err(e.to_string()),
    }
}

/// The plan of the scenario shown.
pub fn plan_view(s: &PageScenario, o: &Outcome) -> Option<PlanView> {
    let n = s.plan?;
    let figures = plan_of(s, o)?
        .map_err(|e| e.to_string())
        .map(|p| PlanFigures {
            fp8_util: p.util.is_err().then(|| fp8_util(s)).flatten(),
            util: p
                .util
                .map(|u| UtilView {
                    point: u.point,
                    optimistic: u.optimistic,
                    safe: u.safe,
                })
                .map_err(|e| e.to_string()),
            kv_cache_memory: p.kv_cache_memory,
            kv_cache_blocks: p.kv_cache_blocks,
            kv_cache_memory_over: p.kv_cache_memory_over,
            longest: (
                p.longest_context.point,
                p.longest_context.safe,
                p.longest_context.optimistic,
            ),
            smallest_tp: p.smallest_tp,
            capped_at: p.capped_at,
        });
    Some(PlanView {
        n,
        context: o.context,
        version: s.version.to_string(),
        figures,
    })
}

/// The safe end of the lowest utilization giving the plan with an fp8 KV cache, for a scenario
/// whose KV cache is wider.
fn fp8_util(s: &PageScenario) -> Option<f64> {
    let mut t = s.clone();
    t.kv = crate::model::KvDtype::Fp8;
    if t.kv.bytes(s.model_spec().dtype) >= s.kv.bytes(s.model_spec().dtype) {
        return None;
    }
    let o = evaluate(&t).ok()?;
    plan_of(&t, &o)?.ok()?.util.ok().map(|u| u.safe)
}

/// The plan panel of a scenario.
pub fn plan(query: &str) -> Answer {
    match evaluated(query) {
        Ok((s, o)) => Answer::Plan(plan_view(&s, &o)),
        Err(e) => Answer::Failed(e),
    }
}

/// A refusal's fixes.
pub fn fixes(query: &str) -> Answer {
    match evaluated(query) {
        Ok((s, o)) => Answer::Fixes(
            fixes_of(&s, &o)
                .into_iter()
                .map(|f| FixView {
                    key: f.change.key().into(),
                    label: f.label,
                })
                .collect(),
        ),
        Err(e) => Answer::Failed(e),
    }
}

/// The GPU table.
pub fn gpus(query: &str) -> Answer {
    let (s, _) = decode(query);
    Answer::Gpus(
        crate::gpus::compare(&s)
            .into_iter()
            .map(|r| GpuRowView {
                slug: r.gpu.slug.into(),
                name: r.gpu.name.into(),
                total: r.gpu.total.0,
                capped: r.capped,
                refusal: r.refusal,
                aggregate: r.aggregate,
            })
            .collect(),
    )
}

/// What a plan button applies to the scenario `target`: the plan of the scenario shown (`s`,
/// `o`), whose values the panel states, even while a newer edit is refused.
pub fn apply_plan(target: &mut PageScenario, s: &PageScenario, o: &Outcome, which: PlanButton) {
    let Some(Ok(p)) = plan_of(s, o) else { return };
    match which {
        PlanButton::Util => {
            if let Ok(u) = &p.util {
                target.util = Some(u.safe);
            }
        }
        PlanButton::Kv if p.kv_cache_memory_over.is_none() => {
            target.kv_memory = Some(Bytes(p.kv_cache_memory))
        }
        PlanButton::Seqs if p.capped_at.is_some() => {
            target.seqs = s
                .plan
                .filter(|n| crate::fields::parse_seqs(&n.to_string()).is_ok())
        }
        PlanButton::Ctx if p.longest_context.safe >= crate::fields::MIN_CTX => {
            target.ctx = p.longest_context.safe;
            // A prompt + trace longer than the new length falls back to it, as a fix's does.
            if target.context() > target.ctx {
                (target.prompt, target.trace) = (None, None);
            }
        }
        PlanButton::Tp => {
            if let Some(t) = p.smallest_tp {
                target.tp = t;
            }
        }
        PlanButton::Fp8 => target.kv = crate::model::KvDtype::Fp8,
        _ => {}
    }
}

/// A plan button of the scenario shown applied to the scenario as edited.
pub fn plan_apply(which: PlanButton, shown: &str, target: &str) -> Answer {
    match evaluated(shown) {
        Ok((s, o)) => {
            let mut t = decode(target).0;
            apply_plan(&mut t, &s, &o, which);
            Answer::Scenario {
                query: encode(&t),
                notes: Vec::new(),
            }
        }
        Err(e) => Answer::Failed(e),
    }
}

/// The fix at `index` of the scenario shown applied to the scenario as edited.
pub fn fix_apply(index: usize, shown: &str, target: &str) -> Answer {
    match evaluated(shown) {
        Ok((s, o)) => {
            let mut t = decode(target).0;
            if let Some(f) = fixes_of(&s, &o).get(index) {
                f.change.apply(&mut t);
            }
            Answer::Scenario {
                query: encode(&t),
                notes: Vec::new(),
            }
        }
        Err(e) => Answer::Failed(e),
    }
}
