//! The knobs people turn (`vllm::Knobs`) and the inverse question (`vllm::plan`), each with
//! numbers derived by hand. Qwen3-8B on an RTX 4090 throughout: 36 layers, 8 KV heads of 128,
//! so 147,456 B per token and 2,359,296 B per 16-token block; weights 15.27 GiB as vLLM logs
//! them; the 4090's defaults are 256 sequences and 2,048 batched tokens.

use kvbudget::core::presets::{self, Arch};
use kvbudget::core::units::{Bytes, GIB};
use kvbudget::core::vllm::plan::{plan, Need};
use kvbudget::core::vllm::{
    report, Engine, KvMemory, Lora, Margin, Overhead, Report, Scenario, Speculative, Version,
};
use std::process::Command;

mod common;

fn qwen3_8b_on_4090(v: (u32, u32), util: f64, len: u64) -> Scenario {
    let gpu = presets::gpu("rtx-4090").unwrap();
    let model = presets::model("Qwen/Qwen3-8B").unwrap().spec();
    let version = Version::new(v.0, v.1);
    let memory = KvMemory::Budget {
        gpu_total: gpu.total,
        util,
        weights: model.weights,
        overhead: Overhead::ESTIMATE,
    };
    Scenario {
        engine: Engine::V1,
        gpu_total: Some(gpu.total),
        ..common::vllm_scenario(model, version, memory, len)
    }
}

fn available(r: &Report) -> i128 {
    r.available_kv_bytes.unwrap()
}

#[test]
fn max_num_batched_tokens_shrinks_the_pool_as_pr_48322_measured() {
    // vllm PR #48322: RTX 4090, Qwen3-8B bf16, util 0.9: max_num_batched_tokens 2,048 → 8,192
    // shrank the pool from 40,464 to 36,720 tokens (3,744 tokens = 0.514 GiB).
    // kvbudget: the profile batch grows from 2,048 to 8,192 tokens. Base 6,144 × 35,661 B =
    // 219,101,184 B more; the dense MLP (8,192 × (3 × 12,288 + 3 × 4,096) × 2 B = 805,306,368 B)
    // now exceeds the sampler (256 × 151,936 × 14 B = 544,538,624 B): 260,767,744 B more.
    // Together 479,868,928 B = 203.4 blocks: 1,952 → 1,749 blocks, 3,248 tokens fewer.
    let at = |mnbt: u64| {
        let mut s = qwen3_8b_on_4090((0, 26), 0.9, 8192);
        s.max_num_batched_tokens = Some(mnbt);
        report(&s).unwrap()
    };
    let (small, large) = (at(2048), at(8192));
    assert_eq!(available(&small) - available(&large), 479_868_928);
    assert_eq!(small.num_gpu_blocks, Some(1952));
    assert_eq!(large.num_gpu_blocks, Some(1749));
    let shrink = (1952 - 1749) * 16;
    assert_eq!(shrink, 3248);
    // Same direction; the size lies within the activation part's ±10 % at 8,192 tokens
    // (0.1 × 1,097,441,280 B / 147,456 B = 744 tokens): |3,744 − 3,248| = 496.
    let act = large.overhead.unwrap().activation.0;
    assert_eq!(act, 1_097_441_280);
    let band = act / 10 / 147_456;
    assert_eq!(band, 744);
    assert!(3744u64.abs_diff(shrink) <= band);
}

#[test]
fn kv_cache_memory_gives_exact_blocks() {
    // --kv-cache-memory 4,831,838,208 = 2,048 × 2,359,296 B: exactly 2,048 blocks = 32,768
    // tokens, 4 requests of 8,192 ("4.00x"), whatever the utilization.
    for util in [0.5, 0.9] {
        let mut s = qwen3_8b_on_4090((0, 26), util, 8192);
        s.knobs.kv_cache_memory = Some(Bytes(4_831_838_208));
        let r = report(&s).unwrap();
        assert_eq!(r.num_gpu_blocks, Some(2048));
        assert_eq!(r.gpu_kv_cache_tokens, Some(32_768));
        assert_eq!(r.lines[0], "Available KV cache memory: 4.50 GiB");
        assert!(r.budget.is_none() && r.overhead.is_none());
    }
}

#[test]
fn enforce_eager_removes_the_cuda_graphs() {
    // From 0.20 vLLM subtracts its CUDA-graph estimate: ⌊0.3095 GiB⌋ + ⌊36 × 17.21 MiB⌋ =
    // 332,323,094 + 649,655,746 = 981,978,840 B. --enforce-eager gives exactly that back.
    let s = qwen3_8b_on_4090((0, 26), 0.9, 8192);
    let mut eager = s.clone();
    eager.knobs.enforce_eager = true;
    let (a, b) = (report(&s).unwrap(), report(&eager).unwrap());
    assert_eq!(a.overhead.unwrap().cuda_graphs.0, 981_978_840);
    assert_eq!(b.overhead.unwrap().cuda_graphs.0, 0);
    assert_eq!(available(&b) - available(&a), 981_978_840);
    // Before 0.20 the graphs sit outside the budget: eager changes nothing there.
    let s = qwen3_8b_on_4090((0, 19), 0.9, 8192);
    let mut eager = s.clone();
    eager.knobs.enforce_eager = true;
    assert_eq!(
        available(&report(&s).unwrap()),
        available(&report(&eager).unwrap())
    );
}

#[test]
fn cpu_offload_lora_and_a_draft() {
    let base = qwen3_8b_on_4090((0, 26), 0.9, 8192);
    let a0 = available(&report(&base).unwrap());
    // --cpu-offload-gb 4: 4 × 2³⁰ B of weights leave the GPU.
    let mut s = base.clone();
    s.knobs.cpu_offload_gb = 4.0;
    assert_eq!(available(&report(&s).unwrap()) - a0, 4 * GIB as i128);
    // LoRA, 1 slot of rank 16: adapter buffers 36 layers × 16 × Σ(in + out) × 2 B with
    // Σ = (4,096 + 4,096) + 2 × (4,096 + 1,024) + (4,096 + 4,096) + 3 × (4,096 + 12,288)
    // = 75,776 → 87,293,952 B; the shrink buffer 2,048 × 16 × 12 B = 393,216 B.
    let mut s = base.clone();
    s.knobs.lora = Some(Lora {
        max_loras: 1,
        max_rank: 16,
    });
    assert_eq!(a0 - available(&report(&s).unwrap()), 87_293_952 + 393_216);
    // An EAGLE head: 1 more KV layer (37 × 65,536 B per block layer-page) and its weights.
    let mut s = base.clone();
    s.knobs.speculative = Some(Speculative {
        num_tokens: 3,
        draft_weights: Bytes::gib(1),
        draft_layers: 1,
    });
    let r = report(&s).unwrap();
    assert_eq!(r.stage_layers, 37);
    assert_eq!(r.block_bytes, 37 * 16 * 4096);
    assert!(available(&r) < a0 - GIB as i128);
}

#[test]
fn a_plan_fed_back_gives_at_least_what_was_asked() {
    // 4 sequences of 8,192 tokens on a 4090 with vLLM 0.19.
    let need = Need {
        sequences: 4,
        context: 8192,
    };
    let s = qwen3_8b_on_4090((0, 19), 0.9, 8192);
    let p = plan(&s, need).unwrap();
    // --kv-cache-memory: 4 × 512 blocks × 2,359,296 B = 4,831,838,208 B (no null block before 0.29).
    assert_eq!(p.kv_cache_blocks, 2048);
    assert_eq!(p.kv_cache_memory, 4_831_838_208);
    let mut t = s.clone();
    t.knobs.kv_cache_memory = Some(Bytes(p.kv_cache_memory));
    assert_eq!(report(&t).unwrap().whole_sequences(), 4);
    // The safe utilization gives N × C even at the high end of the overhead's range.
    let u = p.util.clone().unwrap();
    assert!(u.optimistic <= u.point && u.point <= u.safe);
    for m in [Margin::Point, Margin::High] {
        let mut t = s.clone();
        t.memory = KvMemory::Budget {
            gpu_total: presets::gpu("rtx-4090").unwrap().total,
            util: u.safe,
            weights: s.model.weights,
            overhead: Overhead::Estimated(m),
        };
        let r = report(&t).unwrap();
        assert!(r.whole_sequences() >= 4, "{m:?}: {}", r.whole_sequences());
        assert!(r.num_gpu_blocks.unwrap() * 16 >= 4 * 8192);
    }
    // 0.01 less and the safe end no longer holds it.
    let mut t = s.clone();
    t.memory = KvMemory::Budget {
        gpu_total: presets::gpu("rtx-4090").unwrap().total,
        util: u.safe - 0.01,
        weights: s.model.weights,
        overhead: Overhead::Estimated(Margin::High),
    };
    assert!(report(&t).unwrap().whole_sequences() < 4);
    // The longest context for 4 sequences at util 0.9 is at least the one asked for.
    assert!(p.longest_context.safe >= 8192);
    assert_eq!(p.smallest_tp, Some(1));
}

#[test]
fn a_plan_says_why_none_fits() {
    // 64 sequences of 32,768 tokens need 2,097,152 × 147,456 B = 288 GiB of KV: no utilization.
    let s = qwen3_8b_on_4090((0, 26), 0.9, 8192);
    let p = plan(
        &s,
        Need {
            sequences: 64,
            context: 32_768,
        },
    )
    .unwrap();
    let why = p.util.unwrap_err();
    assert!(
        why.contains("no utilization gives 64 sequences of 32,768 tokens"),
        "{why}"
    );
    assert_eq!(p.smallest_tp, None);
    // Its --kv-cache-memory, 64 × 2,048 blocks × 2,359,296 B = 309,237,645,312 B, does not fit
    // beside the weights (16,396,037,652 B) on a card of 25,286,619,955 B: no "use it", and what
    // it needs: weights + the estimate's overhead + those bytes.
    assert_eq!(p.kv_cache_memory, 309_237_645_312);
    let (needed, total) = p.kv_cache_memory_over.unwrap();
    assert_eq!(total, 25_286_619_955);
    assert!(needed > 16_396_037_652 + 309_237_645_312, "{needed}");
    // 4 sequences of 8,192 tokens (4.5 GiB) fit: nothing to say.
    let p = plan(
        &s,
        Need {
            sequences: 4,
            context: 8192,
        },
    )
    .unwrap();
    assert_eq!(p.kv_cache_memory_over, None);
}

#[test]
fn plan_on_the_command_line() {
    let o = Command::new(env!("CARGO_BIN_EXE_kvbudget"))
        .args([
            "plan",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--sequences",
            "4",
            "--context",
            "8192",
            "--versions",
            "0.19,0.26",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["plans"].as_array().unwrap().len(), 2);
    assert_eq!(v["plans"][0]["vllm_version"], "0.19");
    assert_eq!(v["plans"][0]["kv_cache_memory_bytes"], 4_831_838_208u64);
    // Fed back through `kvbudget vllm --kv-cache-memory`: 32,768 tokens, 4.00x.
    let o = Command::new(env!("CARGO_BIN_EXE_kvbudget"))
        .args([
            "vllm",
            "--model",
            "Qwen/Qwen3-8B",
            "--gpu",
            "rtx-4090",
            "--max-model-len",
            "8192",
            "--vllm-version",
            "0.19",
            "--kv-cache-memory",
            "4831838208",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("GPU KV cache size: 32,768 tokens"), "{text}");
    assert!(text.contains("4.00x"), "{text}");
}

#[test]
fn vllm_08_serve_defaults_by_release() {
    // `_set_default_args_v1` (vllm/engine/arg_utils.py), for `vllm serve` (OPENAI_API_SERVER):
    // 0.8.0–0.8.3 `"h100" in device_name or "h200" in device_name` → 8192 tokens, else 2048, and
    // `default_max_num_seqs = 1024` on every GPU; 0.8.4 the same names → 1024 / 8192, else
    // 256 / 2048; 0.8.5 `device_memory >= 70 * GiB_bytes` → 1024 / 8192; from 0.9.0 also not an
    // A100.
    use kvbudget::core::vllm::{serve_defaults, Family};
    let (big, small) = (Some(Bytes(79 * GIB)), Some(Bytes(22 * GIB)));
    let at = |v, arch, total| serve_defaults(v, Family::V1Early, arch, total);
    let v080 = Version::new(0, 8);
    assert_eq!(at(v080, Arch::Hopper, big), (1024, 8192));
    assert_eq!(at(v080, Arch::A100, big), (1024, 2048));
    assert_eq!(at(v080, Arch::Other, small), (1024, 2048));
    let v084 = Version::at(0, 8, 4);
    assert_eq!(at(v084, Arch::Hopper, big), (1024, 8192));
    assert_eq!(at(v084, Arch::A100, big), (256, 2048));
    let v085 = Version::at(0, 8, 5);
    assert_eq!(at(v085, Arch::A100, big), (1024, 8192));
    assert_eq!(at(v085, Arch::Other, small), (256, 2048));
    let v090 = Version::new(0, 9);
    assert_eq!(at(v090, Arch::A100, big), (256, 2048));
    assert_eq!(at(v090, Arch::Hopper, big), (1024, 8192));
}
