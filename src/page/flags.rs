//! vLLM's other flags ("More vLLM flags") and the plan mode's input.

use super::inputs::{optional, Input};
use kvbudget_core::fields;
use kvbudget_core::scenario::PageScenario;
use kvbudget_core::t;
use kvbudget_core::units::fixed2;

fn lora_mut(s: &mut PageScenario) -> Option<&mut kvbudget_core::vllm::Lora> {
    s.knobs.lora.as_mut()
}

fn spec_mut(s: &mut PageScenario) -> Option<&mut kvbudget_core::vllm::Speculative> {
    s.knobs.speculative.as_mut()
}

/// vLLM's other flags, behind "More vLLM flags" (empty: the flag is not given).
pub const FLAGS: [Input; 8] = [
    Input {
        id: "mnbt",
        label: || "max_num_batched_tokens",
        hint: || t!(IN_MNBT_HINT),
        inputmode: "numeric",
        show: |s, _| s.mnbt.map(|n| n.to_string()).unwrap_or_default(),
        apply: |s, t, _| {
            s.mnbt = optional(t, |t| {
                fields::whole(
                    "max_num_batched_tokens",
                    t,
                    1,
                    fields::MAX_CTX,
                    "a whole number of tokens from 1 to 10,485,760",
                )
            })?;
            Ok(())
        },
    },
    Input {
        id: "dcp",
        label: || t!(IN_DCP),
        hint: || t!(IN_DCP_HINT),
        inputmode: "numeric",
        show: |s, _| {
            if s.knobs.dcp > 1 {
                s.knobs.dcp.to_string()
            } else {
                String::new()
            }
        },
        apply: |s, t, _| {
            s.knobs.dcp = optional(t, fields::parse_dcp)?.unwrap_or(0);
            Ok(())
        },
    },
    Input {
        id: "offload_gib",
        label: || t!(IN_OFFLOAD),
        hint: || t!(IN_OFFLOAD_HINT),
        inputmode: "decimal",
        show: |s, _| {
            if s.knobs.cpu_offload_gb > 0.0 {
                kvbudget_core::floatfmt::display(s.knobs.cpu_offload_gb)
            } else {
                String::new()
            }
        },
        apply: |s, t, _| {
            s.knobs.cpu_offload_gb = optional(t, |t| {
                fields::parse_gib("CPU offload", t, 1024.0, "a number of GiB from 0 to 1,024")
            })?
            .map(|b| b.as_gib())
            .unwrap_or(0.0);
            Ok(())
        },
    },
    Input {
        id: "loras",
        label: || t!(IN_LORAS),
        hint: || t!(IN_LORAS_HINT),
        inputmode: "numeric",
        show: |s, _| {
            s.knobs
                .lora
                .map(|l| l.max_loras.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            s.knobs.lora = match optional(t, |t| {
                fields::whole("max_loras", t, 1, 1024, "a whole number from 1 to 1,024")
            })? {
                None => None,
                Some(n) => Some(kvbudget_core::vllm::Lora {
                    max_loras: n,
                    max_rank: s.knobs.lora.map(|l| l.max_rank).unwrap_or(16),
                }),
            };
            Ok(())
        },
    },
    Input {
        id: "lora_rank",
        label: || "max_lora_rank",
        hint: || t!(IN_LORA_RANK_HINT),
        inputmode: "numeric",
        show: |s, _| {
            s.knobs
                .lora
                .map(|l| l.max_rank.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::whole(
                "max_lora_rank",
                t,
                1,
                1024,
                "a whole number from 1 to 1,024",
            )?;
            if let Some(l) = lora_mut(s) {
                l.max_rank = n;
            }
            Ok(())
        },
    },
    Input {
        id: "spec_tokens",
        label: || t!(IN_SPEC),
        hint: || t!(IN_SPEC_HINT),
        inputmode: "numeric",
        show: |s, _| {
            s.knobs
                .speculative
                .map(|x| x.num_tokens.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            s.knobs.speculative = match optional(t, |t| {
                fields::whole(
                    "num_speculative_tokens",
                    t,
                    1,
                    64,
                    "a whole number from 1 to 64",
                )
            })? {
                None => None,
                Some(n) => Some(kvbudget_core::vllm::Speculative {
                    num_tokens: n,
                    ..s.knobs
                        .speculative
                        .unwrap_or(kvbudget_core::vllm::Speculative {
                            num_tokens: n,
                            draft_weights: kvbudget_core::units::Bytes(0),
                            draft_layers: 1,
                        })
                }),
            };
            Ok(())
        },
    },
    Input {
        id: "draft_layers",
        label: || t!(IN_DRAFT_LAYERS),
        hint: || t!(IN_DRAFT_LAYERS_HINT),
        inputmode: "numeric",
        show: |s, _| {
            s.knobs
                .speculative
                .map(|x| x.draft_layers.to_string())
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let n = fields::whole("draft layers", t, 0, 1024, "a whole number from 0 to 1,024")?;
            if let Some(x) = spec_mut(s) {
                x.draft_layers = n;
            }
            Ok(())
        },
    },
    Input {
        id: "draft_gib",
        label: || t!(IN_DRAFT_WEIGHTS),
        hint: || "GiB",
        inputmode: "decimal",
        show: |s, _| {
            s.knobs
                .speculative
                .map(|x| fixed2(x.draft_weights.as_gib()))
                .unwrap_or_default()
        },
        apply: |s, t, _| {
            let b = fields::parse_gib(
                "draft weights",
                t,
                4096.0,
                "a number of GiB from 0 to 4,096",
            )?;
            if let Some(x) = spec_mut(s) {
                x.draft_weights = b;
            }
            Ok(())
        },
    },
];

/// The inverse question: how many sequences to plan for.
pub const PLAN: Input = Input {
    id: "plan",
    label: || t!(IN_PLAN),
    hint: || t!(IN_PLAN_HINT),
    inputmode: "numeric",
    show: |s, _| s.plan.map(|n| n.to_string()).unwrap_or_default(),
    apply: |s, t, _| {
        s.plan = optional(t, |t| {
            fields::whole(
                "plan sequences",
                t,
                1,
                65_536,
                "a whole number from 1 to 65,536",
            )
        })?;
        Ok(())
    },
};
