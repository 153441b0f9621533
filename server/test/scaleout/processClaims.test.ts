import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseInUseError } from '../../src/db/dbProcesses.js';
import { createLogger } from '../../src/lib/logger.js';
import { createServer, type HelpdeskServer } from '../../src/server.js';
import { parseSettings } from '../../src/settings.js';
import { startupProblem } from '../../src/startup/startupProblem.js';
import { createPostgresDatabase } from '../database.js';
import { deleteRedisKeys } from '../redisKeys.js';
import { sharedServices } from './cluster.js';

/**
 * Server processes on one PostgreSQL database: without Redis a server keeps answers, limits and
 * events in its own memory, so it must be the database's only one; with Redis any number share it.
 */
describe('server processes claiming one database', () => {
  const { postgresUrl, redisUrl } = sharedServices();
  const prefix = `helpdesk-test-${randomBytes(4).toString('hex')}`;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let dataDir: string;
  const running: HelpdeskServer[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase(postgresUrl);
    dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-claims-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await database.drop();
    await deleteRedisKeys(redisUrl, prefix);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A server on the shared database, with or without Redis; kept for closing when it starts. */
  const start = async ({ redis }: { redis: boolean }) => {
    const settings = parseSettings({
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
      ...(redis && { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix }),
    });
    const server = await createServer(settings, { database: { kind: 'postgres', url: database.url }, logger: createLogger('silent') });
    running.push(server);
    return server;
  };
  const refusal = (redis: boolean) =>
    start({ redis }).then(
      () => undefined,
      (error: unknown) => error,
    );
  const settingsOf = {
    port: 3000,
    dataDir: './data',
    inbound: { smtpPort: undefined },
    metrics: { port: undefined },
    attachments: { dir: './data/attachments' },
  };

  it('refuses a second server without Redis while one runs, and takes it once that one stopped', async () => {
    const first = await start({ redis: false });
    const error = await refusal(false);
    expect(error).toBeInstanceOf(DatabaseInUseError);
    expect(startupProblem(error, settingsOf)).toBe(
      'Another HelpDesk process uses this database, and without REDIS_URL a server must be its only one: set the same REDIS_URL on every process, or stop the other one',
    );
    await first.close();
    running.splice(running.indexOf(first), 1);
    await start({ redis: false });
  });

  it('lets servers sharing Redis start side by side, and keeps out one without it', async () => {
    await start({ redis: true });
    await start({ redis: true });
    expect(await refusal(false)).toBeInstanceOf(DatabaseInUseError);
  });

  it('keeps a server with Redis out while one without it runs, saying which to fix', async () => {
    await start({ redis: false });
    const error = await refusal(true);
    expect(error).toBeInstanceOf(DatabaseInUseError);
    expect(startupProblem(error, settingsOf)).toBe(
      'A HelpDesk process without REDIS_URL uses this database: set the same REDIS_URL on it too, or stop it',
    );
  });
});
