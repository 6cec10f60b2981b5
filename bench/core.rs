//! Native benchmark: one full evaluation of a scenario (every number and every chart's series)
//! and the three charts rendered to SVG. Prints median and p95; asserts nothing.
//!
//! Run: `cargo run --release --example core_bench`

use kvbudget::charts;
use kvbudget::core::calc::evaluate;
use kvbudget::core::chart_data;
use kvbudget::core::explain::explain;
use kvbudget::core::query::decode;
use std::time::Instant;

fn stats(mut xs: Vec<f64>) -> (f64, f64) {
    xs.sort_by(f64::total_cmp);
    (
        xs[xs.len() / 2],
        xs[(xs.len() * 95 / 100).min(xs.len() - 1)],
    )
}

fn main() {
    let runs = 300;
    for q in [
        "?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192",
        "?model=google/gemma-2-9b-it&gpu=h100-sxm&ctx=8192",
    ] {
        let (s, _) = decode(q);
        let (mut eval, mut svg) = (Vec::new(), Vec::new());
        let mut bytes = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let o = evaluate(&s).expect("scenario evaluates");
            let words = explain(&s, &o);
            let data = chart_data::build(&s, &o).expect("chart data");
            std::hint::black_box((&words, &data));
            eval.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            bytes = [
                charts::memory(&data, charts::DEFAULT_WIDTH),
                charts::concurrency(&data, charts::DEFAULT_WIDTH),
                charts::roofline(&data, charts::DEFAULT_WIDTH),
            ]
            .into_iter()
            .map(|c| c.map(|c| c.len()).unwrap_or(0))
            .sum::<usize>();
            svg.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let (em, ep) = stats(eval);
        let (sm, sp) = stats(svg);
        println!("{q}");
        println!(
            "  evaluate (numbers, words and chart series): median {em:.3} ms, p95 {ep:.3} ms ({runs} runs)"
        );
        println!("  three SVG charts: median {sm:.3} ms, p95 {sp:.3} ms, {bytes} bytes of SVG");
    }
}
