// The calculator in a real Chromium, served from a sub-path: numbers, edits, URL state, embeds.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { suite, openPage, urlParam, SHOTS, ROOT } from './harness.mjs';
import {
  sel, field, value, text, count, ready, openReady, fill, select, click, fieldValue, fieldInvalid, fieldError,
  waitValue, waitNonEmpty, waitField, openEmbed, embedSnippet, pwned, repertoire, repertoireButton, CHARTS, ANY_CHART, INPUTS_FORM,
  chartSvg, chartBox, REFUSAL, RESULTS_READY, RESULTS_TITLE, EMBED_FULL_LINK, INJECTED_IMG,
} from './page.mjs';

const env = suite();
before(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

const ISSUE_URL = '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&util=0.9&ctx=8192&vllm=0.11';
// The same with the course lab's single 1 GiB overhead, for numbers derived by hand.
const SEED_URL = ISSUE_URL + '&overhead_gib=1';

function cli(args) {
  const bin = path.join(ROOT, 'target/debug/kvbudget');
  try {
    return JSON.parse(execFileSync(bin, args, { encoding: 'utf8' }));
  } catch (e) {
    if (e.stdout) return JSON.parse(e.stdout);
    throw e;
  }
}

test('the issue scenario shows the same numbers as `kvbudget vllm`', async () => {
  const out = cli(['vllm', '--model', 'Qwen/Qwen3-14B-AWQ', '--gpu', 'rtx-4090', '--kv-cache-dtype', 'fp8',
    '--gpu-memory-utilization', '0.9', '--max-model-len', '8192', '--vllm-version', '0.11', '--json']);
  const { context, page, problems } = await openReady(env, ISSUE_URL, { viewport: { width: 1280, height: 900 } });
  assert.equal(await value(page, 'kv-pool-bytes'), String(out.available_kv_bytes));
  assert.equal(await value(page, 'kv-tokens'), String(out.gpu_kv_cache_tokens));
  assert.equal(await value(page, 'vllm-lines'), out.lines.join('\n'));
  assert.equal((await text(page, 'vllm-lines')).trim(), out.lines.join('\n'));
  // 2 × 40 × 8 × 128 × 1 = 81,920 B per token.
  assert.equal(await value(page, 'bytes-per-token'), '81920');
  assert.equal(await value(page, 'max-seqs'), String(out.max_seqs_capped));
  assert.ok(await page.isVisible(sel('range-note')));
  assert.match(await value(page, 'serve-command'), /^vllm serve Qwen\/Qwen3-14B-AWQ --max-model-len 8192 --gpu-memory-utilization 0\.9 --kv-cache-dtype fp8/);
  for (const id of CHARTS) {
    assert.equal(await count(page, chartSvg(id)), 1, id);
  }
  await page.screenshot({ path: path.join(SHOTS, 'calculator-1280-light.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('editing updates numbers, charts and the URL; bad text keeps the last good value', async () => {
  const { context, page, problems } = await openReady(env, SEED_URL);
  const chartBefore = await page.innerHTML(chartBox('chart-concurrency'));
  // FP8 → auto (fp16 for this AWQ checkpoint): 163,840 B per token, 8 sequences.
  await select(page, 'kv', 'auto');
  assert.equal(await value(page, 'bytes-per-token'), '163840');
  assert.equal(await value(page, 'max-seqs'), '8');
  assert.notEqual(await page.innerHTML(chartBox('chart-concurrency')), chartBefore);
  assert.equal(await urlParam(page, 'kv', 'auto'), 'auto');

  // A bad context: the message names the field and range, the numbers stay.
  await fill(page, 'ctx', '12x');
  assert.match(await fieldError(page, 'ctx'), /max_model_len: "12x" is not a whole number of tokens from 16 to 10,485,760/);
  assert.equal(await fieldInvalid(page, 'ctx'), 'true');
  assert.equal(await value(page, 'max-seqs'), '8');
  assert.equal(await fieldValue(page, 'ctx'), '12x');
  // A good one: pool 11,548,093,317 B // (2 × 16 × 8 × 128 × 2 = 65,536 B per block-layer) // 40 layers
  // = 4,405 blocks; a 4,096-token sequence takes 256 → 17 sequences.
  await fill(page, 'ctx', '4,096');
  assert.equal(await fieldError(page, 'ctx'), '');
  assert.equal(await urlParam(page, 'ctx', '4096'), '4096');
  assert.equal(await value(page, 'max-seqs'), '17');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the primer a reader opened stays open through edits', async () => {
  const { context, page, problems } = await openReady(env, SEED_URL);
  await page.click('details.primer > summary');
  assert.equal(await page.getAttribute('details.primer', 'open'), '');
  // FP8 → auto: 163,840 B per token, 8 sequences (as above); the derivations are redrawn.
  await select(page, 'kv', 'auto');
  assert.equal(await value(page, 'max-seqs'), '8');
  assert.equal(await page.getAttribute('details.primer', 'open'), '');
  assert.equal(await count(page, 'details.primer'), 1);
  // Its wrapper is `display: contents`; hidden (while nothing has evaluated) it must still hide.
  const hiddenDisplay = await page.evaluate(() => {
    const d = document.createElement('div');
    d.className = 'part';
    d.hidden = true;
    document.querySelector('section.results').append(d);
    const display = getComputedStyle(d).display;
    d.remove();
    return display;
  });
  assert.equal(hiddenDisplay, 'none');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an edit changes the page in place, and leaves it as a fresh load of the new URL would be', async () => {
  const { context, page, problems } = await openReady(env, SEED_URL);
  // Each chart's drawn <svg> is marked with a property (not an attribute: the markup is compared).
  const marked = () => page.evaluate(() => [...document.querySelectorAll('[data-testid^="chart-"] svg')].map((s) => s.kept === true));
  await page.evaluate(() => document.querySelectorAll('[data-testid^="chart-"] svg').forEach((s) => { s.kept = true; }));
  // Another model and KV dtype: every number, label and curve changes, and the charts' elements
  // differ in number (tick labels, labels inside the bars). Qwen2.5-7B, auto KV:
  // 2 × 28 layers × 4 KV heads × 128 × 2 B = 57,344 B per token.
  await select(page, 'model', 'Qwen/Qwen2.5-7B-Instruct');
  await select(page, 'kv', 'auto');
  await waitValue(page, 'bytes-per-token', '57344');
  assert.deepEqual(await marked(), [true, true, true], 'the charts were changed in place, not drawn anew');
  const boxes = ['p-answer', 'p-top', 'p-bottom', ...CHARTS.map((c) => `p-${c}`)];
  const html = (p) => p.evaluate((ids) => ids.map((id) => document.getElementById(id).innerHTML), boxes);
  const edited = await html(page);
  await urlParam(page, 'kv', 'auto');
  const fresh = await openReady(env, new URL(page.url()).search);
  await waitValue(fresh.page, 'bytes-per-token', '57344');
  const loaded = await html(fresh.page);
  boxes.forEach((id, i) => assert.equal(edited[i], loaded[i], id));
  assert.deepEqual(problems, []);
  assert.deepEqual(fresh.problems, []);
  await fresh.context.close();
  await context.close();
});

test('the charts are drawn again at their new width when the window is resized', async () => {
  const { context, page, problems } = await openReady(env, SEED_URL, { viewport: { width: 1280, height: 900 } });
  const drawn = () => page.getAttribute(`${chartBox('chart-memory')} svg`, 'width');
  // Drawn at the box's width, rounded down to 10 px: wider than a phone at 1280 px.
  assert.ok(Number(await drawn()) > 600, await drawn());
  await page.setViewportSize({ width: 400, height: 900 });
  await page.waitForFunction((s) => Number(document.querySelector(s)?.getAttribute('width')) <= 400,
    `${chartBox('chart-memory')} svg`);
  assert.ok(Number(await drawn()) <= 400, await drawn());
  assert.deepEqual(problems, []);
  await context.close();
});

test('scrolling down to the GPU table moves nothing: a chart not drawn yet is as tall as drawn', async () => {
  for (const width of [1280, 390]) {
    const { context, page, problems } = await openReady(env, SEED_URL, { viewport: { width, height: 800 } });
    const gpus = page.locator('details.gpus > summary');
    const top = () => gpus.evaluate((e) => Math.round(e.getBoundingClientRect().top + window.scrollY));
    const before = await top();
    // Scrolling to it brings the charts above it into view, drawn only then (content-visibility).
    await gpus.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    assert.equal(await top(), before, `the GPU table's summary moved at ${width} px`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('reload and back/forward restore the scenario', async () => {
  const { context, page, problems } = await openReady(env, SEED_URL);
  await select(page, 'gpu', 'h100-sxm');
  await urlParam(page, 'gpu', 'h100-sxm');
  // The keystrokes' writes (250 ms after the last) go into one entry of their own, not into the
  // GPU's: a reader who pauses while typing, then leaves the field, finds the GPU's entry behind
  // it, and not the value typed on the way.
  await fill(page, 'ctx', '16384');
  await urlParam(page, 'ctx', '16384');
  await fill(page, 'ctx', '32768');
  await urlParam(page, 'ctx', '32768');
  await page.press(field('ctx'), 'Tab'); // change event: the edit is committed
  const h100Seqs = await value(page, 'max-seqs');
  await page.reload();
  await ready(page);
  assert.equal(await fieldValue(page, 'ctx'), '32768');
  assert.equal(await fieldValue(page, 'gpu'), 'h100-sxm');
  assert.equal(await value(page, 'max-seqs'), h100Seqs);
  await page.goBack();
  await waitField(page, 'ctx', '8192');
  assert.equal(await fieldValue(page, 'gpu'), 'h100-sxm');
  await page.goBack();
  await waitField(page, 'gpu', 'rtx-4090');
  assert.equal(await value(page, 'max-seqs'), '17');
  await page.goForward();
  await waitField(page, 'gpu', 'h100-sxm');
  // Text refused in a field belongs to the entry it was typed in: Forward shows the next entry's
  // value, not the refused text (it stayed, with its message, beside a page showing 32,768).
  await fill(page, 'ctx', '99999999999');
  await page.goForward();
  await waitField(page, 'ctx', '32768');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the URL opened is written back in its canonical form in place, not as a new history entry', async () => {
  // `ctx=8k` is 8,192 tokens: the page writes `ctx=8192` 250 ms after its first render, replacing
  // the entry it was opened with. Back then leaves the page (to the blank tab it was opened from);
  // with a new entry it would return to the same scenario spelt `ctx=8k`.
  const { context, page, problems } = await openReady(env, SEED_URL.replace('ctx=8192', 'ctx=8k'));
  await urlParam(page, 'ctx', '8192');
  await page.goBack();
  assert.equal(page.url(), 'about:blank');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a bad URL parameter gets a notice naming it; everything else is kept', async () => {
  const { context, page, problems } = await openReady(env, ISSUE_URL.replace('ctx=8192', 'ctx=-5') + '&colour=blue');
  assert.equal(await value(page, 'notice'), 'colour,ctx');
  const notice = await text(page, 'notice');
  assert.match(notice, /“ctx”: max_model_len: "-5" is not a whole number/);
  assert.match(notice, /“colour”: not a parameter kvbudget knows/);
  assert.equal(await value(page, 'bytes-per-token'), '81920'); // fp8 kept
  assert.equal(await fieldValue(page, 'ctx'), '8192'); // default used for ctx only
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 16 GB card: Qwen3-8B does not fit, its weights say why, and the AWQ model does', async () => {
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-5080&kv=fp8&ctx=8192&overhead_gib=1', { viewport: { width: 360, height: 740 } });
  assert.equal(await value(page, 'max-seqs'), '0');
  // 15.27 GiB of weights on a 15.50 GiB card do not load: no KV line, never a negative one.
  assert.equal(await value(page, 'refusal'), 'weights-do-not-fit');
  // No line vLLM or PyTorch would not print: PyTorch's message names the allocation that failed,
  // so the page gives its own reckoning, said as kvbudget's: 15.27 + 0.50 = 15.77 GiB > 15.50 GiB.
  assert.match(await text(page, 'refusal-note'), /^kvbudget's reckoning, not a line vLLM prints: the weights take 15\.27 GiB per GPU and CUDA and PyTorch hold about 0\.50 GiB before them, 15\.77 GiB in all, more than the GPU's 15\.50 GiB\./);
  assert.ok(!(await page.textContent(REFUSAL)).includes('CUDA out of memory'));
  assert.ok(!(await value(page, 'vllm-lines')).includes('OutOfMemoryError'));
  assert.ok(!(await value(page, 'vllm-lines')).includes('Available KV cache memory'));
  await select(page, 'model', 'Qwen/Qwen3-14B-AWQ');
  // ⌈16,642,998,272 B × 0.92⌉ = 15,311,558,411 − ⌊9.44 × 2³⁰⌋ 10,136,122,818 − 1 GiB = 4,101,693,769 B;
  // // (2 × 16 × 8 × 128 × 1 = 32,768) // 40 layers = 3,129 blocks // 512 per 8K sequence = 6.
  assert.equal(await value(page, 'kv-pool-bytes'), '4101693769');
  assert.equal(await value(page, 'max-seqs'), '6');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: path.join(SHOTS, 'calculator-360.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('dark scheme', async () => {
  const { context, page, problems } = await openReady(env, ISSUE_URL, { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(21, 23, 27)');
  // Chart text follows the scheme (drawn in currentColor).
  const textFill = await page.evaluate((s) => getComputedStyle(document.querySelector(s)).fill, `${chartSvg('chart-concurrency')} text`);
  assert.equal(textFill, 'rgb(230, 231, 234)');
  await page.screenshot({ path: path.join(SHOTS, 'calculator-1280-dark.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a printout shows the repertoire\'s model names (each is the button that loads its row)', async () => {
  const { context, page, problems } = await openReady(env, ISSUE_URL, { viewport: { width: 1280, height: 900 } });
  await page.emulateMedia({ media: 'print' });
  const names = await page.evaluate(() => [...document.querySelectorAll('.repertoire tbody th')].map((th) => th.innerText.trim()));
  // Three models of the course repertoire, each with BF16/FP16 and FP8 KV.
  assert.equal(names.length, 6);
  assert.ok(names.every((n) => /^Qwen/.test(n)), names.join(', '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('embed modes and the embed snippet', async () => {
  const compact = await openReady(env, ISSUE_URL + '&embed=1');
  assert.equal(await count(compact.page, INPUTS_FORM), 0);
  assert.equal(await count(compact.page, ANY_CHART), 3);
  const full = await compact.page.getAttribute(EMBED_FULL_LINK, 'href');
  assert.ok(!full.includes('embed='), full);
  assert.deepEqual(compact.problems, []);
  await compact.context.close();

  const one = await openPage(env.b, env.srv.base + ISSUE_URL + '&embed=roofline');
  await one.page.waitForSelector(chartSvg('chart-roofline'));
  assert.equal(await count(one.page, ANY_CHART), 1);
  assert.equal(await count(one.page, RESULTS_READY), 0);
  assert.deepEqual(one.problems, []);
  await one.context.close();

  const { context, page } = await openReady(env, ISSUE_URL);
  await openEmbed(page);
  const snippet = await embedSnippet(page);
  assert.match(snippet, /^<iframe class="kvbudget-frame" src="http:\/\/127\.0\.0\.1:\d+\/courses\/llm-serving\/kvbudget\/\?model=Qwen%2FQwen3-14B-AWQ&amp;kv=fp8&amp;.*embed=1&amp;theme=light" width="100%" height="1900" [^>]*allow="clipboard-write"/);
  // One chart, dark: the snippet follows the builder's choices and suggests that mode's height.
  await page.selectOption(sel('embed-mode'), 'concurrency');
  await page.selectOption(sel('embed-theme'), 'dark');
  await page.waitForFunction((s) => document.querySelector(s).value.includes('embed=concurrency&amp;theme=dark'), sel('embed-snippet'));
  assert.match(await embedSnippet(page), /height="560"/);
  await context.close();
});

test('four embeds on one course page each follow their own content, growing and shrinking', async () => {
  // The four snippets the builder writes (card, memory, concurrency, roofline), pasted one after
  // another into one course page, as a teacher would.
  const modes = ['1', 'memory', 'concurrency', 'roofline'];
  const builder = await openReady(env, ISSUE_URL + '&theme=light');
  await openEmbed(builder.page);
  const snippets = [];
  for (const m of modes) {
    await builder.page.selectOption(sel('embed-mode'), m);
    await builder.page.waitForFunction(([s, m]) => document.querySelector(s).value.includes(`embed=${m}&amp;`), [sel('embed-snippet'), m]);
    snippets.push(await embedSnippet(builder.page));
  }
  await builder.context.close();
  // Each snippet names no id of its own: four on a page must not collide.
  for (const s of snippets) assert.doesNotMatch(s, / id="/);

  const context = await env.b.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // A course page (not about:blank first: Chromium then refuses the loopback frames).
  await page.setContent(`<!doctype html><body style="margin:0 8px;background:#fff;font:16px serif">
    ${snippets.map((s, i) => `<h2>Part ${i + 1}</h2>\n${s}`).join('\n<p>Course text between the frames.</p>\n')}</body>`);
  const frames = () => page.$$('iframe.kvbudget-frame');
  assert.equal((await frames()).length, 4);
  // Every frame's height against the bottom of its content (the embedded view's main element),
  // once all four have loaded and posted; lazy frames load as they are scrolled to.
  const gaps = async () => {
    const out = [];
    for (const handle of await frames()) {
      await handle.scrollIntoViewIfNeeded();
      const frame = await handle.contentFrame();
      await frame.waitForSelector('html[data-app="live"]', { state: 'attached', timeout: 20000 });
      const content = await frame.evaluate(() => Math.ceil(document.querySelector('main.embed').getBoundingClientRect().bottom + scrollY));
      const outer = (await handle.boundingBox()).height;
      out.push({ content, outer });
    }
    return out;
  };
  const settled = async (label) => {
    let last;
    for (let attempt = 0; attempt < 40; attempt++) {
      last = await gaps();
      if (last.every(({ content, outer }) => Math.abs(content - outer) <= 2)) return last;
      await page.waitForTimeout(250);
    }
    assert.fail(`${label}: frame heights do not follow their content: ${JSON.stringify(last)}`);
  };
  // (Chromium does not paint frames far out of view: the screenshot is taken with a viewport as
  // tall as the course page, the width unchanged.)
  const shot = async (name) => {
    const size = page.viewportSize();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: size.width, height });
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(SHOTS, name) });
    await page.setViewportSize(size);
  };
  const wide = await settled('1280 px');
  // The snippet's suggested heights (card 1900, memory 450, charts 560) are a start: the card,
  // shorter at 1264 px than at 700, shrank to its content.
  assert.ok(wide[0].outer < 1900, JSON.stringify(wide));
  await shot('course-page-four-embeds-1280.png');
  // A phone: the content reflows taller and each frame grows with it ...
  await page.setViewportSize({ width: 390, height: 844 });
  const narrow = await settled('390 px');
  for (let i = 0; i < 4; i++) assert.ok(narrow[i].outer > wide[i].outer, `frame ${i} grew: ${JSON.stringify([wide[i], narrow[i]])}`);
  await shot('course-page-four-embeds-390.png');
  // ... and shrinks back when the page is wide again.
  await page.setViewportSize({ width: 1280, height: 900 });
  const back = await settled('1280 px again');
  for (let i = 0; i < 4; i++) assert.ok(back[i].outer < narrow[i].outer, `frame ${i} shrank: ${JSON.stringify([narrow[i], back[i]])}`);
  // ?theme=light fixes the scheme whatever the reader's is.
  const frame = page.frames().find((f) => f.url().includes('embed=1'));
  assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'light');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a custom model whose name is markup stays text', async () => {
  const name = encodeURIComponent('<img src=x onerror=window.__pwned=1></svg><script>window.__pwned=2</script>');
  const { context, page, problems } = await openReady(env, `?model=custom&name=${name}&layers=32&heads=32&kv_heads=8&head_dim=128&weights_gib=14`);
  // 2 × 32 × 8 × 128 × 2 = 131,072 B per token.
  assert.equal(await value(page, 'bytes-per-token'), '131072');
  assert.equal(await pwned(page), undefined);
  assert.equal(await count(page, INJECTED_IMG), 0);
  assert.match(await page.textContent(RESULTS_TITLE), /<img src=x onerror=/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('choosing a repertoire row loads it', async () => {
  const { context, page } = await openReady(env, ISSUE_URL);
  await page.click(repertoireButton('Qwen2.5-7B-Instruct-auto'));
  // 2 × 28 × 4 × 128 × 2 = 57,344 B per token.
  await waitValue(page, 'bytes-per-token', '57344');
  assert.equal(await fieldValue(page, 'model'), 'Qwen/Qwen2.5-7B-Instruct');
  // The table sits far below the answer: the click brings the answer, now the row's, into view.
  await page.waitForFunction(() => {
    const r = document.getElementById('results-title').getBoundingClientRect();
    return r.top > -1 && r.bottom <= innerHeight;
  });
  await context.close();
});

test('with prompt and trace tokens, the repertoire row of the current model shows the results panel\'s count', async () => {
  // The repertoire used to evaluate at max_model_len while the results used prompt + trace.
  // Qwen3-8B BF16 on an RTX 4090 with the lab's 1 GiB: 2,455 blocks (tests/repertoire.rs);
  // 1,000 + 4,000 = 5,000 tokens need ⌈5,000 / 16⌉ = 313 blocks → 7 sequences (at 8,192: 4).
  const { context, page, problems } = await openReady(env, '?model=Qwen/Qwen3-8B&gpu=rtx-4090&ctx=8192&prompt=1000&trace=4000&overhead_gib=1');
  assert.equal(await value(page, 'max-seqs'), '7');
  assert.equal((await repertoire(page, 'Qwen3-8B-auto'))['Sequences that fit'], '7');
  // Editing the trace moves both together: 1,000 + 2,000 = 3,000 tokens → ⌈3,000 / 16⌉ = 188 blocks → 13.
  await fill(page, 'trace', '2000');
  await waitValue(page, 'max-seqs', '13');
  assert.equal((await repertoire(page, 'Qwen3-8B-auto'))['Sequences that fit'], '13');
  assert.deepEqual(problems, []);
  await context.close();
});

test('copy link puts the scenario URL on the clipboard; a refused clipboard is reported, not thrown', async () => {
  const granted = await openReady(env, ISSUE_URL, { permissions: ['clipboard-read', 'clipboard-write'] });
  await click(granted.page, 'copy-link');
  await waitNonEmpty(granted.page, 'copy-status');
  assert.equal(await text(granted.page, 'copy-status'), 'Copied the link.');
  const copied = await granted.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(new URL(copied).searchParams.get('model'), 'Qwen/Qwen3-14B-AWQ');
  assert.equal(new URL(copied).searchParams.get('kv'), 'fp8');
  assert.deepEqual(granted.problems, []);
  await granted.context.close();

  const refused = await openReady(env, ISSUE_URL);
  await refused.page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
  });
  await click(refused.page, 'copy-link');
  await waitNonEmpty(refused.page, 'copy-status');
  assert.match(await text(refused.page, 'copy-status'), /refused the clipboard/);
  assert.deepEqual(refused.problems, []);
  await refused.context.close();
});

test('the overhead: kvbudget\'s estimate by default, the course lab\'s 1 GiB one click away', async () => {
  const { context, page, problems } = await openReady(env, ISSUE_URL);
  const estimated = await value(page, 'kv-pool-bytes');
  assert.match(await page.getAttribute(field('overhead'), 'placeholder'), /^estimate: \d+\.\d\d GiB ± /);
  await click(page, 'overhead-seed');
  // The seed's figure: 11,548,093,317 B (tests/vllm_vectors.rs budget_path_on_an_rtx_4090).
  await waitValue(page, 'kv-pool-bytes', '11548093317');
  assert.equal(await urlParam(page, 'overhead_gib', '1'), '1');
  assert.equal(await count(page, sel('range-note')), 0);
  await click(page, 'overhead-estimate');
  await waitValue(page, 'kv-pool-bytes', estimated);
  assert.equal(await urlParam(page, 'overhead_gib', null), null);
  assert.deepEqual(problems, []);
  await context.close();
});
