// What vLLM would really do at the edges, through the page: each refusal kind with its checked
// one-click fixes, TP sizes vLLM refuses, contexts typed as 32k, the theme key, the compute roof.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, urlParam } from './harness.mjs';
import { sel, value, text, openReady, fill, reveal, waitValue } from './page.mjs';

const env = suite();

/** Waits until the URL's `key` is no longer `old` (URL writes are debounced) and returns it. */
async function changed(page, key, old) {
  await page.waitForFunction(([k, o]) => new URL(location.href).searchParams.get(k) !== o, [key, old]);
  return new URL(page.url()).searchParams.get(key);
}

/** Clicks the fix of kind `key` and waits until vLLM starts. */
async function applyFix(page, key) {
  await page.click(`${sel('fix')}[data-fix="${key}"]`);
  await page.waitForFunction((s) => !document.querySelector(s), sel('refusal'));
}

test('weights that do not load: no KV line, and the AWQ checkpoint is one click away', async () => {
  // Qwen3-14B (27.52 GiB) on an RTX 4090 (23.55 GiB): out of memory while loading the weights.
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-14B&gpu=rtx-4090&ctx=8192');
  assert.equal(await value(page, 'refusal'), 'weights-do-not-fit');
  assert.equal(await value(page, 'max-seqs'), '0');
  assert.ok(!(await value(page, 'vllm-lines')).includes('Available KV cache memory'));
  // vLLM prints no line about the KV cache: no empty box under "What vLLM prints".
  assert.equal(await value(page, 'vllm-lines'), '');
  assert.equal(await page.isVisible(sel('vllm-lines')), false);
  assert.equal(await page.isVisible(sel('lines-heading')), false);
  assert.match(await text(page, 'chart-concurrency'), /vLLM would not start/);
  // No utilization or KV dtype is offered: neither loads the weights.
  assert.equal(await page.locator(`${sel('fix')}[data-fix="util"], ${sel('fix')}[data-fix="kv"]`).count(), 0);
  await applyFix(page, 'model');
  assert.equal(await urlParam(page, 'model', 'Qwen/Qwen3-14B-AWQ'), 'Qwen/Qwen3-14B-AWQ');
  assert.ok(Number(await value(page, 'max-seqs')) > 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Qwen3.5-35B-A3B refused on an H100: the same GPU\'s --max-num-seqs first, no GPU of the same memory', async () => {
  // vLLM 0.33's 1,024 default sequences leave 0.72 GiB for a 32,768-token request; 128 sequences
  // leave 3,891,061,945 B, where 4 fit (tests/calc.rs, fixes_try_the_same_gpu_first).
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3.5-35B-A3B&gpu=h100-sxm&ctx=32768');
  assert.equal(await value(page, 'refusal'), 'max-model-len');
  await page.waitForSelector(sel('fix'));
  const fixes = await page.$$eval(sel('fix'), (b) => b.map((x) => [x.dataset.fix, x.textContent.trim()]));
  assert.deepEqual(fixes[0], ['seqs', '--max-num-seqs 128: 4 sequences of 32,768 tokens fit']);
  assert.ok(!fixes.some(([, t]) => t.includes('A100')), JSON.stringify(fixes));
  await applyFix(page, 'seqs');
  assert.equal(await urlParam(page, 'seqs', '128'), '128');
  assert.equal(await value(page, 'max-seqs'), '4');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a bfloat16 model on a T4 before vLLM 0.9: vLLM\'s dtype error, and --dtype half fixes it', async () => {
  // Qwen3-8B (bfloat16) on two T4s (compute capability 7.5): vLLM 0.8's worker refuses bfloat16
  // before the weights load; --dtype half runs it in float16 with the same bytes.
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=t4&tp=2&ctx=4096&vllm=0.8');
  assert.equal(await value(page, 'refusal'), 'no-bfloat16');
  assert.match(await value(page, 'vllm-lines'), /ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8\.0\. Your Tesla T4 GPU has compute capability 7\.5\./);
  assert.match(await text(page, 'chart-concurrency'), /this GPU has no bfloat16/);
  assert.equal(await page.isChecked('#half'), false);
  await applyFix(page, 'half');
  assert.equal(await urlParam(page, 'half', '1'), '1');
  assert.equal(await page.isChecked('#half'), true);
  assert.match(await value(page, 'serve-command'), / --tensor-parallel-size 2 --dtype half/);
  assert.ok(Number(await value(page, 'max-seqs')) > 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Gemma with --dtype half is refused from vLLM 0.9.1, and on a T4 it runs in float32', async () => {
  // gemma-3-12b-it on four A10Gs: vLLM will not run gemma3 in float16; --dtype auto runs it in bfloat16.
  const { context, page, problems } = await openReady(env, '?model=google/gemma-3-12b-it&gpu=a10g&tp=4&ctx=4096&vllm=0.19&half=1');
  assert.equal(await value(page, 'refusal'), 'no-float16');
  assert.match(await value(page, 'vllm-lines'), /ValueError: The model type 'gemma3' does not support float16\. Reason: Numerical instability\./);
  assert.match(await text(page, 'chart-concurrency'), /no float16 for this model/);
  await applyFix(page, 'auto');
  assert.equal(await urlParam(page, 'half', null), null);
  assert.equal(await page.isChecked('#half'), false);
  assert.ok(!(await value(page, 'serve-command')).includes('--dtype'));
  // gemma-2-9b-it on four T4s (no bfloat16): float32, 2 × 42 layers × 2 KV heads × 256 × 4 B per GPU.
  await page.goto(page.url().replace(/\?.*$/, '?model=google/gemma-2-9b-it&gpu=t4&tp=4&ctx=4096&vllm=0.19'));
  await waitValue(page, 'bytes-per-token', '172032');
  assert.match(await page.textContent('.results .warnings'), /runs gemma2 in float32/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a TP size that does not split the heads is refused with vLLM\'s message; a valid one fixes it', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=h100-sxm&tp=3');
  assert.equal(await value(page, 'refusal'), 'invalid-tp');
  assert.match(await value(page, 'vllm-lines'), /Total number of attention heads \(32\) must be divisible by tensor parallel size \(3\)/);
  await applyFix(page, 'tp');
  assert.ok(['2', '4'].includes(await changed(page, 'tp', '3')));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a TP size that splits the heads but not the vocabulary is refused at the embedding; the one fix is the size below', async () => {
  // Qwen2.5-7B: 28 heads split by 28, but its vocabulary 152,064 (a multiple of 64) = 28 × 5,430 + 24.
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&tp=28');
  assert.equal(await value(page, 'refusal'), 'invalid-tp');
  assert.match(await value(page, 'vllm-lines'), /AssertionError: 152064 is not divisible by 28/);
  await applyFix(page, 'tp');
  assert.equal(await changed(page, 'tp', '28'), '4');
  assert.deepEqual(problems, []);
  await context.close();
});

test('max_model_len too long: vLLM\'s error with its estimate, and the shorter length fixes it', async () => {
  // Qwen3-8B BF16 at 40,960 on an RTX 4090 with the lab's 1 GiB: 2,455 blocks < 2,560 needed;
  // the longest that fits is 39,264 tokens (tests/calc.rs).
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=40960&overhead_gib=1');
  assert.equal(await value(page, 'refusal'), 'max-model-len');
  assert.match(await value(page, 'vllm-lines'), /estimated maximum model length is 39264/);
  await applyFix(page, 'ctx');
  assert.equal(await urlParam(page, 'ctx', '39264'), '39264');
  assert.equal(await value(page, 'max-seqs'), '1');
  assert.deepEqual(problems, []);
  await context.close();
});

test('no KV memory left: a higher utilization is offered only because it helps', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090&util=0.6&overhead_gib=1');
  assert.equal(await value(page, 'refusal'), 'no-kv-memory');
  await applyFix(page, 'util');
  assert.ok(Number(await changed(page, 'util', '0.6')) > 0.6);
  assert.ok(Number(await value(page, 'max-seqs')) > 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('contexts typed as 32k, the theme key, and the compute roof', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&ctx=512&seqs=1024&theme=dark');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  // Bandwidth alone would allow about 75,000 tokens/s here; the H100's 989.5 dense BF16 TFLOPS
  // cap it lower, and the summary says so.
  assert.ok(Number(await value(page, 'chart-roofline')) < 75000);
  assert.match(await text(page, 'chart-roofline'), /compute roof/);
  await fill(page, 'ctx', '32k');
  await page.locator('#ctx').blur();
  assert.equal(await urlParam(page, 'ctx', '32768'), '32768');
  await waitValue(page, 'max-seqs', await value(page, 'max-seqs'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the plan mode agrees with `kvbudget plan`, and its KV memory fed back fits the sequences', async () => {
  // Qwen3-8B on an RTX 4090, 2 sequences of 8,192 tokens: 1,025 blocks × 2,359,296 B (tests/calc.rs).
  const { execFileSync } = await import('node:child_process');
  const path = await import('node:path');
  const { ROOT } = await import('./harness.mjs');
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'target/debug/kvbudget'),
    ['plan', '--model', 'Qwen/Qwen3-8B', '--gpu', 'rtx-4090', '--sequences', '2', '--context', '8192', '--json'], { encoding: 'utf8' }));
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=2');
  const plan = cli.plans[0];
  assert.equal(await value(page, 'plan-kv-bytes'), String(plan.kv_cache_memory_bytes));
  assert.equal(await value(page, 'plan-kv-bytes'), '2418278400');
  assert.equal(await value(page, 'plan-util'), String(plan.gpu_memory_utilization.point));
  assert.equal(await value(page, 'plan-ctx'), String(plan.longest_max_model_len.safe));
  await page.click(sel('plan-apply-kv'));
  assert.equal(await urlParam(page, 'kv_bytes', '2418278400'), '2418278400');
  assert.ok(Number(await value(page, 'max-seqs')) >= 2);
  // Text typed and deleted again in the utilization field (no change event fires) gives way to
  // the utilization the plan's button applies: the field shows what the scenario holds.
  await reveal(page, '#util');
  await page.click('#util');
  await page.keyboard.type('0');
  await page.keyboard.press('Backspace');
  await page.click(sel('plan-apply-util'));
  const util = await urlParam(page, 'util', '*');
  assert.match(util ?? '', /^0\.\d+$/);
  assert.equal(await page.inputValue('#util'), util);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every plan suggestion is a button: the longest max_model_len and the smallest TP', async () => {
  // 6 × 8,192 tokens of Qwen3-8B on one RTX 4090 (`kvbudget plan … --sequences 6`): at most
  // 4,848 tokens each (the safe end), or TP 2.
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&plan=6');
  await page.waitForSelector(sel('plan-apply-tp'));
  assert.equal(await value(page, 'plan-ctx'), '4848');
  assert.equal(await value(page, 'plan-tp'), '2');
  await page.click(sel('plan-apply-tp'));
  assert.equal(await urlParam(page, 'tp', '2'), '2');
  assert.ok(Number(await value(page, 'max-seqs')) >= 6);
  // At TP 2 the plan's TP size is the one set: no button offers it again.
  await page.waitForSelector(sel('plan-apply-tp'), { state: 'detached' });
  // Back to one GPU, then the length: 6 sequences of 4,848 tokens fit.
  await fill(page, 'tp', '1');
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.value === '4848', sel('plan-ctx'));
  await page.click(sel('plan-apply-ctx'));
  assert.equal(await urlParam(page, 'ctx', '4848'), '4848');
  assert.ok(Number(await value(page, 'max-seqs')) >= 6);
  assert.deepEqual(problems, []);
  await context.close();
});
