// What the first screen holds, in headless Chromium, for the default page at 1280 × 900 and
// 360 × 740 in both languages: the form's controls shown and those above the fold, the words of
// visible text above the fold, and where max_model_len, the KV tokens figure and the memory chart
// sit (CSS px from the top of the document). Prints figures; asserts nothing.
//   node bench/first-screen.mjs          (dist/; DIST=<dir> for another build)
import path from 'node:path';
import { serve, browser, openPage, DIST as BUILT } from '../tests/e2e/harness.mjs';

const DIST = path.resolve(process.env.DIST ?? BUILT);
const srv = await serve(DIST);
const b = await browser();
console.log(`first screen of ${DIST}`);
console.log('view                 controls shown  above fold  words above fold  max_model_len  KV tokens  memory chart');
for (const [w, h] of [[1280, 900], [360, 740]]) {
  for (const lang of ['en', 'zh-CN']) {
    const { page, context, problems } = await openPage(b, `${srv.base}?lang=${lang}`, { viewport: { width: w, height: h } });
    await page.waitForSelector('[data-testid="chart-memory"] svg');
    const f = await page.evaluate(() => {
      const fold = innerHeight;
      const shown = [...document.querySelectorAll('input, select, textarea')].filter((e) => e.checkVisibility());
      const above = shown.filter((e) => e.getBoundingClientRect().top < fold);
      let words = 0;
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const p = n.parentElement;
        if (!p || p.closest('script, style, svg, [hidden]') || !p.checkVisibility()) continue;
        const r = p.getBoundingClientRect();
        if (r.top >= fold || r.bottom <= 0) continue;
        words += n.textContent.trim().split(/\s+/).filter(Boolean).length;
      }
      const y = (s) => {
        const e = document.querySelector(s);
        return e && e.checkVisibility() ? Math.round(e.getBoundingClientRect().top + scrollY) : null;
      };
      return {
        shown: shown.length, above: above.length, words,
        ctx: y('#ctx'), tokens: y('[data-testid="kv-tokens"]'), chart: y('[data-testid="chart-memory"] svg'),
      };
    });
    const cell = (v, n) => String(v ?? '—').padStart(n);
    console.log(`${`${w} px, ${lang}`.padEnd(20)} ${cell(f.shown, 15)} ${cell(f.above, 11)} ${cell(f.words, 17)} ${cell(f.ctx, 14)} ${cell(f.tokens, 10)} ${cell(f.chart, 13)}`);
    if (problems.length) console.log(`  problems: ${problems.join('; ')}`);
    await context.close();
  }
}
console.log('(controls: inputs, selects and text areas passing checkVisibility, the language picker included;');
console.log(' words: visible text nodes above the fold, split at white space; a Chinese run counts as one word)');
await b.close();
srv.server.close();
