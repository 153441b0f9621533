// Bundles the server into dist/main.js (or the file named by the first argument, which must sit in
// dist/ too: the bundle finds the migrations and the client build relative to itself). Workspace code
// (protocol) is inlined; npm dependencies stay external so native and WASM packages (argon2, PGlite)
// load from node_modules as usual.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@helpdesk/'));

await build({
  entryPoints: ['src/main.ts'],
  outfile: process.argv[2] ?? 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
