//! English texts: the three charts.

pub const CH_MEMORY_TITLE: &str = "Memory split on one GPU";
pub const CH_MEMORY_SUB: &str = " — 16-bit and FP8 KV side by side";
pub const CH_CONC_TITLE: &str = "Concurrency vs context";
pub const CH_CONC_SUB: &str = " — the hyperbola, vLLM's whole blocks";
pub const CH_ROOF_TITLE: &str = "Decode roofline";
pub const CH_ROOF_SUB: &str = " — bandwidth ÷ (weights + KV read per step)";
pub const CH_NOTHING_DECODES: &str = "vLLM would not start, so nothing decodes.";
pub const CH_GIB_AXIS: &str = "GiB on one GPU (2³⁰ B, as vLLM sees it)";
pub const CH_CTX_AXIS: &str = "context per sequence (tokens, log)";
pub const CH_SEQS_AXIS: &str = "sequences that fit (log)";
pub const CH_DECODE_AXIS: &str = "decode tokens/s ceiling (log)";
pub const CH_NONE_FITS: &str = "not one sequence fits at any context shown";
pub const CH_ONE_ALONE: &str = "one sequence alone";
pub const CH_ALL_TOGETHER: &str = "all that fit (capped), together";
pub const CH_COMPUTE_ROOF: &str = "compute roof (dense BF16 peak)";
pub const CH_REFUSE_WEIGHTS: &str = "vLLM would not start: the weights do not load";
pub const CH_REFUSE_NO_KV: &str = "vLLM would not start: no memory left for the KV cache";
pub const CH_REFUSE_TOO_LONG: &str = "vLLM would not start: one max_model_len request does not fit";
pub const CH_REFUSE_TP: &str = "vLLM would not start: TP does not split the heads";
pub const CH_LEG_WEIGHTS: &str = "weights";
pub const CH_LEG_OVERHEAD: &str = "overhead (activations, CUDA, graphs)";
pub const CH_LEG_SEQUENCES: &str = "one band per sequence";
pub const CH_LEG_STATE: &str = "their recurrent state";
pub const CH_LEG_KV_FREE: &str = "KV cache left over";
pub const CH_LEG_UNCLAIMED: &str = "not claimed: (1 − util) × total";
pub const CH_LEG_OVERFLOW: &str = "weights beyond the GPU";
pub const CH_SEG_WEIGHTS: &str = "weights";
pub const CH_SEG_NO_LOAD: &str = "does not load";
pub const CH_SEG_OVERHEAD: &str = "overhead";
pub const CH_SEG_STATE: &str = "state";
pub const CH_SEG_KV_FREE: &str = "KV left over";
pub const CH_SEG_UNCLAIMED: &str = "not claimed (1 − util)";
pub fn ch_memory_summary(bar: &str, parts: &str) -> String {
    format!("{bar} KV: {parts}.")
}
pub fn ch_with_kv(n: u64, kv: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} sequence{s} with {kv} KV")
}
pub fn ch_conc_summary(context: &str, per: &str, cap: &str) -> String {
    format!("At {context} tokens: {per}; max_num_seqs caps at {cap}.")
}
pub fn ch_roof_summary(context: &str, one: &str, all: &str, n: u64, roof: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    let roof = if roof.is_empty() {
        String::new()
    } else {
        format!(" (the compute roof here: {roof} tokens/s)")
    };
    format!("At {context} tokens: {one} tokens/s for one sequence alone, {all} tokens/s for {n} sequence{s} together{roof}.")
}
pub fn ch_gpu_total(gib: &str) -> String {
    format!("GPU total {gib} GiB")
}
pub fn ch_kv(label: &str) -> String {
    format!("{label} KV")
}
pub fn ch_cap(cap: &str) -> String {
    format!("above max_num_seqs {cap}: never batched")
}
pub fn ch_point(n: &str, at: &str) -> String {
    format!("this scenario: {n} at {at}")
}
pub fn ch_point_none(at: &str) -> String {
    format!("this scenario ({at}): none")
}
pub fn ch_point_rate(rate: &str) -> String {
    format!("this scenario: {rate} tokens/s")
}
pub fn ch_seg_weights_over(gib: &str) -> String {
    format!("weights {gib} GiB")
}
pub fn ch_seg_sequences(n: u64, context: &str) -> String {
    format!("{n} × {context} sequences")
}
