//! A plot's frame and its coordinates: the plotting rectangle inside the label areas, its axes,
//! grid, ticks and axis titles, and data → pixel mapping on linear or logarithmic axes. Drawn
//! with plotters' elements on a plain drawing area; plotters' chart builder and coordinate types
//! are not used, because their generic code was the largest part of the page's charts (about
//! 14 KB gzip on every first load) for what is here a handful of lines.

use super::frame::{err, font, log_ticks, text_width, tick_label, ChartError, Root};
use super::frame::{FONT, GRID, INK, PX};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One axis: its range, and whether it is logarithmic.
#[derive(Clone, Copy)]
pub(super) struct Axis {
    lo: f64,
    log: bool,
    /// The ends on the axis' scale (their logarithms on a log axis), worked out once: every
    /// point drawn maps through them.
    ends: (f64, f64),
}

impl Axis {
    pub(super) fn linear(lo: f64, hi: f64) -> Axis {
        let ends = (lo, hi);
        Axis {
            lo,
            log: false,
            ends,
        }
    }

    pub(super) fn log(lo: f64, hi: f64) -> Axis {
        let ends = (lo.ln(), hi.ln());
        Axis {
            lo,
            log: true,
            ends,
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

/// The plotting rectangle of a drawing area and its two axes.
pub(super) struct Plot<'a, 'b> {
    area: &'b Root<'a>,
    left: i32,
    top: i32,
    right: i32,
    bottom: i32,
    x: Axis,
    y: Axis,
}

/// The margins around a plot (right: room for the last tick label) and the x label area.
const MARGIN: i32 = 12;
const MARGIN_RIGHT: i32 = 20;
const X_LABELS: i32 = 44;

/// An axis title's size and centre on an area `len` px long: centred on `mid` (the plot's
/// middle), moved inward to stay 4 px inside the area, and smaller (down to 11 px) where it is
/// longer than the area (a Chinese title at phone width ran 2 px past the chart's edge).
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

impl<'a, 'b> Plot<'a, 'b> {
    /// The frame on `area`, `y_labels` px of y tick labels wide, with the axes and their titles
    /// (`y_desc` empty: none).
    pub(super) fn frame(
        area: &'b Root<'a>,
        x: Axis,
        y: Axis,
        y_labels: i32,
        (x_desc, y_desc): (&str, &str),
    ) -> Result<Self, ChartError> {
        let (w, h) = area.dim_in_pixel();
        let p = Plot {
            area,
            left: MARGIN + y_labels,
            top: MARGIN,
            right: w as i32 - MARGIN_RIGHT,
            bottom: h as i32 - MARGIN - X_LABELS,
            x,
            y,
        };
        // The axes just outside the plotting rectangle, left and below.
        p.pixels(&[(p.left - 1, p.top), (p.left - 1, p.bottom)], INK.into())?;
        p.pixels(
            &[(p.left, p.bottom + 1), (p.right, p.bottom + 1)],
            INK.into(),
        )?;
        let middle = Pos::new(HPos::Center, VPos::Bottom);
        let (size, cx) = title_place(x_desc, (p.left + p.right) / 2, w as i32);
        area.draw(&Text::new(
            x_desc.to_string(),
            (cx, h as i32 - MARGIN),
            font(size).pos(middle),
        ))
        .map_err(err)?;
        if !y_desc.is_empty() {
            let (size, cy) = title_place(y_desc, (p.top + p.bottom) / 2, h as i32);
            area.draw(&Text::new(
                y_desc.to_string(),
                (MARGIN, cy),
                font(size)
                    .transform(FontTransform::Rotate270)
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(err)?;
        }
        Ok(p)
    }

    /// The plot's pixel box: (left, top, right, bottom).
    pub(super) fn bounds(&self) -> (i32, i32, i32, i32) {
        (self.left, self.top, self.right, self.bottom)
    }

    /// The pixel of a data point, in the drawing area's coordinates.
    pub(super) fn at(&self, (x, y): (f64, f64)) -> (i32, i32) {
        let px = self.left as f64 + self.x.share(x) * (self.right - self.left) as f64;
        let py = self.bottom as f64 - self.y.share(y) * (self.bottom - self.top) as f64;
        (px.round() as i32, py.round() as i32)
    }

    fn pixels(&self, points: &[(i32, i32)], style: ShapeStyle) -> Result<(), ChartError> {
        self.area
            .draw(&PathElement::new(points.to_vec(), style))
            .map_err(err)
    }

    /// A polyline through data points.
    pub(super) fn line(&self, points: &[(f64, f64)], style: ShapeStyle) -> Result<(), ChartError> {
        let px: Vec<(i32, i32)> = points.iter().map(|&p| self.at(p)).collect();
        self.pixels(&px, style)
    }

    /// A filled polygon through data points.
    pub(super) fn polygon(
        &self,
        points: &[(f64, f64)],
        style: ShapeStyle,
    ) -> Result<(), ChartError> {
        let px: Vec<(i32, i32)> = points.iter().map(|&p| self.at(p)).collect();
        self.area.draw(&Polygon::new(px, style)).map_err(err)
    }

    /// A rectangle between two data corners.
    pub(super) fn rect(
        &self,
        a: (f64, f64),
        b: (f64, f64),
        style: ShapeStyle,
    ) -> Result<(), ChartError> {
        self.area
            .draw(&Rectangle::new([self.at(a), self.at(b)], style))
            .map_err(err)
    }

    /// A dot of radius `r` px at a data point.
    pub(super) fn dot(&self, c: (f64, f64), r: i32, style: ShapeStyle) -> Result<(), ChartError> {
        self.area
            .draw(&Circle::new(self.at(c), r, style))
            .map_err(err)
    }

    /// A cross of half-size `r` px at a data point.
    pub(super) fn cross(&self, c: (f64, f64), r: i32, style: ShapeStyle) -> Result<(), ChartError> {
        self.area
            .draw(&Cross::new(self.at(c), r, style))
            .map_err(err)
    }

    /// Vertical grid lines at `xs` with a tick and a label below the axis each (all the grid
    /// lines first, then the ticks: each set is one SVG path).
    pub(super) fn x_ticks(
        &self,
        xs: &[f64],
        label: impl Fn(f64) -> String,
    ) -> Result<(), ChartError> {
        self.x_ticks_labelled(xs, xs.iter().map(|&v| label(v)).collect())
    }

    fn x_ticks_labelled(&self, xs: &[f64], labels: Vec<String>) -> Result<(), ChartError> {
        let px: Vec<i32> = xs.iter().map(|&x| self.at((x, self.y.lo)).0).collect();
        for &x in &px {
            self.pixels(&[(x, self.bottom), (x, self.top)], GRID.into())?;
        }
        for &x in &px {
            self.pixels(&[(x, self.bottom + 1), (x, self.bottom + 6)], INK.into())?;
        }
        let half: Vec<i32> = labels
            .iter()
            .map(|l| (text_width(l, FONT) / 2.0) as i32)
            .collect();
        let keep = thin(&px, &half, xs, 6);
        for (i, text) in labels.into_iter().enumerate() {
            if keep[i] {
                self.area
                    .draw(&Text::new(
                        text,
                        (px[i], self.bottom + 6),
                        font(FONT).pos(Pos::new(HPos::Center, VPos::Top)),
                    ))
                    .map_err(err)?;
            }
        }
        Ok(())
    }

    /// Horizontal grid lines at `ys` with a tick and a label left of the axis each (grid lines,
    /// then ticks, as above).
    fn y_ticks(&self, ys: &[f64]) -> Result<(), ChartError> {
        let py: Vec<i32> = ys.iter().map(|&y| self.at((self.x.lo, y)).1).collect();
        for &y in &py {
            self.pixels(&[(self.left, y), (self.right, y)], GRID.into())?;
        }
        for &y in &py {
            self.pixels(&[(self.left - 6, y), (self.left - 1, y)], INK.into())?;
        }
        // A label is a line of 13 px text, centred on its tick: on a short axis over many decades
        // (a phone-width chart from 1 to 500,000 sequences) they would overlap.
        let up: Vec<i32> = py.iter().map(|&y| -y).collect();
        let keep = thin(&up, &vec![7; ys.len()], ys, 3);
        for ((&v, &y), _) in ys.iter().zip(&py).zip(&keep).filter(|(_, &k)| k) {
            self.area
                .draw(&Text::new(
                    tick_label(v, false),
                    (self.left - 6, y),
                    font(FONT).pos(Pos::new(HPos::Right, VPos::Center)),
                ))
                .map_err(err)?;
        }
        Ok(())
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
pub(super) fn log_log_frame<'a, 'b>(
    plot: &'b Root<'a>,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    descs: (&str, &str),
) -> Result<Plot<'a, 'b>, ChartError> {
    let y_labels = (text_width(&tick_label(y1, false), FONT) + 30.0) as i32;
    let p = Plot::frame(plot, Axis::log(x0, x1), Axis::log(y0, y1), y_labels, descs)?;
    p.x_ticks(&log_ticks(x0, x1), |x| tick_label(x, true))?;
    p.y_ticks(&log_ticks(y0, y1))?;
    Ok(p)
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
