//! What several test files share.

use kvbudget::core::handoff::{from_wire, to_wire, Answer, Envelope, Reply, Request, Session};
use kvbudget::core::model::{KvDtype, ModelSpec};
use kvbudget::core::presets::Arch;
use kvbudget::core::vllm::{KvMemory, Scenario, Version};

/// Asks the worker's session `w` as the page does: the request goes in an envelope through the
/// wire format and back, the answer in a reply the same way; each must read back to what was sent.
#[allow(dead_code)] // (Each test file that shares this module uses what it needs.)
pub fn ask_of(w: &mut Session, request: Request) -> Answer {
    let envelope = Envelope {
        n: 7,
        lang: "en".into(),
        request,
    };
    let sent: Envelope = from_wire(&to_wire(&envelope).unwrap()).unwrap();
    assert_eq!(sent, envelope);
    let reply = Reply {
        n: sent.n,
        answer: w.answer(sent.request),
    };
    let came: Reply = from_wire(&to_wire(&reply).unwrap()).unwrap();
    assert_eq!(came, reply);
    came.answer
}

/// A `vllm serve` scenario of `model` under `version` with KV memory `memory` at `max_model_len`
/// `len`: `auto` KV, TP and PP 1, every other setting vLLM's default, no GPU named. Each test file
/// changes what it checks (`Scenario { kv_dtype: …, ..vllm_scenario(…) }`).
#[allow(dead_code)] // (Each test file that shares this module uses what it needs.)
pub fn vllm_scenario(model: ModelSpec, version: Version, memory: KvMemory, len: u64) -> Scenario {
    Scenario {
        model,
        kv_dtype: KvDtype::Auto,
        tp: 1,
        pp: 1,
        block_size: None,
        max_model_len: Some(len),
        max_num_seqs: None,
        max_num_batched_tokens: None,
        version,
        engine: version.default_engine(),
        memory,
        arch: Arch::Other,
        gpu_total: None,
        knobs: Default::default(),
    }
}
