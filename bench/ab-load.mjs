// Paired first-render comparison of two or more built sites, for a change whose effect is smaller
// than the run-to-run spread of `make bench` on a busy machine: each site is served on its own port
// and the sites are loaded in turn (the order rotating), so each round meets the same machine state.
// Prints, per site, the medians of navigation → first complete render and of its steps, and per
// site after the first the median of the paired differences. Asserts nothing.
//   node bench/ab-load.mjs dist /path/to/other-dist [rounds]
import path from 'node:path';
import { serve, browser } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const dists = args.filter((a) => !/^\d+$/.test(a));
const ROUNDS = Number(args.find((a) => /^\d+$/.test(a)) ?? 20);
const SCENARIO = process.env.SCENARIO ?? '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192';
// Another window size, e.g. a phone's: VIEWPORT=360x740.
const [W, H] = (process.env.VIEWPORT ?? '1280x900').split('x').map(Number);
if (dists.length < 2) {
  console.error('usage: node bench/ab-load.mjs <dist> <dist> [...] [rounds]');
  process.exit(2);
}
// As bench/perf.mjs: rendered = the first animation frame with the numbers and three charts in the
// DOM, painted = when that frame is laid out and painted (a message posted from its callback);
// markup = the first large innerHTML (the page's markup) written by the app.
const INIT = `(() => {
  const ok = () => document.querySelector('[data-testid="max-seqs"]')
    && document.querySelectorAll('[data-testid^="chart-"] svg').length === 3;
  const d = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
  Object.defineProperty(Element.prototype, 'innerHTML', {
    set(v) { if (window.__markup === undefined && v.length > 5000) window.__markup = performance.now(); d.set.call(this, v); },
    get() { return d.get.call(this); },
  });
  const tick = () => {
    if (!ok()) { requestAnimationFrame(tick); return; }
    window.__rendered = performance.now();
    const c = new MessageChannel();
    c.port1.onmessage = () => { window.__painted = performance.now(); };
    c.port2.postMessage(0);
  };
  requestAnimationFrame(tick);
})()`;

const servers = [];
for (const d of dists) servers.push(await serve(path.resolve(d)));
const b = await browser();
const runs = dists.map(() => []);
for (let i = 0; i < ROUNDS; i++) {
  for (const k of dists.map((_, j) => (j + i) % dists.length)) {
    const ctx = await b.newContext({ viewport: { width: W, height: H } });
    const page = await ctx.newPage();
    await page.addInitScript(INIT);
    await page.goto(servers[k].base + SCENARIO);
    await page.waitForFunction(() => window.__painted !== undefined);
    runs[k].push(await page.evaluate(() => {
      const r = performance.getEntriesByType('resource');
      const end = (re) => Math.max(0, ...r.filter((e) => re.test(e.name)).map((e) => e.responseEnd));
      return {
        rendered: window.__rendered,
        painted: window.__painted,
        markup: window.__markup,
        parsed: performance.getEntriesByType('navigation')[0].domInteractive,
        wasm: end(/\.wasm$/),
      };
    }));
    await ctx.close();
  }
}
await b.close();
for (const s of servers) s.server.close();

const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a').padStart(9);
for (const k of dists.keys()) {
  const m = (f) => ms(median(runs[k].map(f)));
  console.log(`${dists[k]}: rendered ${m((x) => x.rendered)} | parsed ${m((x) => x.parsed)} | wasm arrived ${m((x) => x.wasm)} | markup ${m((x) => x.markup)} | wasm → markup ${m((x) => x.markup - x.wasm)} | markup → rendered ${m((x) => x.rendered - x.markup)} | painted ${m((x) => x.painted)}`);
}
for (let k = 1; k < dists.length; k++) {
  const diff = (f) => ms(median(runs[0].map((x, i) => f(runs[k][i]) - f(x))));
  console.log(`${dists[k]} − ${dists[0]}: paired median rendered ${diff((x) => x.rendered)}, painted ${diff((x) => x.painted)} (${ROUNDS} rounds)`);
}
process.exit(0);
