//! The page (wasm32 only): a thin Leptos view over the core.

use kvbudget_core::capacity::Overhead;
use kvbudget_core::model::{KvDtype, ModelDtype};
use kvbudget_core::presets;
use kvbudget_core::repertoire::{self, Row};
use kvbudget_core::units::{fixed2, thousands, Bytes};
use kvbudget_core::vllm;
use leptos::prelude::*;

/// The context every row is computed at.
const CTX: u64 = 8192;
/// The GPU of the shell's table.
const GPU: &str = "rtx-4090";

/// Mounts the page on `<body>`.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}

fn kv_label(row: &Row) -> &'static str {
    match (row.kv, row.model_dtype) {
        (KvDtype::Auto, ModelDtype::F16) => "FP16 (auto)",
        (KvDtype::Auto, ModelDtype::F32) => "FP32 (auto)",
        (KvDtype::Auto, ModelDtype::Bf16) => "BF16 (auto)",
        _ => "FP8",
    }
}

fn short(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

#[component]
fn RowView(row: Row) -> impl IntoView {
    let key = format!(
        "{}-{}",
        short(row.model),
        if row.kv == KvDtype::Auto {
            "auto"
        } else {
            "fp8"
        }
    );
    let bpt = row.bytes_per_token;
    let pool = row.pool;
    let pool_text = if pool > 0 {
        Bytes(pool as u64).to_string()
    } else {
        "none left".to_string()
    };
    let line = row
        .error
        .clone()
        .unwrap_or_else(|| row.lines.get(1).cloned().unwrap_or_default());
    view! {
        <tr data-row=key.clone()>
            <th scope="row">{short(row.model).to_string()}</th>
            <td data-label="KV dtype">{kv_label(&row)}</td>
            <td class="num" data-label="KV per token" data-testid="bytes-per-token" data-value=bpt.0.to_string()>
                <span>
                    {format!("{} B", thousands(bpt.0))}
                    <span class="unit">{format!(" = {bpt}")}</span>
                </span>
            </td>
            <td class="num" data-label="KV per 8K sequence">{format!("{} GiB", fixed2(row.bytes_per_sequence.as_gib()))}</td>
            <td class="num" data-label="KV pool" data-testid="kv-pool-bytes" data-value=pool.to_string()>{pool_text}</td>
            <td class="num" data-label="Sequences (formula)" data-testid="seed-max-seqs" data-value=row.seed_max_seqs.to_string()>
                {thousands(row.seed_max_seqs)}
            </td>
            <td class="num key" data-label="Sequences (vLLM blocks)" data-testid="max-seqs" data-value=row.vllm_max_seqs.to_string()>
                {thousands(row.vllm_max_seqs)}
            </td>
            <td class="log" data-label="vLLM prints" data-testid="kv-tokens" data-value=row.vllm_tokens.to_string()>
                <code>{line}</code>
            </td>
        </tr>
    }
}

/// The app shell: the seeds' repertoire on an RTX 4090 at 8K context.
#[component]
pub fn App() -> impl IntoView {
    let gpu = presets::gpu(GPU).expect("preset");
    let version = vllm::NEWEST;
    let util = version.default_util();
    let rows = repertoire::rows(gpu, CTX, version, util, Overhead::SEED);
    let body = match rows {
        Ok(rows) => rows
            .into_iter()
            .map(|row| view! { <RowView row=row/> })
            .collect_view()
            .into_any(),
        Err(e) => view! { <tr><td colspan="8" role="alert">{e.to_string()}</td></tr> }.into_any(),
    };
    let setting = format!(
        "{} ({} GB marketed, {} GiB as vLLM sees it) · --gpu-memory-utilization {util:.2} · vLLM {version} · \
         max_model_len {} · overhead 1 GiB besides the weights (the course lab's assumption)",
        gpu.name,
        gpu.marketed_gb,
        fixed2(gpu.total.as_gib()),
        thousands(CTX),
    );
    view! {
        <header class="top">
            <h1>"kvbudget"</h1>
            <p class="lede">
                "How many sequences of what context fit next to these weights on this card — and what vLLM prints at startup."
            </p>
        </header>
        <main>
            <section aria-labelledby="rep-title">
                <h2 id="rep-title">"8K-context sequences that fit on an RTX 4090"</h2>
                <p class="setting" data-testid="setting">{setting}</p>
                <p class="formula">
                    "Bytes per token "<code>"B_tok = 2 × L × H_kv × d_h × b"</code>"; sequences "
                    <code>"⌊M_kv / (S_ctx × B_tok)⌋"</code>"; vLLM counts whole 16-token blocks."
                </p>
                <div class="table-wrap">
                    <table class="rep">
                        <thead>
                            <tr>
                                <th scope="col">"Model"</th>
                                <th scope="col">"KV dtype"</th>
                                <th scope="col">"KV per token"</th>
                                <th scope="col">"KV per 8K sequence"</th>
                                <th scope="col">"KV pool"</th>
                                <th scope="col">"Sequences (formula)"</th>
                                <th scope="col">"Sequences (vLLM blocks)"</th>
                                <th scope="col">"vLLM startup line"</th>
                            </tr>
                        </thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            </section>
        </main>
        <footer class="foot">
            <p>"Computed in your browser from exact integer arithmetic. The full calculator is on its way."</p>
        </footer>
    }
}
