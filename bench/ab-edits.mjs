// Paired edit timing of two or more built sites, for a change whose effect is smaller than the
// run-to-run spread of `make bench`: each site is served on its own port and a fresh page of each
// is loaded in turn (the order rotating), so each round meets the same machine state; in each page,
// 1 s after the first render, the model changes of `bench/perf.mjs` (60 per page). Prints, per
// site, input → DOM and → that frame rendered, median / p95. Asserts nothing.
//   node bench/ab-edits.mjs dist /path/to/other-dist [rounds]
import path from 'node:path';
import { serve, browser } from '../tests/e2e/harness.mjs';
import { timeEdits, stats } from './edits.mjs';

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 4;
if (args.length < 2) {
  console.error('usage: node bench/ab-edits.mjs <dist> <other-dist> [...] [rounds]');
  process.exit(2);
}
const SCENARIO = '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192';
const servers = [];
for (const d of args) servers.push(await serve(path.resolve(d)));
const b = await browser();
const runs = args.map(() => ({ dom: [], frame: [] }));
for (let i = 0; i < rounds; i++) {
  for (const k of args.map((_, j) => (j + i) % args.length)) {
    const ctx = await b.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(servers[k].base + SCENARIO);
    await page.waitForSelector('[data-testid="chart-roofline"] svg');
    await page.waitForTimeout(1000);
    const e = await timeEdits(page, 60);
    runs[k].dom.push(...e.dom);
    runs[k].frame.push(...e.frame);
    await ctx.close();
  }
}
await b.close();
for (const s of servers) s.server.close();
const f = (x) => `${x.median.toFixed(1)} / ${x.p95.toFixed(1)} ms`;
args.forEach((d, k) => {
  console.log(`${d}: input → DOM ${f(stats(runs[k].dom))} | → frame rendered ${f(stats(runs[k].frame))} (median / p95, ${runs[k].dom.length} edits)`);
});
