//! What the page shows of its scenario under SGLang, computed in the worker: the headline, the
//! startup lines, the derivation, the charts' data and the repertoire, as an [`EngineView`]; and
//! SGLang as a plug of the seam ([`Sglang`]).

use super::sglang::{sglang_command, sglang_outcome, SglangOutcome};
use super::{EnginePlug, EngineView, Logged, Stat};
use crate::chart_data::{Bar, ChartData, EngineFit};
use crate::model::KvDtype;
use crate::scenario::PageScenario;
use crate::sglang;
use crate::t;
use crate::units::{thousands, MIB};

/// SGLang's headline, under the same `data-testid`s as vLLM's: sequences at the context, the KV
/// per token (its cell), the pool as allocated, tokens in it; then `mem_fraction_static`.
pub fn sglang_stats(o: &SglangOutcome) -> Vec<Stat> {
    let r = &o.report;
    let tokens = r.max_total_num_tokens.unwrap_or(0);
    let range = r
        .range
        .map(|g| {
            t!(rs_range(
                &thousands(g.low_tokens.max(0) as u64),
                &thousands(g.high_tokens.max(0) as u64)
            ))
        })
        .unwrap_or_default();
    vec![
        Stat {
            label: t!(RS_SG_STAT_SEQS).into(),
            testid: "max-seqs".into(),
            value: o.sequences.to_string(),
            text: thousands(o.sequences),
            sub: if r.error.is_some() {
                t!(RS_SGLANG_WONT_START).into()
            } else if o.fit == 0 {
                // (Why 0: one sequence takes more tokens than the pool holds.)
                t!(rs_sg_seqs_none(
                    &thousands(o.tokens_per_sequence),
                    &thousands(tokens)
                ))
            } else {
                t!(rs_sg_seqs_sub(
                    &thousands(o.context),
                    &thousands(r.max_running_requests.unwrap_or(0))
                ))
            },
        },
        Stat {
            label: t!(RS_STAT_BPT).into(),
            testid: "bytes-per-token".into(),
            value: r.cell_size_bytes.to_string(),
            text: format!("{} B", thousands(r.cell_size_bytes)),
            sub: t!(RS_SG_CELL_SUB).into(),
        },
        Stat {
            label: t!(RS_STAT_POOL).into(),
            testid: "kv-pool-bytes".into(),
            value: r.kv_bytes.to_string(),
            text: crate::units::Bytes(r.kv_bytes).to_string(),
            sub: t!(rs_sg_pool_sub(&thousands(r.kv_bytes))),
        },
        Stat {
            label: t!(RS_SG_STAT_KV).into(),
            testid: "kv-tokens".into(),
            value: tokens.to_string(),
            text: t!(rs_tokens(&thousands(tokens))),
            sub: match r.swa_price {
                // The count is the full layers' pool; a token of it costs the full layers' bytes
                // and `r` of a token in every sliding layer (gpt-oss: 44,236.8 B, not 49,152).
                Some((price, ratio)) => t!(rs_sg_tokens_sub_swa(
                    &thousands(price.round() as u64),
                    &crate::floatfmt::display(ratio),
                    &range
                )),
                None => t!(rs_sg_tokens_sub(&thousands(r.cell_size_bytes), &range)),
            },
        },
        Stat {
            label: "mem_fraction_static".into(),
            testid: "sglang-mfs".into(),
            value: r.mem_fraction_static_text.clone(),
            // SGLang's `repr` stays the value; the figure is read by a person (0.72 × 0.95 is
            // 0.6839999999999999 in a float, 0.684 here).
            text: super::fraction(r.mem_fraction_static),
            sub: match &r.mfs_default {
                Some(d) => match d.reserved_mib {
                    Some(m) => t!(rs_sg_default_reserved(
                        &r.version.to_string(),
                        &thousands(m.round() as u64),
                        &thousands(o.gpu_mib)
                    )),
                    None => t!(rs_sg_default(&r.version.to_string())),
                },
                None => t!(RS_AS_GIVEN).into(),
            },
        },
    ]
}

/// What SGLang would print, with its refusal as the exception it raises.
pub fn sglang_lines(o: &SglangOutcome) -> String {
    let r = &o.report;
    let error = r.error_line();
    r.lines
        .iter()
        .cloned()
        .chain(error)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The scenario at another KV dtype and context (no prompt or trace: each sequence holds `ctx`).
fn at(s: &PageScenario, kv: KvDtype, ctx: u64) -> PageScenario {
    PageScenario {
        kv,
        ctx,
        prompt: None,
        trace: None,
        ..s.clone()
    }
}

/// The scenario at another KV dtype: a pool's size taken from a log is that dtype's, so the
/// other's is predicted.
fn other_dtype(s: &PageScenario, kv: KvDtype) -> PageScenario {
    let mut t = PageScenario { kv, ..s.clone() };
    if kv != s.kv {
        t.sglang.num_tokens = None;
    }
    t
}

/// Whole sequences of `ctx` tokens SGLang's pool holds at `kv`, uncapped: 0 where it refuses.
fn whole_sequences(s: &PageScenario, kv: KvDtype, ctx: u64) -> u64 {
    match sglang_outcome(&at(&other_dtype(s, kv), kv, ctx)) {
        Ok(o) if o.report.error.is_none() => o.fit,
        _ => 0,
    }
}

/// GiB as SGLang's floats hold them, in whole bytes.
fn gib_bytes(gib: f64) -> u64 {
    (gib.max(0.0) * crate::units::GIB as f64).round() as u64
}

/// The price of one token of the pool SGLang counts: its cell, or with a sliding-window pool
/// beside it, the full layers' cell and the sliding layers' share of a token.
fn token_price(r: &sglang::Report) -> f64 {
    r.swa_price
        .map_or(r.cell_size_bytes as f64, |(price, _)| price)
}

/// A token's price in bytes with separators and a tenth where it has one: 147,456 or 44,236.8.
fn price_text(p: f64) -> String {
    let tenths = (p * 10.0).round() as u64;
    match tenths % 10 {
        0 => thousands(tenths / 10),
        t => format!("{}.{t}", thousands(tenths / 10)),
    }
}

/// One KV dtype's bar of the memory split as SGLang allocates it: what the GPU holds before
/// loading (CUDA context and other processes), the weights as loaded, the KV buffers (its
/// sequences and what they leave), a hybrid's recurrent state, and what stays free for
/// activations and CUDA graphs. With the pool's size taken from a log, the weights, the KV
/// buffers and the rest of the GPU. Where SGLang refuses, the weights and what they leave (and
/// past the memory free before loading, the part that does not load).
fn memory_bar(s: &PageScenario, kv: KvDtype, o: &SglangOutcome, total: u64) -> Bar {
    use crate::chart_data::{Segment, SegmentKind};
    let r = &o.report;
    let seg = |label: &str, bytes: u64, kind| Segment {
        label: label.to_string(),
        bytes,
        kind,
    };
    let model = s.model_spec();
    let label = kv.label(model.dtype);
    let weights = crate::capacity::weights_per_gpu(model.weights, s.tp, s.pp).0;
    let pre = r.pre_load_free_gib.map(gib_bytes);
    let mut segments = Vec::new();
    if r.error.is_some() {
        let context = pre.map_or(0, |p| total.saturating_sub(p));
        let room = total - context;
        segments.push(seg(
            crate::t!(CH_SEG_CONTEXT),
            context,
            SegmentKind::Context,
        ));
        segments.push(seg(
            crate::t!(CH_SEG_WEIGHTS),
            weights.min(room),
            SegmentKind::Weights,
        ));
        if weights > room {
            segments.push(seg(
                crate::t!(CH_SEG_NO_LOAD),
                weights - room,
                SegmentKind::Overflow,
            ));
        } else {
            segments.push(seg(
                crate::t!(CH_SEG_REST),
                room - weights,
                SegmentKind::Context,
            ));
        }
        return Bar { label, segments };
    }
    let used = ((o.sequences * o.tokens_per_sequence) as f64 * token_price(r)).round() as u64;
    let used = used.min(r.kv_bytes);
    match (pre, r.post_load_free_gib.map(gib_bytes)) {
        (Some(pre), Some(post)) => {
            segments.push(seg(
                crate::t!(CH_SEG_CONTEXT),
                total.saturating_sub(pre),
                SegmentKind::Context,
            ));
            segments.push(seg(
                crate::t!(CH_SEG_WEIGHTS),
                pre.saturating_sub(post),
                SegmentKind::Weights,
            ));
            // What stays free once the pool is allocated: `(1 − mem_fraction_static)` of the
            // free memory, to within the pages the buffers round to.
            segments.push(seg(
                crate::t!(CH_SEG_RESERVED),
                post.saturating_sub(r.kv_bytes + r.state_bytes),
                SegmentKind::Reserved,
            ));
        }
        _ => segments.push(seg(
            crate::t!(CH_SEG_WEIGHTS),
            weights.min(total),
            SegmentKind::Weights,
        )),
    };
    if o.sequences > 0 {
        segments.push(seg(
            &crate::t!(ch_seg_sequences(o.sequences, &thousands(o.context))),
            used,
            SegmentKind::Sequences { count: o.sequences },
        ));
    }
    segments.push(seg(
        crate::t!(CH_SEG_KV_FREE),
        r.kv_bytes - used,
        SegmentKind::KvFree,
    ));
    // The state buffers hold a slot per running request (and a padding row): the sequences'
    // own, then the slots they leave.
    if r.state_bytes > 0 {
        let rows = r.mamba_slots.map_or(1, |n| n.max(0) as u64 + 1);
        let theirs = (r.state_bytes / rows) * o.sequences.min(rows);
        segments.push(seg(crate::t!(CH_SEG_STATE), theirs, SegmentKind::State));
        segments.push(seg(
            crate::t!(CH_SEG_STATE_FREE),
            r.state_bytes - theirs,
            SegmentKind::KvFree,
        ));
    }
    // With the pool taken from a log: all that is not weights, KV or state.
    let drawn: u64 = segments.iter().map(|x| x.bytes).sum();
    if pre.is_none() && total > drawn {
        segments.push(seg(
            crate::t!(CH_SEG_REST),
            total - drawn,
            SegmentKind::Context,
        ));
    }
    Bar { label, segments }
}

/// SGLang's charts' data for the page's scenario `s`, whose outcome under SGLang is `o`: its
/// memory split and its whole sequences per context for 16-bit and FP8 KV, capped by
/// `max_running_requests`, and the decode ceilings with its sequences.
pub fn sglang_charts(s: &PageScenario, o: &SglangOutcome) -> ChartData {
    let model = s.model_spec();
    let kvs = [crate::calc::sixteen_bit(&model), KvDtype::Fp8];
    let total = o.gpu_mib * MIB;
    let memory = kvs
        .iter()
        .map(|&kv| {
            let bar = |x: &SglangOutcome| memory_bar(s, kv, x, total);
            match kv == s.kv {
                true => bar(o),
                false => sglang_outcome(&other_dtype(s, kv)).map_or_else(
                    |_| Bar {
                        label: kv.label(model.dtype),
                        segments: Vec::new(),
                    },
                    |x| bar(&x),
                ),
            }
        })
        .collect();
    let refused = o.report.error.is_some();
    crate::chart_data::charts(
        s,
        &model,
        o.context,
        EngineFit {
            total,
            memory,
            pool: o.report.kv_bytes as i64,
            kvs,
            fit: &|kv, x| whole_sequences(s, kv, x),
            cap: o.report.max_running_requests.unwrap_or(0),
            cap_flag: "max_running_requests",
            sequences: o.sequences,
            refusal: refused.then(|| crate::t!(CH_SG_REFUSES).to_string()),
            budget: None,
        },
    )
}

/// How SGLang sizes the scenario's pool and its sequences, term by term with the figures.
pub fn sglang_derivation(o: &SglangOutcome) -> Vec<(String, String)> {
    use crate::tf;
    use crate::units::fixed2;
    let r = &o.report;
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut row = |term: &str, value: String| rows.push((term.to_string(), value));
    row(
        t!(RS_STAT_BPT),
        tf!(DV_SG_CELL, thousands(r.cell_size_bytes)),
    );
    let tokens = r.max_total_num_tokens.unwrap_or(0);
    match (r.pre_load_free_gib, r.post_load_free_gib, r.rest_gib) {
        (Some(pre), Some(post), Some(rest)) => {
            row(
                t!(DV_SG_FREE),
                match r.memory {
                    sglang::Memory::Predicted | sglang::Memory::HalfPredicted => {
                        tf!(DV_SG_FREE_PREDICTED, fixed2(pre), thousands(o.gpu_mib))
                    }
                    _ => tf!(DV_SG_AS_GIVEN, fixed2(pre)),
                },
            );
            row(t!(DV_SG_AFTER), tf!(DV_SG_AFTER_VALUE, fixed2(post)));
            let pool = post - pre * (1.0 - r.mem_fraction_static);
            row(
                t!(DV_SG_POOL),
                tf!(
                    DV_SG_POOL_VALUE,
                    fixed2(post),
                    fixed2(pre),
                    super::fraction(r.mem_fraction_static),
                    fixed2(pool)
                ),
            );
            // A hybrid's recurrent state (and a vision model's cache) come out of it first.
            if (pool - rest).abs() >= 0.005 {
                row(
                    t!(DV_SG_FOR_CELLS),
                    tf!(
                        DV_SG_FOR_CELLS_VALUE,
                        fixed2(pool),
                        fixed2(pool - rest),
                        fixed2(rest)
                    ),
                );
            }
            row(
                t!(DV_SG_TOKENS),
                tf!(
                    DV_SG_TOKENS_VALUE,
                    fixed2(rest),
                    price_text(token_price(r)),
                    r.page_size,
                    thousands(tokens)
                ),
            );
        }
        _ => row(t!(DV_SG_TOKENS), tf!(DV_SG_TOKENS_GIVEN, thousands(tokens))),
    }
    row(
        t!(DV_SG_PER_SEQ),
        tf!(
            DV_SG_PER_SEQ_VALUE,
            thousands(o.context),
            r.page_size,
            thousands(o.tokens_per_sequence)
        ),
    );
    row(
        t!(DV_SG_SEQS),
        tf!(
            DV_SG_SEQS_VALUE,
            thousands(tokens),
            thousands(o.tokens_per_sequence),
            thousands(o.fit)
        ),
    );
    if let Some(cap) = r.max_running_requests {
        row(
            t!(EX_TERM_CAP),
            tf!(
                DV_SG_CAP_VALUE,
                thousands(o.fit),
                thousands(cap),
                thousands(o.sequences)
            ),
        );
    }
    rows
}

/// The course's repertoire under SGLang with the page's GPU, release, knobs, parallelism and
/// context: each model in 16-bit and FP8 KV, its cell, a sequence's bytes and the sequences that
/// fit after `max_running_requests`. A pool taken from a log is that log's model's: the rows
/// predict their own.
pub fn sglang_repertoire(s: &PageScenario) -> crate::repertoire::RepertoireView {
    use crate::presets::{self, REPERTOIRE};
    use crate::repertoire::RepertoireRow;
    use crate::scenario::ModelChoice;
    use crate::units::{fixed2, GIB};
    let mut rows = Vec::new();
    for p in REPERTOIRE.iter().filter_map(|id| presets::model(id)) {
        for kv in [KvDtype::Auto, KvDtype::Fp8] {
            let mut t = s.clone();
            t.set_model(ModelChoice::Preset(p));
            t.kv = kv;
            t.sglang.num_tokens = None;
            let short = p.id().rsplit('/').next().unwrap_or_default();
            let label = kv.label(p.spec.dtype);
            let mut row = RepertoireRow {
                key: format!("{short}-{}", kv.name()),
                label: t!(rp_load(short, &label)),
                model: short.to_string(),
                model_id: p.id().to_string(),
                kv_name: kv.name().to_string(),
                kv: label,
                fits: "—".into(),
                ..RepertoireRow::default()
            };
            if let Ok(o) = sglang_outcome(&t) {
                let cell = o.report.cell_size_bytes;
                row.bytes_per_token = cell;
                row.kib_per_token = format!("{} KiB", thousands(cell / 1024));
                let per_sequence = o.tokens_per_sequence as f64 * cell as f64;
                row.gib_per_sequence = fixed2(per_sequence / GIB as f64);
                row.sequences = o.sequences;
                row.fits = match o.report.error {
                    Some(_) => t!(RS_SGLANG_WONT_START).into(),
                    None => thousands(o.sequences),
                };
            }
            rows.push(row);
        }
    }
    let from_log = if s.sglang.num_tokens.is_some() {
        t!(RS_EACH_MODEL_BUDGET)
    } else {
        ""
    };
    crate::repertoire::RepertoireView {
        caption: t!(rs_sg_repertoire_caption(
            &s.sglang.version().to_string(),
            &s.gpu.name(),
            &thousands(s.context()),
            from_log
        )),
        rows,
    }
}

/// SGLang behind the seam: its view of the page's scenario and its logs.
pub struct Sglang;

impl EnginePlug for Sglang {
    fn id(&self) -> &'static str {
        "sglang"
    }
    fn name(&self) -> &'static str {
        "SGLang"
    }
    fn view(&self, s: &PageScenario) -> EngineView {
        sglang_engine_view(s)
    }
    fn read_log(&self, text: &str) -> Option<Logged> {
        if !sglang::logparse::is_sglang(text) {
            return None;
        }
        let log = sglang::logparse::parse(text);
        Some(Logged {
            model: log.model.clone(),
            tokens: log.total_tokens(),
        })
    }
}

/// The page's scenario under SGLang: its answer, lines, command, headline, derivation, charts'
/// data, repertoire and notes. Settings SGLang does not accept (or a layout its emulation does
/// not derive) leave the figures out and say why in the notes, in kvbudget's words.
pub fn sglang_engine_view(s: &PageScenario) -> EngineView {
    let mut v = EngineView {
        command: sglang_command(s),
        repertoire: Some(sglang_repertoire(s)),
        ..EngineView::default()
    };
    match sglang_outcome(s) {
        Ok(sg) => {
            v.refused = sg.report.error.is_some();
            let fit = if v.refused {
                t!(RS_SGLANG_WONT_START).to_string()
            } else {
                t!(rs_fit(
                    &thousands(sg.sequences),
                    sg.sequences,
                    &thousands(sg.context)
                ))
            };
            let rest = format!("{} · {} KV · {}", s.model.name(), s.kv.name(), s.gpu.name());
            v.answer = t!(rs_under_sglang(
                &fit,
                v.refused,
                &sg.report.version.to_string(),
                &rest
            ));
            v.lines = sglang_lines(&sg);
            v.stats = sglang_stats(&sg);
            v.derivation = sglang_derivation(&sg);
            v.charts = Some(Box::new(sglang_charts(s, &sg)));
            v.notes = sg.report.notes.clone();
            // Out of memory while loading: no exception line (PyTorch's names the allocation that
            // failed), kvbudget's reckoning instead, said as kvbudget's.
            if let (true, Some(e)) = (sg.report.error_reckoned, &sg.report.error) {
                v.notes.insert(0, e.clone());
            }
        }
        Err(e) => {
            v.refused = true;
            v.answer = format!("SGLang: {e}");
            // Said in kvbudget's words, never in SGLang's lines: SGLang prints none of it (a layout
            // the emulation does not derive is kvbudget's limit, not SGLang's).
            v.notes = vec![match e {
                crate::error::KvError::Unsupported(m) => m,
                e => t!(rs_sg_not_accepted(&e.to_string())),
            }];
        }
    }
    v
}
