//! The dtype the model runs in, where the GPU decides whether vLLM starts.

use super::version::{Version, BF16_FALLBACK};
use crate::model::ModelDtype;
use crate::presets::Arch;

/// vLLM's refusal of a `dtype` model with `--dtype half` or not (`half`) on a GPU of `arch`: a
/// bfloat16 model on a T4, the only preset without bfloat16: the worker's
/// `_check_if_gpu_supports_dtype` (vllm/worker/worker.py and vllm/v1/worker/gpu_worker.py,
/// 0.6.0–0.9.0) raises before the weights load. From 0.9.1 `--dtype auto` falls back to float16
/// instead (`_resolve_auto_dtype`, vllm/config.py 0.9.1; vllm-project/vllm#17265); `--dtype half`
/// runs it in float16 in every release. Before 0.8.0 the message has no space before "`dtype`".
pub(super) fn bfloat16_refusal(
    arch: Arch,
    dtype: ModelDtype,
    half: bool,
    version: Version,
) -> Option<String> {
    let refused = arch == Arch::T4 && dtype == ModelDtype::Bf16 && !half && version < BF16_FALLBACK;
    let space = if version >= Version::new(0, 8) {
        " "
    } else {
        ""
    };
    refused.then(|| {
        format!(
            "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your \
             Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly \
             setting the{space}`dtype` flag in CLI, for example: --dtype=half."
        )
    })
}
