//! The three charts as one table: title, drawing, exact value and screen-reader summary.

use super::embed::html_escape;
use crate::charts;
use kvbudget_core::chart_data::ChartData;
use kvbudget_core::floatfmt::fixed;
use kvbudget_core::scenario::Embed;
use kvbudget_core::t;
use kvbudget_core::units::{thousands, Bytes};

/// One of the three charts.
pub struct Chart {
    /// `data-testid` of its figure.
    pub testid: &'static str,
    /// The view that shows it alone.
    pub embed: Embed,
    /// Its title (in the page's language).
    pub title: fn() -> &'static str,
    /// What it shows, after the title.
    pub subtitle: fn() -> &'static str,
    /// Draws it.
    pub draw: fn(&ChartData, u32) -> Result<String, charts::ChartError>,
    /// The exact value for automation (`data-value`).
    pub value: fn(&ChartData) -> String,
    /// What it shows, in words, for screen readers.
    pub summary: fn(&ChartData) -> String,
    /// The plotted series as CSV, for export.
    pub csv: fn(&ChartData) -> String,
    /// The file name of its exports, without extension.
    pub file: &'static str,
}

/// The three charts, in page order.
pub const CHARTS: [Chart; 3] = [
    Chart {
        testid: "chart-memory",
        embed: Embed::Memory,
        title: || t!(CH_MEMORY_TITLE),
        subtitle: || t!(CH_MEMORY_SUB),
        draw: charts::memory,
        file: "kvbudget-memory",
        csv: |d| {
            let mut out = String::from("kv_dtype,band,bytes\n");
            for bar in &d.memory {
                for s in &bar.segments {
                    out.push_str(&format!(
                        "{},{},{}\n",
                        csv_field(&bar.label),
                        csv_field(&s.label),
                        s.bytes
                    ));
                }
            }
            out
        },
        value: |d| d.pool.to_string(),
        summary: |d| {
            d.memory
                .iter()
                .map(|bar| {
                    let parts: Vec<String> = bar
                        .segments
                        .iter()
                        .filter(|s| s.bytes > 0)
                        // (A label that states its size, "weights 27.5 GiB" past the GPU's
                        // total, is read as it is: the band's own bytes are only the part drawn.)
                        .map(|s| match s.label.ends_with("GiB") {
                            true => s.label.clone(),
                            false => format!("{} {}", s.label, Bytes(s.bytes)),
                        })
                        .collect();
                    t!(ch_memory_summary(&bar.label, &parts.join(t!(LIST_COMMA))))
                })
                .collect::<Vec<_>>()
                .join(t!(SENTENCE_SEP))
        },
    },
    Chart {
        testid: "chart-concurrency",
        embed: Embed::Concurrency,
        title: || t!(CH_CONC_TITLE),
        subtitle: || t!(CH_CONC_SUB),
        draw: charts::concurrency,
        file: "kvbudget-concurrency",
        csv: |d| {
            let mut out = String::from("context_tokens");
            for c in &d.concurrency {
                out.push_str(&format!(
                    ",{}",
                    csv_field(&format!("sequences {} KV", c.label))
                ));
            }
            out.push_str(",max_num_seqs\n");
            for (i, x) in d.contexts.iter().enumerate() {
                out.push_str(&x.to_string());
                for c in &d.concurrency {
                    out.push_str(&format!(",{}", c.values.get(i).copied().unwrap_or(0)));
                }
                out.push_str(&format!(",{}\n", d.cap));
            }
            out
        },
        value: |d| d.point.1.to_string(),
        summary: |d| {
            let per: Vec<String> = d
                .fits
                .iter()
                .map(|(kv, n)| t!(ch_with_kv(*n, kv)))
                .collect();
            t!(ch_conc_summary(
                &thousands(d.point.0),
                &per.join(t!(LIST_COMMA)),
                &format!("{} {}", d.cap_flag, thousands(d.cap))
            ))
        },
    },
    Chart {
        testid: "chart-roofline",
        embed: Embed::Roofline,
        title: || t!(CH_ROOF_TITLE),
        subtitle: || t!(CH_ROOF_SUB),
        draw: charts::roofline,
        file: "kvbudget-roofline",
        csv: |d| {
            let mut out =
                String::from("context_tokens,one_sequence_tokens_per_s,all_together_tokens_per_s,compute_roof_tokens_per_s\n");
            for (i, x) in d.contexts.iter().enumerate() {
                let at = |v: &[f64]| v.get(i).map(|&y| fixed(y, 1)).unwrap_or_default();
                out.push_str(&format!(
                    "{x},{},{},{}\n",
                    at(&d.roofline_single),
                    at(&d.roofline_aggregate),
                    at(&d.roofline_compute)
                ));
            }
            out
        },
        // (Nothing decodes where vLLM would not start.)
        value: |d| match d.refusal {
            Some(_) => "0".into(),
            None => format!("{}", d.decode.1.round() as u64),
        },
        summary: |d| {
            if d.refusal.is_some() {
                return t!(CH_NOTHING_DECODES).into();
            }
            t!(ch_roof_summary(
                &thousands(d.point.0),
                &rate(d.decode.0),
                &rate(d.decode.1),
                d.point.1.max(1),
                &d.compute_roof.map(rate).unwrap_or_default()
            ))
        },
    },
];

/// A CSV field, quoted when it holds a comma or a quote.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A rate for people: thousands separators from 100 up, one decimal below.
pub fn rate(x: f64) -> String {
    if x >= 100.0 {
        thousands(x.round() as u64)
    } else {
        fixed(x, 1)
    }
}

/// Whether `chart` shows in view `embed`: every chart on the full page and in `embed=1`, one alone.
pub fn chart_shown(chart: &Chart, embed: Embed) -> bool {
    matches!(embed, Embed::Full | Embed::Compact) || chart.embed == embed
}

/// A chart's SVG at `width` CSS px, or its error as escaped text.
pub fn chart_svg(chart: &Chart, d: &ChartData, width: u32) -> String {
    (chart.draw)(d, width).unwrap_or_else(|e| format!("<p>chart error: {}</p>", html_escape(&e)))
}

/// A chart's caption as HTML text: its title, then its subtitle.
pub fn figure_caption_html(chart: &Chart) -> String {
    format!(
        "<strong>{}</strong>{}",
        html_escape((chart.title)()),
        html_escape((chart.subtitle)())
    )
}

/// A chart's download buttons as HTML text (`data-export`: `svg` or `csv`).
pub fn figure_export_html(chart: &Chart) -> String {
    format!(
        r#"{}<button type="button" class="linkish" data-testid="export-{1}-svg" data-export="svg">SVG</button> · <button type="button" class="linkish" data-testid="export-{1}-csv" data-export="csv">CSV</button>"#,
        html_escape(kvbudget_core::t!(FG_DOWNLOAD)),
        chart.testid
    )
}

/// The `width` and `height` the chart code wrote on its `<svg>` (`charts::svg`), `None` for
/// anything else (a chart's error). The SVG box keeps that aspect ratio, so a box whose SVG is not
/// drawn yet (`content-visibility: auto` below the window) is as tall as when it is: nothing below
/// it moves as the reader scrolls to it.
fn drawn_size(svg: &str) -> Option<(u32, u32)> {
    let head = &svg[..svg.find('>')?];
    let attr = |name: &str| -> Option<u32> {
        let at = head.find(&format!(" {name}=\""))? + name.len() + 3;
        head[at..].split('"').next()?.parse().ok()
    };
    head.starts_with("<svg ")
        .then(|| Some((attr("width")?, attr("height")?)))
        .flatten()
        .filter(|&(w, h)| w > 0 && h > 0)
}

/// A chart's figure as HTML text: its caption, its SVG (`svg`: the chart code's, escaped there; in
/// a box named `svg_id` if given), its exact value for automation, the summary for screen readers
/// and the download buttons.
pub fn figure_html(
    chart: &Chart,
    value: &str,
    summary: &str,
    svg: &str,
    svg_id: Option<&str>,
) -> String {
    let id = svg_id.map(|i| format!(r#" id="{i}""#)).unwrap_or_default();
    let ratio = drawn_size(svg)
        .map(|(w, h)| format!(r#" style="aspect-ratio: {w} / {h}""#))
        .unwrap_or_default();
    format!(
        r#"<figure class="chart" data-testid="{}" data-value="{}"><figcaption>{}</figcaption><div class="chart__svg"{id}{ratio}>{svg}</div><p class="sr-summary">{}</p><p class="chart__export">{}</p></figure>"#,
        chart.testid,
        super::html_escape(value),
        figure_caption_html(chart),
        super::html_escape(summary),
        figure_export_html(chart)
    )
}

#[cfg(test)]
mod tests {
    use super::drawn_size;

    #[test]
    fn the_svg_box_takes_the_size_written_on_the_svg() {
        // The head `charts::svg` writes: width and height after the other attributes.
        let svg = r#"<svg role="img" preserveAspectRatio="xMidYMid meet" width="640" height="412" viewBox="0 0 640 412"><text>x</text></svg>"#;
        assert_eq!(drawn_size(svg), Some((640, 412)));
        // A chart's error is a paragraph: no ratio, the box sizes to it.
        assert_eq!(drawn_size("<p>chart error: no data</p>"), None);
        assert_eq!(drawn_size(r#"<svg width="0" height="412">"#), None);
        assert_eq!(drawn_size(""), None);
    }
}
