//! The seeds' repertoire under the page's settings: bytes per token and how many sequences fit,
//! for each model in 16-bit (`auto`) and FP8 KV, computed exactly as the results are.

use crate::calc::side;
use crate::model::{KvDtype, ModelDtype};
use crate::presets::{self, ModelPreset, REPERTOIRE};
use crate::scenario::{ModelChoice, PageScenario};
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// One model × KV dtype.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The preset.
    pub model: &'static ModelPreset,
    /// KV dtype.
    pub kv: KvDtype,
    /// The checkpoint's dtype (what `auto` resolves to).
    pub model_dtype: ModelDtype,
    /// KV bytes per token on one GPU.
    pub bytes_per_token: Bytes,
    /// KV bytes of one sequence at the context.
    pub bytes_per_sequence: Bytes,
    /// The pool (negative: nothing left).
    pub pool: i128,
    /// The seed's `⌊M_kv / (S × B_tok)⌋`.
    pub seed_max_seqs: u64,
    /// vLLM's whole sequences at the context (block-rounded), before the `max_num_seqs` cap.
    pub vllm_max_seqs: u64,
    /// The same after the cap: what the results panel shows for this model and dtype.
    pub capped: u64,
    /// The token count vLLM prints.
    pub vllm_tokens: u64,
    /// vLLM's startup lines.
    pub lines: Vec<String>,
    /// vLLM's refusal, when it would not start.
    pub error: Option<String>,
    /// Its kind (which the table names in place of a bare 0).
    pub refusal: Option<crate::vllm::RefusalKind>,
}

impl Row {
    /// The scenario this row stands for: the page's, with this model and dtype.
    pub fn load_into(&self, s: &mut PageScenario) {
        s.set_model(ModelChoice::Preset(self.model));
        s.kv = self.kv;
    }
    /// A stable key for the row, e.g. `Qwen3-8B-auto`.
    pub fn key(&self) -> String {
        let short = self
            .model
            .id()
            .rsplit('/')
            .next()
            .unwrap_or(self.model.id());
        format!("{short}-{}", self.kv.name())
    }
}

/// The scenario as `rows` and the table's caption see it: with what every row sets for itself made
/// the same (the KV dtype, the model, the log's KV memory but for whether there is one), so the
/// page recomputes the table when anything else changes, not on every edit of the model or the
/// dtype. (Fields the rows do not read, such as the plan, stay: a new field is kept by default.) The model stays when a log measured its weights: `set_model` keeps them
/// for that model's rows and drops them for the others.
pub fn rows_key(s: &PageScenario) -> PageScenario {
    let mut k = s.clone();
    k.kv = KvDtype::Auto;
    k.kv_memory = s.kv_memory.map(|_| Bytes(0));
    if k.weights.is_none() {
        if let Some(p) = presets::model(REPERTOIRE[0]) {
            k.model = ModelChoice::Preset(p);
        }
    }
    k
}

/// The repertoire (Qwen3-8B, Qwen3-14B-AWQ, Qwen2.5-7B-Instruct) × {`auto`, FP8} under the page's
/// GPU, version, utilization, overhead, parallelism, `max_num_seqs` and context. KV memory taken
/// from a log belongs to the log's model, so the rows use the budget. A row that cannot be
/// computed is left out.
pub fn rows(s: &PageScenario) -> Vec<Row> {
    let context = s.context();
    let mut out = Vec::new();
    for id in REPERTOIRE {
        let Some(p) = presets::model(id) else {
            continue;
        };
        for kv in [KvDtype::Auto, KvDtype::Fp8] {
            let mut t = s.clone();
            t.set_model(ModelChoice::Preset(p));
            t.kv = kv;
            t.kv_memory = None;
            // The preset's geometry, with the weights a log measured when it is this model's log.
            let Ok(side) = side(&t, &t.model_spec(), kv, context) else {
                continue;
            };
            let r = side.report;
            out.push(Row {
                model: p,
                kv,
                model_dtype: p.spec.dtype,
                bytes_per_token: side.bytes_per_token,
                bytes_per_sequence: side.bytes_per_sequence,
                pool: side.pool,
                seed_max_seqs: side.seed_max,
                vllm_max_seqs: side.vllm_max,
                capped: side.capped,
                vllm_tokens: r.gpu_kv_cache_tokens.unwrap_or(0),
                lines: r.lines,
                error: r.error,
                refusal: r.refusal.map(|x| x.kind),
            });
        }
    }
    out
}

/// A row of the repertoire: a button that loads its model and dtype (`label` for screen readers),
/// its KV dtype, bytes per token, GiB per sequence and sequences that fit, under the engine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RepertoireRow {
    /// `data-row`: the model and dtype.
    pub key: String,
    /// The button's label.
    pub label: String,
    /// The model's short name.
    pub model: String,
    /// The model's preset id and the KV dtype's name, which loading the row sets.
    pub model_id: String,
    /// The KV dtype's name (`auto`, `fp8`).
    pub kv_name: String,
    /// The KV dtype as shown.
    pub kv: String,
    /// KV bytes per token on one GPU.
    pub bytes_per_token: u64,
    /// The same in KiB, as shown.
    pub kib_per_token: String,
    /// GiB of one sequence at the context, as shown.
    pub gib_per_sequence: String,
    /// Sequences that fit, after the engine's cap.
    pub sequences: u64,
    /// The sequences, or why the engine would not start.
    pub fits: String,
}

/// The repertoire: the course's models under the scenario's settings and engine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RepertoireView {
    /// The table's caption.
    pub caption: String,
    /// Its rows.
    pub rows: Vec<RepertoireRow>,
}
