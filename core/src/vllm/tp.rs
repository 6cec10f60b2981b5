//! The tensor-parallel sizes vLLM refuses for a model.

use super::version::Version;
use super::version::TP_GROUPS_WORDING;
use crate::capacity;
use crate::model::{ModelSpec, StateKind};

/// vLLM's checks of the tensor-parallel size, in the order it meets them: the attention heads
/// must divide evenly (`ModelConfig.verify_with_parallel_config`, vllm/config.py, 0.6–0.33); then,
/// building the model, the vocabulary padded to 64 rows (the embedding, built before the layers:
/// `VocabParallelEmbedding` → `vocab_range_from_global_vocab_size` → `divide`, vllm/model_executor/
/// layers/vocab_parallel_embedding.py; `divide` asserts through `ensure_divisibility`, "{n} is not
/// divisible by {d}", vllm/distributed/utils.py), the KV heads by TP or TP by them (the attention
/// classes' own bare `assert`s before `QKVParallelLinear`: models/llama.py, qwen2.py, qwen3.py,
/// gemma3.py, 0.10–0.33), and a dense MLP's `intermediate_size` (`MergedColumnParallelLinear`'s
/// bare `assert all(output_size % self.tp_size == 0 …)`, linear.py). A bare `assert` prints its
/// exception alone. MLA caches one latent, so its KV heads do not count; an MoE's experts take
/// `intermediate // tp` and assert nothing there (fused_moe/layer.py 0.19). A Mamba2 hybrid's
/// first layer is a Mamba2 mixer (Nemotron-H, Granite-4.0-H, Bamba), whose asserts on its heads and
/// groups come before the first attention layer's (layers/mamba/mamba_mixer2.py; the groups'
/// message said "num_heads" before 0.11).
pub fn tp_refusal(model: &ModelSpec, tp: u64, version: Version) -> Option<(&'static str, String)> {
    let tp = tp.max(1);
    if model.attention_heads % tp != 0 {
        return Some((
            "ValueError",
            format!(
                "Total number of attention heads ({}) must be divisible by tensor parallel size ({tp}).",
                model.attention_heads
            ),
        ));
    }
    // vLLM's `divide` ("{n} is not divisible by {tp}"), first on a vision encoder's heads (built
    // before the language model: gemma3_mm.py, qwen3_5.py, unless --mm-encoder-tp-mode data; none
    // is 0 heads), then on the vocabulary padded to 64 rows.
    if let Some(n) = [model.extras.vision_heads, capacity::padded_vocab(model)]
        .into_iter()
        .find(|n| n % tp != 0)
    {
        return Some(("AssertionError", format!("{n} is not divisible by {tp}")));
    }
    if let Some(m) = model.state.filter(|m| m.kind == StateKind::Mamba2) {
        if m.heads % tp != 0 {
            return Some((
                "AssertionError",
                "Tensor parallel world size must divide num heads.".into(),
            ));
        }
        if m.groups % tp != 0 && m.groups != 1 {
            let what = if version >= TP_GROUPS_WORDING {
                "groups"
            } else {
                "heads"
            };
            return Some((
                "AssertionError",
                format!("If tensor parallel world size does not divide num_{what}, then num_groups must equal 1."),
            ));
        }
    }
    (!capacity::layers_split(model, tp)).then(|| ("AssertionError", String::new()))
}
