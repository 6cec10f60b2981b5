//! The repertoire and the GPU table as HTML text (a click on a row's button is handled by the
//! page: the repertoire's by the row's index, the GPU table's by the GPU's slug): plain rows of
//! figures need no view of their own.

use super::{html_escape as esc, rate, refusal_short};
use kvbudget_core::floatfmt::fixed;
use kvbudget_core::handoff::GpuRowView;
use kvbudget_core::scenario::PageScenario;
use kvbudget_core::t;
use kvbudget_core::units::{fixed2, thousands, GIB};
use std::fmt::Write;

/// A table of figures: `<table class="rep" {attrs}>` with its caption, a header cell per column
/// and the rows' HTML.
pub fn table_html(attrs: &str, caption: &str, heads: &[&str], rows: &str) -> String {
    let mut out = format!(
        r#"<table class="rep"{attrs}><caption>{}</caption><thead><tr>"#,
        esc(caption)
    );
    for h in heads {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, esc(h));
    }
    out + "</tr></thead><tbody>" + rows + "</tbody></table>"
}

pub use kvbudget_core::handoff::{RepertoireRow, RepertoireView};

/// The repertoire for `s` (or any scenario with the same `repertoire::rows_key`: the same rows).
pub fn repertoire_view(s: &PageScenario) -> RepertoireView {
    let rows = kvbudget_core::repertoire::rows(s)
        .iter()
        .map(|row| {
            let short = row.model.id().rsplit('/').next().unwrap_or_default();
            let kv = row.kv.label(row.model_dtype);
            RepertoireRow {
                key: row.key(),
                label: t!(rp_load(short, &kv)),
                model: short.to_string(),
                model_id: row.model.id().to_string(),
                kv_name: row.kv.name().to_string(),
                kv,
                bytes_per_token: row.bytes_per_token.0,
                kib_per_token: format!("{} KiB", thousands(row.bytes_per_token.0 / 1024)),
                gib_per_sequence: fixed2(row.bytes_per_sequence.0 as f64 / GIB as f64),
                sequences: row.capped,
                // A 0 says why: vLLM would not start, and for what reason (as the GPU table does).
                fits: match row.refusal {
                    Some(k) => refusal_short(k).to_string(),
                    None => thousands(row.capped),
                },
            }
        })
        .collect();
    RepertoireView {
        caption: super::repertoire_caption(s),
        rows,
    }
}

/// The GPU table: the scenario's model (`model`: its name) and `context` on every GPU preset,
/// from the worker's rows (`handoff::GpuRowView`).
pub fn gpu_table_html(model: &str, context: u64, rows: &[GpuRowView]) -> String {
    let caption = t!(gp_caption(model, &thousands(context)));
    let heads = [t!(IN_GPU), t!(GP_MEMORY), t!(RS_STAT_SEQS), t!(GP_DECODE)];
    table_html(
        r#" data-testid="gpu-table""#,
        &caption,
        &heads,
        &gpu_rows_html(rows),
    )
}

/// The GPU table's rows: a button that loads the GPU (`data-gpu`: its slug), the memory vLLM
/// sees, sequences that fit (or why vLLM would not start) and the decode rate of all of them
/// together.
pub fn gpu_rows_html(rows: &[GpuRowView]) -> String {
    let mut out = String::with_capacity(rows.len() * 500);
    for row in rows {
        let fits = match row.refusal {
            Some(k) => refusal_short(k).to_string(),
            None => thousands(row.capped),
        };
        let decode = if row.aggregate > 0.0 {
            t!(gp_rate(&rate(row.aggregate)))
        } else {
            "—".into()
        };
        let _ = write!(
            out,
            r#"<tr data-row="{slug}"><th scope="row"><button type="button" class="linkish" aria-label="{}" data-gpu="{slug}">{}</button></th><td class="num" data-label="{}">{} GiB</td><td class="num key" data-label="{}" data-value="{}">{}</td><td class="num" data-label="{}">{}</td></tr>"#,
            esc(&t!(gp_load(&row.name))),
            esc(&row.name),
            esc(t!(GP_MEMORY)),
            fixed(row.total as f64 / GIB as f64, 2),
            esc(t!(RS_STAT_SEQS)),
            row.capped,
            esc(&fits),
            esc(t!(GP_DECODE)),
            esc(&decode),
            slug = esc(&row.slug),
        );
    }
    out
}
