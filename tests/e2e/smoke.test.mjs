// The built site, served under a sub-path, renders the core's numbers in a real Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, openPage, SHOTS, ROOT } from './harness.mjs';

let srv, b;
before(async () => {
  srv = await serve();
  b = await browser();
  fs.mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await b?.close();
  srv?.server.close();
});

async function cell(page, row, testid) {
  return page.getAttribute(`tr[data-row="${row}"] [data-testid="${testid}"]`, 'data-value');
}

// Hand-derived (see tests/repertoire.rs): RTX 4090 (⌊23.55 × 2³⁰⌋ B), util 0.92, vLLM 0.33, 1 GiB overhead, 8K.
const EXPECTED = {
  // 2 × 36 × 8 × 128 × 2 = 147,456 B; pool 5,793,910,883 B / (8,192 × 147,456 B) = 4.80 → 4.
  'Qwen3-8B-auto': { bpt: '147456', seqs: '4' },
  // FP8: 73,728 B; 5,793,910,883 // 32,768 // 36 = 4,911 blocks // 512 per request = 9.
  'Qwen3-8B-fp8': { bpt: '73728', seqs: '9' },
  // 2 × 40 × 8 × 128 × 2 = 163,840 B (AWQ runs KV in fp16).
  'Qwen3-14B-AWQ-auto': { bpt: '163840' },
  'Qwen3-14B-AWQ-fp8': { bpt: '81920' },
  // 2 × 28 × 4 × 128 × 2 = 57,344 B; pool 6,889,127,543 B / 469,762,048 B = 14.67 → 14.
  'Qwen2.5-7B-Instruct-auto': { bpt: '57344', seqs: '14' },
  'Qwen2.5-7B-Instruct-fp8': { bpt: '28672' },
};

function cli(args) {
  const bin = path.join(ROOT, 'target/debug/kvbudget');
  try {
    return JSON.parse(execFileSync(bin, args, { encoding: 'utf8' }));
  } catch (e) {
    if (e.stdout) return JSON.parse(e.stdout);
    throw e;
  }
}

test('the shell renders the repertoire under a sub-path with no console errors', async () => {
  const { context, page, problems } = await openPage(b, srv.base, { viewport: { width: 1280, height: 800 } });
  await page.waitForSelector('[data-testid="bytes-per-token"]');
  assert.equal(await page.locator('tbody tr').count(), 6);
  for (const [row, want] of Object.entries(EXPECTED)) {
    assert.equal(await cell(page, row, 'bytes-per-token'), want.bpt, `${row} bytes per token`);
    if (want.seqs) assert.equal(await cell(page, row, 'max-seqs'), want.seqs, `${row} sequences`);
  }
  await page.screenshot({ path: path.join(SHOTS, 'shell-1280-light.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the page and the CLI agree on vLLM\'s token count for every row', async () => {
  const { context, page, problems } = await openPage(b, srv.base);
  await page.waitForSelector('[data-testid="kv-tokens"]');
  const ids = { 'Qwen3-8B': 'Qwen/Qwen3-8B', 'Qwen3-14B-AWQ': 'Qwen/Qwen3-14B-AWQ', 'Qwen2.5-7B-Instruct': 'Qwen/Qwen2.5-7B-Instruct' };
  for (const [short, id] of Object.entries(ids)) {
    for (const kv of ['auto', 'fp8']) {
      const out = cli(['vllm', '--model', id, '--gpu', 'rtx-4090', '--max-model-len', '8192', '--kv-cache-dtype', kv, '--vllm-version', '0.33', '--json']);
      assert.equal(await cell(page, `${short}-${kv}`, 'kv-tokens'), String(out.gpu_kv_cache_tokens), `${short} ${kv}`);
      const line = await page.textContent(`tr[data-row="${short}-${kv}"] [data-testid="kv-tokens"]`);
      assert.equal(line.trim(), out.lines[1]);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('dark scheme and a 360 px phone', async () => {
  const dark = await openPage(b, srv.base, { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  await dark.page.waitForSelector('[data-testid="bytes-per-token"]');
  const bg = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(21, 23, 27)');
  await dark.page.screenshot({ path: path.join(SHOTS, 'shell-1280-dark.png'), fullPage: true });
  assert.deepEqual(dark.problems, []);
  await dark.context.close();

  const phone = await openPage(b, srv.base, { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
  await phone.page.waitForSelector('[data-testid="bytes-per-token"]');
  // The page itself never scrolls sideways; only the table's own wrapper may.
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await phone.page.screenshot({ path: path.join(SHOTS, 'shell-360.png'), fullPage: true });
  assert.deepEqual(phone.problems, []);
  await phone.context.close();
});
