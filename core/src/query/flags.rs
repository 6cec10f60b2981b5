//! The URL parameters of vLLM's other flags and of the plan: `mnbt`, `eager`, `half`, `offload_gib`,
//! `loras`, `lora_rank`, `spec_tokens`, `draft_layers`, `draft_gib`, `prefix`, `no_prefix`, `dcp`, `plan`. Each is
//! written only when set, so links without them keep their form.

use super::{num, Param};
use crate::error::Result;
use crate::fields::{parse_flag, parse_gib, whole, MAX_CTX};
use crate::scenario::PageScenario;
use crate::units::Bytes;
use crate::vllm::{Lora, Speculative};

/// vLLM's default `--max-lora-rank`.
pub const DEFAULT_LORA_RANK: u64 = 16;

fn lora(s: &mut PageScenario) -> &mut Lora {
    s.knobs.lora.get_or_insert(Lora {
        max_loras: 1,
        max_rank: DEFAULT_LORA_RANK,
    })
}

fn speculative(s: &mut PageScenario) -> &mut Speculative {
    s.knobs.speculative.get_or_insert(Speculative {
        num_tokens: 1,
        draft_weights: Bytes(0),
        draft_layers: 1,
    })
}

fn gib_text(b: Bytes) -> String {
    num(b.as_gib())
}

fn set_flag(s: &mut PageScenario, v: &str, f: fn(&mut PageScenario, bool)) -> Result<()> {
    let b = parse_flag("flag", v)?;
    f(s, b);
    Ok(())
}

/// The flags' parameters, in query order after the scenario's own.
pub const FLAG_PARAMS: &[Param] = &[
    Param {
        key: "mnbt",
        read: |s| s.mnbt.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.mnbt = Some(whole(
                "max_num_batched_tokens",
                v,
                1,
                MAX_CTX,
                "a whole number of tokens from 1 to 10,485,760",
            )?);
            Ok(())
        }),
        default: |_| crate::t!(D_VLLM_DEFAULT).into(),
    },
    Param {
        key: "eager",
        read: |s| s.knobs.enforce_eager.then(|| "1".into()),
        write: Some(|s, v, _| set_flag(s, v, |s, b| s.knobs.enforce_eager = b)),
        default: |_| "0".into(),
    },
    Param {
        key: "half",
        read: |s| s.knobs.dtype_half.then(|| "1".into()),
        write: Some(|s, v, _| set_flag(s, v, |s, b| s.knobs.dtype_half = b)),
        default: |_| "0".into(),
    },
    Param {
        key: "prefix",
        read: |s| s.knobs.prefix_caching.then(|| "1".into()),
        write: Some(|s, v, _| set_flag(s, v, |s, b| s.knobs.prefix_caching = b)),
        default: |_| "0".into(),
    },
    Param {
        key: "dcp",
        read: |s| (s.knobs.dcp > 1).then(|| s.knobs.dcp.to_string()),
        write: Some(|s, v, _| {
            s.knobs.dcp = crate::fields::parse_dcp(v)?;
            Ok(())
        }),
        default: |_| "1".into(),
    },
    Param {
        key: "no_prefix",
        read: |s| s.knobs.no_prefix_caching.then(|| "1".into()),
        write: Some(|s, v, _| set_flag(s, v, |s, b| s.knobs.no_prefix_caching = b)),
        default: |_| "0".into(),
    },
    Param {
        key: "offload_gib",
        read: |s| (s.knobs.cpu_offload_gb > 0.0).then(|| num(s.knobs.cpu_offload_gb)),
        write: Some(|s, v, _| {
            let b = parse_gib("CPU offload", v, 1024.0, "a number of GiB from 0 to 1,024")?;
            s.knobs.cpu_offload_gb = b.as_gib();
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "loras",
        read: |s| s.knobs.lora.map(|l| l.max_loras.to_string()),
        write: Some(|s, v, _| {
            let n = whole("max_loras", v, 1, 1024, "a whole number from 1 to 1,024")?;
            lora(s).max_loras = n;
            Ok(())
        }),
        default: |_| crate::t!(D_NO_LORA).into(),
    },
    Param {
        key: "lora_rank",
        read: |s| {
            s.knobs
                .lora
                .filter(|l| l.max_rank != DEFAULT_LORA_RANK)
                .map(|l| l.max_rank.to_string())
        },
        write: Some(|s, v, _| {
            let n = whole(
                "max_lora_rank",
                v,
                1,
                1024,
                "a whole number from 1 to 1,024",
            )?;
            if s.knobs.lora.is_some() {
                lora(s).max_rank = n;
            }
            Ok(())
        }),
        default: |_| DEFAULT_LORA_RANK.to_string(),
    },
    Param {
        key: "spec_tokens",
        read: |s| s.knobs.speculative.map(|x| x.num_tokens.to_string()),
        write: Some(|s, v, _| {
            let n = whole(
                "num_speculative_tokens",
                v,
                1,
                64,
                "a whole number from 1 to 64",
            )?;
            speculative(s).num_tokens = n;
            Ok(())
        }),
        default: |_| crate::t!(D_NO_SPEC).into(),
    },
    Param {
        key: "draft_layers",
        read: |s| {
            s.knobs
                .speculative
                .filter(|x| x.draft_layers != 1)
                .map(|x| x.draft_layers.to_string())
        },
        write: Some(|s, v, _| {
            let n = whole("draft layers", v, 0, 1024, "a whole number from 0 to 1,024")?;
            if s.knobs.speculative.is_some() {
                speculative(s).draft_layers = n;
            }
            Ok(())
        }),
        default: |_| crate::t!(D_EAGLE).into(),
    },
    Param {
        key: "draft_gib",
        read: |s| {
            s.knobs
                .speculative
                .filter(|x| x.draft_weights.0 > 0)
                .map(|x| gib_text(x.draft_weights))
        },
        write: Some(|s, v, _| {
            let b = parse_gib(
                "draft weights",
                v,
                4096.0,
                "a number of GiB from 0 to 4,096",
            )?;
            if s.knobs.speculative.is_some() {
                speculative(s).draft_weights = b;
            }
            Ok(())
        }),
        default: |_| "0".into(),
    },
    Param {
        key: "plan",
        read: |s| s.plan.map(|n| n.to_string()),
        write: Some(|s, v, _| {
            s.plan = Some(whole(
                "plan sequences",
                v,
                1,
                65_536,
                "a whole number from 1 to 65,536",
            )?);
            Ok(())
        }),
        default: |_| crate::t!(D_NO_PLAN).into(),
    },
];
