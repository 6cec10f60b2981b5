// The edit timing `bench/perf.mjs` and `bench/ab-edits.mjs` share: in a page showing a scenario,
// `n` model changes (between two models, so that every number and every chart changes), each timed
// to the moment the DOM holds the new numbers and charts, and to the end of the frame that shows them.

/** Runs in the page: `n` edits; returns `{ dom, frame }`, the two times of each in ms. */
async function editsInPage(n) {
  // After the next frame is rendered: a task posted from requestAnimationFrame runs once that
  // frame's style, layout and paint are done.
  const afterFrame = () => new Promise((r) => requestAnimationFrame(() => {
    const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0);
  }));
  const sel = document.querySelector('#model');
  // The box each chart's figure is written into: an edit rewrites what changed inside it, in one
  // go (page::patch), so a chart counts as updated once a mutation lands inside its box.
  const boxes = [...document.querySelectorAll('[data-testid^="chart-"]')].map((f) => f.parentElement);
  const models = ['Qwen/Qwen2.5-7B-Instruct', 'Qwen/Qwen3-14B-AWQ'];
  const dom = [];
  const frame = [];
  for (let i = 0; i < n; i++) {
    const bpt = document.querySelector('[data-testid="bytes-per-token"]').dataset.value;
    const drawn = new Set();
    const updated = () => drawn.size === boxes.length
      && document.querySelector('[data-testid="bytes-per-token"]').dataset.value !== bpt;
    // The moment the DOM holds the new numbers and charts: a mutation observer's callback runs
    // right after the mutations of each update step (a microtask), before the browser renders,
    // so this time is the page's script alone (the frame below adds style, layout and paint).
    const done = new Promise((resolve) => {
      const mo = new MutationObserver((records) => {
        for (const r of records) boxes.forEach((b, k) => { if (b.contains(r.target)) drawn.add(k); });
        if (updated()) { mo.disconnect(); resolve(performance.now()); }
      });
      mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const t0 = performance.now();
    sel.value = models[i % 2];
    sel.dispatchEvent(new Event('change', { bubbles: true }));
    dom.push((await done) - t0);
    await afterFrame();
    frame.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 30));
  }
  return { dom, frame };
}

/** `n` timed edits in a Playwright page that shows a scenario. */
export function timeEdits(page, n) {
  return page.evaluate(editsInPage, n);
}

/** Median, p95, min and max of a list of times. */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1], n: s.length };
}
