// Shared e2e harness: a static server that publishes dist/ under a sub-path, and Debian's Chromium.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = path.join(ROOT, 'dist');
export const SHOTS = path.join(ROOT, 'tests/e2e/screenshots');
// The site is published under a sub-path, as on a course site or GitHub Pages.
export const SUBPATH = '/courses/llm-serving/kvbudget/';

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Serves `dist` (the release site by default) at `subpath` (SUBPATH by default) on a free loopback port; anything outside the sub-path is a 404. */
export async function serve(dist = DIST, subpath = SUBPATH) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(subpath)) {
      res.writeHead(404).end('outside the sub-path');
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(subpath.length)) || 'index.html';
    const file = path.join(dist, path.normalize(rel));
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { server, base: `http://127.0.0.1:${port}${subpath}` };
}

/** Debian's Chromium, headless, with the flags that keep it off the closed network. */
export async function browser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

// Chromium's own notice about the preload links Trunk writes (their `integrity` is checked when
// the file is used, not when preloaded): the only console warning a page may print.
const CHROMIUM_PRELOAD_NOTICE = /The `integrity` attribute is currently ignored for preload destinations/;

/** The document once the app has replaced what index.html shows before the wasm has run. */
export const LIVE = 'html[data-app="live"]';

/** Opens a page that records console errors and warnings, page errors and failed requests, and
 * waits until the app is live (`live: false`: not, for a page that is not to get there). */
export async function openPage(b, url, options = {}, { live = true } = {}) {
  const context = await b.newContext(options);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    const warned = m.type() === 'warning' && !CHROMIUM_PRELOAD_NOTICE.test(m.text());
    if (m.type() === 'error' || warned) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  if (live) await page.waitForSelector(LIVE, { state: 'attached' });
  return { context, page, problems };
}

/** Registers a server for `dist` and a browser for the test file; their handles fill in before the tests run. */
export function suite(dist = DIST, subpath = SUBPATH) {
  const env = {};
  before(async () => {
    env.srv = await serve(dist, subpath);
    env.b = await browser();
  });
  after(async () => {
    await env.b?.close();
    env.srv?.server.close();
  });
  return env;
}

/** Waits until the page URL's query parameter `key` is `expected` (`null`: absent; `'*'`: present). URL writes are debounced. */
export async function urlParam(page, key, expected) {
  await page.waitForFunction(([k, want]) => {
    const got = new URL(location.href).searchParams.get(k);
    return want === '*' ? got !== null : got === want;
  }, [key, expected], { timeout: 5000 });
  return new URL(page.url()).searchParams.get(key);
}
