//! A hybrid model's recurrent layers: the state one request keeps on each, as vLLM allocates it.

use super::{ModelDtype, MAX_DIM};
use crate::error::{check_range, KvError, Result};

/// The recurrent mixer of a hybrid model's non-attention layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// Mamba2 (Nemotron-H, Granite-4.0-H, Falcon-H1, Bamba).
    Mamba2,
    /// Gated DeltaNet linear attention (Qwen3-Next, Qwen3.5).
    GatedDeltaNet,
}

impl StateKind {
    /// The mixer's name for people: `Mamba2`, `Gated DeltaNet`.
    pub const fn name(self) -> &'static str {
        match self {
            StateKind::Mamba2 => "Mamba2",
            StateKind::GatedDeltaNet => "Gated DeltaNet",
        }
    }
}

/// Layers that keep a fixed-size state per request instead of a per-token cache: a
/// convolution window and a temporal (SSM) state. Shapes as vLLM allocates them
/// (`MambaStateShapeCalculator`, model_executor/layers/mamba/mamba_utils.py, 0.10–0.33).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateLayers {
    /// Mamba2 or Gated DeltaNet.
    pub kind: StateKind,
    /// How many of the model's layers are of this kind.
    pub layers: u64,
    /// Convolution kernel width (`conv_kernel`, `mamba_d_conv`, `linear_conv_kernel_dim`).
    pub conv_kernel: u64,
    /// Mamba2 heads (`mamba_num_heads`) or GDN value heads (`linear_num_value_heads`).
    pub heads: u64,
    /// Mamba2 head dim (`mamba_head_dim`) or GDN value head dim (`linear_value_head_dim`).
    pub head_dim: u64,
    /// Mamba2 state size (`ssm_state_size`) or GDN key head dim (`linear_key_head_dim`).
    pub state_dim: u64,
    /// Mamba2 groups (`n_groups`) or GDN key heads (`linear_num_key_heads`).
    pub groups: u64,
    /// The convolution state's dtype (None: the model's dtype, vLLM's `mamba_cache_dtype=auto`).
    pub conv_dtype: Option<ModelDtype>,
    /// The temporal state's dtype the config declares (`mamba_ssm_dtype` /
    /// `mamba_ssm_cache_dtype`; None: none). Whether the engine uses it depends on `family` and
    /// the release; as stored here (after [`StateLayers::resolved`]) it is the dtype in force,
    /// None meaning the convolution state's.
    pub ssm_dtype: Option<ModelDtype>,
    /// Which model class's dtype override applies.
    pub family: StateFamily,
    /// The Mamba2 scan's chunk (`chunk_size` / `mamba_chunk_size`; 0: unknown), which vLLM
    /// aligns blocks to when it caches every block's state (`mamba_cache_mode=all`).
    pub chunk_size: u64,
}

/// The model classes whose state dtype vLLM overrides (`MODELS_CONFIG_MAP`,
/// model_executor/models/config.py).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateFamily {
    /// No override: `auto` is the model's dtype (Qwen3-Next, Granite-4.0-H, Falcon-H1, Bamba).
    Generic,
    /// Qwen3.5 / 3.6: the temporal state in the config's `mamba_ssm_dtype` from vLLM 0.17.
    Qwen35,
    /// Nemotron-H: the config's `mamba_ssm_cache_dtype`, else float16 (0.13–0.19) or float32
    /// (0.20+); the model's dtype before 0.13.
    NemotronH,
    /// Falcon-H1: no dtype override; its attention and Mamba2 mixers sit side by side in every
    /// layer, attention registered first (which 0.14–0.18's fit check sees as group 0).
    FalconH1,
}

impl StateLayers {
    /// Channels of the convolution state on one tensor-parallel rank. Mamba2:
    /// `(heads × head_dim + 2 × groups' × state_dim) / tp`, groups padded up to `tp` when they do
    /// not divide it (`extra_groups_for_head_shards`); GDN: `(2 × key_heads × key_dim + value_heads
    /// × value_dim) / tp`.
    pub fn conv_channels(&self, tp: u64) -> u64 {
        let tp = tp.max(1);
        let groups = match self.kind {
            StateKind::Mamba2 if self.groups % tp != 0 => self.groups.max(tp),
            _ => self.groups,
        };
        (self.heads * self.head_dim + 2 * groups * self.state_dim) / tp
    }

    /// Bytes of the convolution state of one layer for one request:
    /// `(conv_kernel − 1 + spec) × channels × dtype`.
    pub fn conv_bytes(&self, model: ModelDtype, tp: u64, spec: u64) -> u64 {
        let dt = self.conv_dtype.unwrap_or(model).bytes();
        (self.conv_kernel.saturating_sub(1) + spec)
            .saturating_mul(self.conv_channels(tp))
            .saturating_mul(dt)
    }

    /// Bytes of the temporal state of one layer for one request: `heads / tp × head_dim ×
    /// state_dim × dtype`.
    pub fn ssm_bytes(&self, model: ModelDtype, tp: u64) -> u64 {
        let dt = self.ssm_dtype.or(self.conv_dtype).unwrap_or(model).bytes();
        (self.heads / tp.max(1))
            .saturating_mul(self.head_dim)
            .saturating_mul(self.state_dim)
            .saturating_mul(dt)
    }

    /// vLLM's Mamba page: the state of one layer for one request, before padding.
    pub fn page_bytes(&self, model: ModelDtype, tp: u64, spec: u64) -> u64 {
        self.conv_bytes(model, tp, spec)
            .saturating_add(self.ssm_bytes(model, tp))
    }

    /// The state as vLLM `version` (major, minor) allocates it: the temporal dtype after the model
    /// class's override (VLLM-HYBRID §a; `MambaStateDtypeCalculator`, mamba_utils.py; GDN keeps
    /// both states in `mamba_cache_dtype` up to 0.16).
    pub fn resolved(&self, version: (u32, u32)) -> StateLayers {
        let ssm = match self.family {
            StateFamily::Generic | StateFamily::FalconH1 => None,
            // (vLLM runs Qwen3.5 from 0.17, in the config's dtype: `vllm::version::QWEN35_MODELS`.)
            StateFamily::Qwen35 => self.ssm_dtype,
            StateFamily::NemotronH if version < (0, 13) => None,
            StateFamily::NemotronH if version < (0, 20) => {
                Some(self.ssm_dtype.unwrap_or(ModelDtype::F16))
            }
            StateFamily::NemotronH => Some(self.ssm_dtype.unwrap_or(ModelDtype::F32)),
        };
        StateLayers {
            ssm_dtype: ssm,
            ..*self
        }
    }

    pub(super) fn validate(&self, layers: u64) -> Result<()> {
        if self.layers > layers {
            return Err(KvError::Invalid {
                field: "state layers",
                message: crate::tf!(ERR_AT_MOST_LAYERS, layers, self.layers),
            });
        }
        for (field, v) in [
            ("conv kernel", self.conv_kernel),
            ("state heads", self.heads),
            ("state head_dim", self.head_dim),
            ("state size", self.state_dim),
            ("state groups", self.groups),
        ] {
            check_range(field, v, 1, MAX_DIM, "a whole number from 1 to 1,048,576")?;
        }
        Ok(())
    }
}
