//! SGLang's KV pool: the memory it measures, the rest `after − pre × (1 − mfs)`, the bytes one
//! token costs (its "cell"), the token count with its page rounding and cap, the split of hybrid
//! sliding-window and Mamba models, the buffers it allocates and `max_running_requests`.
//!
//! SGLang does this arithmetic in Python floats on GiB figures (`get_available_gpu_memory` is
//! `free / (1 << 30)`); the functions here follow it operation by operation. Byte counts of the
//! buffers are exact integers.

use super::version::{RequestsRule, SwaRule, Version};
use crate::units::{py_floordiv, GIB};

/// What one token stores per layer on one GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// K and V per KV head: `kv_heads_per_rank × (head_dim + v_head_dim)`.
    Mha {
        /// `max(1, kv_heads // attn_tp)`.
        kv_heads: u64,
        /// K head size.
        head_dim: u64,
        /// V head size (equal to `head_dim` for nearly every model).
        v_head_dim: u64,
    },
    /// One latent of `kv_lora_rank + qk_rope_head_dim`, replicated on every rank.
    Mla {
        /// `kv_lora_rank + qk_rope_head_dim` (DeepSeek: 576).
        latent: u64,
    },
}

/// The pool's geometry on the GPU that sets its size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Per-token layout.
    pub kind: Kind,
    /// KV layers on the largest pipeline stage (full-attention layers only for Mamba hybrids;
    /// all layers for a hybrid sliding-window model).
    pub layers: u64,
    /// Bytes of one element (2 for bf16, 1 for FP8).
    pub elem: u64,
    /// A hybrid sliding-window split: sliding layers of `layers` and `swa_full_tokens_ratio`.
    pub swa: Option<(u64, f64)>,
}

impl Geometry {
    /// Bytes per token per layer, as the version counts V (`head_dim + v_head_dim` from 0.5.7,
    /// `2 × head_dim` before).
    pub fn per_layer(&self, v: Version) -> u64 {
        match self.kind {
            Kind::Mha {
                kv_heads,
                head_dim,
                v_head_dim,
            } => {
                let v_dim = if v.counts_v_head_dim() {
                    v_head_dim
                } else {
                    head_dim
                };
                kv_heads * (head_dim + v_dim) * self.elem
            }
            Kind::Mla { latent } => latent * self.elem,
        }
    }

    /// SGLang's `cell_size`: bytes per token over every KV layer of the stage.
    pub fn cell(&self, v: Version) -> u64 {
        self.per_layer(v) * self.layers
    }

    /// The cell a hybrid sliding-window pool divides by from 0.5.11:
    /// `F × L_full + r × S × L_swa` (a float, `pool_configurator.HybridSWAPoolConfigurator`).
    pub fn swa_cell(&self, v: Version) -> Option<f64> {
        let (swa_layers, ratio) = self.swa?;
        let f = self.per_layer(v) as f64;
        let full_layers = self.layers - swa_layers;
        Some(if full_layers == 0 {
            f * swa_layers as f64
        } else {
            f * full_layers as f64 + ratio * f * swa_layers as f64
        })
    }
}

/// `rest = after − pre × (1 − mfs)` in GiB, as SGLang's float expression gives it.
pub fn rest_gib(pre_gib: f64, after_gib: f64, mfs: f64) -> f64 {
    after_gib - pre_gib * (1.0 - mfs)
}

/// Tokens a rest of `rest_gib` holds at `cell` bytes each: `int(rest * (1 << 30) // cell)`
/// (float floor division) up to 0.5.6; `int(rest * (1 << 30)) // cell` from 0.5.7.
pub fn profiled_tokens(v: Version, rest_gib: f64, cell: u64) -> i64 {
    let bytes = rest_gib * GIB as f64;
    if v.truncates_bytes_first() {
        let b = bytes.trunc() as i64;
        b.div_euclid(cell.max(1) as i64)
    } else {
        py_floordiv(bytes, cell.max(1) as f64) as i64
    }
}

/// Tokens of a hybrid sliding-window pool from 0.5.11: `int(int(rest * 2^30) // cell)` with
/// a float cell.
pub fn profiled_tokens_float_cell(rest_gib: f64, cell: f64) -> i64 {
    let bytes = (rest_gib * GIB as f64).trunc();
    py_floordiv(bytes, cell) as i64
}

/// A hybrid sliding-window pool split: `(full, swa)` tokens, both page-aligned.
pub fn swa_split(v: Version, tokens: i64, g: &Geometry, page: u64) -> Option<(i64, i64)> {
    let (swa_layers, ratio) = g.swa?;
    let align = |x: i64| x.div_euclid(page as i64) * page as i64;
    let full_layers = g.layers - swa_layers;
    if full_layers == 0 {
        let t = align(tokens);
        return Some((0, t));
    }
    let f = g.per_layer(v) as f64;
    let (full, swa) = match v.swa_rule() {
        SwaRule::PerLayer => {
            // `full = int(T × L / (r × L_swa + L_full))`, `swa = int(full × r)`, then both
            // page-aligned (model_runner.py 0.4.10–0.5.9).
            let total = (tokens * g.layers as i64) as f64;
            let full = (total / (ratio * swa_layers as f64 + full_layers as f64)) as i64;
            (align(full), align((full as f64 * ratio) as i64))
        }
        rule => {
            let full = if rule == SwaRule::Memory {
                // 0.5.10: `T × (F·L_full + S·L_swa) / (F·L_full + r·S·L_swa)` with F = S.
                let total = tokens as f64 * (f * full_layers as f64 + f * swa_layers as f64);
                let denom = f * full_layers as f64 + ratio * f * swa_layers as f64;
                align((total / denom) as i64)
            } else {
                // 0.5.11+: the float cell already priced the sliding layers.
                align(tokens)
            };
            (full, align((full as f64 * ratio) as i64))
        }
    };
    Some((full, swa))
}

/// A Mamba/GDN hybrid's state pool: `max_mamba_cache_size` and the GiB it takes from the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MambaPool {
    /// `max_mamba_cache_size`.
    pub slots: i64,
    /// GiB taken from the rest (`slots × per_req`, plus one padding slot from 0.5.17).
    pub state_gib: f64,
}

/// `handle_max_mamba_cache`: a user-given slot count, or `rest × r / (1 + r)` in whole slots.
pub fn mamba_pool(
    v: Version,
    rest_gib: f64,
    per_req: u64,
    ratio: f64,
    slots: Option<u64>,
) -> MambaPool {
    let per = per_req.max(1) as f64;
    let pad = v.mamba_padding_slot();
    let slots = match slots {
        Some(k) => k as i64,
        None => {
            let budget = rest_gib * ratio / (1.0 + ratio);
            let bytes = budget * GIB as f64;
            if pad {
                py_floordiv(bytes - per, per) as i64
            } else {
                py_floordiv(bytes, per) as i64
            }
        }
    };
    let counted = if pad { slots + 1 } else { slots };
    MambaPool {
        slots,
        state_gib: counted as f64 * per / GIB as f64,
    }
}

/// What `max_running_requests` reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Requests {
    /// The pool as profiled, before `--max-total-tokens` (the estimate reads it up to 0.5.9).
    pub profiled: i64,
    /// The final pool.
    pub tokens: i64,
    /// `context_len`.
    pub context_len: u64,
    /// `--max-running-requests`.
    pub user: Option<u64>,
    /// The DP-attention divisor (1 without DP attention).
    pub dp: u64,
    /// A Mamba hybrid's cap: `max_mamba_cache_size // 3`.
    pub mamba_cap: Option<i64>,
}

/// `int(T / context_len * 512)` clamped to `[2048, cap]`.
pub fn request_estimate(v: Version, tokens: i64, context_len: u64) -> i64 {
    let est = (tokens as f64 / context_len.max(1) as f64 * 512.0) as i64;
    est.clamp(2048, v.requests_cap() as i64)
}

/// `max_running_requests` as the scheduler prints it, and the request pool's slots.
pub fn max_running_requests(v: Version, r: &Requests) -> (i64, i64) {
    let dp = r.dp.max(1) as i64;
    let half = r.tokens.div_euclid(2);
    let user = r.user.map(|u| u as i64);
    let cap_mamba = |x: i64| r.mamba_cap.map_or(x, |m| x.min(m));
    match v.requests_rule() {
        rule @ (RequestsRule::PoolMinusOne | RequestsRule::Pool | RequestsRule::PoolPlusOne) => {
            let reqs =
                cap_mamba(user.unwrap_or_else(|| request_estimate(v, r.profiled, r.context_len)));
            let slots = match rule {
                RequestsRule::PoolPlusOne => reqs + 1,
                _ => reqs,
            };
            let usable = if rule == RequestsRule::PoolMinusOne {
                slots - 1
            } else {
                slots
            };
            let want = user.map_or(half, |u| u / dp);
            (want.min(usable), slots)
        }
        RequestsRule::Estimate | RequestsRule::HalfPool => {
            let est = request_estimate(v, r.tokens, r.context_len);
            let n = match user {
                Some(u) if v.requests_rule() == RequestsRule::Estimate => (u / dp).min(est),
                Some(u) if v >= Version::new(0, 5, 15) => (u / dp).max(1).min(half),
                Some(u) => (u / dp).min(half),
                None => est.min(half),
            };
            let n = cap_mamba(n);
            (n, n)
        }
    }
}

/// Bytes of the K and V buffers (or the MLA latent buffer, returned as K with V = 0) for a
/// pool of `tokens`: every layer holds `tokens + pad` rows (pad 1 up to 0.4.3, then the page).
pub fn buffer_bytes(v: Version, g: &Geometry, tokens: u64, page: u64, layers: u64) -> (u64, u64) {
    let pad = if v.pads_with_page() { page } else { 1 };
    let rows = tokens + pad;
    match g.kind {
        Kind::Mha {
            kv_heads,
            head_dim,
            v_head_dim,
        } => {
            let v_dim = if v.counts_v_head_dim() {
                v_head_dim
            } else {
                head_dim
            };
            let k = rows * kv_heads * head_dim * layers * g.elem;
            let vv = rows * kv_heads * v_dim * layers * g.elem;
            (k, vv)
        }
        Kind::Mla { latent } => (rows * latent * layers * g.elem, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qwen3_8b() -> Geometry {
        Geometry {
            kind: Kind::Mha {
                kv_heads: 8,
                head_dim: 128,
                v_head_dim: 128,
            },
            layers: 36,
            elem: 2,
            swa: None,
        }
    }

    #[test]
    fn cell_and_tokens() {
        let v = Version::new(0, 4, 0);
        // 8 × (128 + 128) × 36 × 2 = 147,456 B.
        assert_eq!(qwen3_8b().cell(v), 147_456);
        // Card §5 A, 0.4.0: rest = 7.70 − 23.0 × 0.12 = 4.94 GiB → 5,304,284,610.6 B // 147,456 = 35,971.
        let rest = rest_gib(23.0, 7.70, 0.88);
        assert_eq!(profiled_tokens(v, rest, 147_456), 35_971);
        // K = (35,971 + 1) × 8 × 128 × 36 × 2 = 2.4699 GiB → "2.47".
        let (k, vv) = buffer_bytes(v, &qwen3_8b(), 35_971, 1, 36);
        assert_eq!(k, vv);
        assert_eq!(crate::units::fixed2(k as f64 / GIB as f64), "2.47");
    }

    #[test]
    fn negative_rest_floors() {
        // A negative rest floors away from zero in both arithmetics.
        assert_eq!(profiled_tokens(Version::new(0, 4, 8), -0.5, 147_456), -3641);
        assert_eq!(profiled_tokens(Version::new(0, 5, 8), -0.5, 147_456), -3641);
    }

    #[test]
    fn requests_by_generation() {
        let r = Requests {
            profiled: 35_971,
            tokens: 35_971,
            context_len: 40_960,
            user: None,
            dp: 1,
            mamba_cap: None,
        };
        // 35,971 / 40,960 × 512 = 449 → 2048; 0.4.x pools one slot more: min(17,985, 2,049).
        assert_eq!(max_running_requests(Version::new(0, 4, 0), &r).0, 2049);
        assert_eq!(max_running_requests(Version::new(0, 4, 8), &r).0, 2048);
        assert_eq!(max_running_requests(Version::new(0, 5, 12), &r).0, 2048);
        let user = Requests {
            user: Some(128),
            tokens: 20_480,
            ..r
        };
        assert_eq!(max_running_requests(Version::new(0, 5, 8), &user).0, 128);
        assert_eq!(max_running_requests(Version::new(0, 5, 20), &user).0, 128);
    }

    #[test]
    fn mamba_split() {
        // 0.9 / 1.9 of 10.30 GiB in slots of 61,440 B; one padding slot from 0.5.17.
        let old = mamba_pool(Version::new(0, 5, 6), 10.30, 61_440, 0.9, None);
        let new = mamba_pool(Version::new(0, 5, 20), 10.30, 61_440, 0.9, None);
        assert_eq!(old.slots, new.slots + 1);
        assert!((old.state_gib - new.state_gib).abs() < 1e-4);
    }

    #[test]
    fn swa_split_per_layer() {
        // 24 layers, 12 sliding, ratio 0.8: 1,000 × 24 / (0.8 × 12 + 12) = 1,111; swa 888.
        let g = Geometry {
            swa: Some((12, 0.8)),
            layers: 24,
            ..qwen3_8b()
        };
        assert_eq!(
            swa_split(Version::new(0, 5, 2), 1000, &g, 1),
            Some((1111, 888))
        );
        assert_eq!(
            swa_split(Version::new(0, 5, 12), 1000, &g, 1),
            Some((1000, 800))
        );
    }
}
