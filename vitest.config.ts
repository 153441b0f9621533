import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Server tests run once on an embedded PGlite and once more on PostgreSQL when TEST_DATABASE_URL is
 * set. CI must exercise PostgreSQL, so there a missing URL is an error, not a quiet skip.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (process.env.CI && !postgresUrl) {
  throw new Error(
    'CI requires TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test): the server suite must also run on PostgreSQL.',
  );
}
if (process.env.CI && !redisUrl) {
  throw new Error('CI requires TEST_REDIS_URL (e.g. redis://127.0.0.1:6379): the multi-process suite must run.');
}

const serverProject = (name: string, env: Record<string, string>, exclude: string[] = []) => ({
  extends: true as const,
  test: {
    name,
    root: './server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', SCALE_OUT, ...exclude],
    environment: 'node',
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

/** Several server processes sharing PostgreSQL and Redis: a project of its own, run once. */
const SCALE_OUT = 'test/scaleout/**';

/** Libraries the component tests import in every file, in both the app and the test helpers. */
const PREBUNDLED_FOR_COMPONENT_TESTS = [
  ...['core', 'hooks', 'charts', 'form', 'modals', 'notifications'].map((name) => `@mantine/${name}`),
  '@tabler/icons-react',
  'recharts',
  '@tanstack/react-query',
  'jotai',
  'socket.io-client',
  'wouter',
  'dayjs',
  ...['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'],
  ...['@testing-library/react', '@testing-library/user-event', '@testing-library/jest-dom/vitest'],
];

/** Tests that touch no shared database (the embedded-database process test, source checks) run once. */
const PGLITE_OR_PURE = [
  'src/main.test.ts',
  'src/routes/responses.test.ts',
  'src/docAnchors.test.ts',
  'src/sla/businessTime.test.ts',
  'src/sla/clock.test.ts',
  'src/lib/logger.test.ts',
  'src/middleware/requestLog.test.ts',
  'src/db/dataDirLock.test.ts',
  'src/startup/startupProblem.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // One worker per core (vitest leaves one core out): the tests wait on PostgreSQL, child processes
    // and sockets often enough that a second worker fills the gaps. Files share each worker's module
    // cache instead of importing the app again (isolate), so a file must leave no global state behind:
    // each opens its own database and server. Together they took the suite from 1,087 s to 608 s on
    // a 2-core machine (docs/architecture.md#tests).
    maxWorkers: availableParallelism(),
    isolate: false,
    projects: [
      { extends: true, test: { name: 'protocol', root: './protocol', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'client',
          root: './client',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          // Scripts a test's markup names are never fetched (happy-dom evaluates none anyway).
          environmentOptions: { happyDOM: { settings: { disableJavaScriptFileLoading: true } } },
          setupFiles: ['./src/test-utils/setup.ts'],
          testTimeout: 15_000,
          // Fresh modules per file: the app's state lives in module singletons (session store, page atoms,
          // early reads) that one file's late work left to the next (docs/architecture.md#tests).
          isolate: true,
          // Each file imports the UI libraries afresh: bundled once into single files they load in a
          // fraction of the time (the project's CPU time fell by a quarter). react-markdown stays out:
          // bundled, its dependencies look for Node's util.
          deps: { optimizer: { client: { enabled: true, include: PREBUNDLED_FOR_COMPONENT_TESTS } } },
        },
      },
      // docker-compose.yml, Dockerfile and deploy/nginx.conf, checked by the programs that read them.
      { extends: true, test: { name: 'deploy', root: './deploy', include: ['*.test.ts'], environment: 'node', testTimeout: 30_000 } },
      serverProject('server:pglite', { TEST_DB: 'pglite' }),
      ...(postgresUrl ? [serverProject('server:postgres', { TEST_DB: 'postgres', TEST_DATABASE_URL: postgresUrl }, PGLITE_OR_PURE)] : []),
      ...(postgresUrl && redisUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'server:scale-out',
                root: './server',
                include: [SCALE_OUT.replace('**', '*.test.ts')],
                environment: 'node',
                env: { TEST_DATABASE_URL: postgresUrl, TEST_REDIS_URL: redisUrl },
                testTimeout: 60_000,
                hookTimeout: 90_000,
              },
            },
          ]
        : []),
    ],
  },
});
