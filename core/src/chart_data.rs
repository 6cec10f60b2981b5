//! The data behind the three charts, typed: the memory split, sequences vs context, and the
//! decode roofline. The drawing (plotters) reads these and never parses a label.

use crate::calc::{compute_roof, decode_moved, decode_weights, roofed, vllm_fit, Outcome};
use crate::capacity;
use crate::error::Result;
use crate::model::{KvDtype, ModelSpec};
use crate::scenario::PageScenario;
use crate::t;
use crate::units::{thousands, Bytes};
use crate::vllm::RefusalKind;
use serde::{Deserialize, Serialize};

/// What a band of the memory split is, which decides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SegmentKind {
    /// What the GPU holds beside the engine's own memory: the CUDA context, other processes.
    Context,
    /// The weights on this GPU.
    Weights,
    /// Activations, CUDA context, graphs.
    Overhead,
    /// `count` sequences at the context, drawn one band each.
    Sequences {
        /// How many.
        count: u64,
    },
    /// A hybrid's fixed state of those sequences (Mamba / Gated DeltaNet), whatever the context.
    State,
    /// KV memory no whole sequence uses.
    KvFree,
    /// `(1 − util) × total`, which vLLM leaves alone.
    Unclaimed,
    /// SGLang's `(1 − mem_fraction_static)` of the free memory before loading, which it keeps
    /// free for activations and CUDA graphs.
    Reserved,
    /// What is left of the GPU when weights and overhead take more than `util × total` (less
    /// than `(1 − util) × total`; vLLM refuses then, with no KV memory).
    Rest,
    /// Weights beyond the GPU's memory: they do not load.
    Overflow,
}

impl SegmentKind {
    /// Every kind, in legend order.
    pub const ALL: [SegmentKind; 10] = [
        SegmentKind::Context,
        SegmentKind::Weights,
        SegmentKind::Overhead,
        SegmentKind::Sequences { count: 0 },
        SegmentKind::State,
        SegmentKind::KvFree,
        SegmentKind::Unclaimed,
        SegmentKind::Reserved,
        SegmentKind::Rest,
        SegmentKind::Overflow,
    ];
    /// What the kind is, for a legend.
    pub fn legend(self) -> &'static str {
        match self {
            SegmentKind::Context => t!(CH_LEG_CONTEXT),
            SegmentKind::Weights => t!(CH_LEG_WEIGHTS),
            SegmentKind::Overhead => t!(CH_LEG_OVERHEAD),
            SegmentKind::Sequences { .. } => t!(CH_LEG_SEQUENCES),
            SegmentKind::State => t!(CH_LEG_STATE),
            SegmentKind::KvFree => t!(CH_LEG_KV_FREE),
            SegmentKind::Unclaimed => t!(CH_LEG_UNCLAIMED),
            SegmentKind::Reserved => t!(CH_LEG_RESERVED),
            SegmentKind::Rest => t!(CH_LEG_REST),
            SegmentKind::Overflow => t!(CH_LEG_OVERFLOW),
        }
    }
}

/// One band of the memory-split chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// What it is, for people.
    pub label: String,
    /// Bytes.
    pub bytes: u64,
    /// Kind, for colouring and banding.
    pub kind: SegmentKind,
}

/// One bar of the memory split: a KV dtype's label and its bands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// The KV dtype, e.g. `BF16 (auto)`.
    pub label: String,
    /// Bands from the left.
    pub segments: Vec<Segment>,
}

/// One curve of sequences vs context.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// The KV dtype, e.g. `FP8`.
    pub label: String,
    /// Sequences that fit at each of [`ChartData::contexts`].
    pub values: Vec<u64>,
}

/// The data behind the three charts, from whichever engine runs the scenario: what the charts
/// draw and what their figures say (their exact values and summaries read nothing else).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartData {
    /// GPU total (the bar length) on one GPU.
    pub total: u64,
    /// Memory split for 16-bit and FP8 KV.
    pub memory: Vec<Bar>,
    /// The KV memory of the chosen dtype, bytes (negative: what is missing).
    pub pool: i64,
    /// Context values (x) shared by the curves.
    pub contexts: Vec<u64>,
    /// Sequences that fit at each context, 16-bit and FP8.
    pub concurrency: Vec<Curve>,
    /// Whole sequences at the context, uncapped, per curve: the KV dtype's name and the count.
    pub fits: Vec<(String, u64)>,
    /// The engine's cap on running sequences.
    pub cap: u64,
    /// The flag that sets it (`max_num_seqs`, `max_running_requests`).
    pub cap_flag: String,
    /// The operating point (context, sequences).
    pub point: (u64, u64),
    /// Decode ceiling per sequence alone at each context, tokens/s.
    pub roofline_single: Vec<f64>,
    /// Aggregate decode ceiling with the sequences that fit (capped), tokens/s, under the
    /// compute roof (0 where nothing fits).
    pub roofline_aggregate: Vec<f64>,
    /// The compute roof at each context, tokens/s (empty when the GPU's TFLOPS are unknown).
    pub roofline_compute: Vec<f64>,
    /// The operating point on the roofline: (context, aggregate tokens/s).
    pub roofline_point: (u64, f64),
    /// The decode ceilings at the operating point: one sequence alone, all together, tokens/s.
    pub decode: (f64, f64),
    /// The compute roof at the operating point, tokens/s (None when the TFLOPS are unknown).
    pub compute_roof: Option<f64>,
    /// Why the engine would not start at the scenario, in the charts' words, if it would not.
    pub refusal: Option<String>,
    /// `total × util` where the weights and the overhead exceed it (no KV memory is left): the
    /// memory split marks it, as the reason for the refusal.
    pub budget: Option<u64>,
}

/// What a refusal means in a chart's words.
pub fn refusal_words(kind: RefusalKind) -> &'static str {
    match kind {
        RefusalKind::WeightsDoNotFit => t!(CH_REFUSE_WEIGHTS),
        RefusalKind::NoKvMemory => t!(CH_REFUSE_NO_KV),
        RefusalKind::MaxModelLen => t!(CH_REFUSE_TOO_LONG),
        RefusalKind::ModelLimit => t!(CH_REFUSE_MODEL_LIMIT),
        RefusalKind::InvalidTp => t!(CH_REFUSE_TP),
        RefusalKind::BatchedTokens => t!(CH_REFUSE_BATCHED),
        RefusalKind::NoBfloat16 => t!(CH_REFUSE_BF16),
        RefusalKind::NoFloat16 => t!(CH_REFUSE_FP16),
    }
}

/// What an engine says of the scenario that the charts draw: the memory split per KV dtype, how
/// many whole sequences of a context fit (uncapped) per KV dtype, its cap, the sequences at the
/// operating point (capped; 0 when it refuses) and its refusal in the charts' words.
pub struct EngineFit<'a> {
    /// The GPU's total as the engine sees it, bytes.
    pub total: u64,
    /// The memory split, one bar per KV dtype of `kvs`.
    pub memory: Vec<Bar>,
    /// The KV memory of the chosen dtype, bytes.
    pub pool: i64,
    /// The KV dtypes of the curves, 16-bit then FP8.
    pub kvs: [KvDtype; 2],
    /// Whole sequences of a context (uncapped) for a KV dtype.
    pub fit: &'a dyn Fn(KvDtype, u64) -> u64,
    /// The cap on running sequences.
    pub cap: u64,
    /// The flag that sets it.
    pub cap_flag: &'static str,
    /// Sequences at the operating point, capped.
    pub sequences: u64,
    /// Why the engine would not start, in the charts' words.
    pub refusal: Option<String>,
    /// Where weights and overhead exceed the engine's budget, that budget.
    pub budget: Option<u64>,
}

/// Context values for the curves: log-spaced from 512 (or the smallest `extra` point below it,
/// so a short operating point stays on the chart) to `max`, plus `extra` points, sorted.
fn contexts(max: u64, extra: &[u64]) -> Vec<u64> {
    let start = extra
        .iter()
        .copied()
        .filter(|&x| x >= 1)
        .fold(512, u64::min);
    let (lo, hi) = ((start as f64).ln(), (max.max(1024) as f64).ln());
    let n = 48;
    let mut v: Vec<u64> = (0..=n)
        .map(|i| (lo + (hi - lo) * i as f64 / n as f64).exp().round() as u64)
        .collect();
    // Ascending already; each extra point goes in at its place (no sort code on the page).
    v.dedup();
    for &x in extra
        .iter()
        .filter(|&&x| (start..=max.max(1024)).contains(&x))
    {
        let at = v.partition_point(|&y| y < x);
        if v.get(at) != Some(&x) {
            v.insert(at, x);
        }
    }
    v
}

/// The memory split of each of the outcome's two dtypes.
fn memory(s: &PageScenario, o: &Outcome, total: Bytes) -> Vec<Bar> {
    let state = capacity::state_bytes_per_sequence(&o.model, s.tp, s.pp).0 as u128;
    o.pair
        .iter()
        .map(|p| {
            let overflow = o.weights_per_gpu > total;
            let mut segments = vec![Segment {
                // Past the GPU's total the band is cut: its label says the whole size.
                label: if overflow {
                    t!(ch_seg_weights_over(&crate::floatfmt::fixed(
                        o.weights_per_gpu.as_gib(),
                        1
                    )))
                } else {
                    t!(CH_SEG_WEIGHTS).into()
                },
                bytes: o.weights_per_gpu.0.min(total.0),
                kind: SegmentKind::Weights,
            }];
            if overflow {
                segments.push(Segment {
                    label: t!(CH_SEG_NO_LOAD).into(),
                    bytes: o.weights_per_gpu.0 - total.0,
                    kind: SegmentKind::Overflow,
                });
                return Bar {
                    label: p.kv.label(o.model.dtype),
                    segments,
                };
            }
            segments.extend([Segment {
                label: t!(CH_SEG_OVERHEAD).into(),
                bytes: o.overhead.0,
                kind: SegmentKind::Overhead,
            }]);
            // The sequences the headline counts: vLLM's whole blocks, capped by max_num_seqs
            // (none when vLLM refuses), each the blocks vLLM gives it (with windowed layers, the
            // window and the tokens in flight of every group: more than the formula's bytes);
            // what they leave of the pool is the free band.
            let n = p.capped;
            let pool = p.pool.max(0) as u128;
            let per_sequence = match p.blocks_per_sequence {
                0 => p.bytes_per_sequence.0 as u128,
                b => b as u128 * p.report.block_bytes as u128,
            };
            let used = (n as u128 * per_sequence).min(pool) as u64;
            // A hybrid's state is its own band after the sequences' per-token cache.
            let states = (n as u128 * state).min(used as u128) as u64;
            if n > 0 {
                segments.push(Segment {
                    label: t!(ch_seg_sequences(n, &thousands(o.context))),
                    bytes: used - states,
                    kind: SegmentKind::Sequences { count: n },
                });
            }
            if states > 0 {
                segments.push(Segment {
                    label: t!(CH_SEG_STATE).into(),
                    bytes: states,
                    kind: SegmentKind::State,
                });
            }
            segments.push(Segment {
                label: t!(CH_SEG_KV_FREE).into(),
                bytes: (p.pool.max(0) as u64).saturating_sub(used),
                kind: SegmentKind::KvFree,
            });
            // What vLLM leaves unclaimed; when weights and overhead take more than their budget
            // (no KV memory is left), only what they leave of the GPU, named as such (the bar
            // never outgrows the GPU for it).
            let taken = o.weights_per_gpu.0.saturating_add(o.overhead.0);
            let (label, kind) = if over_budget(o) {
                (t!(CH_SEG_REST), SegmentKind::Rest)
            } else {
                (t!(CH_SEG_UNCLAIMED), SegmentKind::Unclaimed)
            };
            segments.push(Segment {
                label: label.into(),
                bytes: total.0.saturating_sub(taken.max(o.requested)),
                kind,
            });
            Bar {
                label: p.kv.label(o.model.dtype),
                segments,
            }
        })
        .collect()
}

/// Whether weights and overhead take more than `total × util` (no KV memory is left).
fn over_budget(o: &Outcome) -> bool {
    o.weights_per_gpu.0.saturating_add(o.overhead.0) > o.requested
}

/// The charts' data for `o`, vLLM's outcome of `s`.
pub fn build(s: &PageScenario, o: &Outcome) -> Result<ChartData> {
    let model = &o.model;
    let total = s.gpu.total();
    let refused = o.chosen.report.refusal.map(|r| r.kind);
    Ok(charts(
        s,
        model,
        o.context,
        EngineFit {
            total: total.0,
            memory: memory(s, o, total),
            pool: o.chosen.pool.clamp(i64::MIN as i128, i64::MAX as i128) as i64,
            kvs: [o.pair[0].kv, o.pair[1].kv],
            fit: &|kv, x| vllm_fit(s, model, kv, x),
            cap: s.seqs(),
            cap_flag: "max_num_seqs",
            sequences: o.chosen.capped,
            refusal: refused.map(|k| refusal_words(k).to_string()),
            budget: (over_budget(o) && o.weights_per_gpu <= total).then_some(o.requested),
        },
    ))
}

/// The charts' data for `model` at `context` tokens under an engine's figures `e`: the curves
/// and the roofline follow from its fit; the decode ceilings are the GPU's and the model's.
pub fn charts(s: &PageScenario, model: &ModelSpec, context: u64, e: EngineFit<'_>) -> ChartData {
    let xmax = if model.max_position > 0 {
        model.max_position.max(s.ctx)
    } else {
        s.ctx.max(32_768)
    };
    let xs = contexts(xmax, &[context]);
    let curve = |kv: KvDtype| -> Vec<u64> { xs.iter().map(|&x| (e.fit)(kv, x)).collect() };
    let concurrency: Vec<Curve> = e
        .kvs
        .iter()
        .map(|&kv| Curve {
            label: kv.label(model.dtype),
            values: curve(kv),
        })
        .collect();
    let chosen_curve: Vec<u64> = match e.kvs.iter().position(|&kv| kv == s.kv) {
        Some(i) => concurrency[i].values.clone(),
        None => curve(s.kv),
    };
    let bw = s.gpu.bandwidth_gbs();
    let ceiling = |t: u64, n: u64| {
        let weights = decode_weights(s, model, n);
        capacity::decode_ceiling_moving(bw, weights, decode_moved(s, model, s.kv, t), n)
    };
    let roof = |t: u64| compute_roof(s, model, t);
    // One sequence alone, where one fits (none fits where the curve is 0).
    let roofline_single = xs
        .iter()
        .zip(&chosen_curve)
        .map(|(&t, &n)| match n {
            0 => 0.0,
            _ => roofed(ceiling(t, 1), roof(t)).per_sequence,
        })
        .collect();
    let roofline_aggregate = xs
        .iter()
        .zip(&chosen_curve)
        .map(|(&t, &n)| match n.min(e.cap) {
            0 => 0.0,
            n => roofed(ceiling(t, n), roof(t)).aggregate,
        })
        .collect();
    let roofline_compute = xs.iter().filter_map(|&t| roof(t)).collect();
    // (The operating point's weights as the page's numbers read them: those its sequences touch.)
    let at = roofed(
        capacity::decode_ceiling_moving(
            bw,
            decode_weights(s, model, e.sequences),
            decode_moved(s, model, s.kv, context),
            e.sequences.max(1),
        ),
        roof(context),
    );
    let rate = if e.refusal.is_some() || e.sequences == 0 {
        0.0
    } else {
        at.aggregate
    };
    ChartData {
        total: e.total,
        memory: e.memory,
        pool: e.pool,
        // (The context is one of the curves' points: read there, not evaluated again.)
        fits: e
            .kvs
            .iter()
            .zip(&concurrency)
            .map(|(&kv, c)| {
                let at = xs.iter().position(|&x| x == context);
                let n = at.map_or_else(|| (e.fit)(kv, context), |i| c.values[i]);
                (kv.name().to_string(), n)
            })
            .collect(),
        contexts: xs,
        concurrency,
        cap: e.cap,
        cap_flag: e.cap_flag.to_string(),
        point: (context, e.sequences),
        roofline_single,
        roofline_aggregate,
        roofline_compute,
        roofline_point: (context, rate),
        decode: (at.per_sequence, at.aggregate),
        compute_roof: roof(context),
        refusal: e.refusal,
        budget: e.budget,
    }
}

#[cfg(test)]
mod context_tests {
    use super::contexts;

    #[test]
    fn contexts_are_ascending_without_repeats_and_hold_the_extra_points() {
        for (max, extra) in [
            (8192, vec![8192, 4096, 100, 600, 600]),
            (131_072, vec![131_072, 512, 32_768, 1 << 30]),
            (100, vec![512, 1024, 700]),
        ] {
            let v = contexts(max, &extra);
            // From 512, or the smallest extra point below it (100 in the first case).
            let start = extra.iter().copied().fold(512, u64::min);
            // The same list as sorting everything and dropping repeats.
            let mut reference = v.clone();
            reference.extend(
                extra
                    .iter()
                    .copied()
                    .filter(|&x| (start..=max.max(1024)).contains(&x)),
            );
            reference.sort_unstable();
            reference.dedup();
            assert_eq!(v, reference, "max {max}");
            assert_eq!((v[0], *v.last().unwrap()), (start, max.max(1024)));
        }
    }
}
