// Trunk post-build hook: minifies the page's JavaScript glue, wasm-bindgen's ES module (47 KB raw,
// 8.0 KB gzip; minified 21 KB, 6.0 KB gzip), and writes it into index.html's start script instead of
// a file of its own. Trunk's own minifier gives up on it ("Failed to minify JS": it does not parse
// `export { …, __wbg_init as default }`) and leaves it as written. Inlined, the glue is evaluated as
// soon as the document is parsed, while the wasm (preloaded) still downloads, instead of after a
// second request: first render 5–16 ms sooner in paired runs of four builds each. Release builds
// only; the worker's glue, a classic script, Trunk minifies itself (its loader is only given the
// start call's current form, below).
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { minify } from 'terser';

if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);
const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('TRUNK_STAGING_DIR is not set: run this as a Trunk post_build hook');
const htmlFile = path.join(dir, 'index.html');
let html = fs.readFileSync(htmlFile, 'utf8');
const glue = fs.readdirSync(dir).filter((f) => /^kvbudget(-[0-9a-f]+)?\.js$/.test(f));
if (glue.length !== 1) throw new Error(`expected one page glue file, found ${glue.length}`);
const name = glue[0];
const file = path.join(dir, name);
const source = fs.readFileSync(file, 'utf8');
let code = (await minify(source, { module: true, compress: { passes: 2 }, mangle: true })).code;

// The module's exports become plain bindings: its exported classes lose `export`, and its one
// export list ends it (`export{j as initSync,W as default}`), which names the start function.
// A glue that imports (wasm-bindgen's snippets, `inline_js`) cannot be inlined this way.
if (/(^|[;}])\s*import\s*[\w${*"'`]/.test(code)) throw new Error(`${name}: the glue imports other modules; it cannot be inlined`);
const classes = [...code.matchAll(/\bexport class ([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
code = code.replace(/\bexport class /g, 'class ');
const list = code.match(/export\s*\{([^}]*)\};?\s*$/);
if (!list) throw new Error(`${name}: no export list at its end (wasm-bindgen's layout changed?)`);
code = code.slice(0, list.index);
const exported = list[1].split(',').map((e) => e.trim().split(/\s+as\s+/));
const init = exported.find(([, as]) => as === 'default');
if (!init) throw new Error(`${name}: no default export (the glue's init function)`);
if (/\bexport\b|<\/script|<!--/i.test(code)) {
  throw new Error(`${name}: the minified glue cannot be inlined as it is (export, </script or <!-- left)`);
}
const bindings = exported.map(([local, as]) => `${as ?? local}:${local}`).concat(classes).join(',');

// Trunk's start script imports the glue from its file: the import becomes the glue itself, in a
// function of its own so that none of its names meets the start script's.
const importLine = new RegExp(`import init, \\* as bindings from '\\./${name.replace('.', '\\.')}';`);
if (!importLine.test(html)) throw new Error(`index.html does not import ${name} as expected`);
html = html.replace(importLine, () => `const{init,bindings}=(()=>{${code};return{init:${init[0]},bindings:{${bindings}}}})();`);
// …and its preload link goes, with the file.
const preload = new RegExp(`<link[^>]*href=["']?\\.?/?${name.replace('.', '\\.')}["']?[^>]*>`, 'g');
const links = html.match(preload) ?? [];
if (links.length !== 1) throw new Error(`expected one link to ${name} in index.html, found ${links.length}`);
html = html.replace(preload, '');
// The start script as the browser will read it must parse as a module: a transformation that
// broke it fails the build here, not the page.
const start = html.match(/<script type=["']?module["']?>([\s\S]*?)<\/script>/);
if (!start) throw new Error('index.html has no module start script');
const check = path.join(os.tmpdir(), `kvbudget-start-${process.pid}.mjs`);
fs.writeFileSync(check, start[1]);
try {
  execFileSync(process.execPath, ['--check', check], { stdio: 'pipe' });
} catch (e) {
  throw new Error(`the inlined start script does not parse: ${e.stderr}`);
} finally {
  fs.rmSync(check, { force: true });
}
// The worker's loader (Trunk's `data-loader-shim`) starts its glue with the wasm's path as a bare
// string, which wasm-bindgen's init accepts with a console warning on every worker start ("using
// deprecated parameters for the initialization function; pass a single object instead"): it is
// given the object form, `{ module_or_path }`.
const loaderFile = path.join(dir, 'kvbudget-worker_loader.js');
const loader = fs.readFileSync(loaderFile, 'utf8');
const start_call = /wasm_bindgen\((["'])([^"']+)\1\)/g;
const calls = loader.match(start_call) ?? [];
if (calls.length !== 1) throw new Error(`kvbudget-worker_loader.js: expected one wasm_bindgen("…") call, found ${calls.length}`);
fs.writeFileSync(loaderFile, loader.replace(start_call, (_, q, wasm) => `wasm_bindgen({module_or_path:${q}${wasm}${q}})`));
fs.writeFileSync(htmlFile, html);
fs.rmSync(file);
console.log(`minify-glue: ${name} ${source.length} → ${code.length} B, inlined into index.html`);
