// Trunk post-build hook: minifies the page's JavaScript glue, wasm-bindgen's ES module (47 KB raw,
// 8.0 KB gzip; minified 21 KB, 6.0 KB gzip). Trunk's own minifier gives up on it ("Failed to
// minify JS": it does not parse `export { …, __wbg_init as default }`) and leaves it as written. The new
// subresource-integrity hash replaces the old one in index.html. Release builds only; the
// worker's glue, a classic script, Trunk minifies itself.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { minify } from 'terser';

if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);
const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('TRUNK_STAGING_DIR is not set: run this as a Trunk post_build hook');
const htmlFile = path.join(dir, 'index.html');
let html = fs.readFileSync(htmlFile, 'utf8');
const sri = (text) => `sha384-${crypto.createHash('sha384').update(text).digest('base64')}`;
const glue = fs.readdirSync(dir).filter((f) => /^kvbudget(-[0-9a-f]+)?\.js$/.test(f));
if (glue.length !== 1) throw new Error(`expected one page glue file, found ${glue.length}`);
for (const f of glue) {
  const file = path.join(dir, f);
  const source = fs.readFileSync(file, 'utf8');
  const out = await minify(source, { module: true, compress: { passes: 2 }, mangle: true });
  const before = sri(source);
  if (!html.includes(before)) throw new Error(`index.html does not carry ${f}'s integrity hash`);
  fs.writeFileSync(file, out.code);
  html = html.replaceAll(before, sri(out.code));
  console.log(`minify-glue: ${f} ${source.length} → ${out.code.length} B`);
}
fs.writeFileSync(htmlFile, html);
