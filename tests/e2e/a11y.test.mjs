// axe-core on the full page, the embed views and both colour schemes: zero violations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { suite, openPage, ROOT } from './harness.mjs';
import { fill, openEmbed, ANY_CHART_SVG } from './page.mjs';

const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
const env = suite();

async function axe(query, options = {}) {
  const { context, page, problems } = await openPage(env.b, env.srv.base + query, options);
  await page.waitForSelector(ANY_CHART_SVG);
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  await context.close();
  return { result, problems };
}

const SCENARIO = '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192';
for (const scheme of ['light', 'dark']) {
  for (const [name, query] of [
    ['full page', SCENARIO],
    ['refusal state', '?model=Qwen/Qwen3-8B&gpu=rtx-5080'],
    ['embed=1', SCENARIO + '&embed=1'],
    ['embed=memory', SCENARIO + '&embed=memory'],
    ['embed=concurrency', SCENARIO + '&embed=concurrency'],
    ['embed=roofline', SCENARIO + '&embed=roofline'],
  ]) {
    test(`axe: ${name}, ${scheme}`, async () => {
      const { result, problems } = await axe(query, { colorScheme: scheme, viewport: { width: 1280, height: 900 } });
      assert.deepEqual(result, []);
      assert.deepEqual(problems, []);
    });
  }
}

// The Chinese page: its labels, names and language attribute.
for (const [name, query] of [
  ['full page', SCENARIO],
  ['refusal state', '?model=Qwen/Qwen3-8B&gpu=rtx-5080'],
  ['embed=1', SCENARIO + '&embed=1'],
]) {
  test(`axe: ${name} in Chinese`, async () => {
    const { result, problems } = await axe(query + '&lang=zh-CN', { viewport: { width: 1280, height: 900 } });
    assert.deepEqual(result, []);
    assert.deepEqual(problems, []);
  });
}

test('axe: a 360 px phone, with a custom model and an open embed box', async () => {
  const { context, page } = await openPage(env.b, env.srv.base + '?model=custom&name=x&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14&gpu=custom&gpu_gib=22&bw_gbs=900', { viewport: { width: 360, height: 740 } });
  await page.waitForSelector(ANY_CHART_SVG);
  await openEmbed(page);
  await fill(page, 'ctx', 'oops');
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`));
  assert.deepEqual(violations, []);
  await context.close();
});
