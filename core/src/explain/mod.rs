//! The page's words: each number's derivation with this scenario's figures, warnings, what would
//! fit when vLLM would refuse, and the `vllm serve` command.

use crate::calc::{decode_terms, Outcome};
use crate::capacity;

mod layers;
use crate::floatfmt::{display, fixed};
use crate::i18n::en;
use crate::model::{Attention, KvDtype};
use crate::scenario::PageScenario;
use crate::units::{grouped, thousands, Bytes};
use crate::vllm::Rounding;
use crate::{t, tf};

/// What the page says about an outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// (what, derivation) lines with this scenario's numbers; "what" is the English term (the
    /// page shows it through `i18n::tr`).
    pub derivations: Vec<(&'static str, String)>,
    /// Warnings about the scenario.
    pub warnings: Vec<String>,
    /// `vllm serve …` for the scenario.
    pub serve_command: String,
}

/// A byte count with its binary-unit form: `1,207,959,552 B = 1.12 GiB`.
fn both(b: u64) -> String {
    tf!(EX_BYTES_BOTH, thousands(b), Bytes(b))
}

/// `1 sequence`, `4 sequences` in the page's language.
fn sequences(n: u64) -> String {
    if n == 1 {
        t!(EX_ONE_SEQUENCE).to_string()
    } else {
        tf!(EX_N_SEQUENCES, thousands(n))
    }
}

/// `1 layer`, `36 layers` in the page's language.
pub(crate) fn layers(n: u64) -> String {
    if n == 1 {
        t!(EX_ONE_LAYER).to_string()
    } else {
        tf!(EX_LAYERS, n)
    }
}

/// A word as a POSIX shell reads it: bare when it is safe, else single-quoted.
pub fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/-:@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Explains `o`, the outcome of `s`.
pub fn explain(s: &PageScenario, o: &Outcome) -> Explanation {
    let mut derivations = sizes(s, o);
    derivations.extend(pool_and_sequences(s, o));
    derivations.extend(overhead_parts(o));
    if s.knobs.prefix_caching {
        derivations.push((en::EX_TERM_PREFIX, prefix_caching(s, o)));
    }
    Explanation {
        derivations,
        warnings: warnings(s, o),
        serve_command: serve_command(s),
    }
}

/// Bytes per token (and as MHA), the context, bytes per sequence.
fn sizes(s: &PageScenario, o: &Outcome) -> Vec<(&'static str, String)> {
    let model = &o.model;
    let b = s.kv.bytes(model.dtype);
    let mut d: Vec<(&'static str, String)> = Vec::new();
    d.push((en::EX_TERM_KV_PER_TOKEN, layers::kv_per_token(s, o)));
    // (Not for Gemma 4's two shapes: one formula does not say it.)
    if !matches!(model.attention, Attention::Mla { .. })
        && model.attention_heads != model.kv_heads
        && !model.split_kv()
    {
        d.push((
            en::EX_TERM_AS_MHA,
            tf!(
                EX_AS_MHA,
                layers(model.attention_layers()),
                model.attention_heads,
                model.head_dim,
                b,
                both(o.mha_bytes_per_token.0),
                model.attention_heads / model.kv_heads.max(1)
            ),
        ));
    }
    let context = o.context;
    let ctx_text = match (s.prompt, s.trace) {
        (None, None) => tf!(EX_CTX, thousands(context)),
        (p, tr) => tf!(
            EX_CTX_PROMPT,
            thousands(p.unwrap_or(0)),
            thousands(tr.unwrap_or(0)),
            thousands(context)
        ),
    };
    d.push((en::EX_TERM_CONTEXT, ctx_text));
    if let Some(state) = layers::state_per_sequence(s, o) {
        d.push((en::EX_TERM_STATE, state));
    }
    d.push((en::EX_TERM_KV_PER_SEQ, layers::kv_per_sequence(s, o)));
    d
}

/// The pool, sequences by the formula and by vLLM's blocks, the cap, the longest context and the
/// decode ceiling.
fn pool_and_sequences(s: &PageScenario, o: &Outcome) -> Vec<(&'static str, String)> {
    let chosen = &o.chosen;
    let r = &chosen.report;
    let seqs = s.seqs();
    let mut d: Vec<(&'static str, String)> = Vec::new();
    let (open, close) = if s.version.rounding() == Rounding::Ceil {
        ("⌈", "⌉")
    } else {
        ("⌊", "⌋")
    };
    if let Some(k) = s.kv_memory {
        d.push((en::EX_TERM_POOL, tf!(EX_POOL_GIVEN, both(k.0))));
    } else {
        let split = match (s.tp, s.pp) {
            (1, 1) => String::new(),
            (t, 1) => tf!(EX_SPLIT_TP, t),
            (t, p) => tf!(EX_SPLIT_TP_PP, t, p),
        };
        d.push((
            en::EX_TERM_POOL,
            tf!(
                EX_POOL,
                open,
                thousands(s.gpu.total().0),
                display(s.util()),
                close,
                thousands(o.requested),
                thousands(o.weights_per_gpu.0),
                split,
                thousands(o.overhead.0),
                if chosen.pool > 0 {
                    both(chosen.pool as u64)
                } else {
                    // (Negative: written with its sign and separators, "−8,112,575,494".)
                    let below = thousands(chosen.pool.unsigned_abs().min(u64::MAX as u128) as u64);
                    let sign = if chosen.pool < 0 { "−" } else { "" };
                    tf!(EX_POOL_NONE, format!("{sign}{below}"))
                }
            ),
        ));
    }
    d.push((
        en::EX_TERM_FORMULA,
        format!(
            "⌊{} / {}⌋ = {}",
            thousands(chosen.pool.max(0) as u64),
            thousands(chosen.bytes_per_sequence.0),
            thousands(chosen.seed_max)
        ),
    ));
    d.extend(layers::vllm_blocks(s, o));
    if let Some(blocks) = r.num_gpu_blocks {
        d.push((
            en::EX_TERM_CAP,
            format!(
                "min({}, max_num_seqs {}) = {}",
                thousands(chosen.vllm_max),
                thousands(seqs),
                thousands(chosen.capped)
            ),
        ));
        d.push((
            en::EX_TERM_LONGEST,
            if r.groups.is_none() && r.mamba.is_none() {
                let bs = r.block_size;
                tf!(
                    EX_LONGEST,
                    thousands(blocks),
                    seqs,
                    bs,
                    thousands(o.longest_context)
                )
            } else if o.longest_context == 0 {
                tf!(
                    EX_LONGEST_NONE,
                    thousands(
                        crate::vllm::blocks_per_request(
                            &crate::calc::vllm_scenario(s, &o.model, s.kv, 1),
                            1
                        )
                        .unwrap_or(0)
                    ),
                    seqs,
                    thousands(blocks)
                )
            } else {
                tf!(
                    EX_LONGEST_GROUPS,
                    seqs,
                    thousands(blocks),
                    thousands(o.longest_context)
                )
            },
        ));
    }
    if r.refusal.is_some() {
        d.push((en::EX_TERM_DECODE, t!(EX_DECODE_NONE).into()));
        return d;
    }
    // The same terms as the outcome's decode ceiling.
    let Ok((decode_weights, decode_bpt, decode_state)) = decode_terms(s, &o.model, s.kv) else {
        return d;
    };
    // A windowed layer reads at most its window: the KV a step reads, when that is less than
    // every token of every layer.
    let moved = crate::calc::decode_moved(s, &o.model, s.kv, o.context) - decode_state.0 as f64;
    let full = o.context as f64 * decode_bpt.0 as f64;
    let kv_read = match o.model.attention {
        Attention::SlidingWindow { window: w, .. } | Attention::ChunkedLocal { chunk: w, .. }
            if moved < full =>
        {
            tf!(
                EX_DECODE_KV_WINDOWED,
                thousands(moved as u64),
                thousands(o.context),
                thousands(w)
            )
        }
        _ => tf!(
            EX_DECODE_KV_FULL,
            thousands(o.context),
            thousands(decode_bpt.0)
        ),
    };
    let state = if decode_state.0 > 0 {
        tf!(EX_DECODE_STATE, thousands(decode_state.0))
    } else {
        String::new()
    };
    let n = chosen.capped.max(1);
    let (w_one, w_batch) = crate::calc::decode_weights(s, &o.model, n);
    let e = o.model.extras.experts;
    // An MoE reads the routed experts its tokens pick: one sequence k of E per layer, n routed at
    // random about E × (1 − (1 − k/E)ⁿ) ([`capacity::experts_touched`]).
    let (weights, batch) = match (
        capacity::experts_touched(&o.model, 1),
        capacity::experts_touched(&o.model, n),
    ) {
        (Some(one), Some(many)) => (
            tf!(
                EX_DECODE_W_MOE,
                thousands(w_one as u64),
                thousands(decode_weights.0),
                fixed(one, 0),
                thousands(e)
            ),
            match n {
                1 => String::new(),
                _ if many > e as f64 - 0.05 => tf!(
                    EX_DECODE_MOE_BATCH_ALL,
                    sequences(n),
                    thousands(e),
                    thousands(w_batch as u64)
                ),
                _ => tf!(
                    EX_DECODE_MOE_BATCH,
                    sequences(n),
                    fixed(many, 1),
                    thousands(e),
                    thousands(w_batch as u64)
                ),
            },
        ),
        _ => (tf!(EX_DECODE_W_ALL, thousands(w_one as u64)), String::new()),
    };
    d.push((
        en::EX_TERM_DECODE,
        tf!(
            EX_DECODE,
            grouped(&display(s.gpu.bandwidth_gbs())),
            weights,
            kv_read,
            state,
            grouped(&fixed(o.decode.per_sequence, 1)),
            sequences(n),
            grouped(&fixed(o.decode.aggregate, 1)),
            match o.compute_roof {
                Some(roof) if roof <= o.decode.aggregate * 1.000_001 => {
                    tf!(EX_DECODE_ROOF, display(s.gpu.bf16_tflops().unwrap_or(0.0)))
                }
                _ => String::new(),
            },
            batch
        ),
    ));
    d
}

/// What `--enable-prefix-caching` changes: no memory, and hits only on whole blocks of a shared
/// prefix (the prompt when given, else the whole context).
fn prefix_caching(s: &PageScenario, o: &Outcome) -> String {
    let bs = o.chosen.report.block_size;
    let shared = s.prompt.unwrap_or(o.context);
    let reused = crate::vllm::reusable_prefix_tokens(shared, bs);
    let memory = match o.chosen.report.state_blocks {
        0 => t!(EX_PREFIX_SAME).to_string(),
        n => tf!(EX_PREFIX_STATE, n),
    };
    tf!(
        EX_PREFIX,
        memory,
        bs,
        thousands(shared),
        thousands(shared),
        thousands(reused),
        thousands(shared - reused)
    )
}

/// The estimate's parts, when it is used.
fn overhead_parts(o: &Outcome) -> Vec<(&'static str, String)> {
    let (Some(_), Some(e)) = (o.range, o.chosen.report.overhead) else {
        return Vec::new();
    };
    let graphs = if e.graphs_counted {
        tf!(EX_GRAPHS, e.cuda_graphs)
    } else {
        String::new()
    };
    let vocab = if o.model.vocab > 0 {
        o.model.vocab
    } else {
        crate::vllm::overhead::FALLBACK_VOCAB
    };
    vec![
        (
            en::EX_TERM_OVERHEAD,
            tf!(
                EX_OVERHEAD,
                e.activation,
                e.non_torch,
                graphs,
                e.subtracted(),
                e.spread
            ),
        ),
        (
            en::EX_TERM_ACTIVATION,
            tf!(
                EX_ACTIVATION,
                e.base,
                thousands(e.sampler_rows),
                thousands(vocab),
                e.sampler,
                e.dense,
                if e.moe.0 > 0 {
                    tf!(EX_MOE, e.moe)
                } else {
                    String::new()
                },
                if e.encoder.0 > 0 {
                    tf!(EX_ENCODER, e.encoder)
                } else {
                    String::new()
                },
            ),
        ),
    ]
}

/// What the user should know that the numbers do not say.
fn warnings(s: &PageScenario, o: &Outcome) -> Vec<String> {
    let mut w = Vec::new();
    let chosen = &o.chosen;
    let seqs = s.seqs();
    if chosen.report.error.is_none() && chosen.vllm_max == 0 {
        w.push(tf!(EX_W_NONE_FITS, thousands(o.context)));
    }
    if chosen.vllm_max > seqs {
        w.push(tf!(EX_W_CAP, thousands(seqs), thousands(chosen.vllm_max)));
    }
    if let Some(g) = o
        .range
        .filter(|g| g.low_refuses && chosen.report.refusal.is_none())
    {
        w.push(tf!(EX_W_EDGE, thousands(g.seqs.0)));
    }
    // KV memory taken from a log (or given), beside these weights, on a card too small for both:
    // vLLM allocates what it is told and runs out of memory; the numbers above assume it did not.
    if let Some((kv, weights, total)) = crate::calc::over_gpu(s, o) {
        w.push(tf!(EX_W_OVER_GPU, kv, weights, total));
    }
    // vLLM's float32 for a model it will not run in float16, on a GPU without bfloat16.
    if o.float32 {
        let t = o.model.extras.no_float16.model_type();
        w.push(tf!(EX_W_FLOAT32, s.version, t, o.weights_per_gpu));
    }
    if let (Some(_), Some(e)) = (o.range, chosen.report.overhead) {
        if !e.graphs_counted && e.cuda_graphs.0 > 0 {
            w.push(tf!(EX_W_GRAPHS, s.version, e.cuda_graphs));
        }
    }
    w
}

/// `vllm serve …` with the scenario's flags.
pub fn serve_command(s: &PageScenario) -> String {
    let mut cmd = format!(
        "vllm serve {} --max-model-len {} --gpu-memory-utilization {}",
        shell_word(s.model.name()),
        s.ctx,
        display(s.util())
    );
    if s.kv != KvDtype::Auto {
        cmd.push_str(&format!(" --kv-cache-dtype {}", s.kv.name()));
    }
    cmd.push_str(&format!(" --max-num-seqs {}", s.seqs()));
    if s.tp > 1 {
        cmd.push_str(&format!(" --tensor-parallel-size {}", s.tp));
    }
    if s.pp > 1 {
        cmd.push_str(&format!(" --pipeline-parallel-size {}", s.pp));
    }
    if let Some(n) = s.mnbt {
        cmd.push_str(&format!(" --max-num-batched-tokens {n}"));
    }
    let k = &s.knobs;
    if k.dtype_half {
        cmd.push_str(" --dtype half");
    }
    if k.enforce_eager {
        cmd.push_str(" --enforce-eager");
    }
    if k.cpu_offload_gb > 0.0 {
        cmd.push_str(&format!(" --cpu-offload-gb {}", display(k.cpu_offload_gb)));
    }
    if let Some(l) = k.lora {
        cmd.push_str(&format!(
            " --enable-lora --max-loras {} --max-lora-rank {}",
            l.max_loras, l.max_rank
        ));
    }
    if let Some(x) = k.speculative {
        cmd.push_str(&format!(
            " --speculative-config '{{\"num_speculative_tokens\": {}}}'",
            x.num_tokens
        ));
    }
    if k.prefix_caching {
        cmd.push_str(" --enable-prefix-caching");
    }
    if k.no_prefix_caching {
        cmd.push_str(" --no-enable-prefix-caching");
    }
    if k.dcp > 1 {
        cmd.push_str(&format!(" --decode-context-parallel-size {}", k.dcp));
    }
    // KV memory taken as given is vLLM's own flag from 0.11.
    if let (Some(b), true) = (
        s.kv_memory,
        s.version >= crate::vllm::version::KV_CACHE_MEMORY_FLAG,
    ) {
        cmd.push_str(&format!(" --kv-cache-memory {}", b.0));
    }
    cmd
}
