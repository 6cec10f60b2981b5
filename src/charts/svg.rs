//! A wrapper of plotters' SVG backend.

use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
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
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), SvgErr<'a>> {
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
        let width = super::frame::em_width(text) * size;
        Ok((width.ceil() as u32, size.ceil() as u32))
    }
}

pub fn area(svg: &mut String, size: (u32, u32)) -> DrawingArea<Svg<'_>, plotters::coord::Shift> {
    Svg(SVGBackend::with_string(svg, size)).into_drawing_area()
}
