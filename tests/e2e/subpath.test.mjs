// A course site deploys the page under its own path: `trunk build --release --public-url
// /courses/llm/kvbudget/` (scripts/test.sh builds it into target/dist-sub) must give a site that
// works there, the worker fetched on first use included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { suite, openPage, ROOT } from './harness.mjs';
import { ready, sel, value } from './page.mjs';

const env = suite(path.join(ROOT, 'target/dist-sub'), '/courses/llm/kvbudget/');

test('a build for /courses/llm/kvbudget/ works under that path, its worker too', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192');
  await ready(page);
  // Qwen3-8B BF16 on an RTX 4090 at 8,192 tokens: vLLM's cache of 34,672 tokens (`kvbudget vllm
  // --model Qwen/Qwen3-8B --gpu rtx-4090 --max-model-len 8192`) holds ⌊34,672 / 8,192⌋ = 4.
  assert.equal(await value(page, 'max-seqs'), '4');
  // The GPU table is the worker's: its rows arrive only if the worker loaded from the sub-path.
  await page.click('details.gpus > summary');
  await page.waitForSelector(`${sel('gpu-table')} tbody tr`);
  assert.ok(await page.locator(`${sel('gpu-table')} button[data-gpu="rtx-4090"]`).count() === 1);
  assert.deepEqual(problems, []);
  await context.close();
});
