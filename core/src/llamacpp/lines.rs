//! The lines llama.cpp prints for one KV cache, in the form of each build
//! (`src/llama-kv-cache*.cpp`, `src/llama-context.cpp`, `src/llama.cpp` of each range).

use super::{mib, Cache, Geometry, Recurrent, Settings, ISWA, STREAMS};

/// `llama_kv_cache_init` prints `kv_size = …` through b4881, then `init` (b4882), then the
/// cache itself (`llama_kv_cache_unified`, b5265).
const INIT_IN_CONTEXT: u64 = 4882;
const CACHE_PRINTS: u64 = 5265;
/// The `size = … (cells, layers)` line replaces `kv_size = …` and `KV self size` with the SWA
/// cache (b5429, [`ISWA`]), with `seqs` from b5441, `a/b seqs` with the streams (b5913,
/// [`STREAMS`]), `%2u/%u` from b6073.
const SEQS: u64 = 5441;
const NARROW_STREAMS: u64 = 6073;
/// The recurrent state's line names `n_rs_seq` (`255582687`, b9180).
const RS_SEQ_LINE: u64 = 9180;
/// The context's function: `llama_init_from_model` from b4464 (`afa8a9ec9`).
const INIT_FROM_MODEL: u64 = 4464;
/// A DeepSeek2 cache can shift from b5137 (`daa422881`, MLA).
const DEEPSEEK_SHIFTS: u64 = 5137;
/// The prefix loses `_unified` at b6235.
const PLAIN_PREFIX: u64 = 6235;

/// The lines of cache `c` (of types `types`): before b5429 the `kv_size = …` and `KV self size`
/// lines, then the iSWA wrapper's (`split`) and the `size = …` line of each build.
pub(super) fn cache(
    g: &Geometry,
    s: &Settings,
    c: &Cache,
    types: (&str, &str),
    split: bool,
    padding: u64,
) -> Vec<String> {
    let (tk, tv) = types;
    let b = s.build;
    let sizes = format!(
        "K ({tk}): {:7.2} MiB, V ({tv}): {:7.2} MiB",
        mib(c.k_bytes),
        mib(c.v_bytes)
    );
    let total = mib(c.k_bytes + c.v_bytes);
    if b < ISWA {
        let can_shift = u8::from(b >= DEEPSEEK_SHIFTS || !g.deepseek2);
        let head = format!("kv_size = {}", c.cells);
        let kinds = format!("type_k = '{tk}', type_v = '{tv}', n_layer = {}", c.layers);
        let (init, context) = match b {
            b if b >= CACHE_PRINTS => {
                return vec![
                    format!(
                        "llama_kv_cache_unified: {head}, {kinds}, can_shift = {can_shift}, padding = {padding}"
                    ),
                    format!("llama_kv_cache_unified: KV self size  = {total:7.2} MiB, {sizes}"),
                ];
            }
            b if b >= INIT_IN_CONTEXT => ("init", "llama_context"),
            b if b >= INIT_FROM_MODEL => ("llama_kv_cache_init", "llama_init_from_model"),
            _ => ("llama_kv_cache_init", "llama_new_context_with_model"),
        };
        return vec![
            format!("{init}: {head}, offload = 1, {kinds}, can_shift = {can_shift}"),
            format!("{context}: KV self size  = {total:7.2} MiB, {sizes}"),
        ];
    }
    let prefix = if b >= PLAIN_PREFIX {
        "llama_kv_cache"
    } else {
        "llama_kv_cache_unified"
    };
    let mut out = Vec::new();
    if split {
        out.push(format!(
            "{prefix}_iswa: creating {} KV cache, size = {} cells",
            if c.swa { "    SWA" } else { "non-SWA" },
            c.cells
        ));
    }
    let seqs = match b {
        b if b >= NARROW_STREAMS => format!(", {:2}/{} seqs", s.parallel, c.streams),
        b if b >= STREAMS => format!(", {:2}/{:2} seqs", s.parallel, c.streams),
        b if b >= SEQS => format!(", {:2} seqs", s.parallel),
        _ => String::new(),
    };
    out.push(format!(
        "{prefix}: size = {total:7.2} MiB ({:6} cells, {:3} layers{seqs}), {sizes}",
        c.cells, c.layers
    ));
    out
}

/// The recurrent state's line (`llama_memory_recurrent`): it names every layer, `n_layer`.
pub(super) fn recurrent(g: &Geometry, s: &Settings, r: &Recurrent) -> String {
    let rs_seq = if s.build >= RS_SEQ_LINE {
        "  0 rs_seq"
    } else {
        ""
    };
    format!(
        "llama_memory_recurrent: size = {:7.2} MiB ({:6} cells, {:3} layers, {:2} seqs{rs_seq}), R (f32): {:7.2} MiB, S (f32): {:7.2} MiB",
        mib(r.r_bytes + r.s_bytes),
        r.cells,
        g.n_layer,
        s.parallel,
        mib(r.r_bytes),
        mib(r.s_bytes)
    )
}
