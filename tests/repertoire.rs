//! The repertoire table: the course's models at 8K on an RTX 4090, checked by hand, and the
//! same numbers as the results panel.

use kvbudget::core::calc::evaluate;
use kvbudget::core::model::KvDtype;
use kvbudget::core::query::decode;
use kvbudget::core::repertoire::{rows, rows_key};

#[test]
fn repertoire_on_a_4090_at_8k() {
    let (s, notes) = decode("?gpu=rtx-4090&ctx=8192&vllm=0.33&util=0.92&overhead_gib=1");
    assert!(notes.is_empty(), "{notes:?}");
    let r = rows(&s);
    assert_eq!(r.len(), 6);
    // Qwen3-8B BF16: total ⌊23.55 × 2³⁰⌋ = 25,286,619,955; ceil(× 0.92) = 23,263,690,359;
    // − ⌊15.27 × 2³⁰⌋ = 16,396,037,652 − 1 GiB = 5,793,910,883 B of pool.
    // One 8K sequence: 8,192 × 147,456 = 1,207,959,552 B → 5,793,910,883 / 1,207,959,552 = 4.80 → 4.
    let q3 = &r[0];
    assert_eq!((q3.model.id(), q3.kv), ("Qwen/Qwen3-8B", KvDtype::Auto));
    assert_eq!(q3.key(), "Qwen3-8B-auto");
    assert_eq!(q3.bytes_per_token.0, 147_456);
    assert_eq!(q3.pool, 5_793_910_883);
    assert_eq!(q3.seed_max_seqs, 4);
    // vLLM: 5,793,910,883 // 65,536 // 36 = 2,455 blocks; 2,455 // 512 per request = 4.
    assert_eq!(q3.vllm_max_seqs, 4);
    // FP8 halves the bytes: 73,728 per token; 5,793,910,883 // 32,768 // 36 = 4,911 blocks // 512 = 9.
    assert_eq!(r[1].bytes_per_token.0, 73_728);
    assert_eq!(r[1].seed_max_seqs, 9);
    // Qwen2.5-7B BF16: pool 23,263,690,359 − ⌊14.25 × 2³⁰⌋ 15,300,820,992 − 1 GiB = 6,889,127,543;
    // one 8K sequence = 8,192 × 57,344 = 469,762,048 → 14.66 → 14.
    assert_eq!(r[4].model.id(), "Qwen/Qwen2.5-7B-Instruct");
    assert_eq!(r[4].seed_max_seqs, 14);
    assert!(r.iter().all(|row| row.error.is_none()));
}

#[test]
fn with_prompt_and_trace_the_row_matches_the_results() {
    // The repertoire used to evaluate at max_model_len (8,192) while the results used
    // prompt + trace (1,000 + 4,000 = 5,000 tokens): the two panels disagreed.
    // Qwen3-8B BF16 at 5,000 tokens: 2,455 blocks // ⌈5,000 / 16⌉ = 313 = 7 (tests/calc.rs);
    // at 8,192 it would be 4.
    let (s, _) =
        decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&prompt=1000&trace=4000&overhead_gib=1");
    let o = evaluate(&s).unwrap();
    assert_eq!(o.chosen.capped, 7);
    let r = rows(&s);
    let row = r
        .iter()
        .find(|r| r.model.id() == "Qwen/Qwen3-8B" && r.kv == s.kv)
        .unwrap();
    assert_eq!(row.capped, o.chosen.capped);
    assert_eq!(row.vllm_max_seqs, o.chosen.vllm_max);
    // Every row equals the results the page shows after loading it.
    for row in &r {
        let mut t = s.clone();
        row.load_into(&mut t);
        assert_eq!(
            row.capped,
            evaluate(&t).unwrap().chosen.capped,
            "{}",
            row.key()
        );
    }
}

#[test]
fn the_table_is_keyed_on_what_its_rows_read() {
    // The page recomputes the table only when `rows_key` changes: every row sets its own model
    // and dtype, so a scenario and its key give the same rows, and scenarios that differ only in
    // the model, the dtype or the amount of a log's KV memory share one key.
    let scenario = |q: &str| decode(q).0;
    let base = "?gpu=rtx-4090&ctx=8192&overhead_gib=1";
    for q in [
        format!("{base}&model=Qwen/Qwen3-8B"),
        format!("{base}&model=Qwen/Qwen2.5-7B-Instruct&kv=fp8"),
        format!("{base}&model=Qwen/Qwen3-8B&weights_gib=15.5"),
        format!("{base}&model=Qwen/Qwen3-8B&kv_bytes=4000000000"),
        format!("{base}&model=custom&layers=40&kv_heads=8&head_dim=128&weights_gib=12"),
        "?gpu=h100-sxm&ctx=32768&prompt=1000&trace=4000&tp=2".to_string(),
    ] {
        let s = scenario(&q);
        assert_eq!(rows(&s), rows(&rows_key(&s)), "{q}");
    }
    let key = |q: &str| rows_key(&scenario(q));
    assert_eq!(
        key(&format!("{base}&model=Qwen/Qwen3-8B")),
        key(&format!("{base}&model=Qwen/Qwen3-14B-AWQ&kv=fp8"))
    );
    assert_eq!(
        key(&format!("{base}&kv_bytes=4000000000")),
        key(&format!("{base}&kv_bytes=5000000000"))
    );
    // What a row reads changes the key: the GPU, the context, whether a log gave the KV memory
    // (the caption says so), and the model when a log measured its weights (Qwen3-8B's rows
    // use 15.5 GiB; another model's do not).
    assert_ne!(key(base), key("?gpu=l40s&ctx=8192&overhead_gib=1"));
    assert_ne!(key(base), key("?gpu=rtx-4090&ctx=4096&overhead_gib=1"));
    assert_ne!(key(base), key(&format!("{base}&kv_bytes=4000000000")));
    assert_ne!(
        key(&format!("{base}&model=Qwen/Qwen3-8B&weights_gib=15.5")),
        key(&format!(
            "{base}&model=Qwen/Qwen2.5-7B-Instruct&weights_gib=15.5"
        ))
    );
    // Measured weights count in their model's rows, as in the results after loading the row:
    // 23,263,690,359 B (92 % of the 4090, as above) − ⌊15.5 × 2³⁰⌋ 16,642,998,272 − 1 GiB
    // = 5,546,950,263 B of pool for Qwen3-8B (5,793,910,883 with the preset's 15.27 GiB).
    let s = scenario(&format!("{base}&model=Qwen/Qwen3-8B&weights_gib=15.5"));
    let measured = rows(&s);
    let plain = rows(&scenario(base));
    assert_eq!(measured[0].pool, 5_546_950_263);
    assert_eq!(plain[0].pool, 5_793_910_883);
    assert_eq!(measured[4].pool, plain[4].pool);
    for row in &measured {
        let mut t = s.clone();
        row.load_into(&mut t);
        assert_eq!(row.pool, evaluate(&t).unwrap().chosen.pool, "{}", row.key());
    }
}

#[test]
fn every_gpu_for_the_current_model() {
    // Qwen3-14B (27.52 GiB of weights) at 8K: it does not load on the 24 GB cards and fits on
    // the 40 GB and larger ones; each row equals the results on that GPU.
    let (s, _) = decode("?model=Qwen/Qwen3-14B&gpu=rtx-4090&ctx=8192&overhead_gib=1");
    let rows = kvbudget::core::gpus::compare(&s);
    assert_eq!(rows.len(), 14);
    let row = |slug: &str| rows.iter().find(|r| r.gpu.slug == slug).unwrap();
    assert_eq!(
        row("rtx-4090").refusal,
        Some(kvbudget::core::vllm::RefusalKind::WeightsDoNotFit)
    );
    assert_eq!(row("rtx-4090").capped, 0);
    for slug in ["a100-40gb", "l40s", "h100-sxm"] {
        let (t, _) = decode(&format!(
            "?model=Qwen/Qwen3-14B&gpu={slug}&ctx=8192&overhead_gib=1"
        ));
        assert_eq!(
            row(slug).capped,
            evaluate(&t).unwrap().chosen.capped,
            "{slug}"
        );
        assert!(row(slug).capped > 0, "{slug}");
    }
    // Smallest memory first.
    assert!(rows.windows(2).all(|w| w[0].gpu.total <= w[1].gpu.total));
}

#[test]
fn gpus_smallest_first_is_a_stable_order_by_memory() {
    use kvbudget::core::presets::{gpus_smallest_first, GPUS};
    let order = gpus_smallest_first();
    assert_eq!(order.len(), GPUS.len());
    for w in order.windows(2) {
        assert!(
            w[0].total <= w[1].total,
            "{} before {}",
            w[0].slug,
            w[1].slug
        );
        // Equal sizes keep the table's order.
        if w[0].total == w[1].total {
            let at = |slug: &str| GPUS.iter().position(|g| g.slug == slug).unwrap();
            assert!(at(w[0].slug) < at(w[1].slug), "{} {}", w[0].slug, w[1].slug);
        }
    }
    // Every preset once: the same set as the table.
    let mut slugs: Vec<&str> = order.iter().map(|g| g.slug).collect();
    let mut table: Vec<&str> = GPUS.iter().map(|g| g.slug).collect();
    slugs.sort_unstable();
    table.sort_unstable();
    assert_eq!(slugs, table);
}

/// A row vLLM would not start says why instead of a bare 0. At a max_model_len of 65,536 on an
/// RTX 4090 every course model is past its limit (Qwen3-8B's 40,960, Qwen2.5-7B's 32,768):
/// "over the model's limit", as the GPU table says it. At 8K, Qwen3-8B BF16 on a T4 (15 GiB:
/// 15.27 GiB of weights) does not load.
#[test]
fn a_row_that_does_not_start_says_why() {
    use kvbudget::core::vllm::RefusalKind;
    let (s, _) = decode("?gpu=rtx-4090&ctx=65536");
    let r = rows(&s);
    assert!(r
        .iter()
        .all(|x| x.refusal == Some(RefusalKind::ModelLimit) && x.capped == 0));
    let table = kvbudget::page::repertoire_view(&s).rows;
    assert_eq!(table.len(), 6);
    assert!(table
        .iter()
        .all(|x| x.fits == "over the model's limit" && x.sequences == 0));
    let (s, _) = decode("?gpu=t4&ctx=8192");
    let r = rows(&s);
    assert_eq!(r[0].refusal, Some(RefusalKind::WeightsDoNotFit));
    assert_eq!(
        kvbudget::page::repertoire_view(&s).rows[0].fits,
        "weights do not load"
    );
    // A row that starts shows its count: Qwen3-8B BF16 on a 4090 at 8K, 4 sequences.
    let (s, _) = decode("?gpu=rtx-4090&ctx=8192");
    let first = &kvbudget::page::repertoire_view(&s).rows[0];
    assert_eq!((first.sequences, first.fits.as_str()), (4, "4"));
}
