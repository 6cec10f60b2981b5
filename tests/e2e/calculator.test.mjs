// The calculator in a real Chromium, served from a sub-path: numbers, edits, URL state, embeds.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { suite, openPage, urlParam, SHOTS, ROOT } from './harness.mjs';

const env = suite();
before(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

const ISSUE_URL = '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&util=0.9&ctx=8192&vllm=0.11';
// The same with the course lab's single 1 GiB overhead, for numbers derived by hand.
const SEED_URL = ISSUE_URL + '&overhead_gib=1';

function cli(args) {
  const bin = path.join(ROOT, 'target/debug/kvbudget');
  try {
    return JSON.parse(execFileSync(bin, args, { encoding: 'utf8' }));
  } catch (e) {
    if (e.stdout) return JSON.parse(e.stdout);
    throw e;
  }
}

const value = (page, id) => page.getAttribute(`[data-testid="${id}"]`, 'data-value');

async function ready(page) {
  await page.waitForSelector('[data-testid="max-seqs"]');
}


test('the issue scenario shows the same numbers as `kvbudget vllm`', async () => {
  const out = cli(['vllm', '--model', 'Qwen/Qwen3-14B-AWQ', '--gpu', 'rtx-4090', '--kv-cache-dtype', 'fp8',
    '--gpu-memory-utilization', '0.9', '--max-model-len', '8192', '--vllm-version', '0.11', '--json']);
  const { context, page, problems } = await openPage(env.b, env.srv.base + ISSUE_URL, { viewport: { width: 1280, height: 900 } });
  await ready(page);
  assert.equal(await value(page, 'kv-pool-bytes'), String(out.available_kv_bytes));
  assert.equal(await value(page, 'kv-tokens'), String(out.gpu_kv_cache_tokens));
  assert.equal(await value(page, 'vllm-lines'), out.lines.join('\n'));
  assert.equal((await page.textContent('[data-testid="vllm-lines"]')).trim(), out.lines.join('\n'));
  // 2 × 40 × 8 × 128 × 1 = 81,920 B per token.
  assert.equal(await value(page, 'bytes-per-token'), '81920');
  assert.equal(await value(page, 'max-seqs'), String(out.max_seqs_capped));
  assert.ok(await page.isVisible('[data-testid="range-note"]'));
  assert.match(await value(page, 'serve-command'), /^vllm serve Qwen\/Qwen3-14B-AWQ --max-model-len 8192 --gpu-memory-utilization 0\.9 --kv-cache-dtype fp8/);
  for (const id of ['chart-memory', 'chart-concurrency', 'chart-roofline']) {
    assert.equal(await page.locator(`[data-testid="${id}"] svg`).count(), 1, id);
  }
  await page.screenshot({ path: path.join(SHOTS, 'calculator-1280-light.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('editing updates numbers, charts and the URL; bad text keeps the last good value', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + SEED_URL);
  await ready(page);
  const chartBefore = await page.innerHTML('[data-testid="chart-concurrency"] .chart__svg');
  // FP8 → auto (fp16 for this AWQ checkpoint): 163,840 B per token, 8 sequences.
  await page.selectOption('#kv', 'auto');
  assert.equal(await value(page, 'bytes-per-token'), '163840');
  assert.equal(await value(page, 'max-seqs'), '8');
  assert.notEqual(await page.innerHTML('[data-testid="chart-concurrency"] .chart__svg'), chartBefore);
  assert.equal(await urlParam(page, 'kv', 'auto'), 'auto');

  // A bad context: the message names the field and range, the numbers stay.
  await page.fill('#ctx', '12x');
  assert.match(await page.textContent('[data-testid="error-ctx"]'), /max_model_len: "12x" is not a whole number of tokens from 16 to 10,485,760/);
  assert.equal(await page.getAttribute('#ctx', 'aria-invalid'), 'true');
  assert.equal(await value(page, 'max-seqs'), '8');
  assert.equal(await page.inputValue('#ctx'), '12x');
  // A good one: pool 11,548,093,317 B // (2 × 16 × 8 × 128 × 2 = 65,536 B per block-layer) // 40 layers
  // = 4,405 blocks; a 4,096-token sequence takes 256 → 17 sequences.
  await page.fill('#ctx', '4,096');
  assert.equal(await page.textContent('[data-testid="error-ctx"]'), '');
  assert.equal(await urlParam(page, 'ctx', '4096'), '4096');
  assert.equal(await value(page, 'max-seqs'), '17');
  assert.deepEqual(problems, []);
  await context.close();
});

test('reload and back/forward restore the scenario', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + SEED_URL);
  await ready(page);
  await page.selectOption('#gpu', 'h100-sxm');
  await urlParam(page, 'gpu', 'h100-sxm');
  await page.fill('#ctx', '32768');
  await page.press('#ctx', 'Tab'); // change event: the edit is committed
  await urlParam(page, 'ctx', '32768');
  const h100Seqs = await value(page, 'max-seqs');
  await page.reload();
  await ready(page);
  assert.equal(await page.inputValue('#ctx'), '32768');
  assert.equal(await page.inputValue('#gpu'), 'h100-sxm');
  assert.equal(await value(page, 'max-seqs'), h100Seqs);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#ctx').value === '8192');
  assert.equal(await page.inputValue('#gpu'), 'h100-sxm');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#gpu').value === 'rtx-4090');
  assert.equal(await value(page, 'max-seqs'), '17');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#gpu').value === 'h100-sxm');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a bad URL parameter gets a notice naming it; everything else is kept', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + ISSUE_URL.replace('ctx=8192', 'ctx=-5') + '&colour=blue');
  await ready(page);
  assert.equal(await value(page, 'notice'), 'colour,ctx');
  const text = await page.textContent('[data-testid="notice"]');
  assert.match(text, /“ctx”: max_model_len: "-5" is not a whole number/);
  assert.match(text, /“colour”: is not a parameter kvbudget knows/);
  assert.equal(await value(page, 'bytes-per-token'), '81920'); // fp8 kept
  assert.equal(await page.inputValue('#ctx'), '8192'); // default used for ctx only
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 16 GB card: Qwen3-8B does not fit, its weights say why, and the AWQ model does', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + '?model=Qwen/Qwen3-8B&gpu=rtx-5080&kv=fp8&ctx=8192&overhead_gib=1', { viewport: { width: 360, height: 740 } });
  await ready(page);
  assert.equal(await value(page, 'max-seqs'), '0');
  assert.match(await page.textContent('.refusal'), /No available memory for the cache blocks/);
  await page.selectOption('#model', 'Qwen/Qwen3-14B-AWQ');
  // ⌈16,642,998,272 B × 0.92⌉ = 15,311,558,411 − ⌊9.44 × 2³⁰⌋ 10,136,122,818 − 1 GiB = 4,101,693,769 B;
  // // (2 × 16 × 8 × 128 × 1 = 32,768) // 40 layers = 3,129 blocks // 512 per 8K sequence = 6.
  assert.equal(await value(page, 'kv-pool-bytes'), '4101693769');
  assert.equal(await value(page, 'max-seqs'), '6');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: path.join(SHOTS, 'calculator-360.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('dark scheme', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + ISSUE_URL, { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  await ready(page);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(21, 23, 27)');
  // Chart text follows the scheme (drawn in currentColor).
  const fill = await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="chart-concurrency"] svg text')).fill);
  assert.equal(fill, 'rgb(230, 231, 234)');
  await page.screenshot({ path: path.join(SHOTS, 'calculator-1280-dark.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('embed modes and the embed snippet', async () => {
  const compact = await openPage(env.b, env.srv.base + ISSUE_URL + '&embed=1');
  await ready(compact.page);
  assert.equal(await compact.page.locator('form.inputs').count(), 0);
  assert.equal(await compact.page.locator('[data-testid^="chart-"]').count(), 3);
  const full = await compact.page.getAttribute('.embed__head a', 'href');
  assert.ok(!full.includes('embed='), full);
  assert.deepEqual(compact.problems, []);
  await compact.context.close();

  const one = await openPage(env.b, env.srv.base + ISSUE_URL + '&embed=roofline');
  await one.page.waitForSelector('[data-testid="chart-roofline"] svg');
  assert.equal(await one.page.locator('[data-testid^="chart-"]').count(), 1);
  assert.equal(await one.page.locator('[data-testid="max-seqs"]').count(), 0);
  assert.deepEqual(one.problems, []);
  await one.context.close();

  const { context, page } = await openPage(env.b, env.srv.base + ISSUE_URL);
  await ready(page);
  await page.click('text=Embed…');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/courses\/llm-serving\/kvbudget\/\?model=Qwen%2FQwen3-14B-AWQ&amp;kv=fp8&amp;.*embed=1" /);
  await context.close();
});

test('a custom model whose name is markup stays text', async () => {
  const name = encodeURIComponent('<img src=x onerror=window.__pwned=1></svg><script>window.__pwned=2</script>');
  const { context, page, problems } = await openPage(env.b, env.srv.base + `?model=custom&name=${name}&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14`);
  await ready(page);
  // 2 × 32 × 8 × 128 × 2 = 131,072 B per token.
  assert.equal(await value(page, 'bytes-per-token'), '131072');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.match(await page.textContent('#results-title'), /<img src=x onerror=/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('choosing a repertoire row loads it', async () => {
  const { context, page } = await openPage(env.b, env.srv.base + ISSUE_URL);
  await ready(page);
  await page.click('tr[data-row="Qwen2.5-7B-Instruct-auto"] button');
  // 2 × 28 × 4 × 128 × 2 = 57,344 B per token.
  assert.equal(await value(page, 'bytes-per-token'), '57344');
  assert.equal(await page.inputValue('#model'), 'Qwen/Qwen2.5-7B-Instruct');
  await context.close();
});

test('copy link puts the scenario URL on the clipboard; a refused clipboard is reported, not thrown', async () => {
  const granted = await openPage(env.b, env.srv.base + ISSUE_URL, { permissions: ['clipboard-read', 'clipboard-write'] });
  await ready(granted.page);
  await granted.page.click('[data-testid="copy-link"]');
  await granted.page.waitForFunction(() => document.querySelector('[data-testid="copy-status"]').textContent !== '');
  assert.equal(await granted.page.textContent('[data-testid="copy-status"]'), 'Copied the link.');
  const copied = await granted.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(new URL(copied).searchParams.get('model'), 'Qwen/Qwen3-14B-AWQ');
  assert.equal(new URL(copied).searchParams.get('kv'), 'fp8');
  assert.deepEqual(granted.problems, []);
  await granted.context.close();

  const refused = await openPage(env.b, env.srv.base + ISSUE_URL);
  await ready(refused.page);
  await refused.page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
  });
  await refused.page.click('[data-testid="copy-link"]');
  await refused.page.waitForFunction(() => document.querySelector('[data-testid="copy-status"]').textContent !== '');
  assert.match(await refused.page.textContent('[data-testid="copy-status"]'), /refused the clipboard/);
  assert.deepEqual(refused.problems, []);
  await refused.context.close();
});

test('the overhead: kvbudget\'s estimate by default, the course lab\'s 1 GiB one click away', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + ISSUE_URL);
  await ready(page);
  const estimated = await value(page, 'kv-pool-bytes');
  assert.match(await page.getAttribute('#overhead', 'placeholder'), /^estimate: \d+\.\d\d GiB ± /);
  await page.click('[data-testid="overhead-seed"]');
  // The seed's figure: 11,548,093,317 B (tests/vllm_vectors.rs budget_path_on_an_rtx_4090).
  await page.waitForFunction(() => document.querySelector('[data-testid="kv-pool-bytes"]').dataset.value === '11548093317');
  assert.equal(await urlParam(page, 'overhead_gib', '1'), '1');
  assert.equal(await page.locator('[data-testid="range-note"]').count(), 0);
  await page.click('[data-testid="overhead-estimate"]');
  await page.waitForFunction((v) => document.querySelector('[data-testid="kv-pool-bytes"]').dataset.value === v, estimated);
  assert.equal(await urlParam(page, 'overhead_gib', null), null);
  assert.deepEqual(problems, []);
  await context.close();
});
