//! The page's words: each number's derivation with this scenario's figures, warnings, what would
//! fit when vLLM would refuse, and the `vllm serve` command.

use crate::calc::{decode_terms, Outcome};

mod layers;
use crate::model::{Attention, KvDtype};
use crate::scenario::PageScenario;
use crate::units::{thousands, Bytes};
use crate::vllm::Rounding;

/// What the page says about an outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// (what, derivation) lines with this scenario's numbers.
    pub derivations: Vec<(&'static str, String)>,
    /// Warnings about the scenario.
    pub warnings: Vec<String>,
    /// `vllm serve …` for the scenario.
    pub serve_command: String,
}

/// A byte count with its binary-unit form: `1,207,959,552 B = 1.12 GiB`.
fn both(b: u64) -> String {
    format!("{} B = {}", thousands(b), Bytes(b))
}

/// `1 sequence`, `4 sequences`, with thousands separators.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", thousands(n))
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
        derivations.push(("prefix caching", prefix_caching(s, o)));
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
    d.push(("KV per token", layers::kv_per_token(s, o)));
    if !matches!(model.attention, Attention::Mla { .. }) && model.attention_heads != model.kv_heads
    {
        d.push((
            "as plain MHA",
            format!(
                "2 × {} layers × {} query heads × {} head_dim × {b} B = {} per token: grouped-query attention saves {}×",
                model.attention_layers(),
                model.attention_heads,
                model.head_dim,
                both(o.mha_bytes_per_token.0),
                model.attention_heads / model.kv_heads.max(1)
            ),
        ));
    }
    let context = o.context;
    let ctx_text = match (s.prompt, s.trace) {
        (None, None) => format!("{} tokens (max_model_len)", thousands(context)),
        (p, t) => format!(
            "{} prompt + {} trace = {} tokens",
            thousands(p.unwrap_or(0)),
            thousands(t.unwrap_or(0)),
            thousands(context)
        ),
    };
    d.push(("context per sequence", ctx_text));
    if let Some(state) = layers::state_per_sequence(s, o) {
        d.push(("state per sequence", state));
    }
    d.push(("KV per sequence", layers::kv_per_sequence(s, o)));
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
        d.push((
            "KV pool",
            format!("taken as given (from a vLLM log): {}", both(k.0)),
        ));
    } else {
        let split = match (s.tp, s.pp) {
            (1, 1) => String::new(),
            (t, 1) => format!(" (÷ TP {t})"),
            (t, p) => format!(" (÷ TP {t} × PP {p})"),
        };
        d.push((
            "KV pool",
            format!(
                "{open}{} B total × {} utilization{close} = {} B, − {} B weights{split} − {} B overhead = {}",
                thousands(s.gpu.total().0),
                s.util(),
                thousands(o.requested),
                thousands(o.weights_per_gpu.0),
                thousands(o.overhead.0),
                if chosen.pool > 0 {
                    both(chosen.pool as u64)
                } else {
                    format!("{} B: nothing left for the KV cache", chosen.pool)
                }
            ),
        ));
    }
    d.push((
        "sequences (formula)",
        format!(
            "⌊{} / {}⌋ = {}",
            thousands(chosen.pool.max(0) as u64),
            thousands(chosen.bytes_per_sequence.0),
            chosen.seed_max
        ),
    ));
    d.extend(layers::vllm_blocks(s, o));
    if let Some(blocks) = r.num_gpu_blocks {
        d.push((
            "after the cap",
            format!(
                "min({}, max_num_seqs {}) = {}",
                chosen.vllm_max, seqs, chosen.capped
            ),
        ));
        d.push((
            "longest context for max_num_seqs",
            if r.groups.is_none() && r.mamba.is_none() {
                let bs = r.block_size;
                format!(
                    "⌊{} blocks / {seqs}⌋ × {bs} = {} tokens each",
                    thousands(blocks),
                    thousands(o.longest_context)
                )
            } else if o.longest_context == 0 {
                format!(
                    "none: even one token each takes {} blocks per sequence over the layer groups, and {seqs} × that is more than the {} blocks",
                    thousands(
                        crate::vllm::blocks_per_request(
                            &crate::calc::vllm_scenario(s, &o.model, s.kv, 1),
                            1
                        )
                        .unwrap_or(0)
                    ),
                    thousands(blocks)
                )
            } else {
                format!(
                    "the longest context whose blocks per sequence × {seqs} fit in {} blocks: {} tokens each",
                    thousands(blocks),
                    thousands(o.longest_context)
                )
            },
        ));
    }
    if r.refusal.is_some() {
        d.push(("decode ceiling", "none: vLLM would not start".into()));
        return d;
    }
    // The same terms as the outcome's decode ceiling.
    let Ok((decode_weights, decode_bpt, decode_state)) = decode_terms(s, &o.model, s.kv) else {
        return d;
    };
    let state = if decode_state.0 > 0 {
        format!(" + {} B state read and written", thousands(decode_state.0))
    } else {
        String::new()
    };
    d.push((
        "decode ceiling",
        format!(
            "each step reads the weights once and every sequence's KV: {} GB/s (10⁹ B/s) / ({} B weights + {} tokens × {} B{state}) = {:.1} tokens/s for one sequence; {} together: {:.1} tokens/s{}",
            s.gpu.bandwidth_gbs(),
            thousands(decode_weights.0),
            thousands(o.context),
            thousands(decode_bpt.0),
            o.decode.per_sequence,
            plural(chosen.capped.max(1), "sequence"),
            o.decode.aggregate,
            match o.compute_roof {
                Some(roof) if roof <= o.decode.aggregate * 1.000_001 => format!(
                    ", held to the compute roof ({} dense BF16 TFLOPS ÷ FLOPs per token)",
                    s.gpu.bf16_tflops().unwrap_or(0.0)
                ),
                _ => String::new(),
            }
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
        0 => "memory unchanged (the same blocks)".to_string(),
        n => format!("each state layer group keeps {n} state blocks per request for it"),
    };
    format!(
        "{memory}; a repeated prefix hits only in whole {bs}-token blocks: of a shared prompt of {} tokens, ⌊{} / {bs}⌋ × {bs} = {} are reused and {} recomputed; a prefix shorter than {bs} tokens never is",
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
        format!(" + CUDA graphs {}", e.cuda_graphs)
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
            "overhead (estimate)",
            format!(
                "activation {} + non-torch {}{graphs} = {} (± {})",
                e.activation,
                e.non_torch,
                e.subtracted(),
                e.spread
            ),
        ),
        (
            "activation peak",
            format!(
                "forward buffers {} + max(sampler {} rows × {} vocab × 14 B = {}, dense MLP {}){}{}",
                e.base,
                thousands(e.sampler_rows),
                thousands(vocab),
                e.sampler,
                e.dense,
                if e.moe.0 > 0 {
                    format!(" + MoE workspace {}", e.moe)
                } else {
                    String::new()
                },
                if e.encoder.0 > 0 {
                    format!(" + encoder {}", e.encoder)
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
        w.push(format!(
            "Not one sequence of {} tokens fits; shorten the context or free memory.",
            thousands(o.context)
        ));
    }
    if chosen.vllm_max > seqs {
        w.push(format!(
            "max_num_seqs ({seqs}) caps concurrency below the {} sequences that fit.",
            chosen.vllm_max
        ));
    }
    if let Some(g) = o
        .range
        .filter(|g| g.low_refuses && chosen.report.refusal.is_none())
    {
        w.push(format!(
            "Near the edge: at the high end of the overhead estimate ({} sequences at the low end of the range) vLLM would refuse to start, so a boot may fail; leave more room (a shorter max_model_len, FP8 KV or a higher utilization).",
            thousands(g.seqs.0)
        ));
    }
    if let (Some(_), Some(e)) = (o.range, chosen.report.overhead) {
        if !e.graphs_counted {
            w.push(format!(
                "vLLM {} keeps CUDA graphs (about {}) outside gpu_memory_utilization: the GPU needs that much more than util × total.",
                s.version, e.cuda_graphs
            ));
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
        s.util()
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
    if k.enforce_eager {
        cmd.push_str(" --enforce-eager");
    }
    if k.cpu_offload_gb > 0.0 {
        cmd.push_str(&format!(" --cpu-offload-gb {}", k.cpu_offload_gb));
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
    if let (Some(b), true) = (s.kv_memory, s.version >= crate::vllm::Version::new(0, 11)) {
        cmd.push_str(&format!(" --kv-cache-memory {}", b.0));
    }
    cmd
}
