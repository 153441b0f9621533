// After `vite build`: precompresses the assets (the server sends .br/.gz when the browser accepts
// them) and reports what the first visit to /login downloads: what index.html links (the entry
// script, the boot code, the stylesheet), the login page's chunk, and every chunk they import
// statically, gzipped; fails above the budget.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

for (const file of walk(dist)) {
  if (!/\.(js|css|html|svg|json)$/.test(file) || file.includes('.vite')) continue;
  const content = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

// The login page may share a chunk with the entry's code (vite.config.ts groups them), so its chunk
// is found by the source map that lists it rather than by a manifest key of its own.
const loginKey = Object.keys(manifest).find((key) => {
  const map = path.join(dist, `${manifest[key].file}.map`);
  return (
    manifest[key].file.endsWith('.js') &&
    JSON.parse(readFileSync(map, 'utf8')).sources.some((s) => s.endsWith('features/auth/LoginPage.tsx'))
  );
});
// What index.html loads before any script runs: the entry script, the boot code it links, the stylesheet.
const linked = [...readFileSync(path.join(dist, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
if (!loginKey || !linked.some((file) => file.endsWith('.js'))) throw new Error('no entry script in index.html or no login page chunk');
const keyOf = (file) => Object.keys(manifest).find((key) => manifest[key].file === file);

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) visit(imported);
};
for (const file of linked) {
  const key = keyOf(file);
  if (key) visit(key);
  else files.add(file);
}
visit(loginKey);

const rows = [...files].map((file) => {
  const content = readFileSync(path.join(dist, file));
  return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
});
const sum = (kind, field) => rows.filter((r) => r.file.endsWith(kind)).reduce((total, r) => total + r[field], 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

console.log('\nFirst load of /login:');
for (const r of rows.sort((a, b) => b.gzip - a.gzip))
  console.log(`  ${r.file.padEnd(48)} ${kb(r.raw).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}`);
console.log(`  JavaScript: ${kb(sum('.js', 'raw'))}, gzip ${kb(sum('.js', 'gzip'))}`);
console.log(`  CSS:        ${kb(sum('.css', 'raw'))}, gzip ${kb(sum('.css', 'gzip'))}`);
const allJs = [...walk(dist)].filter((f) => f.endsWith('.js'));
console.log(
  `  (all JavaScript of the app: ${allJs.length} chunks, gzip ${kb(allJs.reduce((t, f) => t + gzipSync(readFileSync(f), { level: 9 }).length, 0))})\n`,
);

// The first visit's budget: a change that pulls more into /login fails the build instead of slipping by.
const LOGIN_JS_BUDGET_KB = 150;
if (sum('.js', 'gzip') > LOGIN_JS_BUDGET_KB * 1024) {
  console.error(`The first load of /login exceeds its ${LOGIN_JS_BUDGET_KB} kB gzip JavaScript budget.`);
  process.exitCode = 1;
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}
