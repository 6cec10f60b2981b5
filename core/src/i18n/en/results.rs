//! English texts: the results panel, the answer bar and SGLang's figures.

pub const RS_VLLM_WONT_START: &str = "vLLM would not start";
pub const RS_SGLANG_WONT_START: &str = "SGLang would not start";
pub const RS_SGLANG_PENDING: &str = "Computing SGLang's figures…";
pub const RS_DISMISS: &str = "Dismiss";
pub const RS_ENTER_VALID: &str = "Enter a valid scenario.";
pub const RS_NO_FIX: &str = "No preset GPU, TP size or setting here makes it start.";
pub const RS_WOULD_REFUSE: &str = "vLLM would refuse to start. ";
pub const RS_WHAT_MAKES_IT_START: &str = "What makes it start";
pub const RS_EACH_CHECKED: &str = " (each checked; one click applies it):";
pub const RS_RANGE_NOTE: &str = "Ranges come from the overhead estimate's uncertainty (activation ±10 %, NCCL and CUDA-graph buffers) and about 1 % boot-to-boot variation; two boots of the same configuration can differ by several percent.";
pub const RS_PRIMER_TITLE: &str = "The KV cache in one minute";
pub const RS_HOW: &str = "How";
pub const RS_FORMULA_VS_VLLM: &str = "formula vs vLLM";
pub const RS_SERVE_IT: &str = "Serve it";
pub const RS_REFUSED_COMMAND: &str = "With these settings vLLM would refuse to start (above); the command is what you would run after a fix.";
pub const RS_COPY_COMMAND: &str = "Copy command";
pub const RS_COPY_LINK: &str = "Copy link";
pub const RS_EMBED: &str = "Embed…";
pub const RS_USE_BUDGET: &str = "Use the budget, not the log's KV memory";
pub const RS_COMMAND: &str = "command";
pub const RS_LINK: &str = "link";
pub const RS_SNIPPET: &str = "snippet";
pub const RS_STAT_SEQS: &str = "Sequences that fit";
pub const RS_STAT_BPT: &str = "KV per token";
pub const RS_STAT_POOL: &str = "KV pool";
pub const RS_STAT_VLLM_KV: &str = "vLLM's KV cache";
pub const RS_NONE_LEFT: &str = "none left";
pub const RS_FROM_LOG: &str = "taken from a vLLM log";
pub const RS_SEED_OVERHEAD: &str = "the course lab's single overhead figure";
pub const RS_ENGINE: &str = "Engine";
pub const RS_TOKENS_IN_KV: &str = "Tokens in the KV cache";
pub const RS_SEQS_AT_CTX: &str = "Sequences at the context";
pub const RS_HOW_POOL: &str = "How the pool is sized";
pub const RS_REFUSES: &str = "— (refuses)";
pub const RS_EACH_MODEL_BUDGET: &str = " (each model's own budget, not the log's KV memory)";
pub const RS_WEIGHTS_NO_LOAD_SHORT: &str = "weights do not load";
pub const RS_NO_KV_SHORT: &str = "no KV memory";
pub const RS_TOO_LONG_SHORT: &str = "max_model_len too long";
pub const RS_TP_INVALID_SHORT: &str = "TP invalid";
pub const RS_REFUSE_WEIGHTS: &str = "The weights do not fit on this GPU: vLLM runs out of memory while loading them, before it sizes any KV cache. No utilization and no KV dtype can help; a smaller checkpoint, more GPUs or a larger GPU can.";
pub const RS_REFUSE_NO_KV: &str = "The weights load, but nothing is left for the KV cache once they and the profile run take their share of total × utilization.";
pub const RS_REFUSE_TOO_LONG: &str = "One request of max_model_len tokens does not fit: vLLM checks that at least one full-length request fits before it starts.";
pub const RS_REFUSE_TP: &str =
    "vLLM cannot split this model's attention heads evenly over this many GPUs.";
pub const RS_PLAN_NOTE: &str = "The utilization and the longest length carry the overhead estimate's range; --kv-cache-memory (vLLM 0.11+) skips the estimate and gives exactly these blocks.";
pub const RS_PRIMER_1: &str = "A transformer keeps, for every token of every request, a key and a value vector per KV head in every layer: the KV cache. One token costs 2 (K and V) × layers × KV heads × head_dim × bytes per element.";
pub const RS_PRIMER_2: &str = "vLLM claims total × gpu_memory_utilization of the GPU, loads the weights, measures a profile run, and gives the rest to the cache in blocks of 16 tokens (the KV pool).";
pub const RS_PRIMER_3: &str = "Sequences that fit = pool ÷ (context × bytes per token), rounded down to whole blocks: double the context and half as many fit. FP8 KV halves the bytes and doubles the sequences.";
pub const RS_PRIMER_4: &str = "Decoding reads the weights and every running sequence's cache at each step, so memory bandwidth bounds tokens per second; more sequences share one read of the weights.";
pub const RS_SG_STAT_SEQS: &str = "Sequences that fit (SGLang)";
pub const RS_SG_STAT_KV: &str = "SGLang's KV cache";
pub const RS_AS_GIVEN: &str = "as given";
pub fn rs_fit(sequences: &str, n: u64, context: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{sequences} sequence{s} of {context} tokens fit")
}
pub fn rs_under_sglang(fit: &str, version: &str, rest: &str) -> String {
    format!("{fit} under SGLang {version} · {rest}")
}
pub fn rs_url_notice(param: &str, message: &str) -> String {
    format!("URL parameter “{param}”: {message}")
}
pub fn rs_invalid_kept(e: &str) -> String {
    format!("{e} — the last valid scenario is still shown.")
}
pub fn rs_copied(what: &str) -> String {
    format!("Copied the {what}.")
}
pub fn rs_clipboard_refused(what: &str) -> String {
    format!("The browser refused the clipboard: select the {what} and copy it by hand.")
}
pub fn rs_formula_vs_vllm(seed: u64, block: u64, vllm: u64) -> String {
    format!("the formula gives {seed} sequences; vLLM's whole {block}-token blocks give {vllm}")
}
pub fn rs_lines_heading(engine: &str, version: &str) -> String {
    format!("What {engine} {version} prints at startup")
}
pub fn rs_vllm_stats_heading(vllm: &str, sglang: &str) -> String {
    format!("Under vLLM {vllm} (SGLang {sglang} below)")
}
pub fn rs_compare_caption(model: &str, gpu: &str, context: &str) -> String {
    format!("Same GPU, both engines: {model} on {gpu} at {context} tokens per sequence")
}
pub fn rs_embed_headline(
    model: &str,
    gpu: &str,
    kv: &str,
    seqs: &str,
    context: &str,
    bpt: &str,
) -> String {
    format!(
        "{model} on {gpu} ({kv} KV): {seqs} sequences of {context} tokens fit · {bpt} B per token"
    )
}
pub fn rs_repertoire_caption(gpu: &str, context: &str, from_log: &str) -> String {
    format!(
        "The course repertoire on {gpu} at {context} tokens{from_log} (choose a row to load it)"
    )
}
pub fn rs_of_tokens_each(context: &str) -> String {
    format!("of {context} tokens each")
}
pub fn rs_range(low: &str, high: &str) -> String {
    format!(" · range {low}–{high}")
}
pub fn rs_pool_range(low: &str, high: &str) -> String {
    format!("range {low} – {high}")
}
pub fn rs_as_mha(bpt: &str, mha: &str) -> String {
    format!("{bpt} · as MHA {mha}")
}
pub fn rs_pool_sub(bytes: &str, range: &str) -> String {
    format!("{bytes} B on one GPU; {range}")
}
pub fn rs_tokens(n: &str) -> String {
    format!("{n} tokens")
}
pub fn rs_blocks_of(blocks: &str, block: u64, range: &str) -> String {
    format!("{blocks} blocks of {block}{range}")
}
pub fn rs_sg_seqs_sub(context: &str, cap: &str) -> String {
    format!("of {context} tokens each · max_running_requests {cap}")
}
pub fn rs_sg_tokens_sub(cell: &str, range: &str) -> String {
    format!("max_total_num_tokens · {cell} B per token{range}")
}
pub fn rs_sg_default_reserved(version: &str, reserved: &str, total: &str) -> String {
    format!("SGLang {version}'s default: {reserved} MiB reserved of {total} MiB")
}
pub fn rs_sg_default(version: &str) -> String {
    format!("SGLang {version}'s default")
}
pub fn rs_sg_not_accepted(e: &str) -> String {
    format!("SGLang does not accept these settings: {e}")
}
