//! How vLLM prints its figures: GiB with `%.2f` or `round`, and the token count per family.

use super::version::GIB_ROUNDED;
use super::version::{Family, Version};
use crate::units::{fixed2, py_float_repr, py_round, GIB};

/// The text vLLM prints for a byte count in GiB: `%.2f` up to 0.29, `round(x, 2)` from 0.30.
pub fn gib_text(bytes: i128, v: Version) -> String {
    let g = bytes as f64 / GIB as f64;
    if v >= GIB_ROUNDED {
        py_float_repr(py_round(g, 2))
    } else {
        fixed2(g)
    }
}

/// The token count and concurrency a V1 family prints for `num_blocks`:
/// 0.8–0.9 `blocks × block_size` and `tokens / max_model_len`;
/// 0.10–0.20.0 `(blocks // groups) × block_size` and `blocks / blocks_per_request`;
/// 0.20.1+ `int(concurrency × max_model_len)`, a truncated float product that can be one lower.
pub fn printed_tokens(
    fam: Family,
    num_blocks: u64,
    blocks_per_request: u64,
    num_groups: u64,
    block_size: u64,
    max_model_len: u64,
) -> (u64, f64) {
    match fam {
        Family::V0 | Family::V1Early => {
            let t = num_blocks.saturating_mul(block_size);
            (t, t as f64 / max_model_len.max(1) as f64)
        }
        Family::V1Mid => {
            let c = num_blocks as f64 / blocks_per_request.max(1) as f64;
            (
                (num_blocks / num_groups.max(1)).saturating_mul(block_size),
                c,
            )
        }
        Family::V1Late | Family::V1OneLine => {
            let c = num_blocks as f64 / blocks_per_request.max(1) as f64;
            // Python's int(float): truncation of the float product.
            ((c * max_model_len as f64) as u64, c)
        }
    }
}
