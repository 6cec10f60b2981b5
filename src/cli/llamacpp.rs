//! `kvbudget llamacpp`: what llama.cpp (builds b4409 to b10309) prints at startup about its KV cache for
//! a model and its flags (`core::llamacpp`).

use super::{model_from, ModelArgs};
use clap::Args;
use kvbudget_core::llamacpp::{
    kv, logparse, mib, CacheType, FlashAttn, Geometry, Settings, NEWEST_BUILD,
};
use serde_json::json;

#[derive(Args, Debug)]
pub(crate) struct LlamacppArgs {
    /// The model.
    #[command(flatten)]
    m: ModelArgs,
    /// `-c`: the context of all slots together (0: the model's training context). Required: left
    /// out, llama.cpp's default depends on the build and `--fit` may lower it to fit the device.
    #[arg(long, required_unless_present = "log")]
    ctx_size: Option<u64>,
    /// `-np`: slots served at once (llama-server's automatic slots: 4 with --kv-unified).
    #[arg(long, default_value_t = 1)]
    parallel: u64,
    /// `--kv-unified`: one cache stream for all slots (llama-server's default with automatic slots).
    #[arg(long)]
    kv_unified: bool,
    /// `-fa`: on, off or auto.
    #[arg(long, default_value = "auto")]
    flash_attn: String,
    /// `-ctk`: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1.
    #[arg(long, default_value = "f16")]
    cache_type_k: String,
    /// `-ctv`.
    #[arg(long, default_value = "f16")]
    cache_type_v: String,
    /// `-ub`: the physical batch, which the sliding-window cache keeps room for.
    #[arg(long, default_value_t = 512)]
    ubatch_size: u64,
    /// `-b`: the logical batch (what the sliding-window cache kept room for before b5554).
    #[arg(long, default_value_t = 2048)]
    batch_size: u64,
    /// `--swa-full`: a sliding-window cache as large as the full one.
    #[arg(long)]
    swa_full: bool,
    /// The llama.cpp build, as its log's `build:` line or release tag names it (b4409 to b10309)
    /// [default: b10309].
    #[arg(long)]
    build: Option<String>,
    /// A llama.cpp startup log to check: its KV lines against those kvbudget computes from the
    /// log's own metadata and settings (instead of a model and flags).
    #[arg(long)]
    log: Option<String>,
    /// JSON instead of the lines.
    #[arg(long)]
    json: bool,
}

/// `--log`: each KV line of the log beside kvbudget's; 0 when all agree, 3 when one differs.
fn check_log(path: &str, json: bool) -> Result<i32, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--log {path}: {e}"))?;
    let rows = logparse::check(&text).map_err(|e| format!("--log {path}: {e}"))?;
    let differs = rows.iter().any(|r| r.logged != r.computed);
    let out = if json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| json!({ "logged": r.logged, "computed": r.computed, "agrees": r.logged == r.computed }))
            .collect();
        format!("{:#}\n", json!({ "lines": rows, "agrees": !differs }))
    } else {
        let mut out = String::new();
        for r in &rows {
            let mark = if r.logged == r.computed {
                "same"
            } else {
                "DIFFERS"
            };
            out += &format!("{mark}: {}\n", r.logged);
            if r.logged != r.computed {
                out += &format!("  kvbudget: {}\n", r.computed);
            }
        }
        out
    };
    say!("{}", out.trim_end_matches('\n'));
    Ok(if differs { super::EXIT_REFUSED } else { 0 })
}

/// `kvbudget llamacpp`.
pub(crate) fn llamacpp_cmd(a: &LlamacppArgs) -> Result<i32, String> {
    if let Some(path) = &a.log {
        return check_log(path, a.json);
    }
    let m = model_from(&a.m)?;
    let g = Geometry::of(&m).map_err(|e| e.to_string())?;
    let flash_attn = match a.flash_attn.as_str() {
        "on" => FlashAttn::On,
        "off" => FlashAttn::Off,
        "auto" => FlashAttn::Auto,
        other => {
            return Err(format!(
                "--flash-attn takes on, off or auto (got {other:?})"
            ))
        }
    };
    let s = Settings {
        ctx: a.ctx_size.unwrap_or_default(),
        parallel: a.parallel,
        kv_unified: a.kv_unified,
        flash_attn,
        type_k: CacheType::parse(&a.cache_type_k).map_err(|e| format!("--cache-type-k: {e}"))?,
        type_v: CacheType::parse(&a.cache_type_v).map_err(|e| format!("--cache-type-v: {e}"))?,
        ubatch: a.ubatch_size,
        batch: a.batch_size,
        swa_full: a.swa_full,
        build: match &a.build {
            None => NEWEST_BUILD,
            Some(b) => b
                .trim()
                .trim_start_matches(['b', 'B'])
                .parse()
                .map_err(|_| format!("--build takes a build number such as b8164 (got {b:?})"))?,
        },
    };
    let r = kv(&g, &s, m.max_position).map_err(|e| e.to_string())?;
    let out = if a.json {
        let full = &r.caches[0];
        let swa = r.caches.get(1);
        let v = json!({
            "cells": full.cells,
            "streams": full.streams,
            "kv_bytes": r.total_bytes(),
            "kv_mib": mib(r.total_bytes()),
            "k_bytes": r.caches.iter().map(|c| c.k_bytes).sum::<u64>(),
            "v_bytes": r.caches.iter().map(|c| c.v_bytes).sum::<u64>(),
            "swa_cells": swa.map(|c| c.cells),
            "rs_bytes": r.recurrent.map(|x| x.r_bytes + x.s_bytes),
            "lines": r.lines,
        });
        format!("{v:#}\n")
    } else {
        r.lines.join("\n") + "\n"
    };
    say!("{}", out.trim_end_matches('\n'));
    Ok(0)
}
