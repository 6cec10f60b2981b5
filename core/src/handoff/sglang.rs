//! SGLang's figures for the page, computed in the worker: the page's first load carries no SGLang
//! emulation. The worker sends this view to the page as data (`handoff::Answer::Sglang`).

use crate::calc::evaluate;
use crate::engines::sglang_view::sglang_engine_view;
use crate::engines::{compare, sglang_outcome, EngineView};
use crate::scenario::PageScenario;
use crate::t;
use crate::units::thousands;
use serde::{Deserialize, Serialize};

pub use crate::engines::sglang_view::{sglang_lines, sglang_stats};
pub use crate::engines::Stat;

/// One engine's row of the same GPU under both engines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineRow {
    /// `vLLM` or `SGLang`.
    pub engine: String,
    /// Tokens in the KV cache (None when the engine refuses to start).
    pub tokens: Option<u64>,
    /// Sequences at the context.
    pub sequences: u64,
    /// How the pool is sized.
    pub pool: String,
}

/// The page's scenario under SGLang, as the page shows it: the engine's view, and SGLang beside
/// vLLM on the same GPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SglangView {
    /// What every engine answers.
    pub engine: EngineView,
    /// The comparison's caption (the scenario's model, GPU and context).
    pub caption: String,
    /// vLLM, then SGLang.
    pub rows: Vec<EngineRow>,
    /// Why the two pools differ.
    pub why: String,
    /// SGLang's default `mem_fraction_static` here (the knob's placeholder).
    pub default_mfs: String,
    /// SGLang's default `--chunked-prefill-size` here (empty when the settings are not accepted).
    pub default_chunked: String,
}

/// SGLang's figures for the page's scenario.
pub fn sglang_view(s: &PageScenario) -> SglangView {
    let mut v = SglangView {
        engine: sglang_engine_view(s),
        // (To six places: 0.66595, not the float's 0.6659499999999999.)
        default_mfs: crate::engines::fraction(crate::engines::default_mfs(s)),
        caption: compare_caption(s),
        ..SglangView::default()
    };
    if let Ok(sg) = sglang_outcome(s) {
        v.default_chunked = sg.report.defaults.chunked_prefill_size.to_string();
        if let Ok(o) = evaluate(s) {
            let c = compare(&o, &sg);
            v.why = c.why;
            v.rows = c
                .rows
                .into_iter()
                .map(|r| EngineRow {
                    engine: r.engine.into(),
                    tokens: r.tokens,
                    sequences: r.sequences,
                    pool: r.pool,
                })
                .collect();
        }
    }
    v
}

/// The comparison's caption.
fn compare_caption(s: &PageScenario) -> String {
    if s.context() == 1 {
        crate::tf!(RS_COMPARE_CAPTION_ONE, s.model.name(), s.gpu.name())
    } else {
        t!(rs_compare_caption(
            &s.model.name(),
            &s.gpu.name(),
            &thousands(s.context())
        ))
    }
}
