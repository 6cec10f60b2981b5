//! vLLM releases and what changes with them: the engine, the printed report's family, the
//! defaults of `vllm serve`, and how `total × util` is rounded (VLLM-ACCOUNTING §0, §4).

use crate::error::{KvError, Result};
use crate::presets::Arch;
use crate::units::{Bytes, GIB};

/// A vLLM release, `major.minor.patch`. The patch level changes the accounting once so far
/// (0.20.1's token line); a version written `X.Y` is `X.Y.0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major (0 for every release so far).
    pub major: u32,
    /// Minor.
    pub minor: u32,
    /// Patch (a release candidate of `X.Y.Z` counts as `X.Y.Z`).
    pub patch: u32,
}

/// The oldest release kvbudget describes (its V0 engine).
pub const OLDEST: Version = Version::new(0, 4);
/// The newest release whose accounting is known.
pub const NEWEST: Version = Version::new(0, 33);
/// The oldest release the page's version picker offers.
pub const OLDEST_OFFERED: Version = Version::new(0, 6);
/// The first release that prints "GPU KV cache size" as `int(concurrency × max_model_len)`
/// (v1/core/kv_cache_utils.py, 0.20.1; 0.20.0 still prints whole blocks).
pub const TOKENS_FROM_CONCURRENCY: Version = Version::at(0, 20, 1);
/// The first release that runs a bfloat16 model in float16 on a GPU without bfloat16 instead of
/// refusing it: `_get_and_verify_dtype` falls back to the platform's first dtype ("Deal with
/// torch dtype fallback for device compatibility", vllm/config.py 0.9.0; not in 0.8.5.post1),
/// `_resolve_auto_dtype` from 0.9.1.
pub const BF16_FALLBACK: Version = Version::new(0, 9);
/// From 0.8.0 `--dtype auto` runs a float32 Gemma 2 checkpoint in float16, as any float32 one; up
/// to 0.7.3 it took bfloat16 ("For Gemma 2, we downcast float32 to bfloat16 instead of float16 by
/// default", `_get_and_verify_dtype` in vllm/config.py of the 0.7.3 wheel; gone in 0.8.0's).
pub const GEMMA2_FLOAT16: Version = Version::new(0, 8);
/// The first release that will not run gemma2, gemma3 or glm4 in float16
/// (`_FLOAT16_NOT_SUPPORTED_MODELS`, vllm/config.py 0.9.1).
pub const FLOAT16_UNSTABLE: Version = Version::at(0, 9, 1);
/// The first release that will not run gemma3_text in float16 either (vllm/config/__init__.py
/// 0.10.2; not in 0.10.1.1). Kept apart in the picker as [`V1_BELOW_AMPERE`] is, the same release.
pub const FLOAT16_UNSTABLE_TEXT: Version = Version::at(0, 10, 2);
/// The first release whose V1 worker subtracts only the growth of non-torch memory during startup
/// (`with memory_profiling(self.init_snapshot, weights_memory=…)`, v1/worker/gpu_worker.py of the
/// 0.9.1 wheel, PR #19312), where 0.9.0 still subtracted all of it (`non_torch_allocations =
/// total_allocated_bytes − torch_allocated_bytes`). The same release as [`FLOAT16_UNSTABLE`].
pub const V1_NON_TORCH_GROWTH: Version = Version::at(0, 9, 1);
/// The first release whose V1 engine runs below compute capability 8.0 (a T4): 0.8.0–0.10.1.1
/// fall back to V0 there.
pub const V1_BELOW_AMPERE: Version = Version::at(0, 10, 2);
/// The first release whose `vllm serve` defaults H100 and H200 (by device name) to 1024 sequences
/// and 8192 batched tokens and every other GPU to 256 / 2048 (`_set_default_args_v1`,
/// vllm/engine/arg_utils.py 0.8.4; 0.8.0–0.8.3 ran 1024 sequences everywhere).
pub const SERVE_DEFAULTS_BY_NAME: Version = Version::at(0, 8, 4);
/// The first release that decides those defaults by memory (≥ 70 GiB) instead (0.8.5).
pub const SERVE_DEFAULTS_BY_MEMORY: Version = Version::at(0, 8, 5);
// ── The release rules: each boundary once, named by what changes there, citing where (paths
// under `vllm/` in each release's wheel; `overhead.rs`, `layout.rs`, `mamba.rs` and `report.rs`
// say more beside the arithmetic they change). The family boundaries are in [`family`].

/// V1 is vLLM's default engine (0.8.0); V0 before, selectable up to 0.9 (`VLLM_USE_V1`).
pub const V1_DEFAULT: Version = Version::new(0, 8);
/// V0 is gone (`VLLM_USE_V1=0` no longer selects it): 0.10.0.
pub const V0_REMOVED: Version = Version::new(0, 10);
/// V0 subtracts only the growth of non-torch memory during startup (`memory_profiling`,
/// worker/worker.py; 0.6.4.post1 subtracted all of it): the picker's 0.6 is taken as before.
pub const V0_NON_TORCH_GROWTH: Version = Version::new(0, 7);
/// NCCL's buffers at TP ≥ 2 on an NVSwitch Hopper node as the logs from 0.10 show them
/// (`Fitted::non_torch_nvswitch_gib`).
pub const NVSWITCH_BUFFERS: Version = Version::new(0, 10);
/// Decode context parallelism (`--decode-context-parallel-size`, config/parallel.py 0.10.2).
pub const DECODE_CONTEXT_PARALLEL: Version = Version::at(0, 10, 2);
/// The GDN convolution state holds the speculative tokens too
/// (`get_mamba_state_shape_from_config`, model_executor/models/qwen3_next.py 0.10.2).
pub const GDN_CONV_SPEC: Version = Version::at(0, 10, 2);
/// `--kv-cache-memory` takes the KV memory as given (v1/worker/gpu_worker.py, 0.11.0).
pub const KV_CACHE_MEMORY_FLAG: Version = Version::new(0, 11);
/// The token line is multiplied by the DCP size (0.11.0 up to 0.20.0, v1/core/kv_cache_utils.py).
pub const DCP_TOKEN_LINE: Version = Version::new(0, 11);
/// The TP check names the KV "groups" instead of "heads" (distributed/utils.py, 0.11.0).
pub const TP_GROUPS_WORDING: Version = Version::new(0, 11);
/// Prefix caching for Mamba2 hybrids (`mamba_cache_mode`, 0.11.1).
pub const MAMBA_PREFIX_CACHING: Version = Version::at(0, 11, 1);
/// MLA's kernel granule for a raised block is 64 (0.11.1).
pub const MLA_GRANULE_64: Version = Version::at(0, 11, 1);
/// V1's sampler warm-up sorts (no FlashInfer top-k without it installed): 0.11.1 to 0.16
/// (`Fitted::sampler_sort`).
pub const SAMPLER_SORTS: Version = Version::at(0, 11, 1);
/// The hybrid allocator's groups may take the largest kind's count under 1.25 × the smallest
/// (`_get_kv_cache_groups_uniform_page_size`, v1/core/kv_cache_utils.py 0.12.0).
pub const GROUPS_UP_TO_1_25: Version = Version::new(0, 12);
/// Chunked local layers join the hybrid allocator by default
/// (`VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE` "1", envs.py 0.14.0).
pub const CHUNKED_LOCAL_HYBRID: Version = Version::new(0, 14);
/// The fit check counts by groups, group 0's blocks only up to 0.18
/// (`check_enough_kv_cache_memory`, v1/core/kv_cache_utils.py 0.14.0).
pub const FIT_CHECK_BY_GROUPS: Version = Version::new(0, 14);
/// A hybrid's state blocks follow `mamba_cache_mode` per kind (0.15.0).
pub const MAMBA_CACHE_MODES: Version = Version::new(0, 15);
/// Nemotron-H's convolution state holds the speculative tokens (nemotron_h.py, 0.17.0).
pub const NEMOTRON_CONV_SPEC: Version = Version::new(0, 17);
/// V1's sampler runs Triton's top-k again (0.17.0; `Fitted::sampler_light`).
pub const SAMPLER_TRITON: Version = Version::new(0, 17);
/// Qwen3.5 / 3.6 (`Qwen3_5ForConditionalGeneration`, qwen3_5.py: first in the 0.17.0 wheel's
/// model registry; 0.16.0 has none).
pub const QWEN35_MODELS: Version = Version::new(0, 17);
/// The groups may take the largest kind's count under 1.5 × the smallest (0.18.0).
pub const GROUPS_UP_TO_1_5: Version = Version::new(0, 18);
/// The fit check counts every group's blocks (`check_enough_kv_cache_memory`, 0.19.0).
pub const FIT_CHECK_ALL_GROUPS: Version = Version::new(0, 19);
/// Gemma 4's layers, full ones of their own shape and layers sharing a cache (gemma4.py, first in
/// the 0.19.0 wheel's model registry).
pub const SPLIT_KV_MODELS: Version = Version::new(0, 19);
/// CUDA graphs are profiled and taken out of the budget (`cudagraph_memory_estimate_applied`,
/// v1/worker/gpu_worker.py 0.20.0).
pub const CUDA_GRAPHS_IN_BUDGET: Version = Version::new(0, 20);
/// A raised attention block is at least `--block-size` (0.20.0).
pub const GRANULE_AT_LEAST_BLOCK: Version = Version::new(0, 20);
/// Mamba2 with speculative decoding runs `align` mode (0.20.0 up to 0.21).
pub const MAMBA2_SPEC_ALIGN: Version = Version::new(0, 20);
/// `all` mode counts the speculative tokens, and Mamba2 with them runs `all` again (0.22.0).
pub const MAMBA_ALL_SPEC: Version = Version::new(0, 22);
/// "model's" replaces vLLM's "models's" in the fit check's message (kv_cache_utils.py, 0.22.0).
pub const MODELS_TYPO_FIXED: Version = Version::new(0, 22);
/// A prefix LM's default batch is raised to its largest multimodal item
/// (`_set_default_max_num_seqs_and_batched_tokens_args`, engine/arg_utils.py 0.22.0; 0.20–0.21
/// treat Gemma 4 as a prefix LM but do not raise).
pub const MM_ITEM_BATCH: Version = Version::new(0, 22);
/// A sliding layer keeps two steps in flight (`max_in_flight_tokens` with async scheduling,
/// 0.26.0).
pub const TWO_STEPS_IN_FLIGHT: Version = Version::new(0, 26);
/// The DCP check's message gains its space ("divisible by dcp_size", config/parallel.py 0.26.0).
pub const DCP_MESSAGE_SPACE: Version = Version::new(0, 26);
/// MLA's kernel granule for a raised block is 128 (0.27.0).
pub const MLA_GRANULE_128: Version = Version::new(0, 27);
/// Prefix caching is on by default for hybrid models (config/cache.py, 0.28.0).
pub const HYBRID_PREFIX_CACHING_ON: Version = Version::new(0, 28);
/// The fit check reserves the null block (kv_cache_utils.py, 0.29.0).
pub const NULL_BLOCK_RESERVED: Version = Version::new(0, 29);
/// GiB printed with `round(x, 2)` instead of `%.2f` (0.30.0).
pub const GIB_ROUNDED: Version = Version::new(0, 30);
/// Mamba2 in `align` mode keeps a prefill checkpoint block (0.32.0).
pub const MAMBA2_PREFILL_CHECKPOINT: Version = Version::new(0, 32);
/// GDN on Hopper keeps a prefill checkpoint and aligns its block to 64 (FlashInfer's prefill,
/// `get_mamba_prefill_checkpoint_alignment`, platforms/interface.py 0.33.0).
pub const GDN_PREFILL_CHECKPOINT: Version = Version::new(0, 33);

/// The patch releases the picker keeps apart from their minor, each where the accounting changed
/// within it, in order.
const KEPT_PATCHES: [Version; 5] = [
    SERVE_DEFAULTS_BY_NAME,
    SERVE_DEFAULTS_BY_MEMORY,
    FLOAT16_UNSTABLE,
    V1_BELOW_AMPERE,
    TOKENS_FROM_CONCURRENCY,
];

impl Version {
    /// Whether this release builds a vision encoder on every pipeline stage
    /// (`capacity::stage_weights_per_gpu`): up to 0.32 (0.20–0.32 not read: taken as 0.19, the
    /// heavier of the two); 0.33's Model Runner V2 skips it after the first.
    pub fn encoder_every_stage(self) -> bool {
        self < Version::new(0, 33)
    }

    /// `0.Y` (patch 0).
    pub const fn new(major: u32, minor: u32) -> Self {
        Version {
            major,
            minor,
            patch: 0,
        }
    }

    /// `0.Y.Z`.
    pub const fn at(major: u32, minor: u32, patch: u32) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses `0.11`, `0.11.2`, `v0.19.0`, `0.8.5.post1`, `0.20.1rc1.dev91+g…` between 0.4 and 0.33.
    pub fn parse(s: &str) -> Result<Self> {
        let bad = || KvError::Invalid {
            field: "vLLM version",
            message: crate::tf!(ERR_VLLM_VERSION, crate::error::quoted(s, 20), NEWEST),
        };
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let mut parts = t.split('.');
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        // The patch's leading digits: `1rc1` is a candidate of .1.
        let patch = match parts.next() {
            Some(p) => {
                let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().map_err(|_| bad())?
            }
            None => 0,
        };
        let v = Version::at(major, minor, patch);
        if Version::new(major, minor) < OLDEST || Version::new(major, minor) > NEWEST {
            return Err(bad());
        }
        Ok(v)
    }

    /// The release of the picker's list that accounts as this one does: `X.Y`, or the latest
    /// kept patch release of that minor (0.8.4, 0.8.5, 0.9.1, 0.10.2, 0.20.1) at or before it.
    pub fn canonical(self) -> Version {
        let minor = Version::new(self.major, self.minor);
        KEPT_PATCHES
            .into_iter()
            .rev()
            .find(|k| Version::new(k.major, k.minor) == minor && self >= *k)
            .unwrap_or(minor)
    }

    /// Which engine runs by default on a GPU with bfloat16 (compute capability 8.0 or more): V1
    /// from 0.8.
    pub fn default_engine(self) -> Engine {
        self.engine_on(Arch::Other)
    }

    /// Which engine runs by default on a GPU of `arch`: V1 from 0.8, except on a T4 up to
    /// 0.10.1, where vLLM falls back to V0 ("Compute Capability < 8.0 is not supported by the V1
    /// Engine. Falling back to V0.": `_is_v1_supported_oracle`, vllm/engine/arg_utils.py, read in
    /// the 0.8.0, 0.8.5, 0.9.2, 0.10.0 and 0.10.1.1 wheels; the check is gone in 0.10.2).
    pub fn engine_on(self, arch: Arch) -> Engine {
        if self < Version::new(0, 8) || (arch == Arch::T4 && self < V1_BELOW_AMPERE) {
            Engine::V0
        } else {
            Engine::V1
        }
    }

    /// The default `--gpu-memory-utilization`: 0.90, and 0.92 from 0.20.
    pub fn default_util(self) -> f64 {
        if self >= Version::new(0, 20) {
            0.92
        } else {
            0.90
        }
    }

    /// `total × util`: a float up to 0.13, ceil from 0.14.
    pub fn rounding(self) -> Rounding {
        if self >= Version::new(0, 14) {
            Rounding::Ceil
        } else {
            Rounding::Float
        }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.patch == 0 {
            write!(f, "{}.{}", self.major, self.minor)
        } else {
            write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
        }
    }
}

/// The versions a picker offers, oldest first: every minor, and the patch releases where the
/// accounting changed within a minor (0.8.4, 0.8.5, 0.9.1, 0.10.2, 0.20.1).
pub fn offered() -> Vec<Version> {
    // Built in order (no sort: its code would be in the page for one small list).
    (OLDEST_OFFERED.minor..=NEWEST.minor)
        .flat_map(|m| {
            let patches = KEPT_PATCHES.into_iter().filter(move |k| k.minor == m);
            std::iter::once(Version::new(0, m)).chain(patches)
        })
        .collect()
}

/// vLLM's engine generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The old engine (default before 0.8, selectable with `VLLM_USE_V1=0` up to 0.9).
    V0,
    /// The V1 engine.
    V1,
}

/// The families whose printed report differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `# GPU blocks: N, # CPU blocks: M` and a concurrency line.
    V0,
    /// 0.8–0.9: tokens = blocks × block size; concurrency = tokens / max_model_len; no hybrid groups.
    V1Early,
    /// 0.10–0.20.0: tokens = (blocks // groups) × block size.
    V1Mid,
    /// 0.20.1–0.27: tokens = int(concurrency × max_model_len).
    V1Late,
    /// 0.28+: the same numbers on one line.
    V1OneLine,
}

/// The family for a version and engine (V0 only exists up to 0.9).
pub fn family(v: Version, engine: Engine) -> Family {
    if engine == Engine::V0 || v < Version::new(0, 8) {
        Family::V0
    } else if v < Version::new(0, 10) {
        Family::V1Early
    } else if v < TOKENS_FROM_CONCURRENCY {
        Family::V1Mid
    } else if v < Version::new(0, 28) {
        Family::V1Late
    } else {
        Family::V1OneLine
    }
}

/// `max_num_seqs` when the user gives none: the GPU's default, which V1 caps at the batch's
/// tokens (`EngineArgs`, vllm/engine/arg_utils.py: "if orig_max_num_seqs is None:
/// self.max_num_seqs = min(self.max_num_seqs, self.max_num_batched_tokens)"), so only a
/// max_num_seqs the user gives can exceed them.
pub fn default_max_num_seqs(
    v: Version,
    fam: Family,
    arch: Arch,
    gpu_total: Option<Bytes>,
    mnbt: Option<u64>,
) -> u64 {
    let seqs = serve_defaults(v, fam, arch, gpu_total).0;
    match mnbt {
        Some(m) if fam != Family::V0 => seqs.min(m),
        _ => seqs,
    }
}

/// vLLM's defaults for `vllm serve`: 1024 sequences / 8192 batched tokens on GPUs with
/// ≥ 70 GiB that are not A100s, else 256 / 2048 (VLLM-ACCOUNTING §4; from 0.9.0). V1 in 0.8
/// decided otherwise, release by release (`_set_default_args_v1`, vllm/engine/arg_utils.py):
/// 0.8.0–0.8.3 ran 1024 sequences on every GPU and 8192 tokens on an H100 or H200 by name (2048
/// elsewhere); 0.8.4 gave H100 and H200 1024 / 8192 and the others 256 / 2048; 0.8.5 decided by
/// memory alone (≥ 70 GiB, A100 80GB included). The presets' Hopper GPUs are the H100s and H200.
pub fn serve_defaults(v: Version, fam: Family, arch: Arch, gpu_total: Option<Bytes>) -> (u64, u64) {
    let big = gpu_total.is_some_and(|t| t.0 >= 70 * GIB);
    let hopper = arch == Arch::Hopper;
    match fam {
        Family::V1Early if v < SERVE_DEFAULTS_BY_NAME => (1024, if hopper { 8192 } else { 2048 }),
        Family::V1Early if v < SERVE_DEFAULTS_BY_MEMORY && hopper => (1024, 8192),
        Family::V1Early if v < SERVE_DEFAULTS_BY_MEMORY => (256, 2048),
        Family::V1Early if v < Version::new(0, 9) && big => (1024, 8192),
        Family::V1Early if v < Version::new(0, 9) => (256, 2048),
        _ if big && arch != Arch::A100 => (1024, 8192),
        _ => (256, 2048),
    }
}

/// How vLLM's requested memory is computed from the total and the utilization:
/// a float product up to 0.13, `math.ceil` from 0.14 (VLLM-ACCOUNTING §0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// `total * util` as a float (its fraction never changes a whole-block count).
    Float,
    /// `math.ceil(total * util)`.
    Ceil,
}

/// `total × util` in bytes, as vLLM computes it.
pub fn requested_bytes(total: Bytes, util: f64, rounding: Rounding) -> Result<u64> {
    if !util.is_finite() || util <= 0.0 || util > 1.0 {
        return Err(KvError::OutOfRange {
            field: "gpu_memory_utilization",
            range: "a number greater than 0 and at most 1",
            got: crate::floatfmt::display(util),
        });
    }
    let x = total.0 as f64 * util;
    Ok(match rounding {
        Rounding::Float => x.floor() as u64,
        Rounding::Ceil => x.ceil() as u64,
    })
}

/// A template's argument, as it displays (the texts name it in either language).
impl crate::i18n::Arg for Version {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_lists_each_release_once_oldest_first() {
        let v = offered();
        assert!(v.windows(2).all(|w| w[0] < w[1]), "{v:?}");
        assert_eq!(v.first(), Some(&OLDEST_OFFERED));
        assert_eq!(v.last(), Some(&NEWEST));
        // 0.9.1 sits between 0.9 and 0.10, 0.10.2 between 0.10 and 0.11, 0.20.1 between 0.20 and
        // 0.21; each stands for its later patches.
        // 0.8.4 and 0.8.5 sit between 0.8 and 0.9, each for its later patches.
        let i = v.iter().position(|x| *x == SERVE_DEFAULTS_BY_NAME).unwrap();
        assert_eq!(
            v[i - 1..i + 3],
            [
                Version::new(0, 8),
                SERVE_DEFAULTS_BY_NAME,
                SERVE_DEFAULTS_BY_MEMORY,
                Version::new(0, 9)
            ]
        );
        assert_eq!(
            Version::parse("0.8.5.post1").unwrap().canonical(),
            SERVE_DEFAULTS_BY_MEMORY
        );
        assert_eq!(Version::at(0, 8, 3).canonical(), Version::new(0, 8));
        for (k, m) in [
            (FLOAT16_UNSTABLE, 9),
            (V1_BELOW_AMPERE, 10),
            (TOKENS_FROM_CONCURRENCY, 20),
        ] {
            let i = v.iter().position(|x| *x == k).unwrap();
            assert_eq!(
                (v[i - 1], v[i + 1]),
                (Version::new(0, m), Version::new(0, m + 1))
            );
            assert_eq!(Version::at(0, m, k.patch + 3).canonical(), k);
            assert_eq!(
                Version::at(0, m, k.patch - 1).canonical(),
                Version::new(0, m)
            );
        }
        assert_eq!(
            Version::parse("0.10.1.1").unwrap().canonical(),
            Version::new(0, 10)
        );
    }

    #[test]
    fn requested_rounding() {
        // 23.55 GiB × 0.9 as a float, floored vs ceiled: differ by one byte at most.
        let t = Bytes(25_286_604_390);
        let f = requested_bytes(t, 0.9, Rounding::Float).unwrap();
        let c = requested_bytes(t, 0.9, Rounding::Ceil).unwrap();
        assert!(c - f <= 1);
        assert!(requested_bytes(t, f64::NAN, Rounding::Ceil).is_err());
        assert!(requested_bytes(t, 1.5, Rounding::Ceil).is_err());
        assert!(requested_bytes(t, 0.0, Rounding::Ceil).is_err());
    }
}
