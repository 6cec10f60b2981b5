// Side-by-side first load of kvbudget and gpu_poor (github.com/RahulSChand/gpu_poor, its published
// build) on a throttled profile: Slow 4G and a 4× slower CPU, a fresh browser context with the cache
// disabled for every load. Both sites are served by one static server here, gzip-compressed as a
// static host serves them. Prints the medians, their ratios and the targets; asserts nothing (exits
// non-zero only when a page failed to load). Run with `make bench`, or:
//   GPU_POOR_DIR=<folder with gpu_poor's built docs/> [RUNS=7] [DIST=<another build>] node bench/throttled.mjs
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { browser, DIST as BUILT, SUBPATH, TYPES, LIVE } from '../tests/e2e/harness.mjs';
import { RESULTS_READY, CHARTS, chartSvg } from '../tests/e2e/page.mjs';
import { stats } from './edits.mjs';

// Another build may be measured in place of dist/, as in bench/perf.mjs.
const DIST = path.resolve(process.env.DIST ?? BUILT);
const RUNS = Number(process.env.RUNS ?? 7);
const SHARED = '?model=Qwen/Qwen3-14B-AWQ&gpu=rtx-4090&kv=fp8&ctx=8192';
const VIEWPORT = { width: 1280, height: 900 };

// The profile. Slow 4G: 150 ms of latency per request, 1.6 Mbit/s each way, 1.6 Mbit taken as
// 1,600,000 bit, so 200,000 B/s (not 1.6 × 1024 × 1024 / 8 = 209,715 B/s).
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 1_600_000 / 8 };
const CPU_SLOWDOWN = 4;
// Every https request is blocked: both sites are served over plain http here, so these are the third
// parties a published build calls (gpu_poor's Google Tag Manager script and the Google Fonts
// stylesheet its CSS @imports); blocked, each fails at once instead of waiting on a network.
const BLOCKED = ['https://*'];

// gpu_poor's build (the `docs/` folder of its repository at commit ad2fc0e), from GPU_POOR_DIR.
const GPU_POOR_COMMIT = 'ad2fc0e';
const HOW_TO_GET_GPU_POOR = [
  `  git clone --bare https://github.com/RahulSChand/gpu_poor gpu_poor.git`,
  `  mkdir gpu_poor && git --git-dir=gpu_poor.git archive ${GPU_POOR_COMMIT} docs | tar -x -C gpu_poor`,
  `  GPU_POOR_DIR=$PWD/gpu_poor make bench`,
];
let gpuPoorDocs = null;
if (process.env.GPU_POOR_DIR) {
  const d = path.resolve(process.env.GPU_POOR_DIR);
  gpuPoorDocs = [path.join(d, 'docs'), d].find((x) => fs.existsSync(path.join(x, 'index.html')));
  if (!gpuPoorDocs) {
    console.error(`GPU_POOR_DIR=${process.env.GPU_POOR_DIR} holds neither docs/index.html nor index.html`);
    process.exit(1);
  }
} else {
  console.log([
    'GPU_POOR_DIR is not set: measuring kvbudget alone. For the side-by-side figures, fetch',
    `RahulSChand/gpu_poor and extract its published build (docs/ at commit ${GPU_POOR_COMMIT}):`,
    ...HOW_TO_GET_GPU_POOR,
    '',
  ].join('\n'));
}
// gpu_poor is a create-react-app build whose index.html names its assets by absolute paths under the
// site's GitHub Pages path (`/gpu_poor/static/js/…`): it is served under that path.
let GPU_POOR_PATH = '/gpu_poor/';
if (gpuPoorDocs) {
  const html = fs.readFileSync(path.join(gpuPoorDocs, 'index.html'), 'utf8');
  const asset = html.match(/(?:src|href)="(\/(?:[^"]*?\/)?)static\//);
  if (asset) GPU_POOR_PATH = asset[1];
}

// ── One static server for both sites, gzip-compressed ────────────────────────────────────────────

const GZIP = new Set(['.html', '.js', '.css', '.wasm', '.json', '.svg']);
const SITES = [{ prefix: SUBPATH, dir: DIST }];
if (gpuPoorDocs) SITES.push({ prefix: GPU_POOR_PATH, dir: gpuPoorDocs });
const files = new Map();
/** A file's body as sent (gzip at zlib's default level, 6, computed once) and its headers. */
function file(full) {
  if (!files.has(full)) {
    const raw = fs.readFileSync(full);
    const ext = path.extname(full);
    const gz = GZIP.has(ext);
    files.set(full, {
      body: gz ? zlib.gzipSync(raw) : raw,
      headers: {
        'content-type': TYPES[ext] ?? (ext === '.ico' ? 'image/x-icon' : ext === '.png' ? 'image/png'
          : ext === '.jpg' ? 'image/jpeg' : 'application/octet-stream'),
        ...(gz ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
      },
    });
  }
  return files.get(full);
}
let served = [];
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const site = SITES.find((s) => url.pathname.startsWith(s.prefix));
  const rel = site ? decodeURIComponent(url.pathname.slice(site.prefix.length)) || 'index.html' : '';
  const full = site ? path.join(site.dir, path.normalize(rel)) : '';
  if (!site || !full.startsWith(site.dir + path.sep) || !fs.existsSync(full) || fs.statSync(full).isDirectory()) {
    served.push({ path: url.pathname, status: 404, bytes: 0 });
    res.writeHead(404).end('not found');
    return;
  }
  const f = file(full);
  served.push({ path: url.pathname, status: 200, bytes: f.body.length });
  res.writeHead(200, { ...f.headers, 'content-length': f.body.length, 'cache-control': 'no-cache' });
  res.end(f.body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const ORIGIN = `http://127.0.0.1:${server.address().port}`;

// ── What each load waits for ─────────────────────────────────────────────────────────────────────

// A build that marks `<html data-app="live">` (LIVE) when its app has replaced what index.html
// shows first (the prerendered default page) is complete only then; a build without that
// attribute (an older one, under DIST=), once the answer is shown.
const marksLive = fs.readdirSync(DIST).filter((f) => /\.(html|js|wasm)$/.test(f))
  .some((f) => fs.readFileSync(path.join(DIST, f)).includes('data-app'));
const visible = (s) => `[...document.querySelectorAll(${JSON.stringify(s)})].some((e) => e.checkVisibility({ visibilityProperty: true }))`;
const answerShown = `${visible(RESULTS_READY)} && ${JSON.stringify(CHARTS.map(chartSvg))}.every((s) => document.querySelector(s))`;
const KVBUDGET_MARKS = {
  // The number and the three charts shown, whoever drew them (index.html's prerendered page or the app).
  shown: answerShown,
  // The complete answer: the same, drawn by the app.
  complete: marksLive ? `${answerShown} && document.querySelector(${JSON.stringify(LIVE)})` : answerShown,
};
// gpu_poor's form: the model's Hugging Face id, its size, and the first select (train or inference),
// which React renders at once (its model list, all_configs.json, only feeds the id's suggestions).
const GPU_POOR_FORM = ['input[placeholder^="e.g. meta-llama/"]', 'input[placeholder^="e.g. for llama-7b"]', 'select[name="dropdownTrnOrNot"]'];
const GPU_POOR_MARKS = { form: GPU_POOR_FORM.map(visible).join(' && ') };

// Runs in the page from its first script on: the first animation frame at which each mark holds
// (performance.now() in that frame's callback), and the first contentful paint. It reports on the
// console, so that nothing is evaluated in the page while it loads.
const probe = (marks) => `(() => {
  const marks = { ${Object.entries(marks).map(([k, v]) => `${k}: () => ${v}`).join(', ')} };
  const at = {};
  let fcp;
  const report = () => {
    if (fcp !== undefined && Object.keys(at).length === Object.keys(marks).length) {
      console.log('throttled-bench ' + JSON.stringify({ fcp, ...at }));
    }
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') { fcp = e.startTime; report(); }
  }).observe({ type: 'paint', buffered: true });
  const tick = () => {
    const now = performance.now();
    for (const [k, ok] of Object.entries(marks)) if (at[k] === undefined && ok()) at[k] = now;
    if (Object.keys(at).length < Object.keys(marks).length) requestAnimationFrame(tick); else report();
  };
  requestAnimationFrame(tick);
})()`;

// ── The loads ────────────────────────────────────────────────────────────────────────────────────

const b = await browser();
const failures = [];
/** One load of `url` in a fresh context with the profile applied; the marks' times in ms. */
async function load(url, marks, what) {
  const ctx = await b.newContext({ viewport: VIEWPORT });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.setBlockedURLs', { urls: BLOCKED });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.addInitScript(probe(marks));
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => { if (r.url().startsWith(ORIGIN)) problems.push(`request failed: ${r.url()}`); });
  served = [];
  try {
    const reported = new Promise((resolve, reject) => {
      page.on('console', (m) => {
        if (m.text().startsWith('throttled-bench ')) resolve(JSON.parse(m.text().slice('throttled-bench '.length)));
      });
      setTimeout(() => reject(new Error('not complete within 60 s')), 60_000).unref();
    });
    const res = await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    if (!res.ok()) throw new Error(`HTTP ${res.status()}`);
    const times = await reported;
    // A missing asset (a 404 on the site's own path; browsers ask for /favicon.ico by themselves).
    for (const s of served) if (s.status !== 200 && s.path !== '/favicon.ico') problems.push(`HTTP ${s.status}: ${s.path}`);
    if (problems.length) throw new Error(problems.join('; '));
    return { times, served: [...served] };
  } catch (e) {
    failures.push(`${what}: ${e.message}`);
    return null;
  } finally {
    await ctx.close();
  }
}

const KV_DEFAULT = `${ORIGIN}${SUBPATH}`;
const KV_SHARED = `${ORIGIN}${SUBPATH}${SHARED}`;
const GP = `${ORIGIN}${GPU_POOR_PATH}`;
const loads = [
  { key: 'kvDefault', url: KV_DEFAULT, marks: KVBUDGET_MARKS, what: 'kvbudget, default URL' },
  { key: 'kvShared', url: KV_SHARED, marks: KVBUDGET_MARKS, what: 'kvbudget, shared link' },
];
const runs = { kvDefault: [], kvShared: [], gp: [] };
const fetched = {};
// Each round loads gpu_poor before each kvbudget load (after it in odd rounds), so the two apps
// alternate and meet the same machine state.
for (let i = 0; i < RUNS; i++) {
  for (const l of loads) {
    const order = gpuPoorDocs ? [{ key: 'gp', url: GP, marks: GPU_POOR_MARKS, what: 'gpu_poor' }, l] : [l];
    if (i % 2) order.reverse();
    for (const o of order) {
      const r = await load(o.url, o.marks, `${o.what}, load ${i + 1}`);
      if (!r) continue;
      runs[o.key].push(r.times);
      fetched[o.key] ??= r.served;
    }
  }
}
await b.close();
server.close();

// ── The report ───────────────────────────────────────────────────────────────────────────────────

const median = (key, mark) => (runs[key].length ? stats(runs[key].map((t) => t[mark])).median : NaN);
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '—');
const ratio = (a, c) => (Number.isFinite(a) && Number.isFinite(c) ? `${(a / c).toFixed(2)}×` : '—');
const gpFcp = median('gp', 'fcp');
const gpForm = median('gp', 'form');
const rows = [
  ['FCP, default URL', median('kvDefault', 'fcp'), 'FCP', gpFcp],
  ['FCP, default URL', median('kvDefault', 'fcp'), 'first form', gpForm, 0.5],
  ['FCP, shared link', median('kvShared', 'fcp'), 'first form', gpForm, 0.5],
  ['answer shown, default URL', median('kvDefault', 'shown'), 'first form', gpForm],
  ['complete answer, default URL', median('kvDefault', 'complete'), 'first form', gpForm, 1.0],
  ['complete answer, shared link', median('kvShared', 'complete'), 'first form', gpForm, 1.3],
];
const line = (cells, widths) => cells.map((c, k) => (k === 0 || k === 3 || k === 5 ? String(c).padEnd(widths[k]) : String(c).padStart(widths[k]))).join('  ').trimEnd();
const W = [30, 9, 9, 11, 6, 15];
console.log(gpuPoorDocs
  ? `\nkvbudget vs gpu_poor, first load, medians of ${RUNS} runs per kvbudget URL and of gpu_poor's ${runs.gp.length} loads (one next to each kvbudget load)`
  : `\nkvbudget alone (gpu_poor not measured), first load, medians of ${RUNS} runs per URL`);
console.log(line(['metric', 'kvbudget', 'gpu_poor', '(its metric)', 'ratio', 'target'], W));
for (const [name, kv, gpName, gp, target] of rows) {
  const r = kv / gp;
  const verdict = target === undefined ? '' : `≤ ${target.toFixed(1)}× ${Number.isFinite(r) ? (r <= target ? 'met' : 'not met') : ''}`;
  console.log(line([name, ms(kv), ms(gp), gpName, ratio(kv, gp), verdict.trim()], W));
}
console.log(`  (gpu_poor's FCP ${ms(gpFcp)}; its first form is the model id and size inputs and the train/inference select, visible;`);
console.log(`  kvbudget's complete answer is ${RESULTS_READY} shown and the 3 charts' SVGs${marksLive ? `, drawn by the app (${LIVE})` : ''};`);
console.log(`  answer shown: the same, ${marksLive ? 'whether drawn by the app or by index.html before it' : 'at the same moment (this build shows nothing before its app)'})`);
const spread = (key, mark) => (runs[key].length ? (() => { const s = stats(runs[key].map((t) => t[mark])); return `${ms(s.min)}–${ms(s.max)}`; })() : '—');
console.log(`  spread (min–max): kvbudget FCP ${spread('kvDefault', 'fcp')} default, ${spread('kvShared', 'fcp')} shared; complete ${spread('kvDefault', 'complete')} default, ${spread('kvShared', 'complete')} shared; gpu_poor FCP ${spread('gp', 'fcp')}, first form ${spread('gp', 'form')}`);
for (const [key, name] of [['kvShared', 'kvbudget'], ['gp', 'gpu_poor']]) {
  if (!fetched[key]) continue;
  const ok = fetched[key].filter((s) => s.status === 200);
  const kb = ok.reduce((n, s) => n + s.bytes, 0) / 1000;
  console.log(`  ${name} had requested by its last mark: ${ok.length} files, ${kb.toFixed(1)} kB as sent (${ok.map((s) => `${s.path.endsWith('/') ? 'index.html' : path.basename(s.path)} ${(s.bytes / 1000).toFixed(1)}`).join(', ')})`);
}
console.log(`\nprofile: Slow 4G, ${NETWORK.latency} ms latency, ${NETWORK.downloadThroughput.toLocaleString('en')} B/s down and up (1.6 Mbit/s as 1,600,000 bit/s),`);
console.log(`  CPU throttled ${CPU_SLOWDOWN}× (Emulation.setCPUThrottlingRate), cache disabled, a fresh context per load, viewport ${VIEWPORT.width}×${VIEWPORT.height};`);
console.log(`  both sites from one local static server, html/js/css/wasm/json/svg gzip-compressed (zlib level 6); https requests blocked (${BLOCKED.join(', ')}).`);
console.log(`  kvbudget: ${DIST} at ${SUBPATH} (default URL and ${SHARED})`);
console.log(`  gpu_poor: ${gpuPoorDocs ? `${gpuPoorDocs} at ${GPU_POOR_PATH}` : 'not measured (GPU_POOR_DIR unset)'}`);
console.log('commands:');
console.log(`  GPU_POOR_DIR=<folder holding gpu_poor's docs/> RUNS=${RUNS} node bench/throttled.mjs   (make bench runs it after building)`);
if (!gpuPoorDocs) console.log(HOW_TO_GET_GPU_POOR.join('\n'));
if (failures.length) {
  console.error(`\nfailed to load:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
