import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: the built client served by the real server on a fresh embedded database,
 * driven in Debian's Chromium. Run after `npm run build`, one file at a time so the two cores are
 * not shared by several browsers.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: './client',
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    env: { TEST_DB: 'pglite' },
    fileParallelism: false,
    // The files share the worker's module cache, so the migrated database every product starts from
    // is made once, not once per file (server/test/database.ts); each file starts its own product.
    isolate: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default', fileURLToPath(new URL('./scripts/summary-reporter.ts', import.meta.url))],
  },
});
