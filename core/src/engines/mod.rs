//! The seam between the page and its engines. An engine turns the page's scenario into its own
//! and answers with what the page, the embedded card, the command line and the log check show:
//! an [`EngineView`] (its headline under the shared `data-testid`s, its startup lines, serve
//! command, derivation, charts' data and repertoire) and the figures of its logs ([`Logged`]).
//! Each engine is an [`EnginePlug`]; [`REGISTRY`] lists those the page's worker and the command
//! line answer through it. vLLM's first answer is computed on the page itself (`calc`, `explain`,
//! `chart_data::build`), before any worker, so that the default page answers at once.
//!
//! [`crate::vllm`] and [`crate::sglang`] know nothing of the page; these modules are the seam. This
//! one also holds vLLM and SGLang side by side on the same GPU.

pub mod sglang;
pub mod sglang_view;

pub use sglang::{
    adopt_sglang_log, default_mfs, gpu_mib, sglang_command, sglang_outcome, sglang_scenario,
    SglangOutcome,
};

use crate::chart_data::ChartData;
use crate::repertoire::RepertoireView;
use crate::scenario::PageScenario;
use serde::{Deserialize, Serialize};

/// One figure of a headline: its label, its `data-testid`, its exact `data-value`, the figure as
/// shown and the line under it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// What it is.
    pub label: String,
    /// `data-testid`.
    pub testid: String,
    /// The exact value for automation (`data-value`).
    pub value: String,
    /// The figure as shown.
    pub text: String,
    /// The line under it.
    pub sub: String,
}

/// What an engine answers for the page's scenario. Its headline uses the `data-testid`s every
/// engine shares: `max-seqs` (sequences at the context, after the engine's cap),
/// `bytes-per-token`, `kv-pool-bytes` and `kv-tokens`, then any of its own.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineView {
    /// The answer in one line.
    pub answer: String,
    /// Whether the engine refuses to start (or kvbudget cannot size it: then `stats` is empty).
    pub refused: bool,
    /// What the engine prints at startup, with its refusal; only what it prints.
    pub lines: String,
    /// The command that starts it.
    pub command: String,
    /// The headline.
    pub stats: Vec<Stat>,
    /// How it sizes its pool and its sequences: (term, value).
    pub derivation: Vec<(String, String)>,
    /// The three charts' data.
    pub charts: Option<Box<ChartData>>,
    /// The course's repertoire under it.
    pub repertoire: Option<RepertoireView>,
    /// Notes in kvbudget's words (what the engine would do where it prints nothing).
    pub notes: Vec<String>,
}

/// What a startup log says, as far as the seam compares it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Logged {
    /// The model it served, when the log names it.
    pub model: Option<String>,
    /// The tokens its KV cache holds, as printed.
    pub tokens: Option<u64>,
}

/// An engine behind the seam.
pub trait EnginePlug: Sync {
    /// Its value of the URL's `engine` key and of the command line's `kvbudget engine ID`.
    fn id(&self) -> &'static str;
    /// Its name as people read it.
    fn name(&self) -> &'static str;
    /// The page's scenario under it.
    fn view(&self, s: &PageScenario) -> EngineView;
    /// The figures of a startup log, when the log is this engine's (`None` otherwise).
    fn read_log(&self, text: &str) -> Option<Logged>;
}

/// The engines that answer through the seam.
pub static REGISTRY: [&dyn EnginePlug; 1] = [&sglang_view::Sglang];

/// The registered engine with this `id`.
pub fn find(id: &str) -> Option<&'static dyn EnginePlug> {
    REGISTRY.iter().copied().find(|e| e.id() == id)
}

/// One figure of a log beside the engine's figure for the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// What it is (`model`, `tokens`).
    pub what: &'static str,
    /// As the log prints it.
    pub logged: String,
    /// As the engine would, for the scenario.
    pub computed: String,
}

impl Checked {
    /// Whether the two agree.
    pub fn agrees(&self) -> bool {
        self.logged == self.computed
    }
}

/// A log beside `engine`'s `view` of `s` (which the caller has already): the model it names and
/// the tokens it prints, each with the scenario's. `None` when the log is not the engine's.
pub fn check_log(
    engine: &dyn EnginePlug,
    view: &EngineView,
    s: &PageScenario,
    text: &str,
) -> Option<Vec<Checked>> {
    let logged = engine.read_log(text)?;
    let tokens = view.stats.iter().find(|x| x.testid == "kv-tokens");
    let mut out = Vec::new();
    if let Some(m) = logged.model {
        // A model served from a local folder names it by path: its last part is the model's
        // name (`/models/Qwen3-8B` is Qwen/Qwen3-8B), in any case.
        let name = s.model.name();
        let base = |x: &str| {
            x.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(x)
                .to_lowercase()
        };
        out.push(Checked {
            what: "model",
            computed: if base(&m) == base(name) {
                m.clone()
            } else {
                name.to_string()
            },
            logged: m,
        });
    }
    if let Some(t) = logged.tokens {
        out.push(Checked {
            what: "tokens",
            logged: t.to_string(),
            computed: tokens.map(|x| x.value.clone()).unwrap_or_default(),
        });
    }
    Some(out)
}

use crate::calc::Outcome;
use crate::sglang::Memory;
use crate::units::{fixed2, thousands, GIB};

/// One engine's row of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `vLLM` or `SGLang`.
    pub engine: &'static str,
    /// Tokens in the KV cache (None when the engine refuses to start).
    pub tokens: Option<u64>,
    /// Sequences at the context, capped by the engine's limit.
    pub sequences: u64,
    /// How the pool is sized, with the scenario's figures.
    pub pool: String,
}

/// The same GPU under both engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// vLLM, then SGLang.
    pub rows: [Row; 2],
    /// Why they differ, in one sentence.
    pub why: String,
}

fn gib(b: f64) -> String {
    format!("{} GiB", fixed2(b))
}

/// A fraction for prose, to six decimals without trailing zeros: SGLang's default 0.79325
/// computes as 0.7932499999999999, which its own line prints and the sentence need not.
pub(crate) fn fraction(x: f64) -> String {
    let t = crate::floatfmt::fixed(x, 6);
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// vLLM's and SGLang's pools for the page's scenario side by side.
pub fn compare(vllm: &Outcome, sg: &SglangOutcome) -> Comparison {
    let v = &vllm.chosen.report;
    let vllm_pool = match (v.budget, v.available_kv_bytes) {
        (Some(b), Some(avail)) => crate::i18n::fill(
            // The weights and overhead may take it all: then there are no blocks to count.
            if avail > 0 {
                crate::t!(EN_VLLM_POOL)
            } else {
                crate::t!(EN_VLLM_POOL_NONE)
            },
            &[
                &gib(b.requested as f64 / GIB as f64),
                &gib(b.weights_per_gpu.as_gib()),
                &gib(b.overhead.as_gib()),
                &gib(avail as f64 / GIB as f64),
                &v.block_size,
            ],
        ),
        (_, Some(avail)) => crate::tf!(EN_VLLM_GIVEN, gib(avail as f64 / GIB as f64), v.block_size),
        _ => crate::t!(EN_NO_KV).into(),
    };
    let r = &sg.report;
    // A hybrid sliding-window pool divides its rest by a full-pool token's price, not the cell.
    let cell = r
        .swa_price
        .map_or(r.cell_size_bytes, |(price, _)| price.round() as u64);
    let sg_pool = match (r.pre_load_free_gib, r.post_load_free_gib, r.rest_gib) {
        (Some(pre), Some(after), Some(rest)) => crate::i18n::fill(
            if rest > 0.0 {
                crate::t!(EN_SG_POOL)
            } else {
                crate::t!(EN_SG_POOL_NONE)
            },
            &[
                &gib(after),
                &gib(pre),
                &fraction(r.mem_fraction_static),
                &gib(rest),
                &thousands(cell),
                &r.page_size,
            ],
        ),
        _ => crate::tf!(EN_SG_CELL, thousands(cell)),
    };
    let why = crate::tf!(
        EN_WHY,
        gib(v.budget.map_or(0.0, |b| b.requested as f64 / GIB as f64)),
        v.block_size,
        thousands(v.bytes_per_token.0),
        match r.memory {
            Memory::Predicted => crate::t!(EN_PREDICTED),
            Memory::HalfPredicted => crate::t!(EN_HALF_PREDICTED),
            _ => crate::t!(EN_AS_GIVEN),
        },
        fraction(r.mem_fraction_static),
        if r.mfs_default.is_some() {
            crate::t!(EN_MFS_DEFAULT)
        } else {
            ""
        },
        thousands(cell),
        r.page_size,
    );
    Comparison {
        rows: [
            Row {
                engine: "vLLM",
                tokens: v.gpu_kv_cache_tokens.filter(|_| v.error.is_none()),
                sequences: vllm.chosen.capped,
                pool: vllm_pool,
            },
            Row {
                engine: "SGLang",
                tokens: r.max_total_num_tokens,
                sequences: sg.sequences,
                pool: sg_pool,
            },
        ],
        why,
    }
}
