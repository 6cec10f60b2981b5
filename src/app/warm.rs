//! Runs an edit's computation after the page is first shown (`page::rehearse`), a few times, one
//! run per timer task with a pause between, so that V8 has compiled and optimized that code
//! before the reader's first edit; its first runs also patch the charts' SVGs into one another in
//! an element outside the page (`dom::rehearse_patch`), so that the code that changes the page is
//! compiled too (without it the first edit took 15–20 ms, the next ones 4–6). Once per page load;
//! nothing it computes is kept or shown.

use super::parts::Ui;
use super::State;
use crate::charts::DEFAULT_WIDTH;
use leptos::prelude::*;

/// How many times the computation runs (measured with `bench/perf.mjs`: the first edits after
/// load stop being the slow ones once the hottest functions have run a few times).
const ROUNDS: u32 = 12;

/// How many of the first rounds also patch the charts outside the page.
const PATCH_ROUNDS: u32 = 3;

/// The pause before each round, in ms: long enough for the browser to paint and take input between
/// rounds (a round takes a few ms).
const PAUSE_MS: u64 = 20;

thread_local! {
    static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Starts the rehearsal once the first frame is painted (a task posted from an animation frame).
pub fn after_first_paint(state: State, ui: Ui) {
    if STARTED.with(|s| s.replace(true)) {
        return;
    }
    request_animation_frame(move || {
        set_timeout(move || rounds(state, ui, ROUNDS), std::time::Duration::ZERO);
    });
}

/// Runs one round after a short pause (a timer, not `requestIdleCallback`, which Safari lacks and
/// whose glue costs more than this module), then schedules the next.
fn rounds(state: State, ui: Ui, left: u32) {
    if left == 0 {
        return;
    }
    let round = move || {
        let Some(s) = state
            .shown
            .try_with_untracked(|x| x.as_ref().map(|x| x.s.clone()))
            .flatten()
        else {
            return;
        };
        let width = match ui.chart_width.try_get_untracked().flatten() {
            Some(w) if w > 0 => w,
            _ => DEFAULT_WIDTH,
        };
        let svgs = std::hint::black_box(crate::page::rehearse(&s, width));
        if left > ROUNDS - PATCH_ROUNDS {
            super::dom::rehearse_patch(&svgs);
        }
        rounds(state, ui, left - 1);
    };
    set_timeout(round, std::time::Duration::from_millis(PAUSE_MS));
}
