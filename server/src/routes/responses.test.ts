import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `satisfies` is what ties an answer to the protocol type the client reads; a body without it can
// drift unnoticed, so every assignment in the routes and the error middleware must carry one.
const here = path.dirname(fileURLToPath(import.meta.url));
const sources = [
  ...readdirSync(here)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.join(here, file)),
  path.join(here, '../middleware/errors.ts'),
  path.join(here, '../app.ts'),
];

describe('response bodies', () => {
  it.each(sources.map((file) => [path.relative(path.join(here, '..'), file), file]))(
    '%s binds every ctx.body to a protocol Response type',
    (_, file) => {
      // Each assignment runs to the first `;` that ends a line, however the formatter wrapped it.
      const source = readFileSync(file, 'utf8');
      const assignments = [...source.matchAll(/ctx\.body\s*=(?!=)[\s\S]*?;\s*$/gm)].map((m) => m[0]);
      expect(assignments.filter((statement) => !/satisfies \w*Response;\s*$/.test(statement))).toEqual([]);
      // Bodies sent through lib/jsonOnce.ts: the builder's result carries the type instead.
      const built = [...source.matchAll(/\bsend\w+\(\s*ctx,[\s\S]*?\);\s*$/gm)].map((m) => m[0]);
      expect(built.filter((statement) => !/satisfies \w*Response,?\s*\);\s*$/.test(statement))).toEqual([]);
    },
  );
});
