//! The interface in Simplified Chinese: the same figures in other words. The Chinese texts are
//! looked up by their English twins (`core::i18n`); these tests load them as the worker does.

use kvbudget::core::calc::evaluate;
use kvbudget::core::explain::explain;
use kvbudget::core::i18n::{self, Lang};
use kvbudget::core::presets::MODELS;
use kvbudget::core::query::decode;

fn in_chinese<T>(f: impl FnOnce() -> T) -> T {
    i18n::load_builtin_zh();
    i18n::set_lang(Lang::ZhCn);
    let out = f();
    i18n::set_lang(Lang::En);
    out
}

#[test]
fn every_derivation_term_has_its_chinese_name() {
    let zh: std::collections::HashMap<&str, &str> = i18n::zh_pairs().into_iter().collect();
    for m in MODELS.iter() {
        for v in ["", "&tp=2&pp=2&prefix=1", "&vllm=0.19&ctx=131072"] {
            let (s, _) = decode(&format!("?model={}&gpu=h100{v}", m.id()));
            let Ok(o) = evaluate(&s) else { continue };
            for (term, _) in explain(&s, &o).derivations {
                assert!(zh.contains_key(term), "{}: no Chinese for {term:?}", m.id());
            }
        }
    }
}

#[test]
fn the_bytes_per_token_derivation_in_chinese() {
    // Qwen3-8B, BF16: 2 × 36 layers × 8 KV heads × 128 × 2 B = 147,456 B = 144 KiB per token.
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090");
    let o = evaluate(&s).unwrap();
    let zh = in_chinese(|| explain(&s, &o));
    let en = explain(&s, &o);
    assert_eq!(
        zh.derivations[0].1,
        "2（K 和 V）× 36 层 × 8 个 KV 头 × 128 head_dim × 2 字节（BF16 (auto)）= 每 token 147,456 B = 144 KiB"
    );
    assert_eq!(
        en.derivations[0].1,
        "2 (K and V) × 36 layers × 8 KV heads × 128 head_dim × 2 B for BF16 (auto) = 147,456 B = 144 KiB per token"
    );
    // The same terms in the same order, so the page's rows line up in both languages.
    let terms = |e: &kvbudget::core::explain::Explanation| {
        e.derivations.iter().map(|d| d.0).collect::<Vec<_>>()
    };
    assert_eq!(terms(&zh), terms(&en));
}

#[test]
fn a_warning_in_chinese_keeps_its_figures() {
    // max_num_seqs 2 caps the 4 sequences that fit (Qwen3-8B, 8,192 tokens, RTX 4090).
    let (s, _) = decode("?model=Qwen/Qwen3-8B&gpu=rtx-4090&seqs=2");
    let o = evaluate(&s).unwrap();
    let w = in_chinese(|| explain(&s, &o).warnings);
    assert!(
        w.contains(&"max_num_seqs（2）把并发限制在可容纳的 4 条序列以下。".to_string()),
        "{w:?}"
    );
}
