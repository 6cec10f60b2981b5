// Bring your own model: paste, choose, drop and fetch a config.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { suite, urlParam, ROOT } from './harness.mjs';
import {
  field, sel, value, text, ready, openReady, fill, fieldValue, click, waitValue, waitText, IMPORT_SUMMARY, IMPORT_DROP,
  VERIFY_SUMMARY, LOG_COMPARE, compareDiff,
} from './page.mjs';

const CONFIGS = path.join(ROOT, 'tests/fixtures/configs');
const read = (name) => fs.readFileSync(path.join(CONFIGS, name + '.json'), 'utf8');
const env = suite();

async function open(query = '?model=Qwen/Qwen3-8B&gpu=h100-sxm&ctx=8192') {
  const o = await openReady(env, query, { viewport: { width: 1280, height: 900 } });
  await o.page.click(IMPORT_SUMMARY);
  return o;
}

test('pasting Qwen3-32B gives 262,144 B per token, and the geometry goes into the URL', async () => {
  const { context, page, problems } = await open();
  await page.fill(sel('config-text'), read('Qwen3-32B'));
  await click(page, 'config-import');
  // head_dim 128 from the config, not 5120 / 64 = 80: 2 × 64 × 8 × 128 × 2 = 262,144 B.
  await waitValue(page, 'bytes-per-token', '262144');
  // A pasted config names no model: its architecture's class names it.
  assert.match(await text(page, 'import-status'), /Imported Qwen3ForCausalLM config: 64 layers, 8 KV heads × 128/);
  assert.equal(await fieldValue(page, 'model'), 'custom');
  await urlParam(page, 'head_dim', '128');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('head_dim'), '128');
  assert.equal(url.searchParams.get('vocab'), '151936');
  assert.equal(url.searchParams.get('config'), null);
  await page.reload();
  await ready(page);
  assert.equal(await value(page, 'bytes-per-token'), '262144');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an import is a history entry of its own: Back at once returns to the model before it', async () => {
  const { context, page, problems } = await open();
  await page.fill(sel('config-text'), read('Qwen3-32B'));
  await click(page, 'config-import');
  await waitValue(page, 'bytes-per-token', '262144');
  // The import's entry is written 100 ms after it, into a new entry (it used to replace the
  // current one): Back returns to Qwen3-8B's entry (2 × 36 × 8 × 128 × 2 = 147,456 B per token).
  await urlParam(page, 'head_dim', '128');
  await page.goBack();
  await waitValue(page, 'bytes-per-token', '147456');
  assert.equal(await fieldValue(page, 'model'), 'Qwen/Qwen3-8B');
  await page.goForward();
  await waitValue(page, 'bytes-per-token', '262144');
  assert.equal(await fieldValue(page, 'model'), 'custom');
  assert.deepEqual(problems, []);
  await context.close();
});

test('choosing gemma-2-9b gives vLLM\'s sliding-window figures', async () => {
  const { context, page, problems } = await open('?model=Qwen/Qwen3-8B&gpu=h100-sxm&ctx=8192&vllm=0.11&overhead_gib=1');
  await page.setInputFiles(field('config-file'), path.join(CONFIGS, 'gemma-2-9b-it.json'));
  await waitText(page, 'import-status', /window 4,096 on 21 layers/);
  assert.match(await text(page, 'custom-geometry'), /sliding window 4,096 on 21 of 42 layers/);
  // The same startup lines as the gemma-2-9b preset with the same weights.
  const imported = await value(page, 'vllm-lines');
  await urlParam(page, 'attn', 'sliding');
  const weights = new URL(page.url()).searchParams.get('weights_gib');
  const preset = await openReady(env, `?model=google/gemma-2-9b-it&gpu=h100-sxm&ctx=8192&vllm=0.11&overhead_gib=1`);
  const presetWeights = Number(weights);
  assert.ok(Math.abs(presetWeights - 17.21) < 0.05, `weights estimate ${weights} GiB vs the checkpoint's 17.21 GiB`);
  assert.match(imported, /^Available KV cache memory: [\d.]+ GiB\nGPU KV cache size: [\d,]+ tokens\nMaximum concurrency for 8,192 tokens per request: [\d.]+x$/);
  await preset.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('dropping a file imports it; broken JSON and a Mamba hybrid say what is wrong and change nothing', async () => {
  const { context, page, problems } = await open();
  const before = await value(page, 'bytes-per-token');
  const drop = async (text) => {
    const dt = await page.evaluateHandle((t) => {
      const d = new DataTransfer();
      d.items.add(new File([t], 'config.json', { type: 'application/json' }));
      return d;
    }, text);
    await page.dispatchEvent(IMPORT_DROP, 'drop', { dataTransfer: dt });
  };
  await drop(read('broken'));
  await waitText(page, 'import-status', /is not valid JSON/);
  assert.equal(await value(page, 'bytes-per-token'), before);
  await drop(read('Jamba-v0.1'));
  await waitText(page, 'import-status', /not supported/);
  assert.equal(await value(page, 'bytes-per-token'), before);
  await drop(read('DeepSeek-V2-Lite'));
  // 27 × 576 × 2 = 31,104 B per token.
  await waitValue(page, 'bytes-per-token', '31104');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a config with a key that lays the KV cache out otherwise is refused by the key, and changes nothing', async () => {
  const { context, page, problems } = await open();
  // Qwen3-8B on an H100 at 8K: 2 × 36 × 8 × 128 × 2 = 147,456 B per token.
  assert.equal(await value(page, 'bytes-per-token'), '147456');
  const shared = JSON.parse(read('Qwen3-8B'));
  shared.num_kv_shared_layers = 4;
  await page.fill(sel('config-text'), JSON.stringify(shared));
  await click(page, 'config-import');
  await waitText(page, 'import-status', /num_kv_shared_layers is 4: the last layers reuse the KV cache of earlier layers/);
  assert.match(await text(page, 'import-status'), /not supported/);
  assert.equal(await value(page, 'bytes-per-token'), '147456');
  assert.equal(await fieldValue(page, 'model'), 'Qwen/Qwen3-8B');
  assert.deepEqual(problems, []);
  await context.close();
});

test('fetching by id: found, not found, gated and unreachable each get their own message', async () => {
  const { context, page, problems } = await open();
  const routes = {
    'Qwen/Qwen3-8B': (r) => r.fulfill({ status: 200, contentType: 'application/json', body: read('Qwen3-8B'), headers: { 'access-control-allow-origin': '*' } }),
    'nobody/nothing': (r) => r.fulfill({ status: 404, body: 'Entry not found', headers: { 'access-control-allow-origin': '*' } }),
    'meta-llama/Llama-3.1-8B-Instruct': (r) => r.fulfill({ status: 401, body: 'gated', headers: { 'access-control-allow-origin': '*' } }),
    'offline/model': (r) => r.abort('internetdisconnected'),
  };
  await page.route('https://huggingface.co/**', (route) => {
    const id = new URL(route.request().url()).pathname.split('/resolve/')[0].slice(1);
    return (routes[id] ?? ((r) => r.abort()))(route);
  });
  const fetchId = async (id, pattern) => {
    await fill(page, 'hf-id', id);
    await click(page, 'config-fetch');
    await waitText(page, 'import-status', pattern);
  };
  await fetchId('Qwen/Qwen3-8B', /Imported Qwen\/Qwen3-8B: 36 layers/);
  assert.equal(await value(page, 'bytes-per-token'), '147456');
  await fetchId('nobody/nothing', /no config\.json on the Hugging Face Hub \(404\)/);
  await fetchId('meta-llama/Llama-3.1-8B-Instruct', /gated or private \(401\)/);
  await fetchId('offline/model', /did not complete|offline/);
  await fetchId('not an id', /looks like owner\/name/);
  assert.equal(await value(page, 'bytes-per-token'), '147456');
  // The failed requests are the point of this test (the browser logs each); nothing else went wrong.
  const expected = (p) => p.includes('huggingface.co') || p.startsWith('console: Failed to load resource');
  assert.deepEqual(problems.filter((p) => !expected(p)), []);
  await context.close();
});

test('a pasted config identical to a preset offers the preset', async () => {
  const { context, page, problems } = await open();
  await page.fill(sel('config-text'), read('Qwen3-14B'));
  await click(page, 'config-import');
  await page.waitForSelector(sel('config-use-preset'));
  await click(page, 'config-use-preset');
  assert.equal(await urlParam(page, 'model', 'Qwen/Qwen3-14B'), 'Qwen/Qwen3-14B');
  assert.equal(await fieldValue(page, 'model'), 'Qwen/Qwen3-14B');
  assert.deepEqual(problems, []);
  await context.close();
});

test('choosing Qwen3.5-9B imports a Gated DeltaNet hybrid: 8 attention layers in B_tok, the state in the URL', async () => {
  const { context, page, problems } = await open('?model=Qwen/Qwen3-8B&gpu=l40s&ctx=32768&vllm=0.19');
  await page.setInputFiles(field('config-file'), path.join(CONFIGS, 'Qwen3.5-9B.json'));
  await waitText(page, 'import-status', /24 Gated DeltaNet layers/);
  // 2 × 8 attention layers × 4 KV heads × 256 × 2 B = 32,768 B per token.
  await waitValue(page, 'bytes-per-token', '32768');
  assert.match(await value(page, 'vllm-lines'), /^Setting attention block size to 528 tokens/);
  await urlParam(page, 'state', 'gdn.qwen35-24-4-32-128-128-16-auto-float32-0');
  await page.reload();
  await ready(page);
  assert.equal(await value(page, 'bytes-per-token'), '32768');
  assert.match(await value(page, 'vllm-lines'), /^Setting attention block size to 528 tokens/);
  assert.deepEqual(problems, []);
  await context.close();
});

// A Gemma 4 startup log as vLLM 0.25 prints it (the lines the log check reads).
const gemma4Log = (model, gib, tokens, conc) => [
  'INFO 04-20 10:00:00 [api_server.py:1] vLLM API server version 0.25.0',
  `INFO 04-20 10:00:00 [utils.py:1] non-default args: {'model': '${model}', 'max_model_len': 32768}`,
  `INFO 04-20 10:01:00 [gpu_worker.py:1] Available KV cache memory: ${gib} GiB`,
  `INFO 04-20 10:01:00 [kv_cache_utils.py:1] GPU KV cache size: ${tokens} tokens`,
  `INFO 04-20 10:01:00 [kv_cache_utils.py:1] Maximum concurrency for 32,768 tokens per request: ${conc}x`,
].join('\n');

/** Pastes `log` into the log check, reads it and adopts its numbers, as a reader would. */
async function adoptLog(page, log) {
  await page.click(VERIFY_SUMMARY);
  await page.fill(sel('log-text'), log);
  await click(page, 'log-read');
  await page.waitForSelector(LOG_COMPARE);
  await click(page, 'log-adopt');
}

test('Gemma 4 configs import with both layer shapes, and a printed KV memory gives vLLM\'s token counts', async () => {
  // 26B-A4B on an A100 80GB, vLLM 0.25, 32K: 25 sliding layers (8 KV heads × 256) and 5 full
  // ones (2 KV heads × 512): 25 × 2 × 8 × 256 × 2 + 5 × 2 × 2 × 512 × 2 = 225,280 B per token.
  const { context, page, problems } = await open('?model=Qwen/Qwen3-8B&gpu=a100-80gb&ctx=32768&vllm=0.25');
  await page.fill(sel('config-text'), read('gemma-4-26B-A4B-it'));
  await click(page, 'config-import');
  await waitValue(page, 'bytes-per-token', '225280');
  assert.match(await text(page, 'import-status'), /5 full-attention layers \(2 KV heads × 512\)/);
  await urlParam(page, 'full_kv', '2-512');
  // The L40S log's figures: "12.75 GiB", 321,600 tokens, 9.81x. Pages of 131,072 B (the full
  // layers' block raised to 32 tokens), groups of 5: 20,895 blocks (12.7533 GiB) over 1,024 +
  // 5 × (⌈(1,023 + 2,496) / 16⌉ + 1) = 2,129 per request = 9.8145 → int(9.8145 × 32,768) =
  // 321,600 (2,496: vLLM's batch raised to one video item for this bidirectional-vision model).
  await adoptLog(page, gemma4Log('google/gemma-4-26B-A4B-it', '12.75', '321,600', '9.81'));
  await waitValue(page, 'kv-tokens', '321600');
  assert.equal(await compareDiff(page, 'tokens'), '0');
  assert.equal(await compareDiff(page, 'concurrency'), '0');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Gemma 4 E2B: the layers that share a cache keep none, and the printed memory gives its tokens', async () => {
  // E2B on an L40S, vLLM 0.25, 32K: 12 sliding layers (1 KV head × 256) and 3 full ones (1 × 512)
  // keep a cache, the last 20 read theirs: 12 × 1,024 + 3 × 2,048 = 18,432 B per token. At
  // 12.75 GiB: pages of 32,768 B (the sliding block raised to 32), groups of 3: 139,264 blocks over
  // 2,048 + 4 × (⌈(511 + 2,048) / 32⌉ + 1) = 2,372 per request = 58.7116 → 1,923,862 tokens.
  const { context, page, problems } = await open('?model=Qwen/Qwen3-8B&gpu=l40s&ctx=32768&vllm=0.25');
  await page.fill(sel('config-text'), read('gemma-4-E2B-it'));
  await click(page, 'config-import');
  await waitValue(page, 'bytes-per-token', '18432');
  assert.match(await text(page, 'import-status'), /the last 20 layers \(16 sliding, 4 full\) read an earlier layer's KV cache/);
  await adoptLog(page, gemma4Log('google/gemma-4-E2B-it', '12.75', '1,923,862', '58.71'));
  await waitValue(page, 'kv-tokens', '1923862');
  assert.equal(await compareDiff(page, 'tokens'), '0');
  assert.deepEqual(problems, []);
  await context.close();
});
