//! English texts: the config import, the log check, the plan, the tables and the embed builder.

pub const LC_READING_LOG: &str = "Reading the log…";
pub const LC_ALIGNED: &str = "Aligned the version, utilization, max_model_len, KV dtype, parallelism and model to the log; the memory is still the scenario's own estimate.";
pub const LC_SG_CAPTION: &str = "This scenario under SGLang beside the log";
pub const LC_SCENARIO_SGLANG: &str = "scenario (SGLang)";
pub const LC_SCENARIO: &str = "scenario";
pub const LC_LOG: &str = "log";
pub const LC_DIFFERENCE: &str = "difference";
pub const LC_WHY: &str = "what explains it";
pub const LC_USE_NUMBERS: &str = "Use these numbers";
pub const LC_DIFFER_IN: &str = "The scenario and the log differ in:";
pub const LC_ALIGN: &str = "Align to log";
pub const LC_CAPTION: &str = "This scenario beside the log (differences: log − scenario)";
pub const LC_DOWNLOAD: &str = "Download kv_report.json";
pub const LC_SUMMARY: &str = "Check against a vLLM log";
pub const LC_TEXT_LABEL: &str = "serve.log (paste or drop; any vLLM version)";
pub const LC_COMPARE: &str = "Compare";
pub const DP_CHOOSE_FILE: &str = "or choose the file";
pub const IM_OFFLINE: &str =
    "The browser is offline: download config.json and drop it here instead.";
pub const IM_BLOCKED: &str = "The request did not complete: the Hub is unreachable from here or the browser blocked it (CORS). Download config.json and drop it here instead.";
pub const IM_NOT_TEXT: &str = "the Hub's answer could not be read as text";
pub const IM_READING_CONFIG: &str = "Reading the config…";
pub const IM_BAD_ID: &str = "a Hugging Face id looks like owner/name (letters, digits, . _ -)";
pub const IM_IDLE: &str = "Paste the JSON, drop the file here, choose it, or fetch it by id.";
pub const IM_USE_PRESET: &str = "use the preset, with the weights vLLM logs";
pub const IM_SUMMARY: &str = "Import a config.json";
pub const IM_TEXT_LABEL: &str = "config.json (paste or drop)";
pub const IM_IMPORT: &str = "Import pasted JSON";
pub const IM_OR_ID: &str = "or a Hugging Face id";
pub const IM_FETCH: &str = "Fetch config.json";
pub const BR_NO_WORKER: &str = "this browser could not start the page's worker";
pub const BR_WORKER_FAILED: &str =
    "the page's worker failed (could its files not be loaded?); reload the page and try again";
pub fn lc_reading(name: &str) -> String {
    format!("Reading {name}…")
}
pub fn lc_too_big(e: &str) -> String {
    format!("{e}; trim it to the startup part (64 MiB at most)")
}
pub fn im_http(code: u16, id: &str) -> String {
    format!("the Hub answered HTTP {code} for {id}")
}
pub fn im_fetching(id: &str) -> String {
    format!("Fetching {id}/config.json…")
}
pub fn im_same_preset(id: &str) -> String {
    format!("This is the preset {id} (same geometry): ")
}
pub fn br_file_too_big(name: &str, bytes: u64) -> String {
    format!("{name} is {bytes} bytes, more than this reads")
}
pub fn br_not_text(name: &str) -> String {
    format!("could not read {name} as text")
}
pub fn im_404(id: &str) -> String {
    format!("{id} has no config.json on the Hugging Face Hub (404): check the id.")
}
pub fn im_gated(id: &str, code: u16) -> String {
    format!("{id} is gated or private ({code}): accept its license on huggingface.co, download config.json and drop it here.")
}
pub fn im_too_big(e: &str) -> String {
    format!("{e}; a config.json is a few KB")
}
pub const PL_SAFE_END: &str = "use the safe end";
pub const PL_LOWEST_UTIL: &str = "Lowest --gpu-memory-utilization: ";
pub const PL_NO_UTIL: &str = "No utilization: ";
pub const PL_KV_MEMORY: &str = "--kv-cache-memory ";
pub const PL_USE_IT: &str = "use it";
pub const PL_LONGEST: &str = "Longest --max-model-len for them: ";
pub const PL_SMALLEST_TP: &str = "Smallest --tensor-parallel-size: ";
pub const PL_NO_TP: &str = "none up to 8";
pub const GP_TITLE: &str = "On other GPUs";
pub const GP_MEMORY: &str = "Memory vLLM sees";
pub const GP_DECODE: &str = "Decode, all together";
pub const RP_TITLE: &str = "Repertoire";
pub const RP_BPT: &str = "KV per token";
pub const RP_PER_SEQ: &str = "GiB per sequence";
pub const FG_DOWNLOAD: &str = "Download: ";
pub const EM_OPEN: &str = "Open in kvbudget ↗";
pub const EM_MODE_CARD: &str = "Card: answer, vLLM lines and the three charts";
pub const EM_MODE_MEMORY: &str = "Memory split only";
pub const EM_MODE_CONCURRENCY: &str = "Concurrency vs context only";
pub const EM_MODE_ROOFLINE: &str = "Decode roofline only";
pub const EM_LIGHT: &str = "Light";
pub const EM_DARK: &str = "Dark";
pub const EM_AUTO: &str = "Follow the reader's system";
pub const EM_SHOW: &str = "Show";
pub const EM_THEME: &str = "Theme";
pub const EM_PASTE: &str =
    "Paste this into a course page (the frame takes the height the page reports):";
pub const EM_COPY_SNIPPET: &str = "Copy snippet";
pub const EM_PREVIEW: &str = "Preview:";
pub const EM_PREVIEW_TITLE: &str = "Preview of the embedded view";
pub fn pl_title(n: u64, context: &str, version: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("Plan: {n} sequence{s} of {context} tokens at once (vLLM {version})")
}
pub fn pl_util_range(low: &str, high: &str) -> String {
    format!(" (range {low} – {high}; the safe end starts even at the estimate's high overhead) ")
}
pub fn pl_kv_bytes(bytes: &str, blocks: &str) -> String {
    format!(" B ({bytes}, {blocks} whole blocks: exactly the sequences asked for) ")
}
pub fn pl_len_range(point: &str, safe: &str, optimistic: &str) -> String {
    format!(" (estimate {point}; range {safe} – {optimistic})")
}
pub fn gp_caption(model: &str, context: &str) -> String {
    format!("{model} at {context} tokens on every GPU preset (choose a row to load it)")
}
pub fn gp_load(gpu: &str) -> String {
    format!("Load the {gpu}")
}
pub fn gp_rate(rate: &str) -> String {
    format!("{rate} tokens/s")
}
pub fn rp_load(model: &str, kv: &str) -> String {
    format!("Load {model} with {kv} KV")
}
