//! The three charts as SVG strings (plotters), pure functions of the core's chart data.
//!
//! Axes and text are drawn in `currentColor`, so the page's colour scheme (light or dark) applies.
//! No user-typed text goes into the SVG: titles and names stay in the page's HTML.

use kvbudget_core::chart_data::{ChartData, SegmentKind};
use kvbudget_core::units::{thousands, GIB};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use svg::area;

/// Chart width in SVG units (the page scales it to its box).
pub const W: u32 = 720;
/// Chart height in SVG units.
pub const H: u32 = 340;

const BF16: RGBColor = RGBColor(0x2f, 0x6f, 0xd6);
const FP8: RGBColor = RGBColor(0xe0, 0x7b, 0x18);
const WEIGHTS: RGBColor = RGBColor(0x7a, 0x80, 0x8c);
const OVERHEAD: RGBColor = RGBColor(0xb4, 0x8a, 0x5a);
const SEQ_A: RGBColor = RGBColor(0x2f, 0x9e, 0x6b);
const SEQ_B: RGBColor = RGBColor(0x4c, 0xbf, 0x8a);
const FREE: RGBColor = RGBColor(0xa9, 0xd8, 0xc0);
const CAP: RGBColor = RGBColor(0xc0, 0x39, 0x2b);
/// Drawn as `currentColor` after rendering.
const INK: RGBColor = RGBColor(0x01, 0x02, 0x03);

/// Why a chart could not be drawn.
pub type ChartError = String;

fn finish(svg: String) -> String {
    svg.replace("#010203", "currentColor")
        .replace("<svg ", "<svg role=\"img\" aria-hidden=\"true\" focusable=\"false\" preserveAspectRatio=\"xMidYMid meet\" ")
}

/// Label for a log-axis tick (ticks fall at 1, 2, … 9 × 10ⁿ): only 1, 2 and 5 × 10ⁿ are labelled,
/// in decimal thousands (`2k` = 2,000 tokens).
fn log_tick_label(x: f64) -> String {
    let r = x.round() as u64;
    if r == 0 {
        return String::new();
    }
    let mag = 10u64.pow(r.ilog10());
    if r % mag != 0 || !matches!(r / mag, 1 | 2 | 5) {
        return String::new();
    }
    if r >= 1000 {
        format!("{}k", thousands(r / 1000))
    } else {
        r.to_string()
    }
}

/// `8192` → `8K`, `131072` → `128K`, `512` → `512`.
pub fn tokens_label(x: f64) -> String {
    let x = x.round() as u64;
    if x >= 1024 && x % 1024 == 0 {
        format!("{}K", x / 1024)
    } else if x >= 1000 {
        format!("{:.0}K", x as f64 / 1024.0)
    } else {
        x.to_string()
    }
}

type Root<'a> = DrawingArea<svg::Svg<'a>, plotters::coord::Shift>;

/// Draws one chart with `draw` on a fresh SVG and returns the finished markup.
fn render(draw: impl FnOnce(&Root<'_>) -> Result<(), ChartError>) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = area(&mut svg);
        draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(finish(svg))
}

/// The context axis of the curves: from the first to the last context, at least one doubling.
fn context_range(d: &ChartData) -> (f64, f64) {
    let xmin = *d.contexts.first().unwrap_or(&512) as f64;
    let xmax = (*d.contexts.last().unwrap_or(&1024) as f64).max(xmin * 2.0);
    (xmin, xmax)
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Mark {
    Line,
    Dot,
}

/// A legend in the upper right corner, drawn from plain elements (plotters' own legend measures
/// its text in the page).
fn draw_legend(root: &Root<'_>, entries: &[(String, RGBColor, Mark)]) -> Result<(), ChartError> {
    let chars = entries
        .iter()
        .map(|(l, _, _)| l.chars().count())
        .max()
        .unwrap_or(0) as f64;
    let w = (chars * 13.0 * 0.56) as i32 + 42;
    let h = entries.len() as i32 * 20 + 10;
    let (x0, y0) = (W as i32 - 24 - w, 22);
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        RGBAColor(0x80, 0x80, 0x80, 0.08).filled(),
    ))
    .map_err(err)?;
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        RGBAColor(0x80, 0x80, 0x80, 0.4),
    ))
    .map_err(err)?;
    for (i, (label, color, mark)) in entries.iter().enumerate() {
        let y = y0 + 15 + i as i32 * 20;
        let x = x0 + 8;
        match mark {
            Mark::Line => root.draw(&PathElement::new(
                vec![(x, y), (x + 20, y)],
                color.stroke_width(3),
            )),
            Mark::Dot => root.draw(&Circle::new((x + 10, y), 5, color.filled())),
        }
        .map_err(err)?;
        root.draw(&Text::new(
            label.clone(),
            (x + 28, y),
            ("sans-serif", 13)
                .into_font()
                .color(&INK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
    }
    Ok(())
}

fn err<E: std::fmt::Debug>(e: E) -> ChartError {
    format!("{e:?}")
}

/// Memory split on one GPU: weights | overhead | one band per sequence | left over | not claimed,
/// one bar per KV dtype.
pub fn memory(d: &ChartData) -> Result<String, ChartError> {
    render(|root| {
        let total_gib = (d.total.0 as f64 / GIB as f64).max(1.0);
        let bars = d.memory.len().max(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(110)
            .build_cartesian_2d(0f64..total_gib, 0f64..bars)
            .map_err(err)?;
        let labels: Vec<String> = d.memory.iter().map(|b| b.label.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc("GiB on one GPU (as vLLM sees it)")
            .y_labels(labels.len() * 2 + 1)
            .y_label_formatter(&|y| {
                let i = (bars - y - 0.5).round();
                if (y.fract() - 0.5).abs() < 1e-6 && i >= 0.0 {
                    labels.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .axis_style(INK)
            .label_style(("sans-serif", 13).into_font().color(&INK))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBAColor(0x80, 0x80, 0x80, 0.3))
            .draw()
            .map_err(err)?;
        for (i, bar) in d.memory.iter().enumerate() {
            let y1 = bars - i as f64 - 0.15;
            let y0 = bars - i as f64 - 0.85;
            let mut x = 0f64;
            for s in &bar.segments {
                let w = s.bytes as f64 / GIB as f64;
                if w <= 0.0 {
                    continue;
                }
                match s.kind {
                    SegmentKind::Sequences { count } => {
                        // One band per sequence (merged beyond 200 so the SVG stays small).
                        let bands = count.clamp(1, 200);
                        let bw = w / bands as f64;
                        chart
                            .draw_series((0..bands).map(|k| {
                                let c = if k % 2 == 0 { SEQ_A } else { SEQ_B };
                                Rectangle::new(
                                    [(x + k as f64 * bw, y0), (x + (k + 1) as f64 * bw, y1)],
                                    c.filled(),
                                )
                            }))
                            .map_err(err)?;
                    }
                    kind => {
                        let c = match kind {
                            SegmentKind::Weights => WEIGHTS.filled(),
                            SegmentKind::Overhead => OVERHEAD.filled(),
                            SegmentKind::KvFree => FREE.filled(),
                            _ => RGBAColor(0x80, 0x80, 0x80, 0.12).filled(),
                        };
                        chart
                            .draw_series(std::iter::once(Rectangle::new([(x, y0), (x + w, y1)], c)))
                            .map_err(err)?;
                    }
                }
                if w / total_gib > 0.12 {
                    let label = format!("{} {:.1} GiB", s.label, w);
                    chart
                        .draw_series(std::iter::once(Text::new(
                            label,
                            (x + w / 2.0, (y0 + y1) / 2.0),
                            ("sans-serif", 12)
                                .into_font()
                                .color(&BLACK)
                                .pos(Pos::new(HPos::Center, VPos::Center)),
                        )))
                        .map_err(err)?;
                }
                x += w;
            }
        }
        Ok(())
    })
}

/// Sequences that fit as the context grows (log x), 16-bit and FP8, the `max_num_seqs` cap and the
/// operating point.
pub fn concurrency(d: &ChartData) -> Result<String, ChartError> {
    render(|root| {
        let (xmin, xmax) = context_range(d);
        let ymax_curve = d
            .concurrency
            .iter()
            .flat_map(|c| c.values.iter().copied())
            .max()
            .unwrap_or(1);
        let ymax = (ymax_curve
            .min(d.cap.saturating_mul(2).max(8))
            .max(d.point.1)
            .max(4) as f64
            * 1.12)
            .ceil();
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d((xmin..xmax).log_scale(), 0f64..ymax)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("context per sequence (tokens, log scale)")
            .y_desc("sequences that fit")
            .x_label_formatter(&|x| log_tick_label(*x))
            .y_label_formatter(&|y| thousands(y.round() as u64))
            .axis_style(INK)
            .label_style(("sans-serif", 13).into_font().color(&INK))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBAColor(0x80, 0x80, 0x80, 0.25))
            .draw()
            .map_err(err)?;
        let mut legend: Vec<(String, RGBColor, Mark)> = Vec::new();
        for (i, curve) in d.concurrency.iter().enumerate() {
            let (label, ys) = (&curve.label, &curve.values);
            let color = if i == 0 { BF16 } else { FP8 };
            chart
                .draw_series(LineSeries::new(
                    d.contexts
                        .iter()
                        .zip(ys)
                        .map(|(&x, &y)| (x as f64, (y as f64).min(ymax))),
                    color.stroke_width(3),
                ))
                .map_err(err)?;
            legend.push((format!("{label} KV"), color, Mark::Line));
        }
        if (d.cap as f64) < ymax {
            chart
                .draw_series(LineSeries::new(
                    vec![(xmin, d.cap as f64), (xmax, d.cap as f64)],
                    CAP.stroke_width(2),
                ))
                .map_err(err)?;
            legend.push((
                format!("max_num_seqs {}", thousands(d.cap)),
                CAP,
                Mark::Line,
            ));
        }
        let (px, py) = (d.point.0 as f64, d.point.1 as f64);
        if px >= xmin && px <= xmax {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (px, py.min(ymax)),
                    6,
                    INK.filled(),
                )))
                .map_err(err)?;
            legend.push((
                format!(
                    "this scenario: {} at {}",
                    thousands(d.point.1),
                    tokens_label(px)
                ),
                INK,
                Mark::Dot,
            ));
        }
        draw_legend(root, &legend)?;
        Ok(())
    })
}

/// Decode roofline: tokens/s ceiling for one sequence alone and for all that fit, as the context grows.
pub fn roofline(d: &ChartData) -> Result<String, ChartError> {
    render(|root| {
        let (xmin, xmax) = context_range(d);
        let all = d
            .roofline_single
            .iter()
            .chain(&d.roofline_aggregate)
            .copied()
            .filter(|v| v.is_finite() && *v > 0.0);
        let ymax = all.clone().fold(1.0f64, f64::max) * 1.6;
        let ymin = all.fold(ymax, f64::min).max(0.1) / 1.6;
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d((xmin..xmax).log_scale(), (ymin..ymax).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("context per sequence (tokens, log scale)")
            .y_desc("decode tokens/s ceiling (log)")
            .x_label_formatter(&|x| log_tick_label(*x))
            .y_label_formatter(&|y| {
                if *y >= 100.0 {
                    thousands(y.round() as u64)
                } else {
                    format!("{y:.1}")
                }
            })
            .axis_style(INK)
            .label_style(("sans-serif", 13).into_font().color(&INK))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBAColor(0x80, 0x80, 0x80, 0.25))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                d.contexts
                    .iter()
                    .zip(&d.roofline_single)
                    .map(|(&x, &y)| (x as f64, y.max(ymin))),
                BF16.stroke_width(3),
            ))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                d.contexts
                    .iter()
                    .zip(&d.roofline_aggregate)
                    .filter(|(_, y)| **y > 0.0)
                    .map(|(&x, &y)| (x as f64, y.max(ymin))),
                FP8.stroke_width(3),
            ))
            .map_err(err)?;
        let legend = vec![
            ("one sequence alone".to_string(), BF16, Mark::Line),
            (
                "all sequences that fit (capped), together".to_string(),
                FP8,
                Mark::Line,
            ),
        ];
        draw_legend(root, &legend)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_label_1_2_5() {
        assert_eq!(log_tick_label(1000.0), "1k");
        assert_eq!(log_tick_label(2000.0), "2k");
        assert_eq!(log_tick_label(3000.0), "");
        assert_eq!(log_tick_label(50_000.0), "50k");
        assert_eq!(log_tick_label(500.0), "500");
        assert_eq!(tokens_label(8192.0), "8K");
    }
}

/// A wrapper of plotters' SVG backend (see [`svg::Svg`]).
mod svg {
    use super::{H, W};
    use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};
    use plotters_backend::{
        BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend,
        DrawingErrorKind,
    };

    /// The SVG backend with a text-size estimate of its own. plotters measures text on wasm32 by
    /// adding a span to the page and reading its size, which forces a layout of the whole page for
    /// every label; here a label is `0.56 em` per character by `1 em`, the same in the browser and
    /// natively, and the SVG still draws real text.
    pub struct Svg<'a>(SVGBackend<'a>);

    type SvgErr<'a> = DrawingErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>;

    impl<'a> DrawingBackend for Svg<'a> {
        type ErrorType = <SVGBackend<'a> as DrawingBackend>::ErrorType;

        fn get_size(&self) -> (u32, u32) {
            self.0.get_size()
        }
        fn ensure_prepared(&mut self) -> Result<(), SvgErr<'a>> {
            self.0.ensure_prepared()
        }
        fn present(&mut self) -> Result<(), SvgErr<'a>> {
            self.0.present()
        }
        fn draw_pixel(
            &mut self,
            point: BackendCoord,
            color: BackendColor,
        ) -> Result<(), SvgErr<'a>> {
            self.0.draw_pixel(point, color)
        }
        fn draw_line<S: BackendStyle>(
            &mut self,
            from: BackendCoord,
            to: BackendCoord,
            style: &S,
        ) -> Result<(), SvgErr<'a>> {
            self.0.draw_line(from, to, style)
        }
        fn draw_rect<S: BackendStyle>(
            &mut self,
            ul: BackendCoord,
            br: BackendCoord,
            style: &S,
            fill: bool,
        ) -> Result<(), SvgErr<'a>> {
            self.0.draw_rect(ul, br, style, fill)
        }
        fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            path: I,
            style: &S,
        ) -> Result<(), SvgErr<'a>> {
            self.0.draw_path(path, style)
        }
        fn draw_circle<S: BackendStyle>(
            &mut self,
            center: BackendCoord,
            radius: u32,
            style: &S,
            fill: bool,
        ) -> Result<(), SvgErr<'a>> {
            self.0.draw_circle(center, radius, style, fill)
        }
        fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            vert: I,
            style: &S,
        ) -> Result<(), SvgErr<'a>> {
            self.0.fill_polygon(vert, style)
        }
        fn draw_text<T: BackendTextStyle>(
            &mut self,
            text: &str,
            style: &T,
            pos: BackendCoord,
        ) -> Result<(), SvgErr<'a>> {
            self.0.draw_text(text, style, pos)
        }
        fn estimate_text_size<T: BackendTextStyle>(
            &self,
            text: &str,
            style: &T,
        ) -> Result<(u32, u32), SvgErr<'a>> {
            let size = style.size();
            let width = text.chars().count() as f64 * size * 0.56;
            Ok((width.ceil() as u32, size.ceil() as u32))
        }
    }

    pub fn area(svg: &mut String) -> DrawingArea<Svg<'_>, plotters::coord::Shift> {
        Svg(SVGBackend::with_string(svg, (W, H))).into_drawing_area()
    }
}
