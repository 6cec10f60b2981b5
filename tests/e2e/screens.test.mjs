// Viewport screenshots of the states a user meets, committed under tests/e2e/screenshots/ so a
// change to what people see shows in review; each also checks what that state must show.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { suite, SHOTS, urlParam } from './harness.mjs';
import { sel, value, openReady, MORE_SETTINGS } from './page.mjs';

const env = suite();
before(() => fs.mkdirSync(SHOTS, { recursive: true }));

async function shoot(name, query, { width = 1280, height = 900, scheme = 'light', scrollTo = null, check = null } = {}) {
  const { context, page, problems } = await openReady(env, query, { viewport: { width, height }, colorScheme: scheme });
  if (scrollTo) await page.locator(sel(scrollTo)).scrollIntoViewIfNeeded();
  await page.waitForTimeout(150);
  if (check) await check(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  assert.deepEqual(problems, [], name);
  await context.close();
}

for (const width of [1280, 768, 360]) {
  for (const scheme of ['light', 'dark']) {
    test(`the default scenario at ${width} px, ${scheme}`, () =>
      shoot(`default-${width}-${scheme}`, '', { width, height: width === 360 ? 740 : 900, scheme }));
  }
}

// Where the first screen's parts are, in CSS px from the top of the document (null: not shown).
const firstScreen = (page) => page.evaluate(() => {
  const box = (s) => {
    const e = document.querySelector(s);
    if (!e || !e.checkVisibility()) return null;
    const r = e.getBoundingClientRect();
    return { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY), left: Math.round(r.left), right: Math.round(r.right) };
  };
  const visible = [...document.querySelectorAll('form.inputs :is(input, select, textarea)')].filter((e) => e.checkVisibility());
  return {
    model: box('#model'), gpu: box('#gpu'), ctx: box('#ctx'), kv: box('#kv'), tp: box('#tp'), vllm: box('#vllm'),
    tokens: box('[data-testid="kv-tokens"]'), memory: box('[data-testid="chart-memory"] svg'),
    form: box('form.inputs'), fields: visible.map((e) => e.id), fold: innerHeight,
  };
});

for (const lang of ['en', 'zh-CN']) {
  test(`the first screen answers (${lang}): model, GPU, context, KV dtype, then the answer and the memory split`, async () => {
    // 1280 px: the four inputs first, in that order, and only they (the model's picker, the
    // GPU's, max_model_len, the KV dtype: 4 controls, plus the closed config import's 2); the
    // answer and the memory chart beside them, all above the fold.
    const wide = await openReady(env, `?lang=${lang}`, { viewport: { width: 1280, height: 900 } });
    await wide.page.waitForSelector(`${sel('chart-memory')} svg`);
    const w = await firstScreen(wide.page);
    assert.deepEqual(w.fields, ['model', 'gpu', 'ctx', 'kv'], 'only the first screen\'s controls are shown');
    assert.ok(w.model.top < w.gpu.top && w.gpu.top < w.ctx.top && w.ctx.top < w.kv.top, JSON.stringify(w));
    assert.ok(w.kv.bottom < w.fold && w.tokens.bottom < w.fold && w.memory.top < w.fold, JSON.stringify(w));
    assert.ok(w.tokens.left > w.form.right && w.memory.left > w.form.right, 'beside the form');
    assert.equal(w.tp, null, 'parallelism is one click away');
    await wide.page.screenshot({ path: path.join(SHOTS, `first-screen-1280-${lang}.png`) });
    // One click opens the rest, and the URL remembers it across a reload.
    await wide.page.click(`${MORE_SETTINGS} > summary`);
    await wide.page.waitForSelector('#tp', { state: 'visible' });
    assert.equal(await urlParam(wide.page, 'more', '1'), '1');
    await wide.page.reload();
    await wide.page.waitForSelector('html[data-app="live"] #tp', { state: 'visible' });
    assert.ok((await firstScreen(wide.page)).vllm !== null, 'the vLLM version shows with the rest');
    await wide.page.click(`${MORE_SETTINGS} > summary`);
    await wide.page.waitForSelector('#tp', { state: 'hidden' });
    assert.equal(await urlParam(wide.page, 'more', null), null);
    assert.deepEqual(wide.problems, []);
    await wide.context.close();

    // 360 px: the same four, then (past the one closed "more" line) the answer and the memory
    // chart right under them: nothing else to scroll past.
    const narrow = await openReady(env, `?lang=${lang}`, { viewport: { width: 360, height: 740 } });
    await narrow.page.waitForSelector(`${sel('chart-memory')} svg`);
    const n = await firstScreen(narrow.page);
    assert.deepEqual(n.fields, ['model', 'gpu', 'ctx', 'kv']);
    assert.ok(n.model.top < n.gpu.top && n.gpu.top < n.ctx.top && n.ctx.top < n.kv.top, JSON.stringify(n));
    assert.ok(n.kv.bottom < n.fold, 'the four inputs on the first screen');
    // (The closed summary, the reset link and the layout's gaps: under 600 px between them.)
    assert.ok(n.tokens.top > n.kv.bottom && n.tokens.top - n.kv.bottom < 600, JSON.stringify(n));
    assert.ok(n.memory.top > n.tokens.bottom && n.memory.top - n.tokens.bottom < 400, JSON.stringify(n));
    // The model's and the GPU's pickers show their whole choice (their details are the line
    // under each): the chosen option's text is narrower than the select less its padding and arrow.
    const cut = await narrow.page.evaluate(() => ['model', 'gpu'].filter((id) => {
      const s = document.getElementById(id);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = getComputedStyle(s).font;
      return ctx.measureText(s.selectedOptions[0].textContent).width > s.clientWidth - 40;
    }));
    assert.deepEqual(cut, []);
    // The whole id, the weights and the geometry: the line under the model's picker (a picker
    // as narrow as a phone's still cuts the longest preset name, 325 px of text in 300).
    assert.match(await narrow.page.textContent('[data-testid="custom-geometry"]'), /^Qwen\/Qwen3-8B: 15\.27 GiB, 8 (KV heads|个 KV 头) × 128/);
    await narrow.page.screenshot({ path: path.join(SHOTS, `first-screen-360-${lang}.png`) });
    assert.deepEqual(narrow.problems, []);
    await narrow.context.close();

    // A link that sets something kept one click away (here TP 2) opens those settings: what is
    // in force is in view.
    const shared = await openReady(env, `?lang=${lang}&tp=2`, { viewport: { width: 1280, height: 900 } });
    await shared.page.waitForSelector('#tp', { state: 'visible' });
    assert.equal(await shared.page.inputValue('#tp'), '2');
    assert.equal(await urlParam(shared.page, 'more', '1'), '1');
    await shared.context.close();
  });
}

test('Qwen2.5-7B on an H100 at 4K with max_num_seqs 64: both curves and the point in range', () =>
  shoot('qwen25-7b-h100-4k-seqs64', '?model=Qwen/Qwen2.5-7B-Instruct&gpu=h100-sxm&ctx=4096&seqs=64', {
    scrollTo: 'chart-concurrency',
    check: async (page) => assert.equal(await value(page, 'max-seqs'), '64'),
  }));

test('Qwen3-8B on an RTX 4090 at 32K, BF16', () =>
  shoot('qwen3-8b-4090-32k', '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=32768&kv=auto', {
    scrollTo: 'chart-memory',
    check: async (page) => assert.ok(Number(await value(page, 'max-seqs')) >= 1),
  }));

test('Qwen3-14B on an RTX 4090: does not load, with its fixes', () =>
  shoot('qwen3-14b-4090-does-not-load', '?model=Qwen/Qwen3-14B&gpu=rtx-4090', {
    check: async (page) => assert.equal(await value(page, 'refusal'), 'weights-do-not-fit'),
  }));

test('Qwen3.5-9B (Gated DeltaNet hybrid) on an L40S at 32K: the state band, the raised block, the derivation', () =>
  shoot('qwen35-9b-l40s-32k-hybrid', '?model=Qwen/Qwen3.5-9B&gpu=l40s&ctx=32768&vllm=0.19', {
    scrollTo: 'chart-memory',
    check: async (page) => {
      assert.ok(Number(await value(page, 'max-seqs')) >= 1);
      const text = await page.locator('body').innerText();
      assert.match(text, /Setting attention block size to 528 tokens/);
      assert.match(text, /24 Gated DeltaNet layers/);
      assert.match(text, /not a capacity/);
    },
  }));

test('Qwen3.5-9B: the derivations of the state and the blocks', () =>
  shoot('qwen35-9b-l40s-32k-derivation', '?model=Qwen/Qwen3.5-9B&gpu=l40s&ctx=32768&vllm=0.19', {
    scrollTo: 'derivations',
  }));

test('gpt-oss-20b on an H100 at 128K: sliding-window groups, the concurrency curve', () =>
  shoot('gpt-oss-20b-h100-128k', '?model=openai/gpt-oss-20b&gpu=h100-sxm&ctx=131072&vllm=0.19', {
    scrollTo: 'chart-concurrency',
    check: async (page) => assert.ok(Number(await value(page, 'max-seqs')) >= 1),
  }));

for (const mode of ['1', 'memory', 'concurrency', 'roofline']) {
  test(`embed=${mode} in a 700 px frame of a light course page (reader in dark mode)`, async () => {
    const context = await env.b.newContext({ viewport: { width: 820, height: 900 }, colorScheme: 'dark' });
    const page = await context.newPage();
    const url = `${env.srv.base}?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&embed=${mode}&theme=light`;
    await page.setContent(`<!doctype html><body style="background:#fff;color:#222;font:16px sans-serif;margin:20px">
      <h1 style="font-size:20px">Lesson 3: the KV cache budget</h1><p>Try the scenario below.</p>
      <div style="width:700px"><iframe id="kvbudget-frame" src="${url}" width="100%" height="300" style="border:0" title="kvbudget"></iframe></div>
      <script>addEventListener("message",function(e){var f=document.getElementById("kvbudget-frame");
      if(f&&e.source===f.contentWindow&&e.data&&e.data.type==="kvbudget:height")f.style.height=e.data.height+"px";});</script></body>`);
    const frame = await (await page.waitForSelector('#kvbudget-frame')).contentFrame();
    await frame.waitForSelector('[data-testid^="chart-"] svg');
    await page.waitForFunction(() => document.getElementById('kvbudget-frame').getBoundingClientRect().height > 300);
    // The frame is as tall as its content: nothing scrolls inside it.
    const inner = await frame.evaluate(() => document.documentElement.scrollHeight);
    const outer = await page.evaluate(() => document.getElementById('kvbudget-frame').getBoundingClientRect().height);
    assert.ok(Math.abs(inner - outer) <= 2, `frame ${outer} px, content ${inner} px`);
    await page.screenshot({ path: path.join(SHOTS, `embed-${mode === '1' ? 'card' : mode}-700.png`) });
    await context.close();
  });
}
