import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: the built client served by the real server on a fresh embedded database,
 * driven in Debian's Chromium. Run after `npm run build`, two files at a time on two cores: a
 * journey waits on its browser, its server and their sockets about a fifth of its time, and the
 * run took 450 s against 576 s one file at a time (docs/architecture.md#tests).
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: './client',
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    env: { TEST_DB: 'pglite' },
    fileParallelism: true,
    maxWorkers: 2,
    // The files share the worker's module cache, so the migrated database every product starts from
    // is made once, not once per file (server/test/database.ts); each file starts its own product.
    isolate: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default', fileURLToPath(new URL('./scripts/summary-reporter.ts', import.meta.url))],
  },
});
