// The first answer before the wasm: index.html carries the default scenario's page, rendered at
// build time by the page's own code (src/bin/kvbudget-prerender.rs). Before the wasm has run, the
// default URL shows its answer; a link of another scenario shows its layout and the status line,
// never the default's numbers as its own. The app then replaces it with the same page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { suite, SHOTS, LIVE } from './harness.mjs';
import { ready, sel, value, CHARTS, chartSvg } from './page.mjs';

const env = suite();

/** A page whose wasm is held back until `release()`. */
async function held(width, query = '') {
  const context = await env.b.newContext({ viewport: { width, height: width === 360 ? 740 : 900 } });
  const page = await context.newPage();
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route('**/*_bg.wasm', async (route) => { await gate; await route.continue(); });
  await page.goto(env.srv.base + query);
  return { context, page, release };
}

test('the default page shows its answer and charts before the wasm, and the same after', async () => {
  for (const width of [1280, 360]) {
    const { context, page, release } = await held(width);
    assert.equal(await page.getAttribute('html', 'data-app'), 'prerendered');
    // Qwen3-8B BF16 on an RTX 4090 at 8,192 tokens: vLLM's 34,672 tokens // 8,192 = 4.
    assert.equal(await value(page, 'max-seqs'), '4');
    assert.ok(await page.isVisible(sel('max-seqs')));
    for (const c of CHARTS) assert.equal(await page.locator(chartSvg(c)).count(), 1, c);
    // The form shows the scenario's values, and takes no typing until the app replaces it.
    assert.equal(await page.inputValue('#ctx'), '8192');
    assert.equal(await page.inputValue('#gpu'), 'rtx-4090');
    assert.ok(await page.$eval('form.inputs', (f) => f.inert));
    await page.screenshot({ path: path.join(SHOTS, `prerendered-${width}.png`) });
    const before = await page.evaluate(() => ['h1', '[data-testid="max-seqs"]'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return [Math.round(r.top), Math.round(r.left)];
    }));
    release();
    await ready(page);
    assert.equal(await value(page, 'max-seqs'), '4');
    assert.equal(await page.locator('#prerendered').count(), 0);
    const after = await page.evaluate(() => ['h1', '[data-testid="max-seqs"]'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return [Math.round(r.top), Math.round(r.left)];
    }));
    assert.deepEqual(after, before, 'the answer moved when the app replaced the prerendered page');
    await page.waitForSelector(chartSvg(CHARTS[0]));
    await page.screenshot({ path: path.join(SHOTS, `live-${width}.png`) });
    await context.close();
  }
});

test('a link of another scenario shows no numbers until its own', async () => {
  const { context, page, release } = await held(1280, '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192');
  assert.equal(await page.getAttribute('html', 'data-app'), 'skeleton');
  assert.ok(!(await page.isVisible(sel('max-seqs'))), "the default's answer shows for another scenario");
  assert.ok(!(await page.isVisible('#gpu')));
  assert.match(await page.textContent('#boot-status'), /is loading/);
  assert.ok(await page.isVisible('#boot-status'));
  release();
  await ready(page);
  assert.equal(await page.getAttribute('html', 'data-app'), 'live');
  assert.notEqual(await value(page, 'max-seqs'), '4');
  assert.equal(await page.inputValue('#model'), 'Qwen/Qwen3-14B-AWQ');
  await context.close();
});

test('an embed and a Chinese reader show no English page before the wasm', async () => {
  for (const q of ['?embed=1', '?lang=zh-CN']) {
    const { context, page, release } = await held(1280, q);
    assert.equal(await page.getAttribute('html', 'data-app'), 'skeleton');
    assert.ok(!(await page.isVisible(sel('max-seqs'))), q);
    assert.ok(!(await page.isVisible('.lede')), q);
    release();
    await page.waitForSelector(LIVE, { state: 'attached' });
    await context.close();
  }
});
