//! What every chart shares: sizes and colours, the legend below the plot, the 1-2-5 ticks of the
//! log axes and their labels, broken curves and the refusal overlay. The plot itself is drawn with
//! plotters' chart API (`plot`).

use super::svg::{self, area};
use kvbudget_core::chart_data::ChartData;
use kvbudget_core::floatfmt::fixed;
use kvbudget_core::units::thousands;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The width charts are drawn at when the page does not say (SVG units = CSS px when shown so).
pub const DEFAULT_WIDTH: u32 = 720;
/// Font sizes are given to plotters multiplied by 1.24, the factor its own SVG backend divides by
/// (plotters-svg 0.3, `draw_text`), so that its text layout and this crate's backend (`svg`),
/// which divides by it too, agree on the CSS px meant.
pub(super) const PX: f64 = 1.24;
/// Text size: 13 CSS px at the drawn width (never below 11).
pub(super) const FONT: f64 = 13.0 * PX;
/// Text inside memory bands: 12 CSS px.
pub(super) const SMALL: f64 = 12.0 * PX;
/// A character's width as a share of the font size (the backend's estimate, see `svg`).
pub(super) const CHAR_EM: f64 = 0.56;

pub(super) const BF16: RGBColor = RGBColor(0x2f, 0x6f, 0xd6);
pub(super) const FP8: RGBColor = RGBColor(0xe0, 0x7b, 0x18);
pub(super) const WEIGHTS: RGBColor = RGBColor(0x7a, 0x80, 0x8c);
pub(super) const OVERHEAD: RGBColor = RGBColor(0xb4, 0x8a, 0x5a);
pub(super) const SEQ_A: RGBColor = RGBColor(0x2f, 0x9e, 0x6b);
pub(super) const SEQ_B: RGBColor = RGBColor(0x4c, 0xbf, 0x8a);
pub(super) const FREE: RGBColor = RGBColor(0xa9, 0xd8, 0xc0);
/// A hybrid's recurrent state: the sequences' hue, darker.
pub(super) const STATE: RGBColor = RGBColor(0x1d, 0x6b, 0x8f);
pub(super) const UNCLAIMED: RGBAColor = RGBAColor(0x80, 0x80, 0x80, 0.35);
pub(super) const OVERFLOW: RGBColor = RGBColor(0xd0, 0x3a, 0x2f);
pub(super) const CAP: RGBColor = RGBColor(0xc0, 0x39, 0x2b);
pub(super) const ROOF: RGBColor = RGBColor(0x8e, 0x44, 0xad);
pub(super) const GRID: RGBAColor = RGBAColor(0x80, 0x80, 0x80, 0.25);
/// Written as `currentColor` (`svg`).
pub(super) const INK: RGBColor = RGBColor(0x01, 0x02, 0x03);
/// Written as [`ROOF`], dashed 8 px on and 5 off (`svg`): one SVG element with a
/// `stroke-dasharray` instead of one element per dash.
pub(super) const ROOF_DASHED: RGBColor = RGBColor(0x8e, 0x44, 0xae);

/// Why a chart could not be drawn.
pub type ChartError = String;

pub(super) type Root<'a> = DrawingArea<svg::Svg<'a>, Shift>;

/// A drawing error. The SVG backend writes into a string, so this does not happen in practice;
/// its details are not formatted (their `Debug` code would be on every page load for it).
pub(super) fn err<E>(_: E) -> ChartError {
    "plotters could not draw the SVG".into()
}

/// Text width in SVG units for a plotters font size (its CSS px are `size / PX`).
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    em_width(text) * size / PX
}

/// A text's width in em: Chinese characters and full-width punctuation take a whole em, other
/// characters about `CHAR_EM`.
pub(crate) fn em_width(text: &str) -> f64 {
    text.chars()
        .map(|c| {
            if matches!(c as u32, 0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6) {
                1.0
            } else {
                CHAR_EM
            }
        })
        .sum()
}

pub(super) fn font(size: f64) -> TextStyle<'static> {
    (FontFamily::SansSerif, size).into_font().color(&INK)
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
pub(super) enum Mark {
    Line(RGBColor),
    Dot(RGBColor),
    /// The plot's mark for a scenario that fits nothing: a cross on the axis.
    Cross(RGBColor),
    Swatch(RGBAColor),
    Band(RGBAColor),
}

/// A legend: entries laid out left to right below the plot, wrapping at the width.
///
/// Drawn here rather than with plotters' `configure_series_labels`, which sizes its box with the
/// font itself instead of asking the backend: on wasm32 that is plotters' DOM measurement (a span
/// added to the page and read back, a layout of the page for each entry, twice), the very cost
/// the charts' own backend (`svg`) avoids. It also stacks the entries in one column inside the
/// plot, over the curves.
pub(super) struct Legend(pub(super) Vec<(String, Mark)>);

impl Legend {
    const ROW: i32 = 22;
    fn entry_width(label: &str) -> i32 {
        text_width(label, FONT) as i32 + 44
    }
    /// Where each entry starts at `width`: left to right from x = 12, a new row when an entry
    /// would pass 16 px short of the right edge. The height and the drawing both follow it.
    fn places(&self, width: u32) -> Vec<(i32, i32)> {
        let (mut x, mut y) = (12, 12);
        let mut at = Vec::with_capacity(self.0.len());
        for (label, _) in &self.0 {
            let w = Self::entry_width(label);
            if x > 12 && x + w > width as i32 - 16 {
                x = 12;
                y += Self::ROW;
            }
            at.push((x, y));
            x += w;
        }
        at
    }
    fn height(&self, width: u32) -> u32 {
        let last = self.places(width).last().map_or(12, |p| p.1);
        (last - 12 + Self::ROW + 8) as u32
    }
    fn draw(&self, area: &Root<'_>, width: u32) -> Result<(), ChartError> {
        for ((label, mark), (x, y)) in self.0.iter().zip(self.places(width)) {
            match *mark {
                Mark::Line(c) => area.draw(&PathElement::new(
                    vec![(x, y), (x + 22, y)],
                    c.stroke_width(3),
                )),
                Mark::Dot(c) => area.draw(&Circle::new((x + 11, y), 5, c.filled())),
                Mark::Cross(c) => area.draw(&Cross::new((x + 11, y), 6, c.stroke_width(3))),
                Mark::Swatch(c) => {
                    area.draw(&Rectangle::new([(x, y - 6), (x + 22, y + 6)], c.filled()))
                }
                Mark::Band(c) => {
                    area.draw(&Rectangle::new([(x, y - 7), (x + 22, y + 7)], c.filled()))
                }
            }
            .map_err(err)?;
            area.draw(&Text::new(
                label.clone(),
                (x + 30, y),
                font(FONT).pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(err)?;
        }
        Ok(())
    }
}

/// Draws a chart of plot height `plot_h` with its legend below, at `width`, and returns the SVG.
pub(super) fn render(
    width: u32,
    plot_h: u32,
    legend: &Legend,
    draw: impl FnOnce(&Root<'_>) -> Result<(), ChartError>,
) -> Result<String, ChartError> {
    let width = width.clamp(300, 1600);
    let size = (width, plot_h + legend.height(width));
    let mut svg = String::new();
    {
        let root = area(&mut svg, size);
        let (plot, below) = root.split_vertically(plot_h);
        draw(&plot)?;
        legend.draw(&below, width)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The plot height for a width: wide screens get a 2:1 plot, phones a taller one.
pub(super) fn plot_height(width: u32) -> u32 {
    (width as f64 * 0.5).clamp(240.0, 380.0) as u32
}

/// 1, 2 and 5 × 10ⁿ within `lo ..= hi`.
pub(super) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut p = 10f64.powi(lo.max(1e-9).log10().floor() as i32);
    while p <= hi {
        for m in [1.0, 2.0, 5.0] {
            let v = p * m;
            if v >= lo * 0.999 && v <= hi * 1.001 {
                out.push(v);
            }
        }
        p *= 10.0;
    }
    out
}

/// A tick label: `2k` = 2,000 tokens, `5M` = 5,000,000, `1.5` below 10, thousands separators
/// above.
pub(super) fn tick_label(v: f64, thousands_as_k: bool) -> String {
    if thousands_as_k && v >= 1e6 {
        format!("{}M", thousands((v / 1e6).round() as u64))
    } else if thousands_as_k && v >= 1000.0 {
        format!("{}k", thousands((v / 1000.0).round() as u64))
    } else if v < 10.0 && v.fract() != 0.0 {
        fixed(v, 1)
    } else {
        thousands(v.round() as u64)
    }
}

/// `8192` → `8K`, `131072` → `128K` (the K of contexts, 1,024 tokens), `512` → `512`; a count
/// that is no whole number of K is written whole (`200000` → `200,000`: "195K" beside the axis's
/// decimal "200k" tick read as another number).
pub fn tokens_label(x: f64) -> String {
    let x = x.round() as u64;
    if x >= 1024 && x % 1024 == 0 {
        format!("{}K", x / 1024)
    } else {
        thousands(x)
    }
}

/// The context axis of the curves: from the first to the last context, at least one doubling.
pub(super) fn context_range(d: &ChartData) -> (f64, f64) {
    let xmin = *d.contexts.first().unwrap_or(&512) as f64;
    let xmax = (*d.contexts.last().unwrap_or(&1024) as f64).max(xmin * 2.0);
    (xmin, xmax)
}

/// A curve as runs of points with `y ≥ floor` (a value below the floor breaks the line).
pub(super) fn runs(xs: &[u64], ys: impl Iterator<Item = f64>, floor: f64) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (&x, y) in xs.iter().zip(ys) {
        if y >= floor && y.is_finite() {
            out.last_mut()
                .into_iter()
                .for_each(|r| r.push((x as f64, y)));
        } else if out.last().is_some_and(|r| !r.is_empty()) {
            out.push(Vec::new());
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

/// The message box's ground: the page's stylesheet gives it the panel's colour by this value.
pub const VEIL: RGBColor = RGBColor(0xfe, 0xfe, 0xfe);

/// A message across the middle of the plot inside `(left, top, right, bottom)` on `area`: one
/// line at up to the charts' size where it fits at 11 px or more, else split after its colon and
/// wrapped at spaces, so it never spreads over the axes' labels.
pub(super) fn overlay(
    area: &Root<'_>,
    (left, top, right, bottom): (i32, i32, i32, i32),
    text: &str,
) -> Result<(), ChartError> {
    let avail = (right - left - 24).max(60) as f64;
    let fit = |t: &str| FONT.min(avail * PX / em_width(t));
    let size = fit(text).max(11.0 * PX);
    // Too wide at 11 px: split after the colon, then each part at spaces where still too wide.
    let colon = text.find(':').or_else(|| text.find('：'));
    let parts: Vec<&str> = match colon {
        Some(i) if fit(text) < 11.0 * PX => {
            let at = i + text[i..].chars().next().map_or(1, char::len_utf8);
            vec![&text[..at], &text[at..]]
        }
        _ => vec![text],
    };
    let mut lines: Vec<String> = Vec::new();
    for part in parts {
        let mut line = String::new();
        for word in part.trim().split_inclusive(' ') {
            let wide = text_width(&line, size) + text_width(word.trim_end(), size);
            if !line.is_empty() && wide > avail {
                lines.push(std::mem::take(&mut line));
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    let lines: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
    let tw = lines
        .iter()
        .map(|l| text_width(l, size) as i32)
        .max()
        .unwrap_or(0);
    let line_h = (size / PX * 1.35) as i32;
    let (cx, cy) = ((left + right) / 2, (top + bottom) / 2);
    let half_h = line_h * lines.len() as i32 / 2 + 8;
    let corners = [
        (cx - tw / 2 - 10, cy - half_h),
        (cx + tw / 2 + 10, cy + half_h),
    ];
    // An opaque box under the tint, so the curves do not run through the words: the page paints
    // it in the panel's colour (`style/`: `rect[fill="#FEFEFE"]`), a saved SVG in white.
    area.draw(&Rectangle::new(corners, VEIL.filled()))
        .map_err(err)?;
    area.draw(&Rectangle::new(
        corners,
        RGBAColor(0xd0, 0x3a, 0x2f, 0.15).filled(),
    ))
    .map_err(err)?;
    let first = cy - line_h * (lines.len() as i32 - 1) / 2;
    for (i, line) in lines.into_iter().enumerate() {
        area.draw(&Text::new(
            line.to_string(),
            (cx, first + line_h * i as i32),
            font(size).pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_use_k_and_m() {
        // 2,000 tokens → 2k; 10,000,000 → 10M (it read 10,000k); below 10 one decimal.
        assert_eq!(tick_label(2000.0, true), "2k");
        assert_eq!(tick_label(1e7, true), "10M");
        assert_eq!(tick_label(2e6, true), "2M");
        assert_eq!(tick_label(1.5, true), "1.5");
        assert_eq!(tick_label(20_000.0, false), "20,000");
    }

    #[test]
    fn log_ticks_are_1_2_5_without_duplicates() {
        assert_eq!(
            log_ticks(512.0, 40960.0),
            vec![1000.0, 2000.0, 5000.0, 10000.0, 20000.0]
        );
        assert_eq!(log_ticks(0.8, 30.0), vec![1.0, 2.0, 5.0, 10.0, 20.0]);
        let labels: Vec<String> = log_ticks(512.0, 131072.0)
            .into_iter()
            .map(|v| tick_label(v, true))
            .collect();
        assert_eq!(labels, ["1k", "2k", "5k", "10k", "20k", "50k", "100k"]);
        assert_eq!(tick_label(11342.1, false), "11,342");
        assert_eq!(tokens_label(8192.0), "8K");
        assert_eq!(tokens_label(200_000.0), "200,000");
        assert_eq!(tokens_label(1_000.0), "1,000");
    }

    #[test]
    fn a_curve_breaks_where_nothing_fits() {
        let r = runs(&[1, 2, 3, 4], [3.0, 0.0, 2.0, 1.0].into_iter(), 1.0);
        assert_eq!(r, vec![vec![(1.0, 3.0)], vec![(3.0, 2.0), (4.0, 1.0)]]);
    }
}
