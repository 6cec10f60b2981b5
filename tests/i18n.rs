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
        "2（K 和 V）× 36 层 × 8 个 KV 头 × 128 head_dim × 2 字节（BF16 (auto)）= 每 token 147,456 字节 = 144 KiB"
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

/// English words left in a Chinese text: runs of three or more ASCII letters that are not an
/// identifier, a unit, a product or a flag (those stay as they are in both languages).
fn english_words(text: &str) -> Vec<String> {
    const KEEP: &[&str] = &[
        "GiB",
        "MiB",
        "KiB",
        "GB",
        "CPU",
        "TFLOPS",
        "FLOPs",
        "KV",
        "GPU",
        "GPUs",
        "MLA",
        "MHA",
        "GQA",
        "LoRA",
        "SGLang",
        "vLLM",
        "kvbudget",
        "BF",
        "FP",
        "CUDA",
        "Graph",
        "NCCL",
        "EAGLE",
        "TP",
        "PP",
        "DCP",
        "MoE",
        "MLP",
        "RoPE",
        "token",
        "tokens",
        "int",
        "min",
        "max",
        "Hub",
        "HTTP",
        "CORS",
        "JSON",
        "config",
        "json",
        "auto",
        "bfloat",
        "float",
        "fp",
        "head",
        "dim",
        "custom",
        "vllm",
        "sglang",
        "full",
        "sliding",
        "mla",
        "chunked",
        "light",
        "dark",
        "every",
        "Gemma",
        "gemma",
        "glm",
        "memory",
        "concurrency",
        "roofline",
        "en",
        "zh",
        "CN",
        "kind",
        "layers",
        "kernel",
        "heads",
        "state",
        "groups",
        "conv",
        "dtype",
        "ssm",
        "chunk",
        "mamba",
        "nemotronh",
        "falconh",
        "gdn",
        "qwen",
        "post",
        "rank",
        "Gated",
        "DeltaNet",
        "Mamba",
        "Qwen",
        "Transformer",
        "PagedAttention",
        "key",
        "value",
        "logits",
        "torch",
        "rope",
        "latent",
        "Worker",
        "Infinity",
        "NaN",
        "inf",
        "postN",
    ];
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_alphabetic() {
            word.push(c);
            continue;
        }
        // Identifiers (max_model_len, --kv-cache-dtype) and quoted input stay verbatim.
        let identifier = c == '_' || c == '-';
        if word.len() >= 3 && !identifier && !KEEP.contains(&word.as_str()) {
            out.push(word.clone());
        }
        if !identifier {
            word.clear();
        } else {
            word.push(c);
        }
    }
    out.retain(|w| !w.contains('_') && !w.contains('-'));
    out
}

#[test]
fn field_errors_and_url_notices_read_in_chinese() {
    use kvbudget::core::query::all_params;
    use kvbudget::page::{self, Units};
    let inputs = page::all_inputs();
    let (custom, _) = decode("?model=custom");
    let (mut messages, mut checked) = (Vec::new(), 0);
    in_chinese(|| {
        for input in inputs {
            for bad in ["", "x1", "-5", "99999999999999999"] {
                if let Err(e) = input.commit(&custom, bad, Units::default()) {
                    messages.push((input.id.to_string(), e));
                }
            }
        }
        for p in all_params() {
            for bad in ["x1", "-5", "99999999999999999"] {
                let (_, notices) = decode(&format!("?model=custom&{}={bad}", p.key));
                messages.extend(notices.into_iter().map(|n| (p.key.to_string(), n.message)));
            }
        }
        let (_, notices) = decode("?nonsense=1");
        messages.extend(notices.into_iter().map(|n| (n.param, n.message)));
    });
    for (field, m) in &messages {
        checked += 1;
        assert!(
            m.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{field}: no Chinese in {m:?}"
        );
        // The URL key itself (attn, ungated, …) is an identifier.
        let mut left = english_words(m);
        left.retain(|w| w != field);
        assert!(left.is_empty(), "{field}: English left in {m:?}: {left:?}");
    }
    // Every input refuses at least its empty or non-numeric text, and many URL keys more.
    assert!(checked > 80, "only {checked} messages checked");
}

#[test]
fn a_config_import_reads_in_chinese() {
    // The summary and notes of every fixture config, in Chinese: model ids, config keys and
    // units stay; no English sentence is left.
    let dir = format!("{}/tests/fixtures/configs", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines = in_chinese(|| match kvbudget::core::config::import(&text, &name) {
            Ok(m) => [vec![m.summary()], m.notes].concat(),
            Err(e) => vec![e.to_string()],
        });
        for l in lines {
            // The model's own name is quoted in the summary.
            let l = l.replace(&name, "");
            let left: Vec<String> = english_words(&l)
                .into_iter()
                .filter(|w| {
                    ![
                        "lm",
                        "head",
                        "mxfp",
                        "awq",
                        "gptq",
                        "nvfp",
                        "compressed",
                        "tensors",
                        "bits",
                        "yarn",
                        "llama",
                        "dynamic",
                        "linear",
                        "false",
                        "jamba",
                        "minimax",
                        "rwkv",
                        "zamba",
                        "gemma",
                        "qwen",
                        "nemotron",
                        "granitemoehybrid",
                        "bamba",
                        "Marlin",
                    ]
                    .contains(&w.as_str())
                })
                .collect();
            assert!(left.is_empty(), "{name}: English left in {l:?}: {left:?}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} lines checked");
}

#[test]
fn counts_keep_their_thousands_separators_in_both_languages() {
    // 2,048 sequences: the plan's title, the charts' summaries (a count ≥ 1,000).
    let en = kvbudget::core::t!(pl_title(2048, "8,192", "0.33"));
    assert_eq!(
        en,
        "Plan: 2,048 sequences of 8,192 tokens at once (vLLM 0.33)"
    );
    assert_eq!(
        kvbudget::core::t!(ch_with_kv(1000, "fp8")),
        "1,000 sequences with fp8 KV"
    );
    let zh = in_chinese(|| kvbudget::core::t!(pl_title(2048, "8,192", "0.33")));
    assert_eq!(
        zh,
        "规划：同时运行 2,048 条 8,192 token 的序列（vLLM 0.33）"
    );
    assert_eq!(
        kvbudget::core::t!(pl_title(1, "8,192", "0.33")),
        "Plan: 1 sequence of 8,192 tokens at once (vLLM 0.33)"
    );
}

#[test]
fn an_moe_decode_derivation_in_chinese() {
    // Qwen3-30B-A3B at 4,096 tokens, two sequences on an H100 (tests/calc.rs derives the figures):
    // one sequence reads 6,706,065,408 B of the 61,064,245,248 B, 8 of 128 experts per layer; two
    // routed at random use about 15.5 of them, 10,103,451,648 B.
    let (s, _) = decode("?model=Qwen/Qwen3-30B-A3B&gpu=h100-sxm&ctx=4096&seqs=2");
    let o = evaluate(&s).unwrap();
    let zh = in_chinese(|| explain(&s, &o));
    let line = &zh
        .derivations
        .iter()
        .find(|d| d.0 == "decode ceiling")
        .unwrap()
        .1;
    assert_eq!(
        line,
        "每一步读取所用的权重和每条序列的 KV：3,350 GB/s（10⁹ 字节/秒）/ (6,706,065,408 字节权重：\
         61,064,245,248 字节中去掉 token 未选中的路由专家（每层从 128 个路由专家中选 8 个） + 4,096 个 token × \
         98,304 字节) = 单条序列 471.3 token/s；2 条序列合计：614.2 token/s；2 条序列随机路由时每层平均约用到 \
         128 个专家中的 15.5 个，读取权重 10,103,451,648 字节"
    );
}
