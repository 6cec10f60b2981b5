//! The three charts as SVG strings (plotters), pure functions of the core's chart data, drawn at
//! the width they are shown at so that their text is never below 11 CSS px.
//!
//! Axes and text are drawn in `currentColor`, so the page's colour scheme (light or dark) applies.
//! No user-typed text goes into the SVG: titles and names stay in the page's HTML. Legends sit
//! below the plot, never over a curve; log axes are labelled at 1, 2 and 5 × 10ⁿ only.

mod frame;
mod plot;
mod svg;

pub use frame::{tokens_label, ChartError, DEFAULT_WIDTH};

use frame::*;
use kvbudget_core::chart_data::{ChartData, SegmentKind};
use kvbudget_core::floatfmt::fixed;
use kvbudget_core::t;
use kvbudget_core::units::{thousands, GIB};
use plot::{bounds, frame, linear_ticks, log_log_frame, Axis};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

fn segment_color(kind: SegmentKind) -> RGBAColor {
    match kind {
        SegmentKind::Weights => WEIGHTS.to_rgba(),
        SegmentKind::Context => UNCLAIMED,
        SegmentKind::Overhead => OVERHEAD.to_rgba(),
        SegmentKind::Sequences { .. } => SEQ_A.to_rgba(),
        SegmentKind::State => STATE.to_rgba(),
        SegmentKind::KvFree => FREE.to_rgba(),
        SegmentKind::Unclaimed | SegmentKind::Rest => UNCLAIMED,
        // (What SGLang keeps free for activations and graphs: the overhead's colour, lighter.)
        SegmentKind::Reserved => OVERHEAD.mix(0.5),
        SegmentKind::Overflow => OVERFLOW.to_rgba(),
    }
}

/// Memory split on one GPU: weights | overhead | one band per sequence | left over | not claimed,
/// one bar per KV dtype; weights beyond the GPU overflow past its total in a warning colour.
pub fn memory(d: &ChartData, width: u32) -> Result<String, ChartError> {
    let present: Vec<SegmentKind> = SegmentKind::ALL
        .into_iter()
        .filter(|k| {
            d.memory.iter().any(|b| {
                b.segments.iter().any(|s| {
                    s.bytes > 0 && std::mem::discriminant(&s.kind) == std::mem::discriminant(k)
                })
            })
        })
        .collect();
    let legend = Legend(
        present
            .iter()
            .map(|k| (k.legend().to_string(), Mark::Swatch(segment_color(*k))))
            .collect(),
    );
    let bars = d.memory.len().max(1);
    let total_gib = (d.total as f64 / GIB as f64).max(1.0);
    let longest = d
        .memory
        .iter()
        .map(|b| {
            b.segments
                .iter()
                .fold(0u64, |a, s| a.saturating_add(s.bytes))
        })
        .max()
        .unwrap_or(0) as f64
        / GIB as f64;
    // Where weights overflow the GPU, a row above the bars holds the GPU's total (beside the
    // first bar's name it could run into it on a narrow chart); where weights and overhead
    // exceed total × util, that budget, the same way.
    let overflow = longest > total_gib;
    let marked = overflow || d.budget.is_some();
    let headroom = if marked { 0.45 } else { 0.0 };
    let plot_h = 64 + 62 * bars as u32 + if marked { 24 } else { 0 };
    render(width, plot_h, &legend, |root| {
        let xmax = total_gib.max(longest) * 1.02;
        let count = ((width as f64 / 90.0) as usize).clamp(3, 10);
        let mut chart = frame(
            root,
            Axis::linear(0.0, xmax, linear_ticks(xmax, count), |x| {
                thousands(x.round() as u64)
            }),
            Axis::linear(0.0, bars as f64 + headroom, Vec::new(), |_| String::new()),
            8,
            (t!(CH_GIB_AXIS), ""),
        )?;
        let at = |p: (f64, f64)| chart.backend_coord(&p);
        let px_per_gib = (at((1.0, 0.0)).0 - at((0.0, 0.0)).0) as f64;
        let px_per_row = (at((0.0, 0.0)).1 - at((0.0, 1.0)).1) as f64;
        // Where text is written (GiB from, to; rows from, to), for the mark to pass around.
        let mut texts: Vec<(f64, f64, f64, f64)> = Vec::new();
        // Text `dx` px right of and `dy` px below a point of the plot.
        let label = |text: String, (x, y): (f64, f64), (dx, dy): (f64, f64), style| {
            Text::new(text, (x + dx / px_per_gib, y - dy / px_per_row), style)
        };
        for (i, bar) in d.memory.iter().enumerate() {
            let y1 = bars as f64 - i as f64 - 0.22;
            let y0 = bars as f64 - i as f64 - 0.78;
            // The bar's name above it, inside the plot.
            let name = format!("{} KV", bar.label);
            texts.push((
                0.0,
                (text_width(&name, FONT) + 4.0) / px_per_gib,
                y1 + 2.0 / px_per_row,
                y1 + (FONT + 6.0) / px_per_row,
            ));
            let style = font(FONT).pos(Pos::new(HPos::Left, VPos::Bottom));
            chart
                .draw_series([label(name, (0.0, y1), (0.0, -4.0), style)])
                .map_err(err)?;
            let mut x = 0f64;
            for s in &bar.segments {
                let w = s.bytes as f64 / GIB as f64;
                if w <= 0.0 {
                    continue;
                }
                if let SegmentKind::Sequences { count } = s.kind {
                    // One band per sequence (merged beyond 200), in two colours by turns: the
                    // segment in one, and every other band in the other as a single comb-shaped
                    // polygon (its teeth joined along the bottom edge), so two elements draw them.
                    let bands = count.clamp(1, 200);
                    let bw = w / bands as f64;
                    let comb: Vec<(f64, f64)> = (0..bands)
                        .step_by(2)
                        .flat_map(|k| {
                            let (a, b) = (x + k as f64 * bw, x + (k + 1) as f64 * bw);
                            [(a, y0), (a, y1), (b, y1), (b, y0)]
                        })
                        .collect();
                    chart
                        .draw_series([Rectangle::new([(x, y0), (x + w, y1)], SEQ_B.filled())])
                        .map_err(err)?;
                    chart
                        .draw_series([Polygon::new(comb, SEQ_A.filled())])
                        .map_err(err)?;
                } else {
                    let fill = segment_color(s.kind).filled();
                    chart
                        .draw_series([Rectangle::new([(x, y0), (x + w, y1)], fill)])
                        .map_err(err)?;
                }
                // The band's label when it fits inside; the legend names the rest.
                let text = if s.label.ends_with("GiB") {
                    s.label.clone()
                } else {
                    format!("{} {} GiB", s.label, fixed(w, 1))
                };
                let ink = if matches!(s.kind, SegmentKind::Overflow | SegmentKind::State) {
                    WHITE
                } else {
                    BLACK
                };
                let tw = text_width(&text, SMALL);
                if tw + 8.0 < px_per_gib * w {
                    let (half_w, half_h) = (
                        (tw / 2.0 + 3.0) / px_per_gib,
                        (SMALL / 2.0 + 2.0) / px_per_row,
                    );
                    let (cx, cy) = (x + w / 2.0, (y0 + y1) / 2.0);
                    texts.push((cx - half_w, cx + half_w, cy - half_h, cy + half_h));
                    let style = (FontFamily::SansSerif, SMALL)
                        .into_font()
                        .color(&ink)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    chart
                        .draw_series([label(text, (cx, cy), (0.0, 0.0), style)])
                        .map_err(err)?;
                }
                x += w;
            }
        }
        // The GPU's total, marked where weights overflow it; the budget, where weights and
        // overhead exceed it. The label sits left of the line, or right of it where it would
        // run past the plot's left edge.
        let mark = match d.budget {
            _ if overflow => Some((total_gib, t!(ch_gpu_total(&fixed(total_gib, 2))))),
            Some(b) => {
                let gib = b as f64 / GIB as f64;
                Some((gib, t!(ch_budget(&fixed(gib, 2)))))
            }
            None => None,
        };
        if let Some((at_gib, text)) = mark {
            // The line, broken where a bar's name or a band's label lies across it. The texts
            // were written from the top bar down, each bar's name above its labels: in reverse
            // they go up the chart (no sort, whose code would cost the page more than this).
            let top = bars as f64 + headroom;
            let gaps = texts
                .iter()
                .rev()
                .filter(|t| (t.0..=t.1).contains(&at_gib))
                .map(|t| (t.2, t.3));
            let mut from = 0.0;
            for (lo, hi) in gaps.chain([(top, 0.0)]) {
                if lo > from {
                    let piece = [(at_gib, from), (at_gib, lo)];
                    chart
                        .draw_series(LineSeries::new(piece, OVERFLOW.stroke_width(2)))
                        .map_err(err)?;
                }
                from = from.max(hi);
            }
            let (dx, h) = if px_per_gib * at_gib - 4.0 - text_width(&text, FONT) < 0.0 {
                (4.0, HPos::Left)
            } else {
                (-4.0, HPos::Right)
            };
            let style = font(FONT).pos(Pos::new(h, VPos::Top));
            chart
                .draw_series([label(text, (at_gib, top), (dx, 2.0), style)])
                .map_err(err)?;
        }
        Ok(())
    })
}

/// Sequences that fit as the context grows, on log-log axes (the hyperbola `N = M / (S × B)` is
/// a straight line there), 16-bit and FP8, the `max_num_seqs` cap as a band, the operating point.
pub fn concurrency(d: &ChartData, width: u32) -> Result<String, ChartError> {
    let (xmin, xmax) = context_range(d);
    let curve_max = d
        .concurrency
        .iter()
        .flat_map(|c| c.values.iter().copied())
        .max()
        .unwrap_or(0);
    let ymax = (curve_max.max(d.cap).max(d.point.1).max(2) as f64 * 1.8).max(10.0);
    let (ymin, ymax) = (0.8, ymax);
    let mut entries: Vec<(String, Mark)> = d
        .concurrency
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                t!(ch_kv(&c.label)),
                Mark::Line(if i == 0 { BF16 } else { FP8 }),
            )
        })
        .collect();
    let cap = format!("{} {}", d.cap_flag, thousands(d.cap));
    entries.push((t!(ch_cap(&cap)), Mark::Band(CAP.mix(0.15))));
    entries.push(match (&d.refusal, d.point.1) {
        (None, n) if n > 0 => (
            t!(ch_point(&thousands(n), &tokens_label(d.point.0 as f64))),
            Mark::Dot(INK),
        ),
        _ => (
            t!(ch_point_none(&tokens_label(d.point.0 as f64))),
            Mark::Cross(CAP),
        ),
    });
    let legend = Legend(entries);
    render(width, plot_height(width), &legend, |root| {
        let mut chart = log_log_frame(
            root,
            (xmin, xmax),
            (ymin, ymax),
            (t!(CH_CTX_AXIS), t!(CH_SEQS_AXIS)),
        )?;
        let cap = d.cap as f64;
        if cap < ymax {
            let band = Rectangle::new([(xmin, cap), (xmax, ymax)], CAP.mix(0.12).filled());
            chart.draw_series([band]).map_err(err)?;
            let line = [(xmin, cap), (xmax, cap)];
            chart
                .draw_series(LineSeries::new(line, CAP.stroke_width(2)))
                .map_err(err)?;
        }
        for (i, curve) in d.concurrency.iter().enumerate() {
            let color = if i == 0 { BF16 } else { FP8 };
            for run in runs(&d.contexts, curve.values.iter().map(|&v| v as f64), 1.0) {
                chart
                    .draw_series(LineSeries::new(run, color.stroke_width(3)))
                    .map_err(err)?;
            }
        }
        let (px, py) = (d.point.0 as f64, d.point.1 as f64);
        if px >= xmin && px <= xmax {
            if py >= 1.0 && d.refusal.is_none() {
                chart
                    .draw_series([Circle::new((px, py), 6, INK.filled())])
                    .map_err(err)?;
            } else {
                let cross = Cross::new((px, ymin * 1.15), 7, CAP.stroke_width(3));
                chart.draw_series([cross]).map_err(err)?;
            }
        }
        if let Some(words) = &d.refusal {
            overlay(root, bounds(&chart), words)?;
        } else if curve_max == 0 {
            overlay(root, bounds(&chart), t!(CH_NONE_FITS))?;
        }
        Ok(())
    })
}

/// Decode roofline on log-log axes: tokens/s for one sequence alone and for all that fit (capped),
/// under the bandwidth roof and the GPU's compute roof, with the operating point.
pub fn roofline(d: &ChartData, width: u32) -> Result<String, ChartError> {
    let (xmin, xmax) = context_range(d);
    let values = d
        .roofline_single
        .iter()
        .chain(&d.roofline_aggregate)
        .chain(&d.roofline_compute)
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0);
    let ymax = values.clone().fold(1.0f64, f64::max) * 2.0;
    let ymin = values.fold(ymax, f64::min).max(0.1) / 2.0;
    let mut entries = vec![
        (t!(CH_ONE_ALONE).to_string(), Mark::Line(BF16)),
        (t!(CH_ALL_TOGETHER).to_string(), Mark::Line(FP8)),
    ];
    if !d.roofline_compute.is_empty() {
        entries.push((t!(CH_COMPUTE_ROOF).into(), Mark::Line(ROOF)));
    }
    if d.roofline_point.1 > 0.0 {
        entries.push((
            t!(ch_point_rate(&thousands(d.roofline_point.1.round() as u64))),
            Mark::Dot(INK),
        ));
    }
    let legend = Legend(entries);
    render(width, plot_height(width), &legend, |root| {
        let mut chart = log_log_frame(
            root,
            (xmin, xmax),
            (ymin, ymax),
            (t!(CH_CTX_AXIS), t!(CH_DECODE_AXIS)),
        )?;
        if d.roofline_compute.len() == d.contexts.len() {
            let roof = d
                .contexts
                .iter()
                .zip(&d.roofline_compute)
                .map(|(&x, &y)| (x as f64, y.min(ymax)));
            chart
                .draw_series(LineSeries::new(roof, ROOF_DASHED.stroke_width(2)))
                .map_err(err)?;
        }
        for (ys, color) in [(&d.roofline_single, BF16), (&d.roofline_aggregate, FP8)] {
            for run in runs(&d.contexts, ys.iter().copied(), ymin) {
                chart
                    .draw_series(LineSeries::new(run, color.stroke_width(3)))
                    .map_err(err)?;
            }
        }
        let (px, py) = (d.roofline_point.0 as f64, d.roofline_point.1);
        if py > 0.0 && px >= xmin && px <= xmax {
            chart
                .draw_series([Circle::new((px, py), 6, INK.filled())])
                .map_err(err)?;
        }
        if let Some(words) = &d.refusal {
            overlay(root, bounds(&chart), words)?;
        }
        Ok(())
    })
}
