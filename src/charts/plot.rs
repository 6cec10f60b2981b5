//! A plot's frame on plotters' chart API: `ChartBuilder` lays out the margins and the label
//! areas, the axes are plotters coordinates ([`Axis`], linear or logarithmic, with the ticks the
//! charts choose and their labels written without float formatting), and `configure_mesh` draws
//! the grid and the tick labels (thinned where they would run together). The axes' lines and
//! their tick marks are drawn first, as one path (the mesh would draw each tick between two
//! labels, one SVG element per tick), then the axis titles (see [`title_place`]).

use super::frame::{err, font, log_ticks, text_width, tick_label, ChartError, Root};
use super::frame::{FONT, GRID, INK, PX};
use super::svg::Svg;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// One axis: its range, whether it is logarithmic, its ticks and how they are labelled.
pub(super) struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    /// The ends on the axis' scale (their logarithms on a log axis), worked out once: every
    /// point drawn maps through them.
    ends: (f64, f64),
    ticks: Vec<f64>,
    label: fn(f64) -> String,
}

impl Axis {
    /// A linear axis from `lo` to `hi`, ticked at `ticks`.
    pub(super) fn linear(lo: f64, hi: f64, ticks: Vec<f64>, label: fn(f64) -> String) -> Axis {
        Axis {
            lo,
            hi,
            log: false,
            ends: (lo, hi),
            ticks,
            label,
        }
    }

    /// A logarithmic axis from `lo` to `hi`, ticked at 1, 2 and 5 × 10ⁿ.
    pub(super) fn log(lo: f64, hi: f64, label: fn(f64) -> String) -> Axis {
        Axis {
            lo,
            hi,
            log: true,
            ends: (lo.ln(), hi.ln()),
            ticks: log_ticks(lo, hi),
            label,
        }
    }

    /// Where `v` falls between the ends, 0 … 1.
    fn share(&self, v: f64) -> f64 {
        let (lo, hi) = self.ends;
        let v = if self.log { v.ln() } else { v };
        if hi > lo {
            (v - lo) / (hi - lo)
        } else {
            0.0
        }
    }
}

impl Ranged for Axis {
    /// Labels come from [`ValueFormatter`] below, not from `Debug` (whose float formatting the
    /// page would carry).
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, (from, to): (i32, i32)) -> i32 {
        (f64::from(from) + self.share(*v) * f64::from(to - from)).round() as i32
    }

    /// The ticks as the mesh's bold lines, and no light lines between them.
    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

impl ValueFormatter<f64> for Axis {
    fn format_ext(&self, v: &f64) -> String {
        (self.label)(*v)
    }
}

/// A chart on the project's SVG backend with two [`Axis`].
pub(super) type Chart<'c, 's> = ChartContext<'c, Svg<'s>, Cartesian2d<Axis, Axis>>;

/// The margins around a plot (right: room for the last tick label) and the x label area (tick
/// labels and the axis title).
const MARGIN: u32 = 12;
const MARGIN_RIGHT: u32 = 20;
const X_LABELS: u32 = 44;
/// The tick marks' length, and the tick labels' distance from the axis (plotters puts them twice
/// its own tick marks' size away).
const TICK: i32 = 5;
const LABEL_GAP: i32 = 6;

/// The plot's pixel box, in the drawing's coordinates: (left, top, right, bottom).
pub(super) fn bounds(chart: &Chart<'_, '_>) -> (i32, i32, i32, i32) {
    let (x, y) = chart.plotting_area().get_pixel_range();
    (x.start, y.start, x.end - 1, y.end - 1)
}

/// An axis title's size and centre on an area `len` px long: centred on `mid` (the plot's
/// middle), moved inward to stay 4 px inside the area, and smaller (down to 11 px) where it is
/// longer than the area (a Chinese title at phone width ran 2 px past the chart's edge). Drawn
/// here rather than by the mesh, which centres both titles on the plot in one shared style: at
/// phone width the y title would have to shrink to 11 px, and the x title with it.
fn title_place(text: &str, mid: i32, len: i32) -> (f64, i32) {
    let room = f64::from((len - 8).max(1));
    let size = FONT.min(room * PX / text_width(text, PX)).max(11.0 * PX);
    let half = (text_width(text, size) / 2.0).ceil() as i32;
    let centre = if 4 + half <= len - 4 - half {
        mid.clamp(4 + half, len - 4 - half)
    } else {
        len / 2
    };
    (size, centre)
}

/// The chart on `area`, `y_labels` px of y tick labels wide: the axes with their ticks, the axis
/// titles (`y_desc` empty: none), the grid and the tick labels.
pub(super) fn frame<'c, 's>(
    area: &Root<'s>,
    x: Axis,
    y: Axis,
    y_labels: u32,
    (x_desc, y_desc): (&str, &str),
) -> Result<Chart<'c, 's>, ChartError> {
    let (xs, ys, x_label, y_label) = (x.ticks.clone(), y.ticks.clone(), x.label, y.label);
    let (x_lo, y_lo) = (x.lo, y.lo);
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN)
        .margin_right(MARGIN_RIGHT)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    let (left, top, right, bottom) = bounds(&chart);
    let px: Vec<i32> = xs
        .iter()
        .map(|&v| chart.backend_coord(&(v, y_lo)).0)
        .collect();
    let py: Vec<i32> = ys
        .iter()
        .map(|&v| chart.backend_coord(&(x_lo, v)).1)
        .collect();
    // The axes just outside the plotting rectangle, left and below, and their ticks: one path,
    // drawn on `area` (whose pixels are the drawing's: the plot's area starts at its origin).
    let axes = [
        [(left - 1, top), (left - 1, bottom)],
        [(left, bottom + 1), (right, bottom + 1)],
    ];
    let ticks = px
        .iter()
        .map(|&x| [(x, bottom + 1), (x, bottom + 1 + TICK)])
        .chain(py.iter().map(|&y| [(left - 1 - TICK, y), (left - 1, y)]));
    for line in axes.into_iter().chain(ticks) {
        area.draw(&PathElement::new(line, INK)).map_err(err)?;
    }
    // The axis titles, below the x labels and left of the y labels.
    let (w, h) = area.dim_in_pixel();
    let (size, cx) = title_place(x_desc, (left + right) / 2, w as i32);
    let below = Pos::new(HPos::Center, VPos::Bottom);
    let at = (cx, h as i32 - MARGIN as i32);
    area.draw(&Text::new(x_desc, at, font(size).pos(below)))
        .map_err(err)?;
    if !y_desc.is_empty() {
        let (size, cy) = title_place(y_desc, (top + bottom) / 2, h as i32);
        let turned = font(size)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top));
        area.draw(&Text::new(y_desc, (MARGIN as i32, cy), turned))
            .map_err(err)?;
    }
    // Which labels are drawn. A y label is a line of 13 px text centred on its tick: on a short
    // axis over many decades (a phone-width chart from 1 to 500,000 sequences) they would
    // overlap.
    let half: Vec<i32> = xs
        .iter()
        .map(|&v| (text_width(&x_label(v), FONT) / 2.0) as i32)
        .collect();
    let x_keep = thin(&px, &half, &xs, 6);
    let up: Vec<i32> = py.iter().map(|&y| -y).collect();
    let y_keep = thin(&up, &vec![7; ys.len()], &ys, 3);
    let (x_fmt, y_fmt) = (kept(xs, x_keep, x_label), kept(ys, y_keep, y_label));
    let mut mesh = chart.configure_mesh();
    mesh.bold_line_style(GRID)
        // The axes and ticks are drawn above; the mesh's are transparent (the backend writes
        // nothing for them), their size only sets the labels' distance from the axis.
        .axis_style(TRANSPARENT)
        .set_all_tick_mark_size(LABEL_GAP / 2)
        .x_label_style(font(FONT))
        .y_label_style(font(FONT))
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt);
    mesh.draw().map_err(err)?;
    Ok(chart)
}

/// A label formatter: the labels of the `ticks` that `keep` marks, empty for the others (the
/// backend writes no empty text).
fn kept(ticks: Vec<f64>, keep: Vec<bool>, label: fn(f64) -> String) -> impl Fn(&f64) -> String {
    move |v| {
        if ticks.iter().zip(&keep).any(|(t, &k)| k && t == v) {
            label(*v)
        } else {
            String::new()
        }
    }
}

/// Which tick labels to draw, at `pos` (px, increasing along the axis) with half-extents `half`
/// for the values `vs`: every one where they all clear each other by `gap` px; else those at
/// powers of ten (two at least); else each that clears the one before (a narrow log axis
/// spanning 1k–200k ran "50k100k200k").
fn thin(pos: &[i32], half: &[i32], vs: &[f64], gap: i32) -> Vec<bool> {
    let mut keep = vec![true; vs.len()];
    for pass in 0..3 {
        let (mut end, mut clear, mut kept) = (i32::MIN / 2, true, 0);
        for i in 0..vs.len() {
            let l = vs[i].log10();
            keep[i] = pass != 1 || vs[i] > 0.0 && (l - l.round()).abs() < 1e-9;
            if !keep[i] {
                continue;
            }
            if pos[i] - half[i] < end + gap {
                clear = false;
                if pass == 2 {
                    keep[i] = false;
                    continue;
                }
            }
            end = pos[i] + half[i];
            kept += 1;
        }
        if clear && kept >= 2 || pass == 2 {
            break;
        }
    }
    keep
}

/// A chart with both axes logarithmic, its grid and 1-2-5 tick labels.
pub(super) fn log_log_frame<'c, 's>(
    plot: &Root<'s>,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    descs: (&str, &str),
) -> Result<Chart<'c, 's>, ChartError> {
    let y_labels = (text_width(&tick_label(y1, false), FONT) + 30.0) as u32;
    frame(
        plot,
        Axis::log(x0, x1, |x| tick_label(x, true)),
        Axis::log(y0, y1, |y| tick_label(y, false)),
        y_labels,
        descs,
    )
}

/// At most `count` ticks at 1, 2 or 5 × 10ⁿ apart from 0 to `hi`.
pub(super) fn linear_ticks(hi: f64, count: usize) -> Vec<f64> {
    // (Also catches a NaN.)
    if hi.is_nan() || hi <= 0.0 || count < 2 {
        return vec![0.0];
    }
    let mut step = 10f64.powi((hi / count as f64).log10().floor() as i32);
    for m in [1.0, 2.0, 5.0, 10.0].iter().cycle() {
        let s = step * m;
        if ((hi / s).floor() as usize) < count {
            step = s;
            break;
        }
        if *m == 10.0 {
            step *= 10.0;
        }
    }
    (0..=(hi / step).floor() as usize)
        .map(|k| k as f64 * step)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_step_by_1_2_5() {
        assert_eq!(linear_ticks(24.5, 8), vec![0.0, 5.0, 10.0, 15.0, 20.0]);
        assert_eq!(
            linear_ticks(81.6, 10),
            (0..=8).map(|k| k as f64 * 10.0).collect::<Vec<_>>()
        );
        assert_eq!(
            linear_ticks(7.0, 10),
            (0..=7).map(|k| k as f64).collect::<Vec<_>>()
        );
        assert_eq!(linear_ticks(0.0, 5), vec![0.0]);
    }
}
