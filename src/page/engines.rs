//! The texts of the engine headings and of the two engines side by side. SGLang's own figures
//! come from the worker (`kvbudget_core::handoff::sglang`).

use super::results::answer;
use kvbudget_core::calc::Outcome;
use kvbudget_core::engines::EngineView;
use kvbudget_core::scenario::{Engine, PageScenario};
use kvbudget_core::t;
use kvbudget_core::units::thousands;

/// The answer in one line for the chosen engine, and whether that engine refuses to start
/// (`sg`: SGLang's figures for this scenario, once the worker has them).
pub fn engine_answer(s: &PageScenario, o: &Outcome, sg: Option<&EngineView>) -> (String, bool) {
    match (s.engine, sg) {
        (Engine::Vllm, _) => (answer(s, o), o.chosen.report.refusal.is_some()),
        (Engine::Sglang, Some(v)) => (v.answer.clone(), v.refused),
        (Engine::Sglang, None) => (t!(RS_SGLANG_PENDING).into(), false),
    }
}

/// The heading over the startup lines: the engine and its release.
pub fn lines_heading(s: &PageScenario) -> String {
    let version = match s.engine {
        Engine::Vllm => s.version.to_string(),
        Engine::Sglang => s.sglang.version().to_string(),
    };
    t!(rs_lines_heading(s.engine.label(), &version))
}

/// A token count for the comparison's cell (the engine refuses: none).
pub fn tokens_cell(t: Option<u64>) -> String {
    t.map(thousands).unwrap_or_else(|| t!(RS_REFUSES).into())
}
