// Check the scenario against a vLLM log: side by side, adopt its numbers, download kv_report.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { suite, urlParam, ROOT } from './harness.mjs';
import {
  sel, field, value, text, count, openReady, click, compareDiff, waitDiff, waitText, pwned, LOG_COMPARE, VERIFY_SUMMARY, INJECTED_IMG,
  compareRow,
} from './page.mjs';

const LOGS = path.join(ROOT, 'tests/fixtures/logs');
const SHARED = path.join(ROOT, '../shared/calibration/raw');
const env = suite();

async function open(query = '?model=Qwen/Qwen3-8B&gpu=rtx-4090') {
  const o = await openReady(env, query, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await o.page.click(VERIFY_SUMMARY);
  return o;
}

test('paste a log, see the differences, adopt its numbers: zero differences in blocks and tokens', async () => {
  // (On an H100: it holds the log's 27.52 GiB of weights and 6.51 GiB of KV memory.)
  const { context, page, problems } = await open('?model=Qwen/Qwen3-8B&gpu=h100-sxm');
  await page.fill(sel('log-text'), fs.readFileSync(path.join(LOGS, 'v1_0.11_two_line.log'), 'utf8'));
  await click(page, 'log-read');
  await page.waitForSelector(LOG_COMPARE);
  // The verdict leads: the log's vLLM and model, started, and the tokens it printed.
  assert.match(await text(page, 'log-status'), /vLLM 0\.11\.0, Qwen\/Qwen3-14B: started, with 42,656 tokens/);
  assert.equal(await value(page, 'log-status'), 'started');
  assert.notEqual(await compareDiff(page, 'tokens'), '0');
  // The settings that differ are named, and one click aligns them (0.33 → 0.11, 8,192 → 32,768).
  assert.match(await text(page, 'log-mismatch'), /vLLM version: 0\.33 here, 0\.11 in the log/);
  await click(page, 'log-align');
  await urlParam(page, 'vllm', '0.11');
  assert.equal(await urlParam(page, 'ctx', '32768'), '32768');
  // The comparison is recomputed in the worker; once it is in, no setting differs.
  await page.waitForSelector(sel('log-mismatch'), { state: 'detached' });
  await click(page, 'log-adopt');
  await waitDiff(page, 'tokens', '0');
  assert.equal(await compareDiff(page, 'blocks'), '0');
  assert.equal(await compareDiff(page, 'concurrency'), '0');
  // The vLLM lines are the log's: 42,656 tokens at 32,768.
  assert.equal(await value(page, 'kv-tokens'), '42656');
  assert.ok(await urlParam(page, 'kv_bytes', '*'));
  // Back to the budget with one click.
  await click(page, 'use-budget');
  assert.equal(await urlParam(page, 'kv_bytes', null), null);
  // The button hides once the scenario is back on the GPU's budget.
  await page.waitForSelector(sel('use-budget'), { state: 'hidden' });
  assert.equal(await page.isVisible(sel('use-budget')), false);
  assert.deepEqual(problems, []);
  await context.close();
});

test('adopting a log onto a GPU that cannot hold its KV memory beside the weights takes no KV memory', async () => {
  // The 0.11 log of Qwen3-14B prints no GPU memory; the page's RTX 4090 (23.55 GiB) cannot hold its
  // 27.52 GiB of weights, let alone its 6.51 GiB of KV memory: no --kv-cache-memory is made of it.
  const { context, page, problems } = await open();
  await page.fill(sel('log-text'), fs.readFileSync(path.join(LOGS, 'v1_0.11_two_line.log'), 'utf8'));
  await click(page, 'log-read');
  await page.waitForSelector(LOG_COMPARE);
  await click(page, 'log-adopt');
  await waitText(page, 'log-adopted', /cannot hold the KV memory the log's figures give \(6\.51 GiB\)/);
  await urlParam(page, 'model', 'Qwen/Qwen3-14B');
  assert.equal(new URL(page.url()).searchParams.get('kv_bytes'), null);
  assert.doesNotMatch(await value(page, 'serve-command'), /--kv-cache-memory/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a log cut short after its KV memory line is compared on that line, not dismissed', async () => {
  // The 0.11 log of Qwen3-14B up to "Available KV cache memory: 6.51 GiB" (a refusal's log often ends there).
  const { context, page, problems } = await open();
  const cut = fs.readFileSync(path.join(LOGS, 'v1_0.11_two_line.log'), 'utf8').split('\n')
    .filter((l, i, all) => i < all.findIndex((x) => x.includes('GPU KV cache size'))).join('\n');
  await page.fill(sel('log-text'), cut);
  await click(page, 'log-read');
  await page.waitForSelector(LOG_COMPARE);
  assert.match(await text(page, 'log-status'), /the log ends after “Available KV cache memory: 6\.51 GiB”/);
  assert.equal(await value(page, 'log-status'), 'no-kv-line');
  assert.match(await page.textContent(compareRow('available')), /6\.51 GiB/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a log that refused leads with the refusal, and adopting it refuses too', async () => {
  // The log ends in vLLM's "max seq len (29000) … estimated maximum model length is 23648" error.
  const { context, page, problems } = await open();
  await page.fill(sel('log-text'), fs.readFileSync(path.join(LOGS, 'v1_error_too_long.log'), 'utf8'));
  await click(page, 'log-read');
  await waitText(page, 'log-status', /refused to start/);
  assert.equal(await value(page, 'log-status'), 'refused');
  // Styled as an error: the page's error colour, as the refusal's own panel uses.
  const [status, bad] = await page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--bad)';
    document.body.append(probe);
    const out = [getComputedStyle(document.querySelector('[data-testid="log-status"]')).color, getComputedStyle(probe).color];
    probe.remove();
    return out;
  });
  assert.equal(status, bad);
  assert.match(await text(page, 'log-status'), /estimated maximum model length 23,648/);
  await click(page, 'log-adopt');
  // The page now refuses as the log did, instead of saying sequences fit.
  await page.waitForSelector(sel('refusal'));
  assert.equal(await value(page, 'refusal'), 'max-model-len');
  assert.equal(await value(page, 'max-seqs'), '0');
  assert.match(await text(page, 'log-adopted'), /max_model_len: 8,192 → 29,000/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('download kv_report.json with the lab\'s keys and what was parsed', async () => {
  const { context, page } = await open('?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-5080&ctx=8192&overhead_gib=1');
  await page.setInputFiles(field('log-file'), path.join(LOGS, 'v0_gpu_blocks.log'));
  await page.waitForSelector(LOG_COMPARE);
  const [download] = await Promise.all([page.waitForEvent('download'), click(page, 'log-download')]);
  assert.equal(download.suggestedFilename(), 'kv_report.json');
  const report = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(Object.keys(report), ['prediction', 'vllm_total_cached_tokens', 'vllm_implied_max_seqs_at_ctx', 'agreement', 'vllm_log']);
  // "# GPU blocks: 2960" × 16 = 47,360 tokens // 8,192 = 5.
  assert.equal(report.vllm_total_cached_tokens, 47360);
  assert.equal(report.vllm_implied_max_seqs_at_ctx, 5);
  assert.equal(report.prediction.kv_bytes_per_token, 163840);
  assert.equal(report.vllm_log.gpu_blocks, 2960);
  await context.close();
});

test('a log without KV figures says what was looked for; a 10 MB log parses', async () => {
  const { context, page, problems } = await open();
  await page.setInputFiles(field('log-file'), path.join(LOGS, 'no_kv_line.log'));
  await waitText(page, 'log-status', /No KV cache figures in this log: looked for a KV capacity line/);
  assert.equal(await count(page, LOG_COMPARE), 0);
  const line = 'INFO 01-01 00:00:00 [core.py:1] some engine chatter that is not about the KV cache at all, repeated\n';
  const big = line.repeat(Math.ceil(10_000_000 / line.length)) + fs.readFileSync(path.join(LOGS, 'v1_0.33_one_line.log'), 'utf8');
  await page.setInputFiles(field('log-file'), { name: 'big.log', mimeType: 'text/plain', buffer: Buffer.from(big) });
  await page.waitForSelector(LOG_COMPARE, { timeout: 30000 });
  assert.match(await page.textContent(compareRow('tokens')), /72,496/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('markup in a log stays text, on the page and in the report', async () => {
  const { context, page, problems } = await open();
  const evil = "INFO non-default args: {'model': '<img src=x onerror=window.__pwned=1>', 'max_model_len': 4096}\nINFO GPU KV cache size: 10,000 tokens\n";
  await page.fill(sel('log-text'), evil);
  await click(page, 'log-read');
  await page.waitForSelector(LOG_COMPARE);
  await click(page, 'log-adopt');
  await waitText(page, 'log-adopted', /not a preset/);
  assert.ok((await text(page, 'log-adopted')).includes('<img src=x onerror='));
  assert.equal(await pwned(page), undefined);
  assert.equal(await count(page, INJECTED_IMG), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('real vLLM 0.19 logs of preset models adopt with zero differences (when ../shared is present)', async (t) => {
  if (!fs.existsSync(SHARED)) {
    t.skip('../shared/calibration is absent');
    return;
  }
  const files = fs.readdirSync(SHARED).filter((f) => /^(qwen-qwen3-8b|meta-llama-llama-3-1-8b---h100-80gb--tp1pp1dp1--8192|qwen-qwen2-5-7b-instruct--h100-80gb--tp1pp1dp1--8192)/.test(f) && !f.includes('FAILED'));
  assert.ok(files.length >= 3, files.join(', '));
  for (const f of files) {
    const { context, page } = await open('?model=Qwen/Qwen3-8B&gpu=h100-sxm');
    await page.setInputFiles(field('log-file'), path.join(SHARED, f));
    await page.waitForSelector(LOG_COMPARE);
    await click(page, 'log-adopt');
    await waitDiff(page, 'tokens', '0');
    assert.equal(await compareDiff(page, 'blocks'), '0', f);
    await context.close();
  }
});

test('an SGLang log: its verdict, and "Use these numbers" makes the page print its pool', async () => {
  // SGLang 0.5.8, Qwen3-8B capped at 20,480 tokens (tests/verify.rs adopting_an_sglang_log_prints_its_pool).
  const { context, page, problems } = await open('?model=Qwen/Qwen3-14B&gpu=rtx-4090');
  await page.fill(sel('log-text'), fs.readFileSync(path.join(LOGS, 'sglang_0.5.8_capped.log'), 'utf8'));
  await click(page, 'log-read');
  await waitText(page, 'log-status', /SGLang, Qwen\/Qwen3-8B: started, with a pool of 20,480 tokens/);
  assert.equal(await value(page, 'log-status'), 'started');
  await click(page, 'log-adopt-sglang');
  assert.equal(await urlParam(page, 'engine', 'sglang'), 'sglang');
  assert.equal(await urlParam(page, 'sg_tokens', '20480'), '20480');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.value === '20480', sel('kv-tokens'));
  assert.match(await text(page, 'log-adopted'), /engine: vLLM → SGLang/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a shared SGLang log is adopted with its pool (when ../shared is present)', async (t) => {
  const file = path.join(ROOT, '../shared/calibration/sglang-logs.jsonl');
  if (!fs.existsSync(file)) {
    t.skip('../shared/calibration is absent');
    return;
  }
  const records = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const r = records.find((x) => x.max_total_num_tokens && Array.isArray(x.lines) && x.lines.some((l) => l.includes('max_total_num_tokens=')));
  const { context, page, problems } = await open();
  await page.fill(sel('log-text'), r.lines.join('\n'));
  await click(page, 'log-read');
  await waitText(page, 'log-status', /started/);
  await click(page, 'log-adopt-sglang');
  const want = String(r.max_total_num_tokens);
  assert.equal(await urlParam(page, 'sg_tokens', want), want);
  await page.waitForFunction(([s, v]) => document.querySelector(s)?.dataset.value === v, [sel('kv-tokens'), want]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('reading a log again, or another one, shows its comparison again', async () => {
  const { context, page, problems } = await openReady(env, '');
  await page.click(VERIFY_SUMMARY);
  await page.fill(sel('log-text'), fs.readFileSync(path.join(LOGS, 'v1_0.11_two_line.log'), 'utf8'));
  await click(page, 'log-read');
  await page.waitForSelector(LOG_COMPARE);
  // The same log again: the table comes back for it (it is asked for anew).
  await click(page, 'log-read');
  await page.waitForFunction(() => document.querySelector('[data-testid="log-status"]').textContent.includes('42,656'));
  await page.waitForSelector(LOG_COMPARE);
  // Then an SGLang log for the same scenario: its own table.
  await page.fill(sel('log-text'), fs.readFileSync(path.join(LOGS, 'sglang_0.5.8_capped.log'), 'utf8'));
  await click(page, 'log-read');
  await page.waitForSelector(`${LOG_COMPARE} tr[data-row="pool (max_total_num_tokens)"]`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a llama.cpp log is checked line by line against its own metadata', async () => {
  // gpt-oss-20b at build 8164 (tests/llamacpp.rs names the log): 131,072 + 768 cells, four lines.
  const { context, page, problems } = await open();
  const log = fs.readFileSync(path.join(LOGS, 'llamacpp_b8164_gpt-oss-20b.log'), 'utf8');
  await page.fill(sel('log-text'), log);
  await click(page, 'log-read');
  await waitText(page, 'log-status', /llama\.cpp b8164: its 4 KV lines are the ones kvbudget computes/);
  assert.equal(await value(page, 'log-status'), 'started');
  await page.waitForSelector(compareRow('line-4'));
  for (const n of [1, 2, 3, 4]) assert.equal(await compareDiff(page, `line-${n}`), '0');
  assert.match(await page.textContent(LOG_COMPARE), /size = 768 cells/);
  assert.equal(await count(page, '[data-testid="log-adopt-sglang"], [data-testid="log-adopt"]'), 0, 'nothing to adopt');
  // The SWA cache's 768 cells printed as 512: that line differs.
  await page.fill(sel('log-text'), log.replace('(   768 cells', '(   512 cells'));
  await click(page, 'log-read');
  await waitText(page, 'log-status', /1 of its 4 KV lines differ/);
  await waitDiff(page, 'line-4', '1');
  assert.deepEqual(problems, []);
  await context.close();
});
