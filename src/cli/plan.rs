//! `kvbudget plan`: the settings that give N sequences of C tokens, per version.

use super::{scenario_of, VllmArgs};
use clap::Args;
use kvbudget_core::pyjson;
use kvbudget_core::units::{gib_figure, thousands, Bytes};
use kvbudget_core::vllm::plan::{plan, Need, Plan};
use kvbudget_core::vllm::{Engine, Version};
use serde_json::json;

#[derive(Args, Debug)]
pub(crate) struct PlanArgs {
    /// Sequences needed at once.
    #[arg(long)]
    sequences: u64,
    /// Tokens per sequence (prompt and output).
    #[arg(long)]
    context: u64,
    /// vLLM releases to plan for, comma-separated [default: --vllm-version, else the newest].
    #[arg(long, value_delimiter = ',')]
    versions: Vec<String>,
    /// The model, GPU and flags, as for `kvbudget vllm` (its --max-model-len is replaced by --context).
    #[command(flatten)]
    scenario: VllmArgs,
}

fn plan_json(p: &Plan) -> serde_json::Value {
    json!({
        "vllm_version": p.version.to_string(),
        "gpu_memory_utilization": match &p.util {
            Ok(u) => json!({ "safe": u.safe, "point": u.point, "optimistic": u.optimistic }),
            Err(_) => serde_json::Value::Null,
        },
        "why_not": p.util.as_ref().err(),
        "kv_cache_memory_bytes": p.kv_cache_memory,
        "kv_cache_blocks": p.kv_cache_blocks,
        // Bytes needed beside the weights and overhead when that is more than the GPU (else null).
        "kv_cache_memory_needs_bytes": p.kv_cache_memory_over.map(|(needed, _)| needed),
        "longest_max_model_len": {
            "safe": p.longest_context.safe,
            "point": p.longest_context.point,
            "optimistic": p.longest_context.optimistic,
        },
        "smallest_tensor_parallel_size": p.smallest_tp,
        // max_num_seqs in force when it is below the sequences asked for (else null).
        "max_num_seqs_below": p.capped_at,
    })
}

fn plan_text(p: &Plan, need: Need) -> Vec<String> {
    let mut out = vec![format!(
        "vLLM {}: {} sequences of {} tokens",
        p.version,
        thousands(need.sequences),
        thousands(need.context)
    )];
    out.push(match &p.util {
        Ok(u) => format!(
            "  --gpu-memory-utilization {:.2} (estimate {:.2}; range {:.2}–{:.2})",
            u.safe, u.point, u.optimistic, u.safe
        ),
        Err(why) => format!("  --gpu-memory-utilization: none — {why}"),
    });
    out.push(format!(
        "  --kv-cache-memory {} ({}, {} blocks: exactly the {} sequences){}",
        p.kv_cache_memory,
        gib_figure(Bytes(p.kv_cache_memory)),
        thousands(p.kv_cache_blocks),
        thousands(need.sequences),
        match p.kv_cache_memory_over {
            Some((needed, total)) => format!(
                " — does not fit this GPU: with the weights and the estimated overhead it needs {} of {}",
                gib_figure(Bytes(needed)),
                gib_figure(Bytes(total))
            ),
            None => String::new(),
        }
    ));
    let l = p.longest_context;
    out.push(format!(
        "  longest --max-model-len for {} sequences: {} (estimate {}; range {}–{})",
        thousands(need.sequences),
        thousands(l.safe),
        thousands(l.point),
        thousands(l.safe),
        thousands(l.optimistic)
    ));
    out.push(match p.smallest_tp {
        Some(tp) => format!("  smallest --tensor-parallel-size: {tp}"),
        None => "  no tensor-parallel size up to 8 gives it".into(),
    });
    if let Some(cap) = p.capped_at {
        out.push(format!(
            "  --max-num-seqs {}: the {} in force runs at most {} sequences at once",
            need.sequences,
            thousands(cap),
            thousands(cap)
        ));
    }
    out
}

/// Runs `kvbudget plan`.
pub(crate) fn run(a: &PlanArgs) -> Result<i32, String> {
    let need = Need {
        sequences: a.sequences,
        context: a.context,
    };
    let base = scenario_of(&a.scenario)?;
    let versions: Vec<Version> = if a.versions.is_empty() {
        vec![base.version]
    } else {
        a.versions
            .iter()
            .map(|v| Version::parse(v).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?
    };
    let mut plans = Vec::new();
    for v in versions {
        let mut s = base.clone();
        s.version = v;
        // The engine each release runs on this GPU, unless --engine chose one it has.
        let default = v.engine_on(s.arch);
        let given = a.scenario.engine.is_some()
            && default != Engine::V0
            && v < kvbudget_core::vllm::version::V0_REMOVED;
        if !given {
            s.engine = default;
        }
        plans.push(plan(&s, need).map_err(|e| e.to_string())?);
    }
    if a.scenario.json {
        let v: Vec<_> = plans.iter().map(plan_json).collect();
        let out = pyjson::dumps(&json!({
            "sequences": need.sequences,
            "context": need.context,
            "plans": v,
        }));
        say!("{out}");
    } else {
        for p in &plans {
            for l in plan_text(p, need) {
                say!("{l}");
            }
        }
    }
    Ok(0)
}
