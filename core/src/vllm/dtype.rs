//! The dtype the model runs in, where the GPU and the model's type decide whether vLLM starts.

use super::version::V1_DEFAULT;
use super::version::{
    Version, BF16_FALLBACK, FLOAT16_UNSTABLE, FLOAT16_UNSTABLE_TEXT, GEMMA2_FLOAT16,
};
use crate::model::{ModelDtype, ModelSpec, NoFloat16};
use crate::presets::Arch;
use crate::units::Bytes;

/// vLLM's refusal of a `dtype` model with `--dtype half` or not (`half`) on a GPU of `arch`: a
/// bfloat16 model on a T4, the only preset without bfloat16: the worker's
/// `_check_if_gpu_supports_dtype` (vllm/worker/worker.py and vllm/v1/worker/gpu_worker.py,
/// 0.6.0–0.9.0) raises before the weights load. From 0.9.0 `--dtype auto` falls back to float16
/// before the worker starts ([`BF16_FALLBACK`]); `--dtype half` runs it in float16 in every
/// release. Before 0.8.0 the message has no space before "`dtype`".
pub(super) fn bfloat16_refusal(
    arch: Arch,
    dtype: ModelDtype,
    half: bool,
    version: Version,
) -> Option<String> {
    let refused = arch == Arch::T4 && dtype == ModelDtype::Bf16 && !half && version < BF16_FALLBACK;
    let space = if version >= V1_DEFAULT { " " } else { "" };
    refused.then(|| {
        format!(
            "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your \
             Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly \
             setting the{space}`dtype` flag in CLI, for example: --dtype=half."
        )
    })
}

/// Whether `version` will not run a model of type `t` in float16 (`_FLOAT16_NOT_SUPPORTED_MODELS`:
/// gemma2, gemma3 and glm4 from 0.9.1, gemma3_text from 0.10.2; read in the 0.9.1, 0.10.0,
/// 0.10.1.1, 0.10.2, 0.11.0 and 0.33.0 wheels).
fn refuses_float16(t: NoFloat16, version: Version) -> bool {
    match t {
        NoFloat16::None => false,
        NoFloat16::Gemma3Text => version >= FLOAT16_UNSTABLE_TEXT,
        _ => version >= FLOAT16_UNSTABLE,
    }
}

/// vLLM's refusal of `--dtype half` for a model type it will not run in float16:
/// `_check_valid_dtype` (vllm/config.py 0.9.1; vllm/config/__init__.py 0.10.2;
/// vllm/config/model.py 0.11.0, 0.33.0) raises as the model's config is made, before anything
/// loads, on any GPU.
#[inline(never)]
pub(super) fn float16_refusal(t: NoFloat16, half: bool, version: Version) -> Option<String> {
    (half && refuses_float16(t, version)).then(|| {
        format!(
            "The model type '{}' does not support float16. Reason: Numerical instability. Please \
             use bfloat16 or float32 instead.",
            t.model_type()
        )
    })
}

/// The 16 bits `--dtype auto` takes from the checkpoint before any GPU rule: `model.dtype`, but a
/// float32 checkpoint ([`Extras::f32_checkpoint`](crate::model::Extras)) before 0.9.1 runs in
/// float16 ("Following common practice, we use float16 for float32 models",
/// `_get_and_verify_dtype`, vllm/config.py 0.8.0–0.9.0), a Gemma 2 one in bfloat16 before 0.8.0
/// ([`GEMMA2_FLOAT16`]). So a T4 starts google/gemma-2-9b-it (float32) in float16 from 0.8.0 to
/// 0.9.0, and refuses it before (bfloat16) and from 0.9.1 runs it in float32 ([`runs_float32`]).
pub(super) fn auto_dtype(model: &ModelSpec, version: Version) -> ModelDtype {
    let gemma2_bf16 = model.extras.no_float16 == NoFloat16::Gemma2 && version < GEMMA2_FLOAT16;
    let flagged = model.extras.f32_checkpoint && model.dtype == ModelDtype::Bf16;
    if flagged && version < FLOAT16_UNSTABLE && !gemma2_bf16 {
        ModelDtype::F16
    } else {
        model.dtype
    }
}

/// The dtype vLLM runs `model` in, as its engine line names it: float32 where [`runs_float32`];
/// else from [`auto_dtype`]:
/// a float16 checkpoint of a type it will not run in float16 in bfloat16 (`_resolve_auto_dtype`
/// falls back to the platform's preferred dtype); a bfloat16 one in float16 with `--dtype half`
/// or, on a T4, from 0.9.0 ([`BF16_FALLBACK`]); else the checkpoint's.
pub fn runs_in(model: &ModelSpec, arch: Arch, half: bool, version: Version) -> ModelDtype {
    if runs_float32(model, arch, half, version) {
        return ModelDtype::F32;
    }
    let fallback = arch == Arch::T4 && version >= BF16_FALLBACK;
    match auto_dtype(model, version) {
        ModelDtype::F16 if refuses_float16(model.extras.no_float16, version) => ModelDtype::Bf16,
        ModelDtype::Bf16 if half || fallback => ModelDtype::F16,
        d => d,
    }
}

/// Whether vLLM runs `model` in float32 rather than its checkpoint's 16 bits: with `--dtype auto`
/// on a GPU without bfloat16 (a T4), a model type vLLM will not run in float16 runs in float32
/// (`_resolve_auto_dtype`, vllm/config.py 0.9.1: float16 is taken out of the platform's
/// `[float16, float32]`, and the fallback is the first left: "Your device 'Tesla T4' (with compute
/// capability 7.5) doesn't support torch.bfloat16. Falling back to torch.float32 for
/// compatibility."). Every weight is
/// then 4 B (the loader casts the checkpoint's 16 bits up), and so are the `auto` KV cache and the
/// activations ([`to_float32`]). Quantized checkpoints are not told apart: vLLM refuses float32
/// activations for AWQ and GPTQ (not modelled).
pub fn runs_float32(model: &ModelSpec, arch: Arch, half: bool, version: Version) -> bool {
    arch == Arch::T4
        && !half
        && model.dtype.bytes() == 2
        && refuses_float16(model.extras.no_float16, version)
}

/// `model` in float32: its dtype, and its weights (with the parts counted apart) at twice the bytes.
#[inline(never)]
pub fn to_float32(model: &mut ModelSpec) {
    let twice = |b: &mut Bytes| b.0 = b.0.saturating_mul(2);
    model.dtype = ModelDtype::F32;
    twice(&mut model.weights);
    twice(&mut model.extras.routed);
    twice(&mut model.extras.encoder);
}
