//! The texts that carry figures: each fills its template (`{0}`, `{1}`, …, in the current
//! language) with its arguments; the choices between templates (English plurals, optional parts)
//! are made here, once for both languages.
#![allow(missing_docs)]

use super::fill;
use crate::t;

pub fn in_util_placeholder(util: &str, version: &str) -> String {
    fill(t!(IN_UTIL_PLACEHOLDER), &[&util, &version])
}

pub fn in_seqs_placeholder(seqs: u64) -> String {
    fill(t!(IN_SEQS_PLACEHOLDER), &[&seqs])
}

pub fn in_overhead_placeholder(gib: &str, spread: &str) -> String {
    fill(t!(IN_OVERHEAD_PLACEHOLDER), &[&gib, &spread])
}

pub fn in_sglang_placeholder(value: &str, version: &str) -> String {
    fill(t!(IN_SGLANG_PLACEHOLDER), &[&value, &version])
}

pub fn in_newest(v: &str) -> String {
    fill(t!(IN_NEWEST), &[&v])
}

pub fn in_v0(v: &str) -> String {
    fill(t!(IN_V0), &[&v])
}

pub fn in_sliding(window: &str, sliding: u64, layers: u64) -> String {
    fill(t!(IN_SLIDING), &[&window, &sliding, &layers])
}

pub fn in_chunked(chunk: &str, local: u64, layers: u64) -> String {
    fill(t!(IN_CHUNKED), &[&chunk, &local, &layers])
}

pub fn in_vocab(v: &str) -> String {
    fill(t!(IN_VOCAB), &[&v])
}

pub fn in_default_len(len: &str) -> String {
    fill(t!(IN_DEFAULT_LEN), &[&len])
}

pub fn in_state_layers(state: u64, layers: u64, kind: &str) -> String {
    fill(t!(IN_STATE_LAYERS), &[&state, &layers, &kind])
}

pub fn rs_url_notice(param: &str, message: &str) -> String {
    fill(t!(RS_URL_NOTICE), &[&param, &message])
}

pub fn rs_invalid_kept(e: &str) -> String {
    fill(t!(RS_INVALID_KEPT), &[&e])
}

pub fn rs_copied(what: &str) -> String {
    fill(t!(RS_COPIED), &[&what])
}

pub fn rs_clipboard_refused(what: &str) -> String {
    fill(t!(RS_CLIPBOARD_REFUSED), &[&what])
}

pub fn rs_formula_vs_vllm(seed: u64, block: u64, vllm: u64) -> String {
    use crate::units::thousands;
    fill(
        t!(RS_FORMULA_VS_VLLM_TEXT),
        &[&thousands(seed), &thousands(block), &thousands(vllm)],
    )
}

pub fn rs_lines_heading(engine: &str, version: &str) -> String {
    fill(t!(RS_LINES_HEADING), &[&engine, &version])
}

pub fn rs_compare_caption(model: &str, gpu: &str, context: &str) -> String {
    fill(t!(RS_COMPARE_CAPTION), &[&model, &gpu, &context])
}

pub fn rs_embed_headline(
    model: &str,
    gpu: &str,
    kv: &str,
    seqs: u64,
    context: &str,
    bpt: &str,
) -> String {
    let fit = rs_fit(&crate::units::thousands(seqs), seqs, context);
    fill(t!(RS_EMBED_HEADLINE), &[&model, &gpu, &kv, &fit, &bpt])
}

pub fn rs_embed_refused(model: &str, gpu: &str, kv: &str, why: &str) -> String {
    fill(t!(RS_EMBED_REFUSED), &[&model, &gpu, &kv, &why])
}

pub fn rs_repertoire_caption(gpu: &str, context: &str, from_log: &str) -> String {
    fill(t!(RS_REPERTOIRE_CAPTION), &[&gpu, &context, &from_log])
}

pub fn rs_of_tokens_each(context: &str) -> String {
    fill(t!(RS_OF_TOKENS_EACH), &[&context])
}

pub fn rs_range(low: &str, high: &str) -> String {
    fill(t!(RS_RANGE), &[&low, &high])
}

pub fn rs_pool_range(low: &str, high: &str) -> String {
    fill(t!(RS_POOL_RANGE), &[&low, &high])
}

pub fn rs_as_mha(bpt: &str, mha: &str) -> String {
    fill(t!(RS_AS_MHA), &[&bpt, &mha])
}

pub fn rs_pool_sub(bytes: &str, range: &str) -> String {
    fill(t!(RS_POOL_SUB), &[&bytes, &range])
}

pub fn rs_tokens(n: &str) -> String {
    fill(t!(RS_TOKENS), &[&n])
}

pub fn rs_blocks_of(blocks: &str, block: u64, range: &str) -> String {
    fill(t!(RS_BLOCKS_OF), &[&blocks, &block, &range])
}

pub fn rs_sg_repertoire_caption(version: &str, gpu: &str, context: &str, note: &str) -> String {
    fill(
        t!(RS_SG_REPERTOIRE_CAPTION),
        &[&version, &gpu, &context, &note],
    )
}

pub fn rs_sg_seqs_none(per_sequence: &str, pool: &str) -> String {
    fill(t!(RS_SG_SEQS_NONE), &[&per_sequence, &pool])
}

pub fn rs_sg_pool_sub(bytes: &str) -> String {
    fill(t!(RS_SG_POOL_SUB), &[&bytes])
}

pub fn rs_sg_seqs_sub(context: &str, cap: &str) -> String {
    fill(t!(RS_SG_SEQS_SUB), &[&context, &cap])
}

pub fn rs_sg_tokens_sub(cell: &str, range: &str) -> String {
    fill(t!(RS_SG_TOKENS_SUB), &[&cell, &range])
}

pub fn rs_sg_tokens_sub_swa(price: &str, ratio: &str, range: &str) -> String {
    fill(t!(RS_SG_TOKENS_SUB_SWA), &[&price, &ratio, &range])
}

pub fn rs_sg_default_reserved(version: &str, reserved: &str, total: &str) -> String {
    fill(t!(RS_SG_DEFAULT_RESERVED), &[&version, &reserved, &total])
}

pub fn rs_sg_default(version: &str) -> String {
    fill(t!(RS_SG_DEFAULT), &[&version])
}

pub fn rs_sg_not_accepted(e: &str) -> String {
    fill(t!(RS_SG_NOT_ACCEPTED), &[&e])
}

pub fn lc_reading(name: &str) -> String {
    fill(t!(LC_READING), &[&name])
}

pub fn lc_too_big(e: &str) -> String {
    fill(t!(LC_TOO_BIG), &[&e])
}

pub fn im_http(code: u16, id: &str) -> String {
    fill(t!(IM_HTTP), &[&code, &id])
}

pub fn im_fetching(id: &str) -> String {
    fill(t!(IM_FETCHING), &[&id])
}

pub fn im_same_preset(id: &str) -> String {
    fill(t!(IM_SAME_PRESET), &[&id])
}

pub fn br_file_too_big(name: &str, bytes: u64) -> String {
    fill(t!(BR_FILE_TOO_BIG), &[&name, &bytes])
}

pub fn br_not_text(name: &str) -> String {
    fill(t!(BR_NOT_TEXT), &[&name])
}

pub fn im_404(id: &str) -> String {
    fill(t!(IM_404), &[&id])
}

pub fn im_gated(id: &str, code: u16) -> String {
    fill(t!(IM_GATED), &[&id, &code])
}

pub fn im_too_big(e: &str) -> String {
    fill(t!(IM_TOO_BIG), &[&e])
}

pub fn pl_util_range(low: &str, high: &str) -> String {
    fill(t!(PL_UTIL_RANGE), &[&low, &high])
}

pub fn pl_kv_bytes(bytes: &str, blocks: &str) -> String {
    fill(t!(PL_KV_BYTES), &[&bytes, &blocks])
}

pub fn pl_kv_over(needed: &str, total: &str) -> String {
    fill(t!(PL_KV_OVER), &[&needed, &total])
}

pub fn pl_len_range(point: &str, safe: &str, optimistic: &str) -> String {
    fill(t!(PL_LEN_RANGE), &[&point, &safe, &optimistic])
}

pub fn gp_caption(model: &str, context: &str) -> String {
    fill(t!(GP_CAPTION), &[&model, &context])
}

pub fn gp_load(gpu: &str) -> String {
    fill(t!(GP_LOAD), &[&gpu])
}

pub fn gp_rate(rate: &str) -> String {
    fill(t!(GP_RATE), &[&rate])
}

pub fn rp_load(model: &str, kv: &str) -> String {
    fill(t!(RP_LOAD), &[&model, &kv])
}

pub fn ch_memory_summary(bar: &str, parts: &str) -> String {
    fill(t!(CH_MEMORY_SUMMARY), &[&bar, &parts])
}

pub fn ch_conc_summary(context: &str, per: &str, cap: &str) -> String {
    fill(t!(CH_CONC_SUMMARY), &[&context, &per, &cap])
}

pub fn ch_budget(gib: &str) -> String {
    fill(t!(CH_BUDGET), &[&gib])
}

pub fn ch_gpu_total(gib: &str) -> String {
    fill(t!(CH_GPU_TOTAL), &[&gib])
}

pub fn ch_kv(label: &str) -> String {
    fill(t!(CH_KV), &[&label])
}

pub fn ch_cap(cap: &str) -> String {
    fill(t!(CH_CAP), &[&cap])
}

pub fn ch_point(n: &str, at: &str) -> String {
    fill(t!(CH_POINT), &[&n, &at])
}

pub fn ch_point_none(at: &str) -> String {
    fill(t!(CH_POINT_NONE), &[&at])
}

pub fn ch_point_rate(rate: &str) -> String {
    fill(t!(CH_POINT_RATE), &[&rate])
}

pub fn ch_seg_weights_over(gib: &str) -> String {
    fill(t!(CH_SEG_WEIGHTS_OVER), &[&gib])
}

pub fn ch_seg_sequences(n: u64, context: &str) -> String {
    fill(
        t!(CH_SEG_SEQUENCES),
        &[&crate::units::thousands(n), &context],
    )
}

pub fn in_gpu_seen_preset(
    marketed: u64,
    gib: &str,
    bytes: &str,
    bw: &str,
    tflops: &str,
    fp8: &str,
) -> String {
    let fp8 = if fp8.is_empty() {
        String::new()
    } else {
        fill(t!(IN_FP8_PART), &[&fp8])
    };
    fill(
        t!(IN_GPU_SEEN_PRESET),
        &[&marketed, &gib, &bytes, &bw, &tflops, &fp8],
    )
}

pub fn in_gpu_seen_custom(gib: &str, bytes: &str, bw: &str, tflops: &str) -> String {
    let compute = if tflops.is_empty() {
        t!(IN_TFLOPS_UNKNOWN).to_string()
    } else {
        fill(t!(IN_TFLOPS_KNOWN), &[&tflops])
    };
    fill(t!(IN_GPU_SEEN_CUSTOM), &[&gib, &bytes, &bw, &compute])
}

pub fn in_mla(latent: u64, indexer: u64) -> String {
    if indexer == 0 {
        fill(t!(IN_MLA), &[&latent])
    } else {
        fill(t!(IN_MLA_INDEXER), &[&latent, &indexer])
    }
}

pub fn rs_fit(sequences: &str, n: u64, context: &str) -> String {
    let template = if n == 1 { t!(RS_FIT_ONE) } else { t!(RS_FIT) };
    fill(template, &[&sequences, &context])
}

/// (`refused`: SGLang would not start, and `fit` says so.)
pub fn rs_under_sglang(fit: &str, refused: bool, version: &str, rest: &str) -> String {
    let template = if refused {
        t!(RS_UNDER_SGLANG_REFUSED)
    } else {
        t!(RS_UNDER_SGLANG)
    };
    fill(template, &[&fit, &version, &rest])
}

pub fn pl_title(n: u64, context: &str, version: &str) -> String {
    let template = if n == 1 {
        t!(PL_TITLE_ONE)
    } else {
        t!(PL_TITLE)
    };
    fill(template, &[&crate::units::thousands(n), &context, &version])
}

pub fn ch_with_kv(n: u64, kv: &str) -> String {
    let template = if n == 1 {
        t!(CH_WITH_KV_ONE)
    } else {
        t!(CH_WITH_KV)
    };
    fill(template, &[&crate::units::thousands(n), &kv])
}

pub fn ch_roof_summary(context: &str, one: &str, all: &str, n: u64, roof: &str) -> String {
    let roof = if roof.is_empty() {
        String::new()
    } else {
        fill(t!(CH_ROOF_PART), &[&roof])
    };
    let template = if n == 1 {
        t!(CH_ROOF_SUMMARY_ONE)
    } else {
        t!(CH_ROOF_SUMMARY)
    };
    fill(
        template,
        &[&context, &one, &all, &crate::units::thousands(n), &roof],
    )
}
