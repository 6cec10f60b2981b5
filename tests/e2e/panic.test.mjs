// A panic shows a banner with "Reset to defaults", not a frozen page. The trigger exists only in a
// build with the test-only `panic-test` feature (scripts/test.sh builds it into target/dist-panic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { suite, openPage, DIST, ROOT } from './harness.mjs';
import { ready, count, PANIC_BANNER, PANIC_RESET } from './page.mjs';

const PANIC_DIST = path.join(ROOT, 'target/dist-panic');
const env = suite(PANIC_DIST);

test('the release build does not contain the test trigger', () => {
  const wasm = fs.readdirSync(DIST).find((f) => f.endsWith('.wasm'));
  const bytes = fs.readFileSync(path.join(DIST, wasm)).toString('latin1');
  assert.ok(bytes.includes('kvbudget hit an internal error'), 'the banner text should be in the release build');
  assert.ok(!bytes.includes('panic_test=1'), 'the trigger must not be in the release build');
  const testWasm = fs.readdirSync(PANIC_DIST).find((f) => f.endsWith('.wasm'));
  assert.ok(fs.readFileSync(path.join(PANIC_DIST, testWasm)).toString('latin1').includes('panic_test=1'));
});

test('a panic shows the banner, and its link resets to a working page', async () => {
  const { context, page } = await openPage(env.b, env.srv.base + '?model=Qwen/Qwen3-8B&panic_test=1', {}, { live: false });
  await page.waitForSelector(PANIC_BANNER);
  assert.match(await page.textContent(PANIC_BANNER), /stopped responding\. Reset to defaults/);
  const href = await page.getAttribute(PANIC_RESET, 'href');
  assert.equal(new URL(href).search, '');
  await page.click(PANIC_RESET);
  await ready(page);
  assert.equal(await count(page, PANIC_BANNER), 0);
  await context.close();
});
