//! The URL keys of the 2026 families: a hybrid's state, chunked attention, the indexer and
//! decode context parallelism round-trip, and a bad value is named and replaced by the default.

use kvbudget::core::model::{Attention, StateFamily, StateKind};
use kvbudget::core::query::{decode, encode};

#[test]
fn a_hybrid_custom_model_round_trips() {
    let q = "model=custom&name=q&layers=32&heads=16&kv_heads=4&head_dim=256\
             &state=gdn.qwen35-24-4-32-128-128-16-auto-float32-0&dcp=2&tp=2&no_prefix=1";
    let (s, notices) = decode(q);
    assert!(notices.is_empty(), "{notices:?}");
    let st = s.model.spec().state.unwrap();
    assert_eq!(
        (st.kind, st.family, st.layers, st.heads),
        (StateKind::GatedDeltaNet, StateFamily::Qwen35, 24, 32)
    );
    assert_eq!((s.knobs.dcp, s.knobs.no_prefix_caching), (2, true));
    let (back, _) = decode(&encode(&s));
    assert_eq!(back, s);
    let (s, notices) =
        decode("model=custom&layers=48&kv_heads=8&head_dim=128&heads=40&attn=chunked&chunk=8192&local_layers=36");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(
        s.model.spec().attention,
        Attention::ChunkedLocal {
            chunk: 8192,
            local_layers: 36
        }
    );
}

#[test]
fn gemma_4s_two_shapes_and_shared_layers_round_trip() {
    // Gemma 4 E2B as a user describes it: 35 layers, 28 sliding (window 512, 1 KV head × 256),
    // the 7 full ones 1 KV head × 512, the last 16 sliding and 4 full layers without a cache.
    let q = "model=custom&name=e2b&layers=35&heads=8&kv_heads=1&head_dim=256\
             &attn=sliding&window=512&sliding_layers=28&full_kv=1-512&kv_shared=16-4";
    let (s, notices) = decode(q);
    assert!(notices.is_empty(), "{notices:?}");
    let m = s.model.spec();
    assert_eq!(m.full_shape().head_dim, 512);
    assert_eq!((m.kv_shared().sliding, m.kv_shared().full), (16, 4));
    let (back, _) = decode(&encode(&s));
    assert_eq!(back, s);
    assert!(
        encode(&s).contains("full_kv=1-512&kv_shared=16-4"),
        "{}",
        encode(&s)
    );
}

#[test]
fn bad_values_are_named_and_replaced_by_the_default() {
    let cases = [
        (
            "state=garbage",
            "state",
            "state layers: \"garbage\" is not kind-layers",
        ),
        (
            "state=gdn-40-4-32-128-128-16-auto-auto-0",
            "state",
            "has 40 state layers, more than the model's 32 layers",
        ),
        (
            "attn=chunked&chunk=0&local_layers=3",
            "attn",
            "chunk must be a whole number of tokens from 1 to 2^40",
        ),
        (
            "attn=chunked&chunk=8192&local_layers=40",
            "attn",
            "local_layers must be a whole number up to the layer count",
        ),
        ("dcp=0", "dcp", "from 1 to 64"),
        (
            "attn=sliding&window=512&sliding_layers=28&full_kv=1x512",
            "attn",
            "full_kv: \"1x512\" is not heads-head_dim",
        ),
        (
            "attn=sliding&window=512&sliding_layers=28&kv_shared=16",
            "attn",
            "kv_shared: \"16\" is not sliding-full",
        ),
    ];
    for (extra, key, says) in cases {
        let q = format!("model=custom&layers=32&kv_heads=4&head_dim=256&{extra}");
        let (s, notices) = decode(&q);
        let n = notices
            .iter()
            .find(|n| n.param == key)
            .unwrap_or_else(|| panic!("{extra}: no notice for {key}: {notices:?}"));
        assert!(n.message.contains(says), "{extra}: {}", n.message);
        // The default stands: no state, full attention, no DCP.
        let m = s.model.spec();
        assert!(m.state.is_none() && m.attention == Attention::Full && s.knobs.dcp <= 1);
    }
}
