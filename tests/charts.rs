//! The charts tell the truth at every scenario: the operating point and both curves in range,
//! refusals drawn as refusals, the compute roof, and text never below 11 px at phone width.

use kvbudget::charts;
use kvbudget::core::calc::evaluate;
use kvbudget::core::chart_data::{self, ChartData, SegmentKind};
use kvbudget::core::query::decode;

fn data(q: &str) -> (kvbudget::core::calc::Outcome, ChartData) {
    let (s, notes) = decode(q);
    assert!(notes.is_empty(), "{notes:?}");
    let o = evaluate(&s).unwrap();
    let d = chart_data::build(&s, &o).unwrap();
    (o, d)
}

/// An SVG element's numeric attribute `name` (`element`: the text after `<tag`).
fn attr(element: &str, name: &str) -> Option<f64> {
    element
        .split(&format!(r#" {name}=""#))
        .nth(1)?
        .split('"')
        .next()?
        .parse()
        .ok()
}

/// The text inside a `<text>` element (`element`: the text after `<text`).
fn content(element: &str) -> &str {
    element
        .split('>')
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
}

/// A text's estimated width in em: 1 per CJK character, 0.56 per other one (the charts' own
/// estimate, restated here so the tests hold it to the drawing rather than to itself).
fn em(s: &str) -> f64 {
    s.chars()
        .map(|c| if (c as u32) >= 0x2E80 { 1.0 } else { 0.56 })
        .sum()
}

/// The three charts of `d` at `width`.
fn all_three(d: &ChartData, width: u32) -> [String; 3] {
    [
        charts::memory(d, width).unwrap(),
        charts::concurrency(d, width).unwrap(),
        charts::roofline(d, width).unwrap(),
    ]
}

/// The texts of an SVG, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..t.find("</text>")?];
            Some(body.trim().to_string())
        })
        .collect()
}

/// Every `font-size` in an SVG.
fn font_sizes(svg: &str) -> Vec<f64> {
    svg.split("font-size=\"")
        .skip(1)
        .filter_map(|r| r.split('"').next()?.trim_end_matches("px").parse().ok())
        .collect()
}

#[test]
fn both_curves_and_the_point_stay_in_range_above_a_low_cap() {
    // The y-range used to stop near 145 here, drawing 257 and 515 sequences as a flat line.
    // Qwen2.5-7B on an H100 at 4K, max_num_seqs 64: the curves at 4,096 tokens hold 257 (BF16)
    // and 515 (FP8) sequences; the axis must reach past 515 and the cap is a band at 64.
    let (o, d) = data("?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&ctx=4096&seqs=64");
    let at = d.contexts.iter().position(|&c| c == 4096).unwrap();
    assert_eq!(
        (d.concurrency[0].values[at], d.concurrency[1].values[at]),
        (o.pair[0].vllm_max, o.pair[1].vllm_max)
    );
    assert!(o.pair[1].vllm_max > 500, "{}", o.pair[1].vllm_max);
    assert_eq!(d.point, (4096, 64));
    let svg = charts::concurrency(&d, 720).unwrap();
    let t = texts(&svg);
    assert!(t.iter().any(|x| x == "500"), "no tick at 500: {t:?}");
    assert!(t
        .iter()
        .any(|x| x == "above max_num_seqs 64: never batched"));
    assert!(t.iter().any(|x| x == "this scenario: 64 at 4K"), "{t:?}");
    // Tick labels are never repeated ("10k" used to be drawn twice).
    let ticks: Vec<&String> = t.iter().filter(|x| x.ends_with('k')).collect();
    let mut unique = ticks.clone();
    unique.dedup();
    assert_eq!(ticks, unique);
}

#[test]
fn a_refusal_is_drawn_as_one() {
    // Qwen3-14B (27.52 GiB) on an RTX 4090 (23.55 GiB): the weights overflow the bar past the GPU's
    // total, nothing is charted as fitting, and the roofline draws no rate.
    let (o, d) = data("?model=Qwen/Qwen3-14B&gpu=rtx-4090");
    assert!(o.chosen.report.refusal.is_some());
    let overflow = d.memory[0]
        .segments
        .iter()
        .find(|s| s.kind == SegmentKind::Overflow)
        .unwrap();
    // ⌊27.52 × 2³⁰⌋ − ⌊23.55 × 2³⁰⌋ = 29,549,374,996 − 25,286,619,955 = 4,262,755,041 B.
    assert_eq!(overflow.bytes, 4_262_755_041);
    let mem = charts::memory(&d, 720).unwrap();
    assert!(mem.contains("GPU total 23.55 GiB") && mem.contains("weights beyond the GPU"));
    assert!(d.roofline_aggregate.iter().all(|&v| v == 0.0));
    assert_eq!(d.roofline_point.1, 0.0);
    for svg in [
        charts::concurrency(&d, 720).unwrap(),
        charts::roofline(&d, 720).unwrap(),
    ] {
        assert!(svg.contains("vLLM would not start: the weights do not load"));
        // The message's box is opaque (drawn #FEFEFE, which the page paints in the panel's
        // colour) under its tint, so curves do not run through the words: the box, the tint of
        // the same corners, then the text.
        let veil = svg.find(r##"fill="#FEFEFE""##).expect("an opaque box");
        let rest = &svg[veil..];
        let tint = rest
            .find(r##"fill="#D03A2F" opacity="0.15""##)
            .expect("its tint");
        assert!(tint < rest.find("vLLM would not start").unwrap(), "{rest}");
        assert!(!rest[..tint].contains("<path"), "{rest}");
    }
    // The concurrency chart marks "this scenario" with a cross on the axis; its legend shows the
    // same cross, not a dot: no circle anywhere in it (a scenario that starts has two, the
    // point and its legend entry).
    let conc = charts::concurrency(&d, 720).unwrap();
    assert!(conc.contains("this scenario (8K): none"), "{conc}");
    assert_eq!(conc.matches("<circle").count(), 0);
    let (_, fits) = data("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    assert_eq!(
        charts::concurrency(&fits, 720)
            .unwrap()
            .matches("<circle")
            .count(),
        2
    );
}

#[test]
fn the_compute_roof_caps_the_aggregate() {
    // Qwen2.5-7B on an H100 SXM, 1,024 sequences of 512 tokens: bandwidth alone would allow
    // ≈ 75,000 tokens/s. The compute roof: 989.5 TFLOPS / FLOPs per token at 512.
    let (o, d) = data("?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&ctx=512&seqs=1024");
    let roof = o.compute_roof.unwrap();
    assert!(o.decode.aggregate <= roof);
    assert!(roof < 75_000.0, "{roof}");
    assert_eq!(d.roofline_compute.len(), d.contexts.len());
    assert!(charts::roofline(&d, 720)
        .unwrap()
        .contains("compute roof (dense BF16 peak)"));
}

#[test]
fn text_is_never_below_11_px_at_phone_width() {
    // Drawn at the width they are shown at (a 360 px phone leaves about 320 px), the charts'
    // text keeps its size instead of being scaled down from 720 units.
    for q in [
        "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=32768",
        "?model=Qwen/Qwen3-14B&gpu=rtx-4090",
    ] {
        let (_, d) = data(q);
        for svg in all_three(&d, 320) {
            let sizes = font_sizes(&svg);
            assert!(!sizes.is_empty());
            assert!(sizes.iter().all(|&f| f >= 11.0), "{q}: {sizes:?}");
            assert!(svg.contains("width=\"320\""), "{}", &svg[..200]);
        }
    }
}

#[test]
fn many_sequences_and_the_dashed_roof_stay_a_few_elements() {
    // Qwen2.5-7B on an H100 at 4K: vLLM's blocks hold 253 (BF16) and 506 (FP8) sequences (under
    // max_num_seqs 1,024; `kvbudget vllm … --json`), drawn as 200 bands each (merged beyond 200)
    // in two colours by turns: one rectangle and one comb-shaped polygon per bar, not one
    // element per band (the page replaces these elements on every edit).
    let (_, d) = data("?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&ctx=4096");
    let svg = charts::memory(&d, 720).unwrap();
    assert_eq!(svg.matches("<polygon").count(), 2, "one comb per bar");
    assert!(
        svg.matches("<rect").count() < 30,
        "{}",
        svg.matches("<rect").count()
    );
    // 100 teeth of 4 corners each: the bands a bar of 253 shows in the second colour.
    let first = svg.split("<polygon").nth(1).unwrap();
    let points = first
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(points.split_whitespace().count(), 400);
    // The compute roof: one dashed polyline in the roof's colour, no stand-in colour left over.
    let roof = charts::roofline(&d, 720).unwrap();
    assert_eq!(roof.matches("stroke-dasharray=\"8 5\"").count(), 1);
    assert!(roof.contains("stroke=\"#8E44AD\" stroke-dasharray") && !roof.contains("#8E44AE"));
}

#[test]
fn extreme_custom_models_are_charted_without_overflow() {
    // A custom MoE whose activation peak saturates at 2⁶⁴ − 1 bytes (400,000 heads, 90,000,000
    // experts per token), and LoRA buffers that saturate the weights (1,024 adapters of rank
    // 1,024 on 1,048,576 layers of hidden size 2³²): both evaluate, vLLM refuses, and the memory
    // chart's bar lengths add up without overflowing (a debug build used to panic here).
    for q in [
        "?heads=400000&experts_per_tok=90000000&model=custom",
        "?loras=1024&lora_rank=1024&layers=1048576&hidden=4294967296&model=custom",
    ] {
        let (s, _) = decode(q);
        let o = evaluate(&s).unwrap();
        assert!(o.chosen.report.refusal.is_some(), "{q}");
        let d = chart_data::build(&s, &o).unwrap();
        for svg in all_three(&d, 720) {
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{q}");
        }
    }
}

#[test]
fn the_memory_split_counts_what_the_headline_counts_and_stays_on_the_gpu() {
    // The sequences band holds vLLM's whole-block count capped by max_num_seqs, as the headline:
    // Qwen2.5-7B on an H100 at 4K fits 253 (BF16), capped at 64 here.
    let (o, d) = data("?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&ctx=4096&seqs=64");
    let count = |d: &ChartData, i: usize| {
        d.memory[i].segments.iter().find_map(|x| match x.kind {
            SegmentKind::Sequences { count } => Some(count),
            _ => None,
        })
    };
    assert_eq!(o.chosen.capped, 64);
    assert_eq!(count(&d, 0), Some(64));
    // Qwen3-8B on an RTX 4090 at utilization 0.000001: ⌈25,286,619,955 × 10⁻⁶⌉ = 25,287 B
    // requested, far below the weights (16,396,037,652 B) and the overhead. No sequences, no free
    // KV, and the last band is what weights and overhead leave of the card, named "rest of the
    // GPU", not "(1 − util)": the bar is the GPU's total (it was weights + overhead + the whole
    // 1 − util, about 40 GiB of a 23.55 GiB card).
    let (o, d) = data("?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.000001");
    for bar in &d.memory {
        let sum: u64 = bar.segments.iter().map(|x| x.bytes).sum();
        assert_eq!(sum, d.total, "{:?}", bar.segments);
        assert!(!bar
            .segments
            .iter()
            .any(|x| matches!(x.kind, SegmentKind::Sequences { .. })));
        let last = bar.segments.last().unwrap();
        assert_eq!(last.kind, SegmentKind::Rest);
        assert_eq!(last.bytes, d.total - o.weights_per_gpu.0 - o.overhead.0);
        assert_eq!(last.label, "rest of the GPU");
    }
    let svg = charts::memory(&d, 720).unwrap();
    assert!(svg.contains("rest of the GPU, beyond total × util"));
    assert!(!svg.contains("not claimed"));
    // The budget they exceed is marked: at util 0.05, ⌈25,286,619,955 × 0.05⌉ = 1,264,330,998 B
    // = 1.18 GiB, left of the weights' end (at 360 px too, where its label turns right of the
    // line rather than run past the plot's left edge).
    let (_, d) = data("?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.05");
    assert_eq!(d.budget, Some(1_264_330_998));
    for width in [720, 360] {
        let svg = charts::memory(&d, width).unwrap();
        let label = svg
            .split("<text")
            .find(|t| t.contains(">total × util 1.18 GiB<"))
            .unwrap();
        // (Right-aligned, it ends at x: its start, about 0.56 em per character, is in the chart.)
        let x = attr(label, "x").unwrap();
        let width = "total × util 1.18 GiB".chars().count() as f64 * 0.56 * 13.0;
        let start = if label.contains(r#"text-anchor="end""#) {
            x - width
        } else {
            x
        };
        assert!(start >= 0.0, "{width} {label}");
    }
    // The mark passes around the text it would cross. At util 0.2 the budget is
    // ⌈25,286,619,955 × 0.2⌉ = 5,057,323,991 B = 4.71 GiB; at 360 px (about 12 px per GiB) that
    // crosses the first bar's name ("BF16 (auto) KV", 14 characters, about 100 px) and both
    // weights' labels ("weights 15.3 GiB" centred on 7.6 GiB), but not "FP8 KV" (about 48 px, so
    // ending near 4 GiB): the line is drawn in four pieces around three texts. At util 0.6
    // (14.13 GiB) on 720 px it crosses no text: one piece.
    let pieces = |q: &str, width: u32| {
        let svg = charts::memory(&data(q).1, width).unwrap();
        svg.split("<path")
            .filter(|p| p.contains("stroke=\"#D03A2F\""))
            .map(|p| p.matches('M').count())
            .sum::<usize>()
    };
    assert_eq!(pieces("?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.2", 360), 4);
    assert_eq!(pieces("?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.6", 720), 1);
    // No mark where the budget holds weights and overhead.
    assert_eq!(data("?model=Qwen/Qwen3-8B&gpu=rtx-4090").1.budget, None);
    // At utilization 0.9 the band is (1 − 0.9) × total, named so (vLLM ≥ 0.14 rounds up):
    // 25,286,619,955 − ⌈25,286,619,955 × 0.9⌉ = 25,286,619,955 − 22,757,957,960 = 2,528,661,995 B.
    let (_, d) = data("?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.9");
    let last = d.memory[0].segments.last().unwrap();
    assert_eq!(last.kind, SegmentKind::Unclaimed);
    assert_eq!(last.bytes, 2_528_661_995);
    // With windowed layers a sequence's band is the blocks vLLM gives it, the blocks the count
    // was made with. gemma-3-27b at 32,768 tokens (vLLM 0.33), groups of 10 layers, 1,310,720 B
    // per block: its full group takes 32,768 / 16 = 2,048 blocks, each of its 6 sliding groups
    // ⌈(1,023 + 2 × 8,192) / 16⌉ + 1 = 1,089, so 2,048 + 6,534 = 8,582 blocks = 11,248,599,040 B
    // (10.48 GiB; the formula's 3,120,562,176 B would leave room for four more in the picture
    // where the headline counts one).
    let (o, d) = data("?model=google/gemma-3-27b-it&gpu=h100-sxm&ctx=32768&vllm=0.33");
    assert_eq!(o.chosen.capped, 1);
    let band = d.memory[0]
        .segments
        .iter()
        .find(|x| matches!(x.kind, SegmentKind::Sequences { count: 1 }))
        .unwrap();
    assert_eq!(band.bytes, 11_248_599_040);
}

#[test]
fn a_short_context_keeps_its_point_on_the_charts() {
    // At 256 tokens the curves start at 256 instead of 512, so the operating point is drawn
    // (it had no marker: the x axis began at 512).
    let (o, d) = data("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=256");
    assert_eq!(o.context, 256);
    assert_eq!(d.contexts[0], 256);
    let svg = charts::concurrency(&d, 720).unwrap();
    assert!(svg.contains(r#"r="6""#), "the operating point's dot");
}

#[test]
fn tick_labels_never_run_together() {
    // Qwen3.5-9B's curves span 512 to 262,144 tokens: on a phone-width chart the 1-2-5 labels
    // ran together ("50k100k200k"). Each x label's box (about 0.6 em per character at 13 px)
    // must clear its neighbour's, at every width the page draws; so on the widest axes (Llama 4
    // Scout's 10,485,760 tokens), the shortest (a context of 16) and an MLA model's.
    let scenarios = [
        "?model=Qwen/Qwen3.5-9B&gpu=l40s&ctx=32768",
        "?model=meta-llama/Llama-4-Scout-17B-16E-Instruct&gpu=h200&tp=8&ctx=10485760",
        "?model=meta-llama/Llama-4-Scout-17B-16E-Instruct&gpu=h200&tp=8&ctx=16",
        "?model=Qwen/Qwen3-8B&gpu=h100-sxm&ctx=16",
        "?model=google/gemma-2-9b-it&gpu=rtx-4090&ctx=16",
        "?model=deepseek-ai/DeepSeek-V2-Lite&gpu=h200&ctx=163840&kv=fp8",
    ];
    for q in scenarios {
        let (_, d) = data(q);
        for width in [280, 300, 320, 360, 480, 720, 860] {
            for svg in [
                charts::concurrency(&d, width).unwrap(),
                charts::roofline(&d, width).unwrap(),
            ] {
                // The x labels: centred, hanging below the axis (`dy="0.76em"`), on one row.
                let mut row: Vec<(f64, f64, String)> = Vec::new();
                for t in svg.split("<text").skip(1) {
                    if !(t.contains(r#"dy="0.76em""#) && t.contains(r#"text-anchor="middle""#)) {
                        continue;
                    }
                    row.push((
                        attr(t, "y").unwrap(),
                        attr(t, "x").unwrap(),
                        content(t).to_string(),
                    ));
                }
                let y = row.iter().map(|r| r.0).fold(f64::MIN, f64::max);
                let mut xs: Vec<(f64, String)> = row
                    .into_iter()
                    .filter(|r| r.0 == y)
                    .map(|r| (r.1, r.2))
                    .collect();
                xs.sort_by(|a, b| a.0.total_cmp(&b.0));
                // Three labels at least over Qwen3.5-9B's three decades; two over the shortest
                // axis (at 280 px a context of 16 keeps "100" and "1k").
                let least = if q == scenarios[0] { 3 } else { 2 };
                assert!(xs.len() >= least, "{q} width {width}: {xs:?}");
                for w in xs.windows(2) {
                    let need = (w[0].1.len() + w[1].1.len()) as f64 / 2.0 * 0.6 * 13.0;
                    assert!(w[1].0 - w[0].0 >= need, "{q} width {width}: {xs:?}");
                }
            }
        }
    }
}

#[test]
fn a_refusal_message_stays_inside_the_plot() {
    // "vLLM would not start: the weights do not load" (Qwen3-14B on an RTX 4090) spread over the
    // y axis's labels on a phone-width chart. Now every refusal's message is wrapped inside the
    // plot, in both languages: each line's estimated box (0.56 em per Latin character, 1 em per
    // CJK one, at its font size) lies right of the y labels' column (the plot's left edge, the
    // x of the axis line) and within the drawing.
    use kvbudget::core::i18n::{load_builtin_zh, set_lang, Lang};
    load_builtin_zh();
    for lang in [Lang::En, Lang::ZhCn] {
        set_lang(lang);
        for q in [
            "?model=Qwen/Qwen3-14B&gpu=rtx-4090",
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.5",
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=40960&overhead_gib=1",
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=50000",
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=4096&mnbt=128&seqs=256",
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090&tp=3",
        ] {
            let (_, d) = data(q);
            assert!(d.refusal.is_some(), "{q}");
            for width in [280, 300, 320, 360, 720] {
                for svg in [
                    charts::concurrency(&d, width).unwrap(),
                    charts::roofline(&d, width).unwrap(),
                ] {
                    let drawn = attr(&svg, "width").unwrap();
                    // The axes' frame: `M{left} {top}L{left} {bottom}M…`, the first path.
                    let frame = svg.split(r#" d="M"#).nth(1).unwrap();
                    let left: f64 = frame.split(' ').next().unwrap().parse().unwrap();
                    // The message's lines: centred, `dy="0.5ex"` (tick labels end, legends start).
                    let lines: Vec<(f64, f64, String)> = svg
                        .split("<text")
                        .skip(1)
                        .filter(|t| t.contains(r#"dy="0.5ex" text-anchor="middle""#))
                        .map(|t| {
                            (
                                attr(t, "x").unwrap(),
                                attr(t, "font-size").unwrap_or(13.0),
                                content(t).to_string(),
                            )
                        })
                        .collect();
                    assert!(!lines.is_empty(), "{q} {width}");
                    for (x, size, s) in &lines {
                        let half = em(s) * size / 2.0;
                        assert!(x - half >= left, "{lang:?} {q} width {width}: {s:?} at {x} runs left of the plot ({left})");
                        assert!(
                            x + half <= drawn,
                            "{lang:?} {q} width {width}: {s:?} at {x} runs off the chart"
                        );
                    }
                }
            }
        }
    }
    set_lang(Lang::En);
}

#[test]
fn the_gpu_total_has_its_own_row_where_weights_overflow() {
    // Qwen3-14B's 27.5 GiB on an RTX 4090: the GPU's total is marked, and its label sat on the
    // first bar's name ("BF16 (auto) KV"), running into it on a narrow chart. It now has a row
    // above the bars: at least a line (14 px) above that name, at any width.
    let (_, d) = data("?model=Qwen/Qwen3-14B&gpu=rtx-4090");
    let y_of = |svg: &str, needle: &str| -> f64 {
        attr(
            svg.split("<text").find(|t| t.contains(needle)).unwrap(),
            "y",
        )
        .unwrap()
    };
    for width in [300, 360, 720] {
        let svg = charts::memory(&d, width).unwrap();
        let (gpu, name) = (y_of(&svg, "GPU total"), y_of(&svg, ">BF16 (auto) KV<"));
        assert!(
            name - gpu >= 14.0,
            "width {width}: GPU total at y {gpu}, the bar's name at {name}"
        );
    }
}

#[test]
fn y_tick_labels_never_overlap() {
    // Qwen2.5-7B-AWQ with FP8 on an MI300X at a context of 16: the concurrency axis spans 1 to
    // about 500,000 sequences, eighteen 1-2-5 ticks; at phone width the plot is short and the
    // labels overlapped ("500,000" over "200,000"). Each label is a 13 px line centred on its
    // tick: any two drawn must be 16 px apart at least, at every width the page draws.
    let (_, d) = data("?model=Qwen/Qwen2.5-7B-Instruct-AWQ&gpu=mi300x&ctx=16&kv=fp8");
    for width in [280, 320, 360, 480, 720, 860] {
        for svg in [
            charts::concurrency(&d, width).unwrap(),
            charts::roofline(&d, width).unwrap(),
        ] {
            // The y labels: right-aligned, centred on their tick (`dy="0.5ex"`).
            let mut ys: Vec<f64> = svg
                .split("<text")
                .skip(1)
                .filter(|t| t.contains(r#"dy="0.5ex""#) && t.contains(r#"text-anchor="end""#))
                .map(|t| attr(t, "y").unwrap())
                .collect();
            ys.sort_by(f64::total_cmp);
            assert!(ys.len() >= 2, "width {width}: {ys:?}");
            for w in ys.windows(2) {
                assert!(w[1] - w[0] >= 16.0, "width {width}: {ys:?}");
            }
        }
    }
}

#[test]
fn every_legend_row_is_inside_the_drawing() {
    // Qwen3-14B-AWQ on a T4 at 32K refuses, so the memory split's legend has four entries
    // (weights, overhead, KV cache left over, not claimed). At the page's width of 866 px the
    // chart was given one legend row (the row count started its entries at x = 0) while the
    // drawing starts them at x = 12 and wrapped the fourth: "not claimed: (1 − util) × total" was
    // drawn at y = 22 px past the previous row, below the SVG's height, and cut off. Every text's
    // line (a 13 px font, centred on its y) must lie inside the SVG, for each chart, at every
    // width from 300 to 1,000 px, in both languages.
    use kvbudget::core::i18n::{load_builtin_zh, set_lang, Lang};
    load_builtin_zh();
    for lang in [Lang::En, Lang::ZhCn] {
        set_lang(lang);
        for q in [
            "?model=Qwen/Qwen3-14B-AWQ&gpu=t4&kv=bf16&ctx=32768",
            "?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192",
            "?model=Qwen/Qwen3-14B&gpu=rtx-4090",
            "?model=Qwen/Qwen3-8B&gpu=h100-sxm&ctx=1024",
        ] {
            let (_, d) = data(q);
            for width in (300..=1000).step_by(2) {
                for svg in all_three(&d, width) {
                    let height = attr(&svg, "height").unwrap();
                    for t in svg.split("<text").skip(1) {
                        let Some(y) = attr(t, "y") else { continue };
                        assert!(
                            y + 6.5 <= height,
                            "{lang:?} {q} width {width}: {:?} at y {y} below the drawing's {height}",
                            content(t)
                        );
                    }
                }
            }
        }
    }
    set_lang(Lang::En);
}

#[test]
fn axis_titles_stay_inside_the_drawing() {
    // The roofline's Chinese titles at phone width ran past the chart: "每条序列的上下文长度
    // （token，对数轴）", centred under the plot, ended 2 px right of a 300 px drawing, and the
    // rotated "解码速度上限（token/s，对数轴）" (12 CJK characters and 7 Latin ones: 15.92 em,
    // 207 px at 13 px) centred on a plot 173 px tall started above its top. Each title's
    // estimated extent (0.56 em per Latin character, 1 em per CJK one, at its font size) must lie
    // inside the drawing, along its own direction, at every width, in both languages.
    use kvbudget::core::i18n::{load_builtin_zh, set_lang, Lang};
    load_builtin_zh();
    for lang in [Lang::En, Lang::ZhCn] {
        set_lang(lang);
        for q in [
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090",
            "?model=Qwen/Qwen3-8B&gpu=rtx-4090&tp=3",
        ] {
            let (_, d) = data(q);
            for width in (280..=1000).step_by(10) {
                for svg in all_three(&d, width) {
                    let (w, h) = (attr(&svg, "width").unwrap(), attr(&svg, "height").unwrap());
                    // Each title's box (left, top, right, bottom): they must not meet where both
                    // were moved, in the bottom-left corner.
                    let mut boxes = Vec::new();
                    for t in svg.split("<text").skip(1) {
                        let (x, y) = (attr(t, "x").unwrap(), attr(t, "y").unwrap());
                        let half = em(content(t)) * attr(t, "font-size").unwrap_or(13.0) / 2.0;
                        let size = attr(t, "font-size").unwrap_or(13.0);
                        let (at, end) = if t.contains("transform=\"rotate(270") {
                            boxes.push((x, y - half, x + size, y + half));
                            (y, h)
                        } else if t.contains(r#"dy="-0.5ex" text-anchor="middle""#) {
                            boxes.push((x - half, y - size, x + half, y));
                            (x, w)
                        } else {
                            continue;
                        };
                        assert!(
                            at - half >= 0.0 && at + half <= end,
                            "{lang:?} {q} width {width}: {:?} from {} to {} of {end}",
                            content(t),
                            at - half,
                            at + half
                        );
                    }
                    if let [a, b] = boxes[..] {
                        let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                        assert!(
                            apart,
                            "{lang:?} {q} width {width}: the titles meet: {a:?} {b:?}"
                        );
                    }
                }
            }
        }
    }
    set_lang(Lang::En);
}
