// Size profile of the built wasm: what each crate and each of kvbudget's modules costs after
// wasm-opt. Prints figures; asserts nothing. Run after `make build` (it reads the release build in
// target/): `node bench/size-profile.mjs [kvbudget|kvbudget-worker]`. Needs `twiggy`
// (`cargo install twiggy`), wasm-bindgen and wasm-opt (scripts/setup.sh installs those two).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const name = process.argv[2] ?? 'kvbudget';
const input = `target/wasm32-unknown-unknown/release/${name}.wasm`;
if (!fs.existsSync(input)) throw new Error(`${input} is missing: run make build first`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvbudget-size-'));
const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
run('wasm-bindgen', ['--target', 'web', '--out-dir', dir, input]);
const bg = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('_bg.wasm')));
const opt = path.join(dir, 'opt.wasm');
// -g keeps the function names, so the profile can say what is what (the shipped file has none).
run('wasm-opt', ['-Oz', '-g', '--enable-bulk-memory', '--enable-nontrapping-float-to-int',
  '--enable-sign-ext', '--enable-mutable-globals', bg, '-o', opt]);
const csv = run('twiggy', ['top', '-n', '1000000', '-f', 'csv', opt]).trim().split('\n').slice(1);
const byCrate = new Map();
const byModule = new Map();
let total = 0;
for (const line of csv) {
  // Name, ShallowSize, ShallowSizePercent, RetainedSize, RetainedSizePercent (the name may hold commas).
  const m = line.match(/^(.*),(\d+),[\d.]+,\d*,[\d.]*$/);
  if (!m) continue;
  const item = m[1].replace(/^"|"$/g, '').replace(/""/g, '"');
  const size = Number(m[2]);
  if (item.includes('names" subsection') || item.startsWith('Σ')) continue;
  total += size;
  const crate = item.startsWith('data segment') ? '(data: strings and tables)'
    : (item.match(/^<?&?(?:mut |dyn )?([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::/) ?? [null, '(other: imports, tables, shims)'])[1];
  byCrate.set(crate, (byCrate.get(crate) ?? 0) + size);
  const own = item.match(/(kvbudget(?:_core)?::[a-z_0-9]+)/);
  if (own) byModule.set(own[1], (byModule.get(own[1]) ?? 0) + size);
}
const show = (title, map, n) => {
  console.log(title);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`  ${String(v).padStart(9)} B  ${(100 * v / total).toFixed(1).padStart(5)} %  ${k}`);
  }
};
console.log(`${name}.wasm after wasm-opt -Oz, without names: ${total} B`);
show('by crate (a generic function counts where it is defined):', byCrate, 15);
show("kvbudget's own modules:", byModule, 25);
fs.rmSync(dir, { recursive: true });
