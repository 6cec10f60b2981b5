// The page in Simplified Chinese: `?lang=zh-CN` renders the calculator, the refusal state, the log
// check and an embed in Chinese (no English left but vLLM's own lines, the serve command, model
// ids and units), with the same data-values as English; switching language keeps the scenario;
// screenshots of both languages at 1280 and 360 px.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { suite, openPage, urlParam, SHOTS, ROOT } from './harness.mjs';
import { sel, value, click, fill, ready, openReady, ANY_CHART_SVG, LOG_COMPARE, VERIFY_SUMMARY } from './page.mjs';

const env = suite();
before(() => fs.mkdirSync(SHOTS, { recursive: true }));

// Words that stay as they are in the Chinese page: units, products, engines, model and GPU names,
// and the dtypes and flags people type.
const KEEP = new Set(`GiB MiB KiB GB TFLOPS FLOPs KV GPU GPUs CPU MLA MHA GQA LoRA SGLang vLLM kvbudget BF FP CUDA
Graph NCCL EAGLE TP PP DCP MoE MLP RoPE token tokens int min max Hub JSON config json auto bfloat float fp head dim
SVG CSV English Gated DeltaNet Mamba Qwen Instruct AWQ RTX SXM PCIe Ada Llama Scout DeepSeek Gemma Nemotron Nano Next
oss gpt Blackwell Hopper Ampere NVIDIA AMD Instinct MI kvbudget Hugging Face huggingface auto serve log
rank Transformer key value profile torch PyTorch OutOfMemoryError Roofline PagedAttention logits OOM`.split(/\s+/));

/** Visible text and accessible names of the page, outside code blocks and the pickers' options. */
async function uiText(page) {
  return page.evaluate(() => {
    const skip = (el) => el.closest('pre, code, option, script, style, textarea, noscript');
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || skip(el) || el.closest('[hidden]')) continue;
      // Hidden text is skipped; off-screen panels (content-visibility: auto) still count.
      if (el.closest('svg') == null && !el.checkVisibility()) continue;
      out.push(n.textContent);
    }
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (skip(el)) continue;
      for (const a of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    return out.join('\n');
  });
}

/** English words left: runs of 3+ ASCII letters that are not identifiers (with _ or -) or kept. */
function englishLeft(text) {
  const left = new Set();
  for (const m of text.matchAll(/[A-Za-z0-9_.\-/]+/g)) {
    const w = m[0];
    if (/[_\-/.]/.test(w.replace(/\.$/, '')) || /\d/.test(w)) continue;
    const word = w.replace(/\.$/, '');
    if (word.length >= 3 && !KEEP.has(word)) left.add(word);
  }
  return [...left];
}

/** Every data-value on the page, by test id. */
const dataValues = (page) => page.evaluate(() => Object.fromEntries(
  [...document.querySelectorAll('[data-testid][data-value]')].map((e) => [e.dataset.testid, e.dataset.value])));

const SCENARIO = '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192';

test('?lang=zh-CN: the calculator in Chinese with the same figures as English', async () => {
  const en = await openReady(env, SCENARIO + '&lang=en');
  const zh = await openReady(env, SCENARIO + '&lang=zh-CN');
  await zh.page.waitForSelector(ANY_CHART_SVG);
  await en.page.waitForSelector(ANY_CHART_SVG);
  assert.equal(await zh.page.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal(await en.page.getAttribute('html', 'lang'), 'en');
  assert.match(await zh.page.title(), /KV 缓存预算/);
  // The same numbers, to the byte: 14,745,600 B of FP8 KV… every data-value the page carries.
  const [ev, zv] = [await dataValues(en.page), await dataValues(zh.page)];
  assert.ok(Object.keys(ev).length >= 10, JSON.stringify(ev));
  assert.deepEqual(zv, ev);
  assert.match(await zh.page.textContent(sel('max-seqs') + ' >> xpath=..'), /可容纳的序列数/);
  const left = englishLeft(await uiText(zh.page));
  assert.deepEqual(left, [], `English left on the Chinese page: ${left.join(', ')}`);
  // vLLM's own lines stay verbatim.
  assert.match(await value(zh.page, 'vllm-lines'), /GPU KV cache size: [\d,]+ tokens/);
  assert.deepEqual([...en.problems, ...zh.problems], []);
  await en.context.close();
  await zh.context.close();
});

test('the refusal state and the derivations of a hybrid in Chinese', async () => {
  for (const q of ['?model=Qwen/Qwen3-14B&gpu=rtx-4090', '?model=Qwen/Qwen3-8B&gpu=l4&ctx=131072',
    '?model=Qwen/Qwen3.5-9B&gpu=l40s&ctx=32768&vllm=0.19', '?model=openai/gpt-oss-20b&gpu=h100-sxm&ctx=131072']) {
    const { context, page, problems } = await openReady(env, q + '&lang=zh-CN');
    const left = englishLeft(await uiText(page));
    assert.deepEqual(left, [], `${q}: ${left.join(', ')}`);
    assert.deepEqual(problems, [], q);
    await context.close();
  }
});

test('switching language keeps the scenario, and comes back', async () => {
  const { context, page, problems } = await openReady(env, SCENARIO + '&seqs=3');
  const before = await dataValues(page);
  // Text typed but refused survives the switch, its message written anew in the new language.
  await fill(page, 'tp', '65');
  assert.match(await page.textContent(sel('error-tp')), /tensor-parallel size must be a whole number from 1 to 64/);
  await page.click('details.more-flags > summary');
  await page.click('details.gpus > summary');
  await page.waitForSelector(`${sel('gpu-table')} tbody tr`);
  await page.click('details.primer > summary');
  // Text pasted into the config import, not yet imported, stays through the switch too.
  await page.click('details.import > summary');
  await page.fill('#config-text', '{"num_hidden_layers": 2');
  // (A reader changes the language on the switch, which has the focus.)
  await page.focus(sel('lang'));
  await page.selectOption(sel('lang'), 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await urlParam(page, 'lang', 'zh-CN'), 'zh-CN');
  await ready(page);
  for (const k of ['model', 'gpu', 'kv', 'ctx', 'seqs']) assert.ok(new URL(page.url()).searchParams.get(k), k);
  assert.deepEqual(await dataValues(page), before);
  assert.match(await page.textContent('#results-title + *') ?? '', /./);
  assert.match(await page.textContent('.stats'), /可容纳的序列数/);
  assert.equal(await page.inputValue('#tp'), '65');
  assert.equal(await page.getAttribute('#tp', 'aria-invalid'), 'true');
  // The panels the reader had open are open again in the new language (the GPU table with its
  // rows, drawn a frame after the rest).
  await page.waitForSelector(`${sel('gpu-table')} tbody tr`);
  for (const panel of ['details.more-flags', 'details.gpus', 'details.import', 'details.primer']) {
    assert.equal(await page.getAttribute(panel, 'open'), '', panel);
  }
  assert.equal(await page.inputValue('#config-text'), '{"num_hidden_layers": 2');
  assert.match(await page.textContent(sel('error-tp')), /张量并行/);
  // The switch keeps the keyboard focus, and the redrawn page survives a resize.
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'lang');
  await page.setViewportSize({ width: 900, height: 800 });
  await page.waitForTimeout(200);
  await page.selectOption(sel('lang'), 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.match(await page.textContent('.stats'), /Sequences that fit/);
  assert.match(await page.textContent(sel('error-tp')), /tensor-parallel size/);
  await fill(page, 'tp', '');
  await fill(page, 'tp', '1');
  await page.press('#tp', 'Enter');
  assert.deepEqual(await dataValues(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the embed builder and the language switch through a change of language, back and forward', async () => {
  const { context, page, problems } = await openReady(env, SCENARIO + '&lang=en');
  // The builder, open with the memory chart in dark: still open after the switch, its pickers and
  // its snippet agreeing, the button saying it is expanded.
  // (Each pick reloads the preview, an embedded page: it is let load before the next. The frame's
  // element takes the new address at once, while its old page still shows: the wait is for the new
  // page's chart, which a Chinese page draws once the worker has sent its texts. Closing the
  // builder while that page still fetched the worker aborted the fetch.)
  const previewed = async (part, chart) => {
    const frame = await (await page.waitForSelector(`#embed-preview iframe[src*="${part}"]`)).contentFrame();
    await frame.waitForURL((url) => url.href.includes(part));
    await frame.waitForSelector(`[data-testid="${chart}"] svg`);
  };
  await page.click('button[data-action="embed"]');
  await previewed('embed=1', 'chart-concurrency');
  await page.selectOption('#embed-mode', 'memory');
  await previewed('embed=memory', 'chart-memory');
  await page.selectOption('#embed-theme', 'dark');
  await previewed('theme=dark', 'chart-memory');
  // The preview loads its page once in the new language (its frame written whole, its title and
  // its address in two steps, loaded it twice).
  let loads = 0;
  page.on('framenavigated', (f) => { if (f !== page.mainFrame()) loads += 1; });
  await page.focus(sel('lang'));
  await page.selectOption(sel('lang'), 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await ready(page);
  assert.equal(await page.inputValue('#embed-mode'), 'memory');
  assert.equal(await page.inputValue('#embed-theme'), 'dark');
  await page.waitForFunction(() => /lang=zh-CN/.test(document.querySelector('#embed-code').value));
  const snippet = await page.inputValue('#embed-code');
  assert.match(snippet, /embed=memory/);
  assert.match(snippet, /theme=dark/);
  assert.equal(await page.getAttribute('button[data-action="embed"]', 'aria-expanded'), 'true');
  assert.equal(await page.isVisible('#embed-box'), true);
  await previewed('lang=zh-CN', 'chart-memory');
  await page.waitForTimeout(300);
  assert.equal(loads, 1);
  // Closed, then back to English (the switch added a history entry): no preview frame is left
  // running in the hidden builder, and the switch shows the language the page is drawn in, back
  // and forward.
  await page.click('button[data-action="embed"]');
  await urlParam(page, 'lang', 'zh-CN');
  await page.goBack();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.inputValue(sel('lang')), 'en');
  assert.equal(await page.getAttribute('button[data-action="embed"]', 'aria-expanded'), 'false');
  assert.equal(await page.isVisible('#embed-box'), false);
  assert.equal(await page.locator('#embed-preview iframe').count(), 0);
  await page.goForward();
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await page.inputValue(sel('lang')), 'zh-CN');
  // The preview's pages are no entries of the page's history (a new address is a new frame):
  // two steps back from the Chinese entry leave the page, past the English one it was opened as.
  await page.goBack();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.goBack();
  await page.waitForURL('about:blank');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the log check in Chinese: its verdict and table', async () => {
  const log = fs.readFileSync(path.join(ROOT, 'tests/fixtures/logs/v1_0.11_two_line.log'), 'utf8');
  const { context, page, problems } = await openReady(env, '?lang=zh-CN');
  await page.click(VERIFY_SUMMARY);
  await page.fill(sel('log-text'), log);
  await click(page, 'log-read');
  await page.waitForSelector(LOG_COMPARE);
  await page.waitForFunction(() => document.querySelector('[data-testid="log-status"]').dataset.value === 'started');
  // vLLM 0.11.0 started Qwen3-14B with 42,656 tokens of KV cache.
  assert.match(await page.textContent(sel('log-status')), /vLLM 0\.11\.0，Qwen\/Qwen3-14B：已启动，KV 缓存共 42,656 个 token。/);
  const left = englishLeft(await uiText(page));
  assert.deepEqual(left, [], left.join(', '));
  assert.deepEqual(problems, []);
  await context.close();
});

test('an embedded card in Chinese', async () => {
  const { context, page, problems } = await openPage(env.b, env.srv.base + SCENARIO + '&embed=1&lang=zh-CN');
  await page.waitForSelector(ANY_CHART_SVG);
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  const left = englishLeft(await uiText(page));
  assert.deepEqual(left, [], left.join(', '));
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [lang, tag] of [['en', 'en'], ['zh-CN', 'zh']]) {
  for (const width of [1280, 360]) {
    test(`screenshot: the calculator in ${lang} at ${width} px`, async () => {
      const { context, page, problems } = await openReady(env, `${SCENARIO}&lang=${lang}`,
        { viewport: { width, height: width === 360 ? 740 : 900 } });
      await page.waitForSelector(ANY_CHART_SVG);
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(SHOTS, `lang-${tag}-${width}.png`) });
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test('the loading state: the header where the app puts it, in the reader\'s language', async () => {
  for (const [q, pattern] of [['', /is loading/], ['?lang=zh-CN', /正在加载/]]) {
    const context = await env.b.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // Hold the wasm back, to look at what shows before it arrives.
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route('**/*_bg.wasm', async (route) => { await held; await route.continue(); });
    await page.goto(env.srv.base + q);
    await page.waitForSelector('#boot');
    assert.match(await page.textContent('#boot-status'), pattern);
    const where = () => page.evaluate(() => ['h1', '.lede'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return [Math.round(r.top), Math.round(r.left)];
    }));
    const before = await where();
    release();
    await ready(page);
    assert.equal(await page.locator('#boot').count(), 0);
    assert.deepEqual(await where(), before, 'the header moved when the app replaced the loading state');
    await context.close();
  }
});

test('SGLang, the plan, the GPU table and an import, in Chinese', async () => {
  const { context, page, problems } = await openReady(env, '?lang=zh-CN&model=Qwen/Qwen3-8B&gpu=rtx-4090&engine=sglang&plan=4');
  await page.waitForSelector(sel('sglang-mfs'));
  await page.waitForSelector(sel('plan'));
  await page.click('details.gpus summary');
  await page.waitForSelector(`${sel('gpu-table')} tbody tr`);
  await page.click('details.import summary');
  await page.fill(sel('config-text'), fs.readFileSync(path.join(ROOT, 'tests/fixtures/configs/Qwen3.5-9B.json'), 'utf8'));
  await click(page, 'config-import');
  await page.waitForFunction(() => /已导入/.test(document.querySelector('[data-testid="import-status"]').textContent));
  await page.waitForSelector(sel('sglang-mfs'));
  const left = englishLeft(await uiText(page));
  assert.deepEqual(left, [], left.join(', '));
  assert.deepEqual(problems, []);
  await context.close();
});
