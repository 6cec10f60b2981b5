//! Named models and GPUs.
//!
//! Model facts are from each model's published `config.json` on Hugging Face; weights are the
//! figure vLLM logs as "Model loading took … GiB" where one is known, else the checkpoint's
//! safetensors bytes. GPU totals are what `cudaMemGetInfo().total` reports (what vLLM logs,
//! 1.5–2 % below nvidia-smi's MiB); bandwidths are the vendors' data sheets.
//! All figures as collected in the project's shared `VLLM-ACCOUNTING.md` §6 and §7.

use crate::model::ModelSpec;
use crate::units::{Bytes, GB, GIB};

/// ⌊g × 2³⁰⌋, for a GiB figure with two decimals as vLLM prints it.
const fn gib_hundredths(hundredths: u64) -> Bytes {
    Bytes(hundredths * GIB / 100)
}

/// A model preset: the model as the arithmetic sees it (where its weights figure comes from is
/// cited beside each preset in `models.rs`).
#[derive(Clone, Debug)]
pub struct ModelPreset {
    /// The model (its `id` is the Hugging Face id, matched case-insensitively).
    pub spec: ModelSpec,
}

impl ModelPreset {
    /// The Hugging Face id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }
    /// A copy of the model, to edit or to hand to a computation that owns it.
    pub fn spec(&self) -> ModelSpec {
        self.spec.clone()
    }
}

mod gemma4;
mod models;
pub use models::MODELS;

/// The model preset with this Hugging Face id, ignoring case.
pub fn model(id: &str) -> Option<&'static ModelPreset> {
    let id = id.trim();
    MODELS.iter().find(|m| m.id().eq_ignore_ascii_case(id))
}

/// The GPU family, where it changes what vLLM does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// Anything without a special case.
    Other,
    /// NVIDIA A100: vLLM keeps the small-GPU defaults on it despite ≥ 70 GiB.
    A100,
    /// NVIDIA Hopper (H100/H200): FlashMLA forces a 64-token block for MLA models.
    Hopper,
    /// NVIDIA T4 (Turing, compute capability 7.5): no bfloat16, so vLLM before 0.9.0 refuses a
    /// bfloat16 model unless it is run in float16 (`--dtype half`).
    T4,
}

/// A GPU preset.
#[derive(Clone, Copy, Debug)]
pub struct GpuPreset {
    /// URL-safe slug, e.g. `rtx-4090`.
    pub slug: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Marketed memory in decimal GB.
    pub marketed_gb: u64,
    /// Total memory as vLLM sees it (`cudaMemGetInfo().total`).
    pub total: Bytes,
    /// Memory bandwidth in GB/s (vendor data).
    pub bandwidth_gbs: u64,
    /// Peak dense BF16 (or FP16) tensor throughput in TFLOPS, FP32 accumulate (vendor data).
    pub bf16_tflops: f64,
    /// Peak dense FP8 tensor throughput in TFLOPS (0: no FP8 tensor cores).
    pub fp8_tflops: f64,
    /// Family.
    pub arch: Arch,
}

impl GpuPreset {
    /// Marketed memory in bytes.
    pub const fn marketed(&self) -> Bytes {
        Bytes(self.marketed_gb * GB)
    }
}

/// The GPUs of VLLM-ACCOUNTING §7 (totals: vLLM logs; bandwidths: vendor data sheets).
pub const GPUS: [GpuPreset; 14] = [
    // nvidia-smi 16303 MiB; vLLM ≈ 15.5 GiB. 960 GB/s GDDR7.
    GpuPreset {
        slug: "rtx-5080",
        name: "RTX 5080",
        marketed_gb: 16,
        total: gib_hundredths(1550),
        bandwidth_gbs: 960,
        // TFLOPS: derived: 1,801 AI TOPS (FP4, sparse) scaled by the RTX 5090's ratios; 84 SMs × 512 FLOP/clk × 2.617 GHz = 112.6.
        bf16_tflops: 112.6,
        fp8_tflops: 225.1,
        arch: Arch::Other,
    },
    // vLLM log 31.37 GiB; 1792 GB/s.
    GpuPreset {
        slug: "rtx-5090",
        name: "RTX 5090",
        marketed_gb: 32,
        total: gib_hundredths(3137),
        bandwidth_gbs: 1792,
        // TFLOPS: NVIDIA RTX Blackwell architecture whitepaper, Table 3 (FP32 accumulate, dense).
        bf16_tflops: 209.5,
        fp8_tflops: 419.0,
        arch: Arch::Other,
    },
    // vLLM logs 23.53–23.65 GiB, typically 23.55; 1008 GB/s.
    GpuPreset {
        slug: "rtx-4090",
        name: "RTX 4090",
        marketed_gb: 24,
        total: gib_hundredths(2355),
        bandwidth_gbs: 1008,
        // TFLOPS: NVIDIA Ada architecture whitepaper v2.02, Appendix A Table 2 (FP32 accumulate, dense).
        bf16_tflops: 165.2,
        fp8_tflops: 330.3,
        arch: Arch::Other,
    },
    // vLLM log 23.58 GiB; 936 GB/s.
    GpuPreset {
        slug: "rtx-3090",
        name: "RTX 3090",
        marketed_gb: 24,
        total: gib_hundredths(2358),
        bandwidth_gbs: 936,
        // TFLOPS: NVIDIA Ampere GA102 whitepaper, Appendix A Table 9 (FP32 accumulate, dense); no FP8.
        bf16_tflops: 71.0,
        fp8_tflops: 0.0,
        arch: Arch::Other,
    },
    // ≈ 22.06 GiB; 300 GB/s.
    GpuPreset {
        slug: "l4",
        name: "L4",
        marketed_gb: 24,
        total: gib_hundredths(2206),
        bandwidth_gbs: 300,
        // TFLOPS: NVIDIA L4 datasheet, sparse figures halved.
        bf16_tflops: 121.0,
        fp8_tflops: 242.5,
        arch: Arch::Other,
    },
    // ≈ 14.58 GiB; 320 GB/s.
    GpuPreset {
        slug: "t4",
        name: "T4",
        marketed_gb: 16,
        total: gib_hundredths(1458),
        bandwidth_gbs: 320,
        // TFLOPS: NVIDIA T4 datasheet, FP16 with FP32 accumulate (no BF16, no FP8).
        bf16_tflops: 65.0,
        fp8_tflops: 0.0,
        arch: Arch::T4,
    },
    // ≈ 22.0 GiB; 600 GB/s.
    GpuPreset {
        slug: "a10g",
        name: "A10G",
        marketed_gb: 24,
        total: gib_hundredths(2200),
        bandwidth_gbs: 600,
        // TFLOPS: NVIDIA A10 datasheet (no A10G datasheet exists; the A10G is likely slower).
        bf16_tflops: 125.0,
        fp8_tflops: 0.0,
        arch: Arch::Other,
    },
    // ≈ 39.4 GiB; 1555 GB/s.
    GpuPreset {
        slug: "a100-40gb",
        name: "A100 40GB",
        marketed_gb: 40,
        total: gib_hundredths(3940),
        bandwidth_gbs: 1555,
        // TFLOPS: NVIDIA A100 datasheet (dense); no FP8.
        bf16_tflops: 312.0,
        fp8_tflops: 0.0,
        arch: Arch::A100,
    },
    // vLLM log 79.15 GiB; 2039 GB/s (SXM; PCIe 1935).
    GpuPreset {
        slug: "a100-80gb",
        name: "A100 80GB",
        marketed_gb: 80,
        total: gib_hundredths(7915),
        bandwidth_gbs: 2039,
        // TFLOPS: NVIDIA A100 datasheet (dense); no FP8.
        bf16_tflops: 312.0,
        fp8_tflops: 0.0,
        arch: Arch::A100,
    },
    // vLLM log 79.22 GiB (79.19 in some); 3350 GB/s.
    GpuPreset {
        slug: "h100-sxm",
        name: "H100 SXM",
        marketed_gb: 80,
        total: gib_hundredths(7922),
        bandwidth_gbs: 3350,
        // TFLOPS: NVIDIA H100 datasheet, sparse figures halved.
        bf16_tflops: 989.5,
        fp8_tflops: 1979.0,
        arch: Arch::Hopper,
    },
    // ≈ 79.2 GiB; 2000 GB/s.
    GpuPreset {
        slug: "h100-pcie",
        name: "H100 PCIe",
        marketed_gb: 80,
        total: gib_hundredths(7920),
        bandwidth_gbs: 2000,
        // TFLOPS: NVIDIA H100 datasheet, sparse figures halved.
        bf16_tflops: 756.5,
        fp8_tflops: 1513.0,
        arch: Arch::Hopper,
    },
    // vLLM log 139.81 GiB; 4800 GB/s.
    GpuPreset {
        slug: "h200",
        name: "H200",
        marketed_gb: 141,
        total: gib_hundredths(13981),
        bandwidth_gbs: 4800,
        // TFLOPS: NVIDIA H200 datasheet, sparse figures halved.
        bf16_tflops: 989.5,
        fp8_tflops: 1979.0,
        arch: Arch::Hopper,
    },
    // vLLM log 44.39 GiB; 864 GB/s.
    GpuPreset {
        slug: "l40s",
        name: "L40S",
        marketed_gb: 48,
        total: gib_hundredths(4439),
        bandwidth_gbs: 864,
        // TFLOPS: NVIDIA L40S datasheet (dense).
        bf16_tflops: 362.05,
        fp8_tflops: 733.0,
        arch: Arch::Other,
    },
    // ≈ 191.5 GiB; 5300 GB/s.
    GpuPreset {
        slug: "mi300x",
        name: "MI300X",
        marketed_gb: 192,
        total: gib_hundredths(19150),
        bandwidth_gbs: 5300,
        // TFLOPS: AMD ROCm docs, MI300X peak matrix BF16 and FP8 (dense).
        bf16_tflops: 1307.4,
        fp8_tflops: 2614.9,
        arch: Arch::Other,
    },
];

/// The GPU presets, smallest memory (as vLLM sees it) first.
pub fn gpus_smallest_first() -> Vec<&'static GpuPreset> {
    // Inserted in order, so presets of the same size keep the table's order. (Not `sort_by_key`:
    // this is the page's only sort, and the standard one costs its first load 2.1 KB gzip.)
    let mut gpus: Vec<&'static GpuPreset> = Vec::with_capacity(GPUS.len());
    for g in &GPUS {
        let at = gpus
            .iter()
            .position(|h| h.total > g.total)
            .unwrap_or(gpus.len());
        gpus.insert(at, g);
    }
    gpus
}

/// The GPU preset with this slug, ignoring case.
pub fn gpu(slug: &str) -> Option<&'static GpuPreset> {
    let slug = slug.trim();
    GPUS.iter().find(|g| g.slug.eq_ignore_ascii_case(slug))
}

/// The three models every screen shows (the seeds' repertoire).
pub const REPERTOIRE: [&str; 3] = [
    "Qwen/Qwen3-8B",
    "Qwen/Qwen3-14B-AWQ",
    "Qwen/Qwen2.5-7B-Instruct",
];

impl PartialEq for ModelPreset {
    /// Presets are the same when their ids are.
    fn eq(&self, other: &Self) -> bool {
        self.spec.id == other.spec.id
    }
}

impl PartialEq for GpuPreset {
    /// Presets are the same when their slugs are.
    fn eq(&self, other: &Self) -> bool {
        self.slug == other.slug
    }
}
