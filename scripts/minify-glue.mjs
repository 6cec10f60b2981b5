// Trunk post-build hook: minifies the page's JavaScript glue, wasm-bindgen's ES module (47 KB raw,
// 8.0 KB gzip; minified 21 KB, 6.0 KB gzip), and writes it into index.html's start script instead of
// a file of its own. Trunk's own minifier gives up on it ("Failed to minify JS": it does not parse
// `export { …, __wbg_init as default }`) and leaves it as written. Inlined, the glue is evaluated as
// soon as the document is parsed, while the wasm (preloaded) still downloads, instead of after a
// second request: first render 5–16 ms sooner in paired runs of four builds each. Release builds
// only. The worker's glue, a classic script, Trunk minifies itself: here it and its wasm only take
// short names for each other (below), and its loader the start call's current form.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { minify } from 'terser';

/**
 * The names a wasm and its glue call each other by, shortened in both. wasm-bindgen names each
 * import after its function and a hash (`__wbg_setAttribute_f75317b2b5cabfb4`): 137 of them in the
 * page, 42 in the worker, written once in the wasm's import section and once in the glue, and
 * hashes do not compress. Binaryen's `--minify-imports-and-exports-and-modules` renames imports,
 * exports and the import module to short names and prints the mapping, by which the glue is
 * rewritten here; the wasm is written again with Binaryen's size-optimizing stack IR, as Trunk's
 * `-Oz` run wrote it (without it the rewritten code section is 1.3 KB larger). Measured: page wasm
 * 190,175 → 186,948 B gzip; worker wasm 207,439 → 206,160 B and its glue 3,468 → 2,675 B. Any name
 * of the glue's that the rewrite leaves unmatched fails the build. `exportsObject` is the glue's
 * name for the wasm's exports (`wasm.__wbindgen_malloc`).
 */
function shortNames(wasmFile, glue, exportsObject, name, extra = []) {
  const wasmOpt = fileURLToPath(new URL('../node_modules/.bin/wasm-opt', import.meta.url));
  // A build that kept its function names (`data-keep-debug`, to profile) keeps them; only then, as
  // Binaryen writes less compact code with `--debuginfo`.
  const original = fs.readFileSync(wasmFile);
  const named = WebAssembly.Module.customSections(new WebAssembly.Module(original), 'name').length > 0;
  const out = execFileSync(wasmOpt, [wasmFile, '-o', wasmFile, ...extra, '--minify-imports-and-exports-and-modules',
    '--optimize-level=2', '--shrink-level=2', '--generate-stack-ir', '--optimize-stack-ir', ...(named ? ['--debuginfo'] : []),
    '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals',
    '--enable-reference-types', '--enable-multivalue'], { encoding: 'utf8' });
  const map = JSON.parse(out);
  const rewritten = fs.readFileSync(wasmFile);
  const mod = new WebAssembly.Module(rewritten);
  const modules = [...new Set(WebAssembly.Module.imports(mod).map((i) => i.module))];
  const oldModules = [...new Set(map.imports.map(([m]) => m))];
  if (modules.length !== 1 || oldModules.length !== 1) throw new Error(`${name}: expected one import module, found ${modules} (was ${oldModules})`);
  const escape = (s) => s.replace(/[$.]/g, (c) => `\\${c}`);
  const word = (s) => new RegExp(`(?<![\\w$])${escape(s)}(?![\\w$])`, 'g');
  const once = (re, what) => {
    if ((glue.match(re) ?? []).length !== 1) throw new Error(`${name}: ${what} is not written once in the glue`);
  };
  for (const [, from, to] of map.imports) {
    // The key of the import's function in the glue's imports object: `from: function`, `from:(`.
    const key = new RegExp(`(?<![\\w$.])${escape(from)}(?=\\s*:)`, 'g');
    once(key, `import ${from}`);
    glue = glue.replace(key, () => to);
  }
  const moduleKey = new RegExp(`(["'])${escape(oldModules[0])}\\1(?=\\s*:)`, 'g');
  once(moduleKey, `the import module "${oldModules[0]}"`);
  glue = glue.replace(moduleKey, () => JSON.stringify(modules[0]));
  for (const [from, to] of map.exports) glue = glue.replace(word(`${exportsObject}.${from}`), () => `${exportsObject}.${to}`);
  const exports = new Set(WebAssembly.Module.exports(mod).map((e) => e.name));
  for (const [, used] of glue.matchAll(new RegExp(`(?<![\\w$])${escape(exportsObject)}\\.([\\w$]+)`, 'g'))) {
    if (!exports.has(used)) throw new Error(`${name}: the glue uses ${exportsObject}.${used}, which the wasm does not export`);
  }
  for (const [, from] of map.imports) if (word(from).test(glue)) throw new Error(`${name}: ${from} left in the glue`);
  return { glue, original, rewritten };
}

/**
 * Code the page never runs, taken out of its wasm and its glue: wasm-streams' adapters between
 * Rust streams and the browser's (`IntoUnderlyingSource`, `IntoUnderlyingSink`,
 * `IntoUnderlyingByteSource`). Leptos links them (its server functions' browser client, which a
 * page of its own markup never calls), and wasm-bindgen exports them to JavaScript as classes, so
 * neither the linker nor wasm-opt can tell they are unused: 13 exported functions and what they
 * call, and three classes in the glue. Measured: page wasm −1.3 KB gzip, glue −0.6 KB. The glue's
 * classes and their finalizers are cut from wasm-bindgen's output as it writes them; anything of
 * theirs left after the cut fails the build.
 */
const STREAMS = /intounderlying/i;
function withoutStreams(glue) {
  const cut = (re, what) => {
    const n = (glue.match(re) ?? []).length;
    if (n !== 3) throw new Error(`${name}: expected 3 ${what} of wasm-streams' classes, found ${n} (wasm-bindgen's layout changed?)`);
    glue = glue.replace(re, '');
  };
  cut(/^export class (IntoUnderlying\w+) \{\n[\s\S]*?^\}\n(?:if \(Symbol\.dispose\) \1\.prototype\[Symbol\.dispose\] = \1\.prototype\.free;\n)?/gm, 'classes');
  cut(/^const IntoUnderlying\w+Finalization = \(typeof FinalizationRegistry === 'undefined'\)\n.*\n.*\n/gm, 'finalizers');
  if (STREAMS.test(glue)) throw new Error(`${name}: wasm-streams' code left in the glue after the cut`);
  return glue;
}

/** The page's wasm and glue by short names; Trunk wrote the wasm's hash on its preload link, which
 *  is written again for the new bytes. */
function pageShortNames(glue) {
  const wasms = fs.readdirSync(dir).filter((f) => /^kvbudget-[0-9a-f]+_bg\.wasm$/.test(f));
  if (wasms.length !== 1) throw new Error(`expected one page wasm, found ${wasms.length}`);
  const r = shortNames(path.join(dir, wasms[0]), withoutStreams(glue), 'wasm', name,
    ['--remove-exports', '--pass-arg=remove-exports@*intounderlying*', '--remove-unused-module-elements']);
  const left = WebAssembly.Module.exports(new WebAssembly.Module(r.original)).filter((e) => STREAMS.test(e.name)).length;
  if (left !== 13) throw new Error(`${name}: expected 13 exports of wasm-streams in the wasm, found ${left}`);
  const kept = WebAssembly.Module.exports(new WebAssembly.Module(r.rewritten)).filter((e) => STREAMS.test(e.name));
  if (kept.length) throw new Error(`${name}: wasm-streams' exports left in the wasm: ${kept.map((e) => e.name)}`);
  const hash = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  const was = hash(r.original);
  if (html.split(was).length !== 2) throw new Error(`index.html: expected the wasm's integrity ${was} once`);
  html = html.replace(was, () => hash(r.rewritten));
  return r.glue;
}

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
let code = (await minify(pageShortNames(source), { module: true, compress: { passes: 2 }, mangle: true })).code;

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
// The worker's glue (Trunk minified it) holds the wasm's exports in one variable, `G=a.exports;`.
const workerGlueFile = path.join(dir, 'kvbudget-worker.js');
const workerGlue = fs.readFileSync(workerGlueFile, 'utf8');
const holders = [...workerGlue.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)=[A-Za-z_$][\w$]*\.exports[;,]/g)];
if (holders.length !== 1) throw new Error(`kvbudget-worker.js: expected one variable holding the wasm's exports, found ${holders.length}`);
const worker = shortNames(path.join(dir, 'kvbudget-worker_bg.wasm'), workerGlue, holders[0][1], 'kvbudget-worker.js');
fs.writeFileSync(workerGlueFile, worker.glue);
fs.writeFileSync(htmlFile, html);
fs.rmSync(file);
console.log(`minify-glue: ${name} ${source.length} → ${code.length} B, inlined into index.html; kvbudget-worker.js ${workerGlue.length} → ${worker.glue.length} B`);
