// Hostile and broken input in a real Chromium: clear messages at the field, nothing lost, nothing run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, urlParam } from './harness.mjs';
import {
  field, value, text, count, ready, openReady, fill, fieldValue, fieldInvalid, fieldError, waitField, openEmbed, embedSnippet,
  pwned, repertoireButton, CHARTS, chartBox, RESULTS, RESULTS_TITLE, INJECTED_IMG,
} from './page.mjs';

const env = suite();

const CUSTOM = '?model=custom&name=mine&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14&gpu=custom&gpu_gib=22&bw_gbs=900&overhead_gib=1';

test('absurd numbers get a message at their field and change nothing else', async () => {
  const { context, page, problems } = await openReady(env, CUSTOM);
  const before = await value(page, 'kv-pool-bytes');
  const cases = [
    ['layers', '1000000000000', /layers must be a whole number from 1 to 1,048,576/],
    ['ctx', '9223372036854775808', /max_model_len must be a whole number of tokens from 16 to 10,485,760 \(got 9223372036854775808\)/],
    ['util', 'NaN', /gpu_memory_utilization: "NaN" is not a finite number/],
    ['gpu_gib', '-24', /GPU memory must be a number of GiB from 1 to 4,096 \(or of MiB, with the unit\)/],
    ['weights', '', /weights: empty; enter a number/],
    ['name', '   ', /name: empty; give the model a name/],
    ['bw_gbs', '1e400', /bandwidth: "1e400" is not a finite number/],
    ['tp', '0', /tensor-parallel size must be a whole number from 1 to 64/],
  ];
  for (const [id, typed, message] of cases) {
    await fill(page, id, typed);
    const shown = await fieldError(page, id);
    assert.match(shown, message, `${field(id)} = ${JSON.stringify(typed)}`);
    assert.equal(await fieldInvalid(page, id), 'true');
    assert.equal(await fieldValue(page, id), typed, 'the typed text stays');
    assert.equal(await value(page, 'kv-pool-bytes'), before, `${field(id)}: the last good numbers stay`);
  }
  const shownNumbers = await page.textContent(RESULTS);
  assert.ok(!/NaN|Infinity|inf\b/.test(shownNumbers), 'no NaN or infinity on screen');
  // Reload restores the last good state from the URL.
  await urlParam(page, 'layers', '32');
  await page.reload();
  await ready(page);
  assert.equal(await value(page, 'kv-pool-bytes'), before);
  assert.equal(await fieldValue(page, 'layers'), '32');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a custom GPU takes its memory as nvidia-smi prints it: "24564 MiB"', async () => {
  const { context, page, problems } = await openReady(env, CUSTOM);
  // 24,564 MiB × 2²⁰ = 25,757,220,864 B = 23.99 GiB; the pool grows by that minus 22 GiB, × 0.92.
  await fill(page, 'gpu_gib', '24564 MiB');
  await page.locator('#gpu_gib').blur();
  assert.notEqual(await fieldInvalid(page, 'gpu_gib'), 'true');
  assert.equal(await fieldError(page, 'gpu_gib'), '');
  const gib = await urlParam(page, 'gpu_gib', '*');
  assert.equal(Math.round(Number(gib) * 2 ** 30), 25757220864, gib);
  assert.deepEqual(problems, []);
  await context.close();
});

test('markup in a shared link stays text: page, charts, embed snippet', async () => {
  const evil = '"><img src=x onerror=window.__pwned=1></svg><script>window.__pwned=2</script>';
  const query = '?model=custom&name=' + encodeURIComponent(evil) + '&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14&' + encodeURIComponent(evil) + '=1&gpu=' + encodeURIComponent(evil);
  const { context, page, problems } = await openReady(env, query);
  assert.equal(await pwned(page), undefined);
  assert.equal(await count(page, INJECTED_IMG), 0);
  // No script came from the link (the page's own are its loader and the loading state's).
  assert.equal(await page.evaluate(() => [...document.scripts].filter((x) => x.textContent.includes('pwned')).length), 0);
  // The name is shown as text, the bad key and GPU are named in the notice.
  assert.ok((await page.textContent(RESULTS_TITLE)).includes('<img src=x onerror='));
  assert.match(await text(page, 'notice'), /is not a known GPU slug/);
  for (const id of CHARTS) {
    assert.ok(!(await page.innerHTML(chartBox(id))).includes('<img'), id);
  }
  await openEmbed(page);
  const snippet = await embedSnippet(page);
  // The only script is the snippet's own resize listener; the link's markup stays escaped.
  assert.ok(!snippet.includes('<img'), snippet);
  assert.equal((snippet.match(/<script>/g) || []).length, 1, snippet);
  assert.equal((snippet.match(/</g) || []).length, 4, snippet); // <iframe, </iframe>, <script>, </script>
  assert.equal((snippet.match(/<iframe /g) || []).length, 1);
  assert.equal(await pwned(page), undefined);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every control is reachable and usable from the keyboard', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090&overhead_gib=1', { viewport: { width: 1280, height: 900 } });
  const seen = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const el = document.activeElement;
      return el ? (el.id || el.dataset.testid || el.textContent.trim().slice(0, 24)) : '';
    });
    seen.add(id);
    // The form's other settings open from the keyboard: Enter on their summary.
    const closed = await page.evaluate(() => document.activeElement?.matches('[data-testid="more-settings"]:not([open]) > summary'));
    if (closed) await page.keyboard.press('Enter');
  }
  for (const id of ['model', 'kv', 'gpu', 'tp', 'vllm', 'util', 'ctx', 'seqs', 'overhead', 'prompt', 'trace', 'copy-link', 'Copy command', 'Embed…']) {
    assert.ok(seen.has(id), `Tab never reached ${id}; reached ${[...seen].join(', ')}`);
  }
  // Operate the KV dtype picker and a repertoire row without the mouse.
  await page.focus(field('kv'));
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((s) => document.querySelector(s).value !== 'auto', field('kv'));
  await page.focus(repertoireButton('Qwen2.5-7B-Instruct-auto'));
  await page.keyboard.press('Enter');
  await waitField(page, 'model', 'Qwen/Qwen2.5-7B-Instruct');
  // A visible focus ring.
  await page.focus(field('ctx'));
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(outline, 'solid');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a term\'s definition shows on keyboard focus and on a tap, not only on hover', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090', { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  const term = page.locator('.derivation .term').first();
  const def = page.locator('.derivation .term + .term__def').first();
  assert.equal(await def.isVisible(), false);
  // The definition describes the term to a screen reader.
  const id = await term.getAttribute('aria-describedby');
  assert.equal(await def.getAttribute('id'), id);
  assert.match(await def.textContent(), /\w{3}/);
  await term.focus();
  assert.equal(await def.isVisible(), true, 'shown on keyboard focus');
  await page.keyboard.press('Tab');
  assert.equal(await def.isVisible(), false);
  await term.tap();
  assert.equal(await def.isVisible(), true, 'shown on a tap');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a bad key is named in an embed too, and prompt + trace over max_model_len falls back with a notice', async () => {
  // An embedded card with a bad ctx: the default context, and a notice naming the key.
  const { openPage } = await import('./harness.mjs');
  const emb = await openPage(env.b, env.srv.base + '?embed=1&ctx=abc');
  await emb.page.waitForSelector('[data-testid="notice"]:not([hidden])');
  assert.equal(await value(emb.page, 'notice'), 'ctx');
  assert.match(await text(emb.page, 'notice'), /ctx/);
  assert.deepEqual(emb.problems, []);
  await emb.context.close();
  // 5,000 + 5,000 tokens on Qwen3-8B's default max_model_len (40,960 is the model's; the page's
  // default ctx is 8,192): both take their default, the page shows that scenario and says why.
  const { context, page, problems } = await openReady(env, '?prompt=5000&trace=5000');
  assert.equal(await value(page, 'notice'), 'prompt, trace');
  assert.match(await text(page, 'notice'), /add up to 10,000 tokens, more than max_model_len \(8,192\)/);
  assert.ok(Number(await value(page, 'max-seqs')) > 0);
  assert.deepEqual(problems, []);
  await context.close();
});
