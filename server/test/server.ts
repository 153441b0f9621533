import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/lib/logger.js';
import type { RateLimitRule, RateLimitRules } from '../src/middleware/rateLimit.js';
import { createServer, type HelpdeskServer, type ServerOptions } from '../src/server.js';
import { parseSettings } from '../src/settings.js';
import { createTestDatabase } from './database.js';
import { createApiClient, type ApiClient } from './http.js';

export interface TestServer {
  url: string;
  api: ApiClient;
  server: HelpdeskServer;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Suites sign up, sign in and comment from 127.0.0.1 far more than one office would, so these
 * per-address and per-user budgets are roomy unless a suite passes its own (e.g. the production ones).
 */
const ROOMY: RateLimitRule = { points: 100_000, durationSeconds: 60 };
export const ROOMY_TEST_LIMITS: Partial<RateLimitRules> = {
  loginPerAddress: ROOMY,
  signupPerAddress: ROOMY,
  resetSubmitPerAddress: ROOMY,
  commentPerUser: ROOMY,
  passwordChangePerAddress: ROOMY,
  bulkPerUser: ROOMY,
  bulkPerAddress: ROOMY,
  uploadPerUser: ROOMY,
  uploadPerAddress: ROOMY,
  invalidTokensPerAddress: ROOMY,
  csatPerAddress: ROOMY,
};

/** The real server over real HTTP on a random loopback port, on a fresh database. */
export async function startTestServer(env: Record<string, string> = {}, options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-test-'));
  const database = await createTestDatabase();
  const settings = parseSettings({
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://helpdesk.test',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    // Tests scan by hand (services.slaScan): a background pass could mark a ticket before a test's
    // own scan does. A test of the interval scanner passes its own.
    SLA_SCAN_INTERVAL_MS: String(3_600_000),
    ...env,
  });
  const server = await createServer(settings, {
    database: database.target,
    logger: createLogger(settings.logLevel),
    ...options,
    rateLimits: { ...ROOMY_TEST_LIMITS, ...options.rateLimits },
  });
  const url = await server.listen(0, '127.0.0.1');
  return {
    url,
    api: createApiClient(url),
    server,
    dataDir,
    async close() {
      await server.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
