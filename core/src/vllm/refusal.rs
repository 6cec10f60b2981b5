//! Why vLLM would not start: the check that stops it and the exception it raises.

/// Why vLLM would not start, by the check that stops it (in the order vLLM runs them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RefusalKind {
    /// `max_model_len` longer than one request's KV fits in (the fit check after profiling).
    MaxModelLen,
    /// `max_model_len` longer than the model allows (`max_position_embeddings`): the model's
    /// config refuses it before anything loads.
    ModelLimit,
    /// A tensor-parallel size that does not split the heads, the vocabulary or the MLP.
    InvalidTp,
    /// `max_num_batched_tokens` below `max_num_seqs`: the scheduler's config refuses it.
    BatchedTokens,
    /// The weights do not fit on the GPU: out of memory while loading, before any KV line.
    WeightsDoNotFit,
    /// Nothing left for the KV cache after the weights and the profile run.
    NoKvMemory,
    /// A bfloat16 model on a GPU without bfloat16 (a T4), before vLLM 0.9.0: the worker refuses
    /// it as it starts, before the weights load.
    NoBfloat16,
    /// `--dtype half` for a model type vLLM will not run in float16 (Gemma 2 and 3, GLM-4), from
    /// vLLM 0.9.1: the model's config refuses it before anything loads.
    NoFloat16,
}

impl RefusalKind {
    /// A stable key (`data-value` on the page, `refusal` in the CLI's JSON).
    pub const fn key(self) -> &'static str {
        match self {
            RefusalKind::MaxModelLen => "max-model-len",
            RefusalKind::ModelLimit => "model-limit",
            RefusalKind::InvalidTp => "invalid-tp",
            RefusalKind::BatchedTokens => "batched-tokens",
            RefusalKind::WeightsDoNotFit => "weights-do-not-fit",
            RefusalKind::NoKvMemory => "no-kv-memory",
            RefusalKind::NoBfloat16 => "no-bfloat16",
            RefusalKind::NoFloat16 => "no-float16",
        }
    }

    /// Whether the refusal's message is the engine's own text. Out of memory while loading, it
    /// is not: PyTorch's message names the one allocation that failed ("Tried to allocate …"),
    /// which kvbudget cannot know, so the message is kvbudget's reckoning of the need, and no
    /// engine line is shown for it.
    pub const fn printed(self) -> bool {
        !matches!(self, RefusalKind::WeightsDoNotFit)
    }
}

/// vLLM's refusal: its kind and the exception it raises (the message is `Report::error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Which check stopped it.
    pub kind: RefusalKind,
    /// `ValueError`, `AssertionError`, `torch.OutOfMemoryError`.
    pub exception: &'static str,
}
