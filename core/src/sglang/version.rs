//! SGLang releases and what changes with them: each rule below names the first release whose
//! wheel behaves that way. Sources are the released wheels on PyPI (`pip download --no-deps
//! sglang==V`), paths under `python/sglang/srt/`; the shared SGLANG-ACCOUNTING card summarises
//! them, and where the card and a wheel disagree the wheel wins (noted at the rule).

use crate::error::{KvError, Result};
use std::fmt;

/// A release `major.minor.patch[.postN]` (`0.5.0rc0` reads as 0.5.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major (0 for every release so far).
    pub major: u32,
    /// Minor.
    pub minor: u32,
    /// Patch.
    pub patch: u32,
    /// `.postN` (0 without one).
    pub post: u32,
}

/// What a release does with a `--context-length` past the model's ([`Version::longer_context`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongerContext {
    /// Taken as given, with no check.
    Unchecked,
    /// Taken, with a warning logged.
    Warned,
    /// A `ValueError`; from 0.5.1 its message starts with "Warning: ".
    Refused {
        /// Whether the message starts with "Warning: ".
        warning_prefix: bool,
    },
}

/// The oldest release kvbudget describes.
pub const OLDEST: Version = Version::new(0, 3, 0);
/// The newest release whose accounting is known (the CLI's default).
pub const NEWEST: Version = Version::new(0, 5, 23);

impl Version {
    /// `major.minor.patch`.
    pub const fn new(major: u32, minor: u32, patch: u32) -> Self {
        Version {
            major,
            minor,
            patch,
            post: 0,
        }
    }

    /// `major.minor.patch.postN`.
    pub const fn post(major: u32, minor: u32, patch: u32, post: u32) -> Self {
        Version {
            major,
            minor,
            patch,
            post,
        }
    }

    /// Parses `0.5.6`, `v0.4.6.post2`, `0.5.0rc0`, `0.5` (patch 0), between 0.3.0 and 0.5.23.
    pub fn parse(s: &str) -> Result<Self> {
        let bad = || KvError::Invalid {
            field: "SGLang version",
            message: crate::tf!(
                ERR_SGLANG_VERSION,
                crate::error::quoted(s, 24),
                OLDEST,
                NEWEST
            ),
        };
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let (t, post) = match t.split_once(".post") {
            Some((head, p)) => (head, p.parse::<u32>().map_err(|_| bad())?),
            None => (t, 0),
        };
        // Release candidates count as their release: `0.5.0rc0` → 0.5.0.
        let t = t.split("rc").next().unwrap_or(t);
        let mut parts = t.split('.');
        let mut num = || -> Result<Option<u32>> {
            match parts.next() {
                None => Ok(None),
                Some(p) => p.parse().map(Some).map_err(|_| bad()),
            }
        };
        let major = num()?.ok_or_else(bad)?;
        let minor = num()?.ok_or_else(bad)?;
        let patch = num()?.unwrap_or(0);
        if num()?.is_some() {
            return Err(bad());
        }
        let v = Version::post(major, minor, patch, post);
        if v < OLDEST || Version::new(v.major, v.minor, v.patch) > NEWEST {
            return Err(bad());
        }
        Ok(v)
    }

    /// Whether this is `v` or later.
    pub fn at_least(self, v: Version) -> bool {
        self >= v
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if self.post > 0 {
            write!(f, ".post{}", self.post)?;
        }
        Ok(())
    }
}

/// The releases a picker offers, oldest first (PyPI has no plain 0.5.0, only its candidates).
pub fn offered() -> Vec<Version> {
    // Built in order (no sort: its code would be in the page for one small list).
    let mut v: Vec<Version> = (0..=6).map(|p| Version::new(0, 3, p)).collect();
    for p in 0..=10 {
        v.push(Version::new(0, 4, p));
        if p == 6 {
            v.push(Version::post(0, 4, 6, 2));
        }
    }
    v.extend((1..=NEWEST.patch).map(|p| Version::new(0, 5, p)));
    v
}

/// `v(0, 5, 3)`: shorthand for the thresholds below.
const fn v(major: u32, minor: u32, patch: u32) -> Version {
    Version::new(major, minor, patch)
}

/// How the default `mem_fraction_static` is computed (`server_args.py`; 0.5.19+
/// `arg_groups/memory_hook.py::handle_gpu_memory_settings`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MfsRule {
    /// 0.3.0–0.4.5: by tensor-parallel size: ≥16 0.79, ≥8 `tp8`, ≥4 0.85, ≥2 0.87, else 0.88.
    TpTiers {
        /// The ≥ 8 tier: 0.83 (0.3.0–0.3.5), 0.82 (0.3.6), 0.81 (0.4.0+).
        tp8: f64,
    },
    /// 0.4.6 and 0.4.6.post1: the TP tiers up to 81,920 MiB, else `(gpu − 13,312) / gpu`.
    LargeGpu13,
    /// 0.4.6.post2–post5: tiers on TP × PP up to 81,920 MiB (else 0.88); above 96 GiB
    /// `min(m + 49,152 (1 − m) / gpu, (gpu − 18,432) / gpu)`.
    LargeGpuMin,
    /// 0.4.7: as `LargeGpuMin`, but 0.79 above 180,000 MiB; speculative decoding reserves
    /// 20,480 MiB above 96 GiB, else multiplies by 0.95.
    LargeGpuMinSpec,
    /// 0.4.8–0.5.2: `round((gpu − reserved) / gpu, 3)` with `reserved` by GPU tier:
    /// (2.8 + P/10) GiB below 35 GiB, (9.5 + P/2) below 90, (12 + P/2) below 160, else 32 GiB;
    /// +2 GiB speculative (STANDALONE 6 GiB from 0.5.2), +4 GiB DP attention.
    ReservedTiers,
    /// 0.5.3+: `reserved = 512 + 1.5 × max(chunked, 2048) + 2 × cuda_graph_max_bs + tp·pp·128`
    /// (+ DP attention, prefill graphs, speculative), at least 10,240 above 60 GiB.
    Formula,
}

impl Version {
    /// The generation of the default `mem_fraction_static` rule.
    pub fn mfs_rule(self) -> MfsRule {
        if self < v(0, 3, 6) {
            MfsRule::TpTiers { tp8: 0.83 }
        } else if self < v(0, 4, 0) {
            MfsRule::TpTiers { tp8: 0.82 }
        } else if self < v(0, 4, 6) {
            MfsRule::TpTiers { tp8: 0.81 }
        } else if self < Version::post(0, 4, 6, 2) {
            // The card dates the TP × PP tiers and the 96 GiB rule to 0.4.6; the 0.4.6 and
            // 0.4.6.post1 wheels still use `(gpu_mem - 1024 * 13) / gpu_mem` above 81,920 MiB.
            MfsRule::LargeGpu13
        } else if self < v(0, 4, 7) {
            MfsRule::LargeGpuMin
        } else if self < v(0, 4, 8) {
            MfsRule::LargeGpuMinSpec
        } else if self < v(0, 5, 3) {
            MfsRule::ReservedTiers
        } else {
            MfsRule::Formula
        }
    }

    /// How a multimodal model changes `mem_fraction_static`.
    pub fn multimodal_rule(self) -> MultimodalRule {
        if self < v(0, 4, 5) {
            // model_runner.py 0.3.0–0.4.4: `self.mem_fraction_static *= 0.95`, also a user value.
            MultimodalRule::Times {
                factor: 0.95,
                user_too: true,
            }
        } else if self < v(0, 4, 9) {
            // model_runner.py 0.4.5–0.4.8: `*= 0.90` (the card says 0.95 throughout 0.4.x).
            MultimodalRule::Times {
                factor: 0.90,
                user_too: true,
            }
        } else if self < v(0, 4, 10) {
            // server_args.py 0.4.9: `*= 0.90` on the default only.
            MultimodalRule::Times {
                factor: 0.90,
                user_too: false,
            }
        } else {
            // server_args.py 0.4.10+: `adjust_mem_fraction_for_vlm`, on the default only.
            MultimodalRule::Vit
        }
    }

    /// The value `mem_fraction_static` takes without any GPU information: 0.88, and 0.95 from
    /// 0.5.20 (`memory_hook.py`: `... if gpu_mem is not None else 0.95`; the card says 0.5.23).
    pub fn mfs_without_gpu(self) -> f64 {
        if self >= v(0, 5, 20) {
            0.95
        } else {
            0.88
        }
    }

    /// `Load weight end.` wording.
    pub fn load_end_line(self) -> LoadEndLine {
        if self < v(0, 4, 4) {
            LoadEndLine::Plain
        } else if self < v(0, 5, 9) {
            // The card dates `mem usage=` to 0.4.6; the 0.4.4 wheel prints it already.
            LoadEndLine::MemUsage
        } else if self < v(0, 5, 10) {
            LoadEndLine::ElapsedDtype
        } else {
            LoadEndLine::ElapsedQuant
        }
    }

    /// The KV pool's allocation line.
    pub fn kv_line(self) -> KvLine {
        if self < Version::post(0, 4, 1, 6) {
            // memory_pool.py has no allocation line up to 0.4.1.post5.
            KvLine::None
        } else if self < v(0, 4, 5) {
            KvLine::Sizes
        } else if self < v(0, 5, 13) {
            // The card dates `#tokens` to 0.4.6; the 0.4.5 wheel prints it already.
            KvLine::Tokens
        } else {
            KvLine::Dtype
        }
    }

    /// Whether `Using KV cache dtype: torch.X` is logged (model_runner.py 0.5.3–0.5.12).
    pub fn logs_kv_dtype(self) -> bool {
        self >= v(0, 5, 3) && self < v(0, 5, 13)
    }

    /// The scheduler's summary line.
    pub fn scheduler_line(self) -> SchedulerLine {
        if self < v(0, 4, 2) {
            SchedulerLine::NoChunked
        } else if self < v(0, 4, 8) {
            SchedulerLine::Chunked
        } else {
            SchedulerLine::Available
        }
    }

    /// The refusal when the pool is empty.
    pub fn not_enough_wording(self) -> NotEnough {
        if self < v(0, 5, 3) {
            NotEnough::Plain
        } else if self < v(0, 5, 10) {
            NotEnough::SelfValue
        } else if self < v(0, 5, 11) {
            NotEnough::Value
        } else {
            // pool_configurator.py 0.5.11+: the config that raises is built without the
            // fraction, so the suffix is not printed (the card shows it for 0.5.12+).
            NotEnough::Plain
        }
    }

    /// Whether a non-positive rest raises `Loaded weights leave no GPU memory…` first
    /// (model_runner_kv_cache_mixin.py 0.5.14; the card says 0.5.15).
    pub fn refuses_no_rest(self) -> bool {
        self >= v(0, 5, 14)
    }

    /// `int(rest * (1 << 30) // cell)` (float floor division) up to 0.5.6; from 0.5.7
    /// `int(rest * (1 << 30)) // cell` (truncate to bytes, then integer division).
    pub fn truncates_bytes_first(self) -> bool {
        self >= v(0, 5, 7)
    }

    /// The padding slots each layer's buffer has beyond the pool: 1 up to 0.4.3, then the page.
    pub fn pads_with_page(self) -> bool {
        self >= v(0, 4, 4)
    }

    /// What `--context-length` longer than the model's derived length does
    /// (`configs/model_config.py`, `ModelConfig.__init__`): accepted unchecked before 0.3.5;
    /// refused with a `ValueError` unless `SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN` is set in
    /// 0.3.5–0.4.3; accepted with a warning in 0.4.4–0.5.0 (the variable's default became
    /// "True"); refused again from 0.5.1 (default false; `environ.py` `EnvBool(False)` from 0.5.3),
    /// its message then starting with the warning's "Warning: ". Read in the 0.3.0–0.3.5, 0.3.6,
    /// 0.4.0–0.4.10.post2, 0.5.0rc0, 0.5.0rc2, 0.5.1–0.5.3 and 0.5.23 wheels.
    pub fn longer_context(self) -> LongerContext {
        if self < v(0, 3, 5) {
            LongerContext::Unchecked
        } else if self < v(0, 4, 4) {
            LongerContext::Refused {
                warning_prefix: false,
            }
        } else if self < v(0, 5, 1) {
            LongerContext::Warned
        } else {
            LongerContext::Refused {
                warning_prefix: true,
            }
        }
    }

    /// Whether the pool is rounded down to whole pages and `--page-size` exists (0.4.4+).
    pub fn has_pages(self) -> bool {
        self >= v(0, 4, 4)
    }

    /// Whether the cell counts `head_dim + v_head_dim` (0.5.7+; the card says 0.5.8) instead
    /// of `2 × head_dim`.
    pub fn counts_v_head_dim(self) -> bool {
        self >= v(0, 5, 7)
    }

    /// Whether a multimodal model's rest loses the 100 MB VLM cache (0.5.18+,
    /// `kv_cache_configurator.mm_runtime_reservation_gb`, `SGLANG_VLM_CACHE_SIZE_MB=100`).
    pub fn reserves_vlm_cache(self) -> bool {
        self >= v(0, 5, 18)
    }

    /// How speculative decoding sizes the pool.
    pub fn spec_pool(self) -> SpecPool {
        if self < v(0, 4, 5) {
            SpecPool::DraftOwn
        } else if self < v(0, 5, 7) {
            SpecPool::Inflated
        } else if self < v(0, 5, 14) {
            SpecPool::Shared
        } else {
            SpecPool::CellScaled
        }
    }

    /// How a hybrid sliding-window model splits its pool.
    pub fn swa_rule(self) -> SwaRule {
        if self < v(0, 4, 10) {
            SwaRule::None
        } else if self < v(0, 5, 10) {
            SwaRule::PerLayer
        } else if self < v(0, 5, 11) {
            SwaRule::Memory
        } else {
            SwaRule::Cell
        }
    }

    /// How `max_running_requests` is derived.
    pub fn requests_rule(self) -> RequestsRule {
        if self < v(0, 3, 1) {
            RequestsRule::PoolMinusOne
        } else if self < v(0, 3, 2) {
            RequestsRule::Pool
        } else if self < v(0, 4, 7) {
            RequestsRule::PoolPlusOne
        } else if self < v(0, 5, 10) {
            RequestsRule::Pool
        } else if self < v(0, 5, 14) {
            RequestsRule::Estimate
        } else {
            RequestsRule::HalfPool
        }
    }

    /// The largest default request estimate: 5,120 in 0.3.0, then 4,096.
    pub fn requests_cap(self) -> u64 {
        if self < v(0, 3, 1) {
            5120
        } else {
            4096
        }
    }

    /// Whether prefill CUDA graphs exist and are on by default: opt-in 0.5.4–0.5.9
    /// (`--enable-piecewise-cuda-graph`), on by default from 0.5.10 (`--disable-piecewise-cuda-graph`).
    pub fn prefill_graph(self) -> PrefillGraph {
        if self < v(0, 5, 4) {
            PrefillGraph::Absent
        } else if self < v(0, 5, 10) {
            PrefillGraph::OptIn
        } else {
            PrefillGraph::Default
        }
    }

    /// Whether a Mamba pool reserves a padding slot: `(K + 1) × per_req` with
    /// `K = (budget − per_req) // per_req` (kv_cache_configurator.py 0.5.17+), else `K × per_req`.
    pub fn mamba_padding_slot(self) -> bool {
        self >= v(0, 5, 17)
    }

    /// `Mamba Cache is allocated.` names `max_mamba_cache_size` (0.5.4+).
    pub fn mamba_line_names_size(self) -> bool {
        self >= v(0, 5, 4)
    }

    /// Labels and order of a sliding-window pool's two allocation lines: `Full` then `SWA` with
    /// labels from 0.5.17 (swa_memory_pool.py), the SWA sub-pool first and unlabelled before.
    pub fn labels_swa_pools(self) -> bool {
        self >= v(0, 5, 17)
    }

    /// `SWAKVPool mem usage: …` (memory_pool.py 0.5.4+).
    pub fn logs_swa_usage(self) -> bool {
        self >= v(0, 5, 4)
    }

    /// `Use Sliding window memory pool.` (capital S) up to 0.5.6, lower case from 0.5.7.
    pub fn swa_line_capital(self) -> bool {
        self < v(0, 5, 7)
    }

    /// Which `--kv-cache-dtype` values this release accepts.
    pub fn kv_dtypes(self) -> &'static [&'static str] {
        if self < Version::post(0, 4, 1, 7) {
            &["auto", "fp8_e5m2"]
        } else if self < v(0, 5, 4) {
            &["auto", "fp8_e5m2", "fp8_e4m3"]
        } else {
            &["auto", "fp8_e5m2", "fp8_e4m3", "bfloat16"]
        }
    }
}

/// How a multimodal model changes `mem_fraction_static`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MultimodalRule {
    /// A fixed factor, applied to a user's value too (model_runner) or to the default only.
    Times {
        /// The factor.
        factor: f64,
        /// Whether a user-given fraction is multiplied too.
        user_too: bool,
    },
    /// `× 0.95 × clamp(1 − 0.1 (L·H² / (24 · 1024²) − 1), 0.8, 1.05)` on the default only,
    /// with the vision tower's `num_hidden_layers` L (24 when the config has none) and
    /// `hidden_size` H (1,024 when absent).
    Vit,
}

/// `Load weight end.` wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadEndLine {
    /// `Load weight end. type=X, dtype=D, avail mem=A GB` (≤ 0.4.3).
    Plain,
    /// `… avail mem=A GB, mem usage=U GB.` (0.4.4–0.5.8).
    MemUsage,
    /// `Load weight end. elapsed=T s, type=X, dtype=D, avail mem=…, mem usage=….` (0.5.9).
    ElapsedDtype,
    /// `Load weight end. elapsed=T s, type=X, [quant=Q, ]avail mem=…, mem usage=….` (0.5.10+).
    ElapsedQuant,
}

/// The KV pool's allocation line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KvLine {
    /// None (≤ 0.4.1.post5).
    None,
    /// `KV Cache is allocated. K size: X GB, V size: Y GB.` (0.4.1.post6–0.4.4).
    Sizes,
    /// `KV Cache is allocated. #tokens: N, K size: X GB, V size: Y GB` / `KV size` (0.4.5–0.5.12).
    Tokens,
    /// `KV Cache is allocated. dtype: torch.X, #tokens: N, …` (0.5.13+).
    Dtype,
}

/// The scheduler's summary line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerLine {
    /// `max_total_num_tokens=, max_prefill_tokens=, max_running_requests=, context_len=` (≤ 0.4.1).
    NoChunked,
    /// `chunked_prefill_size=` as the second field (0.4.2–0.4.7).
    Chunked,
    /// `…, available_gpu_mem=X GB` at the end (0.4.8+).
    Available,
}

/// The `Not enough memory` refusal's wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotEnough {
    /// `Not enough memory. Please try to increase --mem-fraction-static.`
    Plain,
    /// `… Current value: self.server_args.mem_fraction_static=M` (0.5.3–0.5.9).
    SelfValue,
    /// `… Current value: mem_fraction_static=M` (0.5.10).
    Value,
}

/// How speculative decoding (EAGLE/MTP/STANDALONE) sizes the target's pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecPool {
    /// 0.4.1–0.4.4: the target keeps its profiled size; the draft's pool is larger.
    DraftOwn,
    /// 0.4.5–0.5.6: the shared pool is `T + reqs·(steps·topk + draft_tokens) + 100`.
    Inflated,
    /// 0.5.7–0.5.13: the draft shares the target's token count; its KV is outside the profile.
    Shared,
    /// 0.5.14+: `cell × (1 + draft_layers / layers)`, the draft's KV inside the budget.
    CellScaled,
}

/// How a hybrid sliding-window model (Llama 4, gpt-oss, MiMo, Gemma 4 …) splits its pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwaRule {
    /// Before 0.4.10: every layer gets the full pool.
    None,
    /// 0.4.10–0.5.9: `T × L` tokens split as `full = T·L / (r·L_swa + L_full)`, `swa = r·full`.
    PerLayer,
    /// 0.5.10: the same split from the profiled bytes.
    Memory,
    /// 0.5.11+: `cell = F·L_full + r·S·L_swa`, `full = T`, `swa = r·full`.
    Cell,
}

/// How `max_running_requests` follows from the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestsRule {
    /// 0.3.0: `min(T // 2, est − 1)` (the request pool has `est` slots, one kept).
    PoolMinusOne,
    /// 0.3.1, 0.4.7–0.5.9: `min(T // 2, est)`; a user value sizes the pool itself.
    Pool,
    /// 0.3.2–0.4.6: `min(T // 2, est + 1)` (logs show 2049 / 4097).
    PoolPlusOne,
    /// 0.5.10–0.5.13: default `min(est, T // 2)`; a user value `min(user // dp, est)`.
    Estimate,
    /// 0.5.14+: default `min(est, T // 2)`; a user value `min(user // dp, T // 2)`.
    HalfPool,
}

/// Prefill (piecewise / breakable) CUDA graphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrefillGraph {
    /// Before 0.5.4.
    Absent,
    /// 0.5.4–0.5.9: `--enable-piecewise-cuda-graph`.
    OptIn,
    /// 0.5.10+: on unless disabled or incompatible (multimodal, PP > 1, DP attention before 0.5.20).
    Default,
}

/// A template's argument, as it displays (the texts name it in either language).
impl crate::i18n::Arg for Version {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_releases() {
        assert_eq!(Version::parse("0.5.6").unwrap(), Version::new(0, 5, 6));
        assert_eq!(
            Version::parse("v0.4.6.post2").unwrap(),
            Version::post(0, 4, 6, 2)
        );
        assert_eq!(Version::parse("0.5.0rc0").unwrap(), Version::new(0, 5, 0));
        assert_eq!(Version::parse("0.4").unwrap(), Version::new(0, 4, 0));
        assert_eq!(Version::parse("0.5.23").unwrap(), NEWEST);
        assert!(Version::parse("0.5.24").is_err());
        assert!(Version::parse("0.2.15").is_err());
        assert!(Version::parse("latest").is_err());
        assert!(Version::parse("0.5.6.7").is_err());
        assert_eq!(Version::post(0, 4, 1, 7).to_string(), "0.4.1.post7");
    }

    #[test]
    fn rules_change_where_the_wheels_do() {
        assert_eq!(
            Version::new(0, 3, 6).mfs_rule(),
            MfsRule::TpTiers { tp8: 0.82 }
        );
        assert_eq!(Version::post(0, 4, 6, 1).mfs_rule(), MfsRule::LargeGpu13);
        assert_eq!(Version::post(0, 4, 6, 2).mfs_rule(), MfsRule::LargeGpuMin);
        assert_eq!(Version::new(0, 5, 2).mfs_rule(), MfsRule::ReservedTiers);
        assert_eq!(Version::new(0, 5, 3).mfs_rule(), MfsRule::Formula);
        assert_eq!(Version::post(0, 4, 1, 5).kv_line(), KvLine::None);
        assert_eq!(Version::post(0, 4, 1, 7).kv_line(), KvLine::Sizes);
        assert_eq!(Version::new(0, 5, 13).kv_line(), KvLine::Dtype);
        assert_eq!(
            Version::new(0, 5, 10).not_enough_wording(),
            NotEnough::Value
        );
        assert_eq!(
            Version::new(0, 5, 12).not_enough_wording(),
            NotEnough::Plain
        );
        assert!(offered().windows(2).all(|w| w[0] < w[1]));
        assert_eq!(offered().last(), Some(&NEWEST));
    }
}
