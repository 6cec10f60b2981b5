//! A twin of the course lab's `predict.py`, with Python's float semantics, so that
//! `kvbudget predict` prints the very values the seed's script prints.

use crate::error::{KvError, Result};
use crate::units::{py_floordiv, py_round, GIB};

/// The seed's `predict()` result, field for field.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedPrediction {
    /// `2 * layers * kv_heads * head_dim * dtype_bytes` (a Python float, since dtype_bytes is one).
    pub kv_bytes_per_token: f64,
    /// `round(btok / 1024, 1)`.
    pub kv_kib_per_token: f64,
    /// The context.
    pub ctx: i64,
    /// `round(ctx * btok / 1024**3, 3)`.
    pub kv_gib_per_seq: f64,
    /// `int(pool // per_seq)` with `pool = kv_pool_gib * 1024**3`.
    pub predicted_max_seqs: i64,
    /// `int(pool // btok)`.
    pub predicted_total_tokens: i64,
}

fn to_int(field: &'static str, x: f64) -> Result<i64> {
    if x.is_finite() && x.abs() < 9.2e18 {
        Ok(x as i64)
    } else {
        Err(KvError::Invalid {
            field,
            message: format!("is not a finite number ({x}); check the inputs"),
        })
    }
}

/// `predict(layers, kv_heads, head_dim, dtype_bytes, kv_pool_gib, ctx)` from the seed lab.
pub fn predict(
    layers: i64,
    kv_heads: i64,
    head_dim: i64,
    dtype_bytes: f64,
    kv_pool_gib: f64,
    ctx: i64,
) -> Result<SeedPrediction> {
    // Python multiplies the ints exactly, then converts to float for `* dtype_bytes`.
    let ints = 2i128
        .checked_mul(layers as i128)
        .and_then(|x| x.checked_mul(kv_heads as i128))
        .and_then(|x| x.checked_mul(head_dim as i128))
        .ok_or(KvError::Overflow("kv_bytes_per_token"))?;
    let btok = ints as f64 * dtype_bytes;
    let pool = kv_pool_gib * GIB as f64;
    let per_seq = ctx as f64 * btok;
    if btok == 0.0 || per_seq == 0.0 {
        return Err(KvError::Invalid {
            field: "geometry",
            message: "bytes per sequence is zero (float division by zero in the seed's script): \
                      layers, kv-heads, head-dim, dtype-bytes and ctx must all be non-zero"
                .into(),
        });
    }
    if !btok.is_finite() || !pool.is_finite() || !per_seq.is_finite() {
        return Err(KvError::Invalid {
            field: "inputs",
            message: "must be finite numbers".into(),
        });
    }
    Ok(SeedPrediction {
        kv_bytes_per_token: btok,
        kv_kib_per_token: py_round(btok / 1024.0, 1),
        ctx,
        kv_gib_per_seq: py_round(per_seq / GIB as f64, 3),
        predicted_max_seqs: to_int("predicted_max_seqs", py_floordiv(pool, per_seq))?,
        predicted_total_tokens: to_int("predicted_total_tokens", py_floordiv(pool, btok))?,
    })
}
