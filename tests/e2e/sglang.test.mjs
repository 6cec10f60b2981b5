// SGLang as the page's second engine: Qwen3-8B on an RTX 4090 under both engines side by side,
// SGLang's knobs with their defaults as placeholders, the URL round-tripping with engine=sglang,
// and a committed viewport screenshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { suite, openPage, urlParam, SHOTS } from './harness.mjs';
import {
  sel, field, value, text, ready, openReady, fill, select, fieldValue, waitValue, waitText, placeholder,
  LINES_HEADING, SGLANG_STATS, ENGINES_TABLE, ENGINES_WHY, ANSWER_BAR, engineCell, repertoire, repertoireButton,
} from './page.mjs';

const env = suite();
const QWEN_4090 = '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192';

test('Qwen3-8B on an RTX 4090: SGLang beside vLLM, its knobs, and the URL round trip', async () => {
  const { context, page, problems } = await openReady(env, QWEN_4090);
  assert.match(await text(page, LINES_HEADING), /^What vLLM /);
  assert.equal(await page.locator(ENGINES_TABLE).count(), 0, 'no comparison under vLLM');

  await select(page, 'engine', 'sglang');
  assert.equal(await urlParam(page, 'engine', 'sglang'), 'sglang');
  await waitValue(page, SGLANG_STATS.tokens, '7422');
  assert.equal(await text(page, LINES_HEADING), 'What SGLang 0.5.23 prints at startup');
  // 0.5.23 on a 4090 reserves 7,280 MiB of 24,564: mem_fraction_static 0.704, 7,422 tokens,
  // not one 8,192-token sequence; vLLM: 34,672 tokens, 4 sequences.
  assert.equal(await value(page, SGLANG_STATS.mfs), '0.704');
  assert.equal(await value(page, SGLANG_STATS.seqs), '0');
  assert.match(await page.textContent(ANSWER_BAR), /^0 sequences of 8,192 tokens fit under SGLang 0\.5\.23 · /);
  assert.match(await value(page, 'vllm-lines'), /KV Cache is allocated\. dtype: torch\.bfloat16, #tokens: 7422, K size: 0\.51 GB, V size: 0\.51 GB/);
  assert.equal(await value(page, engineCell('vllm', 'tokens')), '34672');
  assert.equal(await value(page, engineCell('vllm', 'seqs')), '4');
  assert.equal(await value(page, engineCell('sglang', 'tokens')), '7422');
  assert.equal(await value(page, engineCell('sglang', 'seqs')), '0');
  assert.match(await text(page, ENGINES_WHY), /after − pre × \(1 − mem_fraction_static\)/);
  assert.match(await text(page, ENGINES_WHY), /whole 16-token blocks/);
  assert.equal(await value(page, 'serve-command'),
    'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 8192');
  assert.equal(await placeholder(page, 'mfs'), '0.704 (SGLang 0.5.23 default here)');
  assert.equal(await placeholder(page, 'chunked'), '4096 (SGLang 0.5.23 default here)');

  // mem_fraction_static 0.85: 32,021 tokens, 3 sequences; the flag joins the command.
  await fill(page, 'mfs', '0.85');
  await page.press(field('mfs'), 'Tab');
  assert.equal(await urlParam(page, 'mfs', '0.85'), '0.85');
  await waitValue(page, SGLANG_STATS.tokens, '32021');
  assert.equal(await value(page, SGLANG_STATS.seqs), '3');
  assert.match(await value(page, 'serve-command'), /--mem-fraction-static 0\.85$/);

  // The URL brings the same page back.
  const url = page.url();
  const again = await openPage(env.b, url);
  await ready(again.page);
  await waitValue(again.page, SGLANG_STATS.tokens, '32021');
  assert.equal(await fieldValue(again.page, 'engine'), 'sglang');
  assert.equal(await fieldValue(again.page, 'mfs'), '0.85');
  assert.equal(await value(again.page, engineCell('vllm', 'tokens')), '34672');
  assert.deepEqual(again.problems, []);
  await again.context.close();

  // Back to vLLM: no engine key, vLLM's lines and command.
  await select(page, 'engine', 'vllm');
  assert.equal(await urlParam(page, 'engine', null), null);
  await waitText(page, LINES_HEADING, /^What vLLM /);
  assert.match(await page.textContent(ANSWER_BAR), /^4 sequences of 8,192 tokens fit · /);
  assert.match(await value(page, 'serve-command'), /^vllm serve /);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every headline figure, chart and derivation is SGLang\'s under SGLang; switching keeps the scenario', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=4096');
  // vLLM: 34,672 tokens; ⌊2,167 blocks / 256 blocks a sequence⌋ = 8 sequences of 4,096 tokens.
  assert.equal(await value(page, 'kv-tokens'), '34672');
  assert.equal(await value(page, 'max-seqs'), '8');
  assert.equal(await value(page, 'chart-concurrency'), '8');
  await select(page, 'engine', 'sglang');
  // SGLang 0.5.23: 7,422 tokens of 147,456 B; ⌊7,422 / 4,096⌋ = 1 sequence; the pool allocated
  // with one padding row, (7,422 + 1) × 147,456 = 1,094,565,888 B.
  await waitValue(page, SGLANG_STATS.tokens, '7422');
  assert.equal(await value(page, SGLANG_STATS.seqs), '1');
  assert.equal(await value(page, SGLANG_STATS.bytesPerToken), '147456');
  assert.equal(await value(page, SGLANG_STATS.pool), '1094565888');
  assert.equal(await page.locator(sel('kv-tokens')).count(), 1, 'one tokens figure, SGLang\'s');
  // Its charts: the pool and the sequences at the operating point, the cap SGLang's flag.
  await waitValue(page, 'chart-memory', '1094565888');
  assert.equal(await value(page, 'chart-concurrency'), '1');
  assert.match(await text(page, 'chart-concurrency'), /max_running_requests 2,048/);
  assert.doesNotMatch(await text(page, 'chart-concurrency'), /max_num_seqs/);
  // Its derivation.
  assert.match(await text(page, 'derivations'), /⌊7,422 \/ 4,096⌋ = 1/);
  assert.match(await text(page, 'derivations'), /mem_fraction_static\) = 7\.87 − 23\.14 × \(1 − 0\.704\) = 1\.02 GiB/);
  assert.doesNotMatch(await text(page, 'derivations'), /vLLM/);
  // Its repertoire: ⌊7,422 / 4,096⌋ = 1 in 16-bit; in FP8 ⌊14,845 / 4,096⌋ = 3. A row loads its
  // model and dtype, under SGLang still.
  await page.waitForFunction((s) => /under SGLang 0\.5\.23/.test(document.querySelector(s)?.textContent ?? ''), '.repertoire caption');
  assert.equal((await repertoire(page, 'Qwen3-8B-auto'))['Sequences that fit'], '1');
  assert.equal((await repertoire(page, 'Qwen3-8B-fp8'))['Sequences that fit'], '3');
  await page.click(repertoireButton('Qwen3-8B-fp8'));
  await waitValue(page, SGLANG_STATS.seqs, '3');
  assert.equal(await fieldValue(page, 'kv'), 'fp8');
  await select(page, 'kv', 'auto');
  await waitValue(page, SGLANG_STATS.seqs, '1');
  // Back to vLLM: the same model, GPU and context, and vLLM's figures again.
  await select(page, 'engine', 'vllm');
  await waitValue(page, 'kv-tokens', '34672');
  assert.equal(await value(page, 'max-seqs'), '8');
  await waitValue(page, 'chart-concurrency', '8');
  assert.equal(await fieldValue(page, 'model'), 'Qwen/Qwen3-8B');
  assert.equal(await fieldValue(page, 'gpu'), 'rtx-4090');
  assert.equal(await fieldValue(page, 'ctx'), '4096');
  assert.deepEqual(problems, []);
  await context.close();
});

test('SGLang refuses Qwen3-8B on an L4 while vLLM starts; a KV dtype SGLang lacks keeps its command', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=l4&ctx=8192&engine=sglang');
  await waitValue(page, SGLANG_STATS.mfs, '0.684');
  assert.equal(await value(page, SGLANG_STATS.seqs), '0');
  assert.match(await value(page, 'vllm-lines'), /\nValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0\.684\./);
  assert.equal(await value(page, engineCell('sglang', 'tokens')), '');
  assert.match(await text(page, engineCell('sglang', 'tokens')), /refuses/);
  assert.ok(Number(await value(page, engineCell('vllm', 'tokens'))) > 0, 'vLLM starts');
  await select(page, 'kv', 'float16');
  // kvbudget's words, not a line SGLang prints: beside the figures, and no SGLang lines.
  await waitText(page, 'notes', /SGLang does not accept these settings: .*has no "float16"/);
  assert.equal(await value(page, 'vllm-lines'), '');
  assert.match(await value(page, 'serve-command'), /^python -m sglang\.launch_server /);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a model the SGLang emulation does not derive says so as kvbudget, with no SGLang lines', async () => {
  // Gemma 4 E2B's layers sharing a cache: SGLang runs it (0.5.11+), kvbudget does not size it.
  // (No headline to wait for: SGLang's figures are not sized, so none is shown.)
  const { context, page, problems } = await openPage(env.b, `${env.srv.base}?model=google/gemma-4-E2B-it&gpu=l4&ctx=8192&engine=sglang`);
  await waitText(page, 'notes', /layers sharing a KV cache \(Gemma 4\); kvbudget's SGLang emulation does not derive it/);
  assert.equal(await value(page, 'vllm-lines'), '');
  assert.doesNotMatch(await text(page, 'notes'), /SGLang does not accept/);
  assert.equal(await page.locator(sel('max-seqs')).count(), 0, 'no figure SGLang would not print');
  assert.equal(await page.locator(sel('kv-tokens')).count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('screenshot: Qwen3-8B on an RTX 4090 under SGLang and vLLM', async () => {
  const { context, page, problems } = await openReady(env, `${QWEN_4090}&engine=sglang`, {
    viewport: { width: 1280, height: 900 }, colorScheme: 'light',
  });
  await waitValue(page, SGLANG_STATS.tokens, '7422');
  await page.locator(sel(SGLANG_STATS.seqs)).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -80));
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SHOTS, 'sglang-vs-vllm-4090.png') });
  assert.deepEqual(problems, []);
  await context.close();
});
