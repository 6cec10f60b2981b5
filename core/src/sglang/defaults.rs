//! SGLang's defaults that depend on the GPU and the settings: `chunked_prefill_size`,
//! `cuda_graph_max_bs`, the prefill CUDA graphs and, from them, `mem_fraction_static` — every
//! generation of the rule (`server_args.py`; 0.5.19+ `arg_groups/memory_hook.py`).
//!
//! SGLang computes these in Python floats; so does this module, in the same order, so that a
//! printed fraction such as `0.7629746875` comes out to the last digit.

use super::version::{MfsRule, MultimodalRule, PrefillGraph, Version};
use crate::units::py_round;

/// `--speculative-algorithm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecAlgorithm {
    /// EAGLE, EAGLE3 and NEXTN/MTP heads (SGLang maps NEXTN to EAGLE).
    Eagle,
    /// A separate smaller draft model.
    Standalone,
    /// N-gram lookup (no draft model).
    Ngram,
    /// DFlash / DSpark block drafts.
    Dflash,
}

impl SpecAlgorithm {
    /// Parses SGLang's spelling (case-insensitive).
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s.trim().to_ascii_uppercase().as_str() {
            "EAGLE" | "EAGLE3" | "NEXTN" | "MTP" => SpecAlgorithm::Eagle,
            "STANDALONE" => SpecAlgorithm::Standalone,
            "NGRAM" | "LOOKAHEAD" => SpecAlgorithm::Ngram,
            "DFLASH" | "DSPARK" => SpecAlgorithm::Dflash,
            _ => return None,
        })
    }

    /// The name as SGLang prints it.
    pub const fn name(self) -> &'static str {
        match self {
            SpecAlgorithm::Eagle => "EAGLE",
            SpecAlgorithm::Standalone => "STANDALONE",
            SpecAlgorithm::Ngram => "NGRAM",
            SpecAlgorithm::Dflash => "DFLASH",
        }
    }
}

/// What the defaults read.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// The release.
    pub version: Version,
    /// GPU capacity in MiB as `nvidia-smi` reports it (`None`: unknown).
    pub gpu_mib: Option<u64>,
    /// `--tp-size`.
    pub tp: u64,
    /// `--pp-size`.
    pub pp: u64,
    /// `--dp-size`.
    pub dp: u64,
    /// `--enable-dp-attention`.
    pub dp_attention: bool,
    /// `--chunked-prefill-size` (−1 disables chunking).
    pub chunked_prefill_size: Option<i64>,
    /// `--cuda-graph-max-bs`.
    pub cuda_graph_max_bs: Option<u64>,
    /// `--max-running-requests` (caps the decode graphs from 0.5.22).
    pub max_running_requests: Option<u64>,
    /// `--max-total-tokens` (caps the prefill graphs).
    pub max_total_tokens: Option<u64>,
    /// `--context-length` (caps the prefill graphs in 0.5.13–0.5.16).
    pub context_length: Option<u64>,
    /// `--speculative-algorithm`.
    pub speculative: Option<SpecAlgorithm>,
    /// Prefill CUDA graphs on or off (`None`: the release's default for this model).
    pub prefill_graph: Option<bool>,
    /// The model uses multi-head latent attention.
    pub mla: bool,
    /// The model has a vision tower: its layers and hidden size when known.
    pub multimodal: Option<Vit>,
    /// The model path names Llama 2 (prefill graphs capped at 4,096 tokens).
    pub llama2: bool,
}

/// A vision tower as `adjust_mem_fraction_for_vlm` reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vit {
    /// `vision_config.num_hidden_layers` (SGLang assumes 24 when the key is absent, as for
    /// Qwen2.5-VL, whose config says `depth`).
    pub layers: Option<u64>,
    /// `vision_config.hidden_size` (1,024 when absent).
    pub hidden: Option<u64>,
}

/// The defaults in force.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    /// `chunked_prefill_size` as the memory rule reads it (before DP attention divides it).
    pub chunked_for_memory: i64,
    /// `chunked_prefill_size` as the scheduler prints it (−1: chunking disabled).
    pub chunked_prefill_size: i64,
    /// `cuda_graph_max_bs` (`None`: left to the graph runner, 0.4.7–0.5.2 on large GPUs).
    pub cuda_graph_max_bs: Option<u64>,
    /// Whether prefill CUDA graphs are captured.
    pub prefill_graph: bool,
    /// How many prefill graph sizes are captured (0 without prefill graphs).
    pub prefill_graph_sizes: u64,
    /// The largest prefill graph, in tokens.
    pub prefill_graph_max_tokens: u64,
}

/// The default `mem_fraction_static` and how it came about.
#[derive(Clone, Debug, PartialEq)]
pub struct MfsDefault {
    /// The value in force.
    pub value: f64,
    /// Before the multimodal adjustment.
    pub before_multimodal: f64,
    /// What the server arguments print: the value, except up to 0.4.8, where the model runner
    /// applies the multimodal factor after they are printed.
    pub printed: f64,
    /// The MiB the rule keeps back (generations that reserve), in Python's float.
    pub reserved_mib: Option<f64>,
}

/// `list(range(a, b + 1, step))` counted.
fn count_range(a: u64, last: u64, step: u64) -> u64 {
    if last < a {
        0
    } else {
        (last - a) / step + 1
    }
}

/// How many prefill graph sizes are captured up to `max` tokens
/// (`_generate_piecewise_cuda_graph_tokens` / `generate_prefill_cuda_graph_batch_sizes`).
pub fn prefill_graph_sizes(version: Version, max: u64) -> u64 {
    let upto = |last: u64| last.min(max);
    let mut n = count_range(4, upto(32), 4) + count_range(48, upto(256), 16);
    n += count_range(288, upto(512), 32);
    if version < Version::new(0, 5, 8) {
        // 0.5.4–0.5.7: 640…4096 by 128, then by 256.
        n += count_range(640, upto(4096), 128) + count_range(4352, max, 256);
    } else {
        // 0.5.8 starts the fourth run at 640, later releases at 576.
        let start = if version < Version::new(0, 5, 9) {
            640
        } else {
            576
        };
        n += count_range(start, upto(1024), 64) + count_range(1280, upto(4096), 256);
        n += count_range(4608, max, 512);
    }
    n
}

/// `chunked_prefill_size` and `cuda_graph_max_bs` by GPU tier, before any user value.
fn tier_defaults(v: Version, gpu: Option<u64>, tp: u64) -> (i64, Option<u64>) {
    let small_bs = if tp < 4 { 8 } else { 80 };
    if v < Version::new(0, 3, 6) {
        return (8192, None);
    }
    if v < Version::new(0, 4, 7) {
        let small = gpu.is_some_and(|g| g < 25_000);
        return match (small, v) {
            (true, v) if v < Version::new(0, 4, 0) => (2048, Some(4)),
            (true, v) if v < Version::new(0, 4, 1) => (2048, Some(8)),
            (true, _) => (2048, Some(small_bs)),
            (false, _) => (8192, Some(160)),
        };
    }
    if v < Version::new(0, 4, 8) {
        return match gpu {
            Some(g) if g > 180_000 => (16384, None),
            Some(g) if g < 25_000 => (2048, Some(small_bs)),
            _ => (8192, None),
        };
    }
    if v < Version::new(0, 5, 3) {
        return match gpu {
            None => (4096, None),
            Some(g) if g < 35 * 1024 => (2048, Some(small_bs)),
            Some(g) if g < 160 * 1024 => (8192, None),
            Some(_) => (16384, None),
        };
    }
    let big = tp >= 4;
    let (c, bs) = match gpu {
        None => (4096, 160),
        Some(g) if g < 20 * 1024 => (2048, 8),
        Some(g) if g < 35 * 1024 => {
            if v >= Version::new(0, 5, 20) {
                // 0.5.20: 32 GB Blackwell holds decode graphs past 24.
                (4096, if big { 160 } else { 48 })
            } else if v >= Version::new(0, 5, 5) {
                (2048, if big { 80 } else { 24 })
            } else {
                (2048, if big { 80 } else { 16 })
            }
        }
        Some(g) if g < 60 * 1024 => (4096, if big { 160 } else { 32 }),
        Some(g) if g < 160 * 1024 => (8192, if big { 512 } else { 256 }),
        Some(_) => (16384, 512),
    };
    (c, Some(bs))
}

/// Whether prefill graphs are captured, and up to how many tokens.
fn prefill_graph(i: &Inputs, chunked: i64) -> (bool, u64) {
    let v = i.version;
    let on = match (v.prefill_graph(), i.prefill_graph) {
        (PrefillGraph::Absent, _) => false,
        (PrefillGraph::OptIn, user) => user.unwrap_or(false),
        (PrefillGraph::Default, Some(user)) => user,
        (PrefillGraph::Default, None) => {
            // `_handle_piecewise_cuda_graph` (0.5.10+) and `apply_cuda_graph_compatibility`
            // (0.5.19+): multimodal models, pipeline parallelism and, until the breakable
            // graphs of 0.5.20, DP attention turn it off.
            i.multimodal.is_none() && i.pp == 1 && !(i.dp_attention && v < Version::new(0, 5, 20))
        }
    };
    if !on {
        return (false, 0);
    }
    let chunked = chunked.max(0) as u64;
    let mut max = if v < Version::new(0, 5, 7) {
        // 0.5.4–0.5.6: `piecewise_cuda_graph_max_tokens: int = 4096`.
        4096
    } else if i.mla && v >= Version::new(0, 5, 8) {
        if v >= Version::new(0, 5, 23) {
            chunked.min(8192)
        } else {
            2048
        }
    } else {
        chunked
    };
    if v >= Version::new(0, 5, 10) {
        if let Some(t) = i.max_total_tokens {
            max = max.min(t);
        }
        if i.llama2 {
            max = max.min(4096);
        }
    }
    if v >= Version::new(0, 5, 13) && v < Version::new(0, 5, 17) {
        if let Some(c) = i.context_length {
            max = max.min(c);
        }
    }
    (true, max)
}

/// The defaults for these inputs.
pub fn defaults(i: &Inputs) -> Defaults {
    let v = i.version;
    let (tier_chunk, tier_bs) = tier_defaults(v, i.gpu_mib, i.tp);
    let chunked = i.chunked_prefill_size.unwrap_or(tier_chunk);
    let mut bs = i.cuda_graph_max_bs.or(tier_bs);
    if v >= Version::new(0, 5, 22) && i.cuda_graph_max_bs.is_none() {
        // 0.5.22: a default decode graph never exceeds `--max-running-requests`.
        if let (Some(b), Some(m)) = (bs, i.max_running_requests) {
            bs = Some(b.min(m));
        }
    }
    let (on, max_tokens) = prefill_graph(i, chunked);
    let sizes = if on && v >= Version::new(0, 5, 8) {
        prefill_graph_sizes(v, max_tokens)
    } else {
        0
    };
    let printed = if i.dp_attention && chunked > 0 {
        if v < Version::new(0, 4, 5) {
            chunked / 2
        } else {
            chunked / i.dp.max(1) as i64
        }
    } else {
        chunked
    };
    Defaults {
        chunked_for_memory: chunked,
        chunked_prefill_size: printed,
        cuda_graph_max_bs: bs,
        prefill_graph: on,
        prefill_graph_sizes: sizes,
        prefill_graph_max_tokens: max_tokens,
    }
}

/// The TP tiers of 0.3.0–0.4.7 on `n` GPUs.
fn tp_tiers(n: u64, tp8: f64) -> f64 {
    match n {
        n if n >= 16 => 0.79,
        n if n >= 8 => tp8,
        n if n >= 4 => 0.85,
        n if n >= 2 => 0.87,
        _ => 0.88,
    }
}

/// `m + 48·1024·(1 − m) / g` against `(g − reserve) / g`, the smaller (0.4.6.post2–0.4.7).
fn large_gpu_min(m: f64, g: f64, reserve: f64) -> f64 {
    (m + 48.0 * 1024.0 * (1.0 - m) / g).min((g - reserve) / g)
}

/// `reserved_mem` of 0.5.3+, in Python's evaluation order.
fn formula_reserved(i: &Inputs, d: &Defaults, gpu: Option<f64>) -> f64 {
    let v = i.version;
    let bs = d.cuda_graph_max_bs.unwrap_or(160) as f64;
    let tp_pp = (i.tp * i.pp) as f64;
    let dp = i.dp as f64;
    let mut r = 512.0;
    // `max_prefill_tokens` (16,384) stands in when chunking is disabled.
    let act = if d.chunked_for_memory > 0 {
        d.chunked_for_memory as f64
    } else {
        16384.0
    };
    r += act.max(2048.0) * 1.5;
    r += bs * 2.0;
    r += tp_pp / 8.0 * 1024.0;
    if i.dp_attention {
        r += bs * dp * 3.0;
        if bs > 300.0 {
            r += bs * dp * 1.5;
        }
    }
    // 0.5.8+: prefill graphs before the 10 GiB floor; MLA 1.5 GiB from 0.5.10.
    if d.prefill_graph && v >= Version::new(0, 5, 8) {
        if i.mla && v >= Version::new(0, 5, 10) {
            r += 1.5 * 1024.0;
        } else {
            r += (d.prefill_graph_sizes * 8) as f64;
        }
    }
    if gpu.is_some_and(|g| g > 60.0 * 1024.0) {
        r = r.max(10.0 * 1024.0);
    }
    // Speculative decoding: on top of the floor, dropped in 0.5.14 (the draft is profiled).
    if let Some(alg) = i.speculative {
        if v < Version::new(0, 5, 14) {
            r += match alg {
                SpecAlgorithm::Standalone => 6.0 * 1024.0,
                SpecAlgorithm::Ngram => 0.0,
                _ if v >= Version::new(0, 5, 10) => 4.0 * 1024.0,
                _ => 2.0 * 1024.0,
            };
        }
    }
    // 0.5.6 and 0.5.7 added the prefill graphs last: max_tokens // 4, then // 8.
    if d.prefill_graph && v >= Version::new(0, 5, 6) && v < Version::new(0, 5, 8) {
        let div = if v < Version::new(0, 5, 7) { 4 } else { 8 };
        r += (d.prefill_graph_max_tokens / div) as f64;
    }
    r
}

/// `reserved_mem` of 0.4.8–0.5.2.
fn tier_reserved(i: &Inputs, g: f64) -> f64 {
    let p = (i.tp * i.pp) as f64;
    let mut r = if g < 35.0 * 1024.0 {
        (2.8 + p / 10.0) * 1024.0
    } else if g < 90.0 * 1024.0 {
        (9.5 + p / 2.0) * 1024.0
    } else if g < 160.0 * 1024.0 {
        (12.0 + p / 2.0) * 1024.0
    } else {
        32.0 * 1024.0
    };
    if let Some(alg) = i.speculative {
        r += if alg == SpecAlgorithm::Standalone && i.version >= Version::new(0, 5, 2) {
            6.0 * 1024.0
        } else {
            2.0 * 1024.0
        };
    }
    if i.dp_attention {
        r += 4.0 * 1024.0;
    }
    r
}

/// `adjust_mem_fraction_for_vlm`: `× 0.95 × clamp(1 − 0.1 (L·H² / (24·1024²) − 1), 0.8, 1.05)`.
pub fn vit_factor(vit: Vit) -> f64 {
    let layers = vit.layers.unwrap_or(24) as f64;
    let hidden = vit.hidden.unwrap_or(1024) as f64;
    let ratio = layers * (hidden * hidden) / (24.0 * (1024.0 * 1024.0));
    let dynamic = (1.0 - 0.1 * (ratio - 1.0)).clamp(0.8, 1.05);
    0.95 * dynamic
}

/// The default `mem_fraction_static` for these inputs and defaults.
pub fn default_mfs(i: &Inputs, d: &Defaults) -> MfsDefault {
    let g = i.gpu_mib.map(|g| g as f64);
    let p = i.tp * i.pp;
    let spec = i.speculative.is_some();
    let (base, reserved) = match i.version.mfs_rule() {
        MfsRule::TpTiers { tp8 } => (tp_tiers(i.tp, tp8), None),
        MfsRule::LargeGpu13 => match g {
            Some(g) if g > 81920.0 => ((g - 1024.0 * 13.0) / g, Some(13312.0)),
            _ => (tp_tiers(i.tp, 0.81), None),
        },
        MfsRule::LargeGpuMin => match g {
            Some(g) if g > 81920.0 => {
                let m = if g > 96.0 * 1024.0 {
                    large_gpu_min(0.88, g, 18432.0)
                } else {
                    0.88
                };
                (m, None)
            }
            _ => (tp_tiers(p, 0.81), None),
        },
        MfsRule::LargeGpuMinSpec => {
            let m = match g {
                Some(g) if g <= 81920.0 => tp_tiers(p, 0.81),
                None => tp_tiers(p, 0.81),
                Some(_) => 0.88,
            };
            let m = match g {
                Some(g) if g > 180_000.0 => 0.79,
                Some(g) if g > 96.0 * 1024.0 => {
                    large_gpu_min(m, g, if spec { 20480.0 } else { 18432.0 })
                }
                _ if spec => m * 0.95,
                _ => m,
            };
            (m, None)
        }
        MfsRule::ReservedTiers => match g {
            Some(g) => {
                let r = tier_reserved(i, g);
                (py_round((g - r) / g, 3), Some(r))
            }
            None => (0.88, None),
        },
        MfsRule::Formula => {
            let r = formula_reserved(i, d, g);
            match g {
                Some(g) => (py_round((g - r) / g, 3), Some(r)),
                None => (i.version.mfs_without_gpu(), None),
            }
        }
    };
    let (value, printed) = match (i.multimodal, i.version.multimodal_rule()) {
        (None, _) => (base, base),
        (Some(_), MultimodalRule::Times { factor, user_too }) => {
            (base * factor, if user_too { base } else { base * factor })
        }
        (Some(vit), MultimodalRule::Vit) => (base * vit_factor(vit), base * vit_factor(vit)),
    };
    MfsDefault {
        value,
        before_multimodal: base,
        printed,
        reserved_mib: reserved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(version: Version, gpu: u64) -> Inputs {
        Inputs {
            version,
            gpu_mib: Some(gpu),
            tp: 1,
            pp: 1,
            dp: 1,
            dp_attention: false,
            chunked_prefill_size: None,
            cuda_graph_max_bs: None,
            max_running_requests: None,
            max_total_tokens: None,
            context_length: None,
            speculative: None,
            prefill_graph: None,
            mla: false,
            multimodal: None,
            llama2: false,
        }
    }

    fn mfs(i: &Inputs) -> f64 {
        default_mfs(i, &defaults(i)).value
    }

    #[test]
    fn prefill_graph_counts() {
        // 8 (4…32) + 14 (48…256) + 8 (288…512) + 8 (576…1024) + 4 (1280…2048) = 42.
        assert_eq!(prefill_graph_sizes(Version::new(0, 5, 12), 2048), 42);
        // … + 12 (1280…4096) = 50; 8,192 adds 4608…8192 by 512 = 8 more.
        assert_eq!(prefill_graph_sizes(Version::new(0, 5, 20), 4096), 50);
        assert_eq!(prefill_graph_sizes(Version::new(0, 5, 12), 8192), 58);
        // 0.5.8 starts the fourth run at 640: one size fewer.
        assert_eq!(prefill_graph_sizes(Version::new(0, 5, 8), 2048), 41);
    }

    #[test]
    fn rtx_4090_defaults_by_generation() {
        // SGLANG-ACCOUNTING §5 A: RTX 4090, 24,564 MiB, TP 1.
        let g = 24_564;
        assert_eq!(mfs(&inputs(Version::new(0, 4, 0), g)), 0.88);
        // 0.4.8: reserved (2.8 + 0.1) × 1024 = 2,969.6 → (24,564 − 2,969.6) / 24,564 = 0.8791 → 0.879.
        assert_eq!(mfs(&inputs(Version::new(0, 4, 8), g)), 0.879);
        // 0.5.3: 512 + 1.5 × 2048 + 2 × 16 + 128 = 3,744 → 20,820 / 24,564 = 0.8476 → 0.848.
        assert_eq!(mfs(&inputs(Version::new(0, 5, 3), g)), 0.848);
        // 0.5.12: 512 + 3,072 + 2 × 24 + 128 + 42 × 8 = 4,096 → 20,468 / 24,564 = 0.8333 → 0.833.
        // (The card's 0.834 counts cuda_graph_max_bs 16 and 41 sizes; the 0.5.12 wheel has 24 and 42.)
        assert_eq!(mfs(&inputs(Version::new(0, 5, 12), g)), 0.833);
        // 0.5.20: chunk 4096, bs 48, 50 sizes: 512 + 6,144 + 96 + 128 + 400 = 7,280 → 0.7036 → 0.704.
        assert_eq!(mfs(&inputs(Version::new(0, 5, 20), g)), 0.704);
    }

    #[test]
    fn large_gpu_generations() {
        // H200 (143,771 MiB), TP 1. 0.4.6: (143,771 − 13,312) / 143,771 = 0.90741.
        assert!((mfs(&inputs(Version::new(0, 4, 6), 143_771)) - 0.907_408).abs() < 1e-6);
        // 0.4.6.post2: min(0.88 + 49,152 × 0.12 / 143,771, 125,339 / 143,771) = 0.87180.
        let m = mfs(&inputs(Version::post(0, 4, 6, 2), 143_771));
        assert!((m - 0.871_797).abs() < 1e-6);
        // 0.4.7 above 180,000 MiB (B200, 183,359): 0.79.
        assert_eq!(mfs(&inputs(Version::new(0, 4, 7), 183_359)), 0.79);
        // 0.4.7 with speculative decoding below 96 GiB: 0.88 × 0.95.
        let mut i = inputs(Version::new(0, 4, 7), 81_559);
        i.speculative = Some(SpecAlgorithm::Eagle);
        assert_eq!(mfs(&i), 0.88 * 0.95);
    }

    #[test]
    fn multimodal_up_to_048_is_applied_after_printing() {
        let mut i = inputs(Version::new(0, 4, 5), 81_559);
        i.multimodal = Some(Vit::default());
        let d = default_mfs(&i, &defaults(&i));
        assert_eq!(d.printed, 0.88);
        assert_eq!(d.value, 0.88 * 0.90);
        // 0.4.10+: the ViT rule, printed as applied. ViT-L (24 × 1024): 0.95 × 1.0.
        let mut i = inputs(Version::new(0, 5, 2), 81_559);
        i.multimodal = Some(Vit::default());
        let d = default_mfs(&i, &defaults(&i));
        assert_eq!(d.printed, d.value);
        assert_eq!(d.value, 0.874 * 0.95);
    }

    #[test]
    fn vit_factor_for_qwen25_vl() {
        // 24 layers (default: the config says `depth`), hidden 1,280: ratio 1.5625,
        // 1 − 0.1 × 0.5625 = 0.94375, × 0.95 = 0.8965625.
        let f = vit_factor(Vit {
            layers: None,
            hidden: Some(1280),
        });
        assert!((f - 0.8965625).abs() < 1e-15);
    }
}
