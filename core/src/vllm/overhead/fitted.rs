//! The constants of the overhead estimate that vLLM's source leaves open, and where they come from.
//!
//! [`Fitted::PRIOR`] holds values taken from VLLM-ACCOUNTING §5 and from counting tensors in the
//! source, before looking at any log; a cross-validation fold starts from it, and a constant
//! whose training logs say nothing about it stays there. [`Fitted::default`] is the result of
//! `bench/calibration.rs`'s fit on every usable shared log (the 0.19 H100 set,
//! `vllm-more.jsonl`, `vllm-modern.jsonl`; 92 are usable); each field says which logs drive it.

/// The open constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// Sampler bytes per (row × vocab entry) where top-k/top-p run without sorting: the Triton
    /// kernel from 0.17 (`apply_top_k_top_p_triton` for ≥ 8 rows, v1/sample/ops/
    /// topk_topp_sampler.py of the 0.17.0 wheel; not in 0.16.0's) and FlashInfer's sampler, V1's
    /// default when installed up to 0.11.0 (same file, 0.10.1.1 and 0.11.0; opt-in from 0.11.1). From the source, not fitted: the model-dtype logits (2 B),
    /// their float32 copy (4 B), the probabilities (4 B) and `random_sample`'s exponential
    /// noise `q` (4 B) = 14 B.
    pub sampler_light: f64,
    /// Sampler bytes per (row × vocab entry) where top-k/top-p sort the logits (values and int64
    /// indices, plus probabilities and log-probabilities): V0's `Sampler`
    /// (model_executor/layers/sampler.py 0.8.5) and V1 0.12–0.16 (0.11.1 on), where FlashInfer is
    /// opt-in ("Users must opt in explicitly via VLLM_USE_FLASHINFER_SAMPLER=1",
    /// topk_topp_sampler.py 0.11.1–0.16.0) and the PyTorch sort the default (`apply_top_k_top_p`).
    /// Fitted on the V0 logs that print `PyTorch activation peak` (T4, A100 40GB, RTX 4090,
    /// GTX 1080, H200).
    pub sampler_sort: f64,
    /// Forward-pass bytes per batch token at 2-byte activations (hidden-size buffers, residual,
    /// attention output). Fitted on the H100 0.19 logs, whose batch is 8,192.
    pub base_per_token: f64,
    /// GiB of a multimodal encoder's profile. Fitted on the multimodal 0.19 logs.
    pub encoder_gib: f64,
    /// Non-torch growth at TP 1 in V1 from 0.10, GiB (cuBLAS and compile workspaces, the
    /// graph pool's first allocations). Fitted on the single-GPU V1 logs (H100 0.19 prints
    /// 0.25 GiB, 0.11 0.13–0.14 GiB).
    pub non_torch_tp1_gib: f64,
    /// Non-torch growth at TP 1 in V0 0.6.5–0.9, GiB. Fitted on the V0 logs that print it
    /// (0.03–0.09 GiB on T4, A100 40GB, RTX 4090).
    pub non_torch_v0_gib: f64,
    /// Non-torch memory where vLLM subtracts all of it (V0 ≤ 0.6.4, V1 0.8–0.9.0): the CUDA
    /// context and whatever else holds memory on the card, GiB. Fitted on the GTX 1080 and
    /// H200 0.6.4 logs.
    pub non_torch_absolute_gib: f64,
    /// Non-torch per GPU at TP ≥ 2 on NVSwitch Hopper/Blackwell GPUs from 0.10 (NCCL's NVLS
    /// and all-reduce buffers), GiB at TP 2. Fitted on the multi-GPU H100 0.19 logs.
    pub non_torch_nvswitch_gib: f64,
    /// Non-torch per GPU at TP ≥ 2 elsewhere (PCIe, A100, consumer cards), GiB. Fitted on
    /// the A100 and L40S multi-GPU logs.
    pub non_torch_pcie_gib: f64,
    /// CUDA graphs: GiB fixed. Fitted on the 0.19 logs' printed `Estimated CUDA graph memory`.
    pub graphs_gib: f64,
    /// CUDA graphs: MiB per layer on the GPU. Fitted with `graphs_gib`.
    pub graphs_mib_per_layer: f64,
    /// How many times the parts' uncertainty the spread is: the smallest factor that puts 97 %
    /// of the fitting logs inside their range (at least 1).
    pub spread_factor: f64,
}

impl Fitted {
    /// Before any log: VLLM-ACCOUNTING §5 and tensor counts.
    /// - samplers: 14 B without sorting (see the field), 5 float32 copies and int64 sort
    ///   indices (28 B) with;
    /// - base: 16 KiB per token (four hidden-size bf16 buffers of a 2,048-wide model);
    /// - encoder 0.5 GiB; non-torch 0.25 GiB at TP 1, 0.5 GiB absolute, 2.1 GiB at TP ≥ 2 (§5)
    ///   and 0.25 GiB without NVSwitch; graphs 0.4 GiB + 10 MiB per layer (§5: 0.4–1.0 GiB for
    ///   7–14B models); spread factor 1.
    pub const PRIOR: Fitted = Fitted {
        sampler_light: 14.0,
        sampler_sort: 28.0,
        base_per_token: 16_384.0,
        encoder_gib: 0.5,
        non_torch_tp1_gib: 0.25,
        non_torch_v0_gib: 0.25,
        non_torch_absolute_gib: 0.5,
        non_torch_nvswitch_gib: 2.1,
        non_torch_pcie_gib: 0.25,
        graphs_gib: 0.4,
        graphs_mib_per_layer: 10.0,
        spread_factor: 1.0,
    };

    /// The constants as a vector (for the fit's coordinate search).
    pub fn to_vec(&self) -> [f64; 12] {
        [
            self.sampler_light,
            self.sampler_sort,
            self.base_per_token,
            self.encoder_gib,
            self.non_torch_tp1_gib,
            self.non_torch_v0_gib,
            self.non_torch_absolute_gib,
            self.non_torch_nvswitch_gib,
            self.non_torch_pcie_gib,
            self.graphs_gib,
            self.graphs_mib_per_layer,
            self.spread_factor,
        ]
    }

    /// The constants from a vector (the order of [`Fitted::to_vec`]).
    pub fn from_vec(v: [f64; 12]) -> Fitted {
        Fitted {
            sampler_light: v[0],
            sampler_sort: v[1],
            base_per_token: v[2],
            encoder_gib: v[3],
            non_torch_tp1_gib: v[4],
            non_torch_v0_gib: v[5],
            non_torch_absolute_gib: v[6],
            non_torch_nvswitch_gib: v[7],
            non_torch_pcie_gib: v[8],
            graphs_gib: v[9],
            graphs_mib_per_layer: v[10],
            spread_factor: v[11],
        }
    }
}

impl Default for Fitted {
    /// Fitted on all 92 usable shared logs (`cargo run --release --example calibration`
    /// prints this fit; the light sampler stays the source's 14 B).
    fn default() -> Self {
        Fitted {
            sampler_light: 14.0,
            sampler_sort: 34.73,
            base_per_token: 35_661.0,
            encoder_gib: 0.0383,
            non_torch_tp1_gib: 0.1445,
            non_torch_v0_gib: 0.0639,
            non_torch_absolute_gib: 0.4426,
            non_torch_nvswitch_gib: 2.098,
            non_torch_pcie_gib: 0.8884,
            graphs_gib: 0.3095,
            graphs_mib_per_layer: 17.21,
            spread_factor: 1.0,
        }
    }
}
