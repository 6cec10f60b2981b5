//! An edit's computation, run ahead of the first edit: what `app::warm` runs in short timer tasks
//! after the page is shown, so that the first keystrokes do not wait for V8 to compile and
//! optimize the code they run (it compiles wasm functions on their first call and optimizes them
//! once they have run enough; on a 2-core machine that work slowed the first twenty or so edits).

use super::{bottom_view, chart_svg, top_view, Fixes, CHARTS};
use kvbudget_core::calc::evaluate;
use kvbudget_core::chart_data;
use kvbudget_core::explain::explain;
use kvbudget_core::scenario::PageScenario;

/// Computes everything an edit to `s` computes for the full page (the evaluation, the
/// derivations, the results' view data, the charts' series and their SVGs at `width`) and returns
/// the charts' markup: the three SVGs (none when they cannot be drawn). Nothing when `s` does not
/// evaluate.
pub fn rehearse(s: &PageScenario, width: u32) -> Vec<String> {
    let Ok(o) = evaluate(s) else {
        return Vec::new();
    };
    let words = explain(s, &o);
    std::hint::black_box((
        top_view(s, &o, &words, Fixes::Checking, None),
        bottom_view(&o, &words, &words.serve_command),
    ));
    let mut svgs = Vec::new();
    if let Ok(d) = chart_data::build(s, &o) {
        for c in &CHARTS {
            svgs.push(chart_svg(c, &d, width));
            std::hint::black_box(((c.value)(&o), (c.summary)(&o, &d)));
        }
    }
    svgs
}
