//! The model types vLLM will not run in float16.

/// The model types vLLM will not run in float16 ("Numerical instability"): `--dtype half`
/// refuses them, and `--dtype auto` on a GPU without bfloat16 runs them in float32
/// (`_FLOAT16_NOT_SUPPORTED_MODELS`, `_resolve_auto_dtype`, vllm/config.py 0.9.1–0.10.1.1,
/// vllm/config/__init__.py 0.10.2 and vllm/config/model.py 0.11–0.33: gemma2, gemma3 and glm4
/// from 0.9.1, gemma3_text from 0.10.2; plamo2 was listed too and is not modelled).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoFloat16 {
    /// Runs in float16 where asked or needed.
    #[default]
    None,
    /// `gemma2` (Gemma 2).
    Gemma2,
    /// `gemma3` (Gemma 3 with its vision tower).
    Gemma3,
    /// `gemma3_text` (Gemma 3's text-only checkpoints, e.g. gemma-3-1b-it).
    Gemma3Text,
    /// `glm4` (GLM-4-0414).
    Glm4,
}

impl NoFloat16 {
    /// Every listed type.
    pub const ALL: [NoFloat16; 4] = [
        NoFloat16::Gemma2,
        NoFloat16::Gemma3,
        NoFloat16::Gemma3Text,
        NoFloat16::Glm4,
    ];
    /// The config's `model_type` (empty for [`NoFloat16::None`]).
    pub const fn model_type(self) -> &'static str {
        ["", "gemma2", "gemma3", "gemma3_text", "glm4"][self as usize]
    }
    /// The type a config's `model_type` names ([`NoFloat16::None`] for any other).
    pub fn of(model_type: &str) -> NoFloat16 {
        Self::ALL
            .into_iter()
            .find(|t| t.model_type() == model_type)
            .unwrap_or_default()
    }
}
