//! Calibration benchmark: kvbudget's estimate of vLLM's available KV memory on every shared
//! vLLM 0.19 log (`../shared/calibration/`), per log and in summary.
//!
//! Run: `cargo run --release --example calibration`

#[path = "calibration_common.rs"]
mod common;

use common::{calibration_dir, rows, within};

fn main() {
    let Some(dir) = calibration_dir() else {
        eprintln!("calibration: ../shared/calibration is absent; nothing to measure");
        return;
    };
    let all = rows(&dir);
    println!(
        "{:<62} {:>5} {:>9} {:>9} {:>8} {:>19} {:>8}",
        "log", "gpus", "vLLM GiB", "ours GiB", "error", "range GiB", "1 GiB"
    );
    for r in &all {
        println!(
            "{:<62} {:>5} {:>9.2} {:>9.2} {:>+7.2}% {:>8.2} – {:<8.2} {:>+7.2}%",
            &r.id[..r.id.len().min(62)],
            format!("{}x{}", r.tp, r.pp),
            r.reported,
            r.predicted,
            r.error() * 100.0,
            r.low,
            r.high,
            (r.fixed1 - r.reported) / r.reported * 100.0
        );
    }
    let single: Vec<&common::Row> = all.iter().filter(|r| r.single_gpu()).collect();
    let multi: Vec<&common::Row> = all.iter().filter(|r| !r.single_gpu()).collect();
    let median = |v: &[&common::Row]| {
        let mut e: Vec<f64> = v.iter().map(|r| r.error().abs() * 100.0).collect();
        e.sort_by(f64::total_cmp);
        e.get(e.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let in_range = |v: &[&common::Row]| {
        v.iter()
            .filter(|r| r.low <= r.reported && r.reported <= r.high)
            .count()
    };
    let (s2, n) = within(&single, 0.02, |r| r.error());
    let (s5, _) = within(&single, 0.05, |r| r.error());
    let (m5, mn) = within(&multi, 0.05, |r| r.error());
    let (f1, _) = within(&single, 0.02, |r| (r.fixed1 - r.reported) / r.reported);
    let (f2, _) = within(&single, 0.02, |r| (r.fixed2 - r.reported) / r.reported);
    println!();
    println!("single-GPU logs: {n}; within ±2 %: {s2} ({:.0} %); within ±5 %: {s5}; median |error| {:.2} %; inside the range: {}", s2 as f64 / n as f64 * 100.0, median(&single), in_range(&single));
    println!(
        "multi-GPU logs: {mn}; within ±5 %: {m5}; median |error| {:.2} %; inside the range: {}",
        median(&multi),
        in_range(&multi)
    );
    println!("for comparison, single-GPU within ±2 %: fixed 1 GiB overhead {f1} of {n}; fixed 2 GiB {f2} of {n}");
}
