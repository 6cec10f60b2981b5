//! The charts' SVG backend: plotters draws, this writes the elements.
//!
//! Written here rather than taken from `plotters-svg` because the page parses every chart again
//! on each edit, and what it parses is what this writes: no newline text nodes between elements,
//! no `opacity="1"`, the ink and the dashed roof written as what they are (no pass replacing
//! stand-in colours afterwards), and consecutive lines of one style as one `<path>` (a plot's
//! twenty grid lines are one element, not twenty). Text is measured by an estimate of its own:
//! plotters' SVG backend measures text on wasm32 by adding a span to the page and reading its size,
//! which forces a layout of the whole page for every label; here a label is `0.56 em` per
//! character by `1 em`, the same in the browser and natively, and the SVG still draws real text.
//! plotters' chart builder and mesh ask the backend for text sizes, so they use this estimate.
//! Empty texts (tick labels left out where they would run together) are not written.

use super::frame::{INK, PX, ROOF_DASHED};
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};
use std::fmt::Write;

/// Writing into a `String` does not fail.
#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

impl std::error::Error for Never {}

type Result = std::result::Result<(), DrawingErrorKind<Never>>;

/// An SVG document being written into a string.
pub struct Svg<'a> {
    out: &'a mut String,
    size: (u32, u32),
    /// The lines not written yet, all of one stroke: their `d` and their stroke attributes.
    path: String,
    path_stroke: String,
    closed: bool,
}

impl<'a> Svg<'a> {
    fn new(out: &'a mut String, size: (u32, u32)) -> Self {
        let _ = write!(
            out,
            "<svg role=\"img\" aria-hidden=\"true\" focusable=\"false\" preserveAspectRatio=\"xMidYMid meet\" \
             width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" xmlns=\"http://www.w3.org/2000/svg\" \
             font-family=\"sans-serif\" font-size=\"13\" fill=\"currentColor\">",
            size.0, size.1
        );
        Svg {
            out,
            size,
            path: String::new(),
            path_stroke: String::new(),
            closed: false,
        }
    }

    /// Writes the pending lines, if any.
    fn flush(&mut self) {
        if !self.path.is_empty() {
            let _ = write!(
                self.out,
                "<path fill=\"none\"{} d=\"{}\"/>",
                self.path_stroke, self.path
            );
            self.path.clear();
        }
    }

    /// An element written now, after the pending lines.
    fn element(&mut self) -> &mut String {
        self.flush();
        self.out
    }
}

/// ` fill="#rrggbb"` (or `currentColor` for the ink) and its opacity when below 1.
fn paint(out: &mut String, attr: &str, c: BackendColor) {
    let (r, g, b) = c.rgb;
    if (r, g, b) == (INK.0, INK.1, INK.2) {
        let _ = write!(out, " {attr}=\"currentColor\"");
    } else if (r, g, b) == (ROOF_DASHED.0, ROOF_DASHED.1, ROOF_DASHED.2) {
        // The dashed roof: its colour one step off the roof's marks the dashes.
        let _ = write!(out, " {attr}=\"#8E44AD\" stroke-dasharray=\"8 5\"");
    } else {
        let _ = write!(out, " {attr}=\"#{r:02X}{g:02X}{b:02X}\"");
    }
    opacity(out, c.alpha);
}

/// ` opacity="0.25"`: hundredths, written without float formatting; nothing when opaque.
fn opacity(out: &mut String, alpha: f64) {
    let a = (alpha.clamp(0.0, 1.0) * 100.0).round() as u32;
    let (tenths, hundredths) = (a / 10, a % 10);
    match (a, hundredths) {
        (100.., _) => {}
        (_, 0) => {
            let _ = write!(out, " opacity=\"0.{tenths}\"");
        }
        _ => {
            let _ = write!(out, " opacity=\"0.{tenths}{hundredths}\"");
        }
    }
}

/// A stroke's attributes: colour, opacity and width.
fn stroke<S: BackendStyle>(style: &S) -> String {
    let mut s = String::new();
    paint(&mut s, "stroke", style.color());
    let _ = write!(s, " stroke-width=\"{}\"", style.stroke_width());
    s
}

fn points(out: &mut String, pts: impl IntoIterator<Item = BackendCoord>) {
    for (i, (x, y)) in pts.into_iter().enumerate() {
        let _ = write!(out, "{}{x},{y}", if i == 0 { "" } else { " " });
    }
}

impl DrawingBackend for Svg<'_> {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> Result {
        Ok(())
    }
    fn present(&mut self) -> Result {
        if !self.closed {
            self.element().push_str("</svg>");
            self.closed = true;
        }
        Ok(())
    }
    fn draw_pixel(&mut self, (x, y): BackendCoord, color: BackendColor) -> Result {
        self.draw_rect((x, y), (x + 1, y + 1), &color, true)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        s: &S,
    ) -> Result {
        self.draw_path([from, to], s)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let st = stroke(style);
        if st != self.path_stroke {
            self.flush();
            self.path_stroke = st;
        }
        for (i, (x, y)) in path.into_iter().enumerate() {
            let _ = write!(self.path, "{}{x} {y}", if i == 0 { "M" } else { "L" });
        }
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        (x0, y0): BackendCoord,
        (x1, y1): BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let out = self.element();
        let _ = write!(
            out,
            "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"",
            x1 - x0,
            y1 - y0
        );
        if fill {
            paint(out, "fill", style.color());
        } else {
            out.push_str(" fill=\"none\"");
            paint(out, "stroke", style.color());
        }
        out.push_str("/>");
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        (x, y): BackendCoord,
        r: u32,
        style: &S,
        fill: bool,
    ) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let st = if fill { String::new() } else { stroke(style) };
        let out = self.element();
        let _ = write!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\"");
        if fill {
            paint(out, "fill", style.color());
        } else {
            out.push_str(" fill=\"none\"");
            out.push_str(&st);
        }
        out.push_str("/>");
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let out = self.element();
        out.push_str("<polygon");
        paint(out, "fill", style.color());
        out.push_str(" points=\"");
        points(out, vert);
        out.push_str("\"/>");
        Ok(())
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        (x, y): BackendCoord,
    ) -> Result {
        if style.color().alpha == 0.0 || text.is_empty() {
            return Ok(());
        }
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "middle",
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => "0.76em",
            VPos::Center => "0.5ex",
            VPos::Bottom => "-0.5ex",
        };
        // The size in CSS px, to a tenth (plotters' sizes here are CSS px × `PX`). The family,
        // a size of 13 and the ink are the root's, which the text inherits.
        let tenths = (style.size() / PX * 10.0).round() as u32;
        let family = style.family();
        let out = self.element();
        let _ = write!(out, "<text x=\"{x}\" y=\"{y}\" dy=\"{dy}\"");
        if anchor != "start" {
            let _ = write!(out, " text-anchor=\"{anchor}\"");
        }
        if family.as_str() != "sans-serif" {
            let _ = write!(out, " font-family=\"{}\"", family.as_str());
        }
        if tenths != 130 {
            let _ = write!(out, " font-size=\"{}", tenths / 10);
            if tenths % 10 != 0 {
                let _ = write!(out, ".{}", tenths % 10);
            }
            out.push('"');
        }
        let c = style.color();
        if c.rgb != (INK.0, INK.1, INK.2) || c.alpha < 1.0 {
            paint(out, "fill", c);
        }
        match style.style() {
            FontStyle::Normal => {}
            FontStyle::Bold => out.push_str(" font-weight=\"bold\""),
            other => {
                let _ = write!(out, " font-style=\"{}\"", other.as_str());
            }
        }
        let turn = match style.transform() {
            FontTransform::Rotate90 => 90,
            FontTransform::Rotate180 => 180,
            FontTransform::Rotate270 => 270,
            _ => 0,
        };
        if turn != 0 {
            let _ = write!(out, " transform=\"rotate({turn}, {x}, {y})\"");
        }
        out.push('>');
        out.push_str(&crate::html_escape(text));
        out.push_str("</text>");
        Ok(())
    }
    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> std::result::Result<(u32, u32), DrawingErrorKind<Never>> {
        let size = style.size();
        let width = super::frame::em_width(text) * size;
        Ok((width.ceil() as u32, size.ceil() as u32))
    }
}

/// A drawing area writing an SVG of `size` into `svg`.
pub fn area(svg: &mut String, size: (u32, u32)) -> DrawingArea<Svg<'_>, plotters::coord::Shift> {
    Svg::new(svg, size).into_drawing_area()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;

    #[test]
    fn opacity_in_hundredths_and_none_when_opaque() {
        let written = |a: f64| {
            let mut s = String::new();
            opacity(&mut s, a);
            s
        };
        assert_eq!(written(1.0), "");
        assert_eq!(written(0.25), " opacity=\"0.25\"");
        assert_eq!(written(0.3), " opacity=\"0.3\"");
        assert_eq!(written(0.05), " opacity=\"0.05\"");
        assert_eq!(written(0.0), " opacity=\"0.0\"");
        assert_eq!(written(0.996), "");
    }

    #[test]
    fn lines_of_one_stroke_are_one_path_and_text_is_escaped() {
        let mut svg = String::new();
        {
            let root = area(&mut svg, (100, 50));
            let grid = RGBAColor(0x80, 0x80, 0x80, 0.25);
            for x in [10, 20, 30] {
                root.draw(&PathElement::new(vec![(x, 0), (x, 40)], grid))
                    .unwrap();
            }
            root.draw(&PathElement::new(vec![(0, 40), (90, 40)], INK))
                .unwrap();
            root.draw(&Text::new(
                "a<b & \"c\"",
                (5, 5),
                ("sans-serif", 13.0 * PX).into_font(),
            ))
            .unwrap();
            root.present().unwrap();
        }
        assert_eq!(svg.matches("<path").count(), 2, "{svg}");
        assert!(svg.contains(
            "<path fill=\"none\" stroke=\"#808080\" opacity=\"0.25\" stroke-width=\"1\" d=\"M10 0L10 40M20 0L20 40M30 0L30 40\"/>"
        ), "{svg}");
        assert!(
            svg.contains("stroke=\"currentColor\" stroke-width=\"1\" d=\"M0 40L90 40\""),
            "{svg}"
        );
        // The root's family and 13 px are inherited: the text names neither.
        assert!(svg.contains("<text x=\"5\" y=\"5\" dy=\"0.76em\" fill=\"#000000\">a&lt;b &amp; &quot;c&quot;</text>"), "{svg}");
        assert!(svg.ends_with("</svg>") && !svg.contains('\n'));
    }
}
