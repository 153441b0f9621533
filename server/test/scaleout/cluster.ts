import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createPostgresDatabase, requiredEnv } from '../database.js';
import { ADMIN_ENV } from '../factories.js';
import { createApiClient, type ApiClient } from '../http.js';
import { startServerProcess, type ServerProcess } from '../serverProcess.js';

export const JWT_SECRET = 'cluster-test-secret-that-is-long-enough-for-hs256';

/** PostgreSQL and Redis are what several processes share; a suite that needs them fails without them. */
export const sharedServices = () => ({
  postgresUrl: requiredEnv('TEST_DATABASE_URL', 'The multi-process suite'),
  redisUrl: requiredEnv('TEST_REDIS_URL', 'The multi-process suite'),
});

export interface Node {
  process: ServerProcess;
  url: string;
  api: ApiClient;
}

export interface Cluster {
  /** The shared database, reached directly (not through any proxy the test put in front of it). */
  databaseUrl: string;
  redisKeyPrefix: string;
  nodes: Node[];
  stop(): Promise<void>;
}

export interface ClusterOptions {
  processes?: number;
  /** How the processes reach PostgreSQL / Redis, e.g. through a TcpProxy; defaults to directly. */
  databaseUrl?: (direct: string) => string;
  redisUrl?: (direct: string) => string;
  env?: Record<string, string>;
}

/**
 * Several real server processes (src/main.ts) on loopback ports, started at the same moment, sharing
 * a fresh PostgreSQL database and a Redis key prefix of their own, so suites never hear each other.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const { postgresUrl, redisUrl } = sharedServices();
  const database = await createPostgresDatabase(postgresUrl);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-cluster-'));
  const redisKeyPrefix = `helpdesk-test-${randomBytes(4).toString('hex')}`;
  const env = {
    DATABASE_URL: options.databaseUrl?.(database.url) ?? database.url,
    REDIS_URL: options.redisUrl?.(redisUrl) ?? redisUrl,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    JWT_SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://helpdesk.test',
    SEED_DEMO: 'false',
    ...ADMIN_ENV,
    ...options.env,
  };
  const started = await Promise.allSettled(
    Array.from({ length: options.processes ?? 2 }, (_, i) => startServerProcess({ ...env, DATA_DIR: path.join(dataDir, `node-${i}`) })),
  );
  const processes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    await deleteKeys(redisUrl, redisKeyPrefix);
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return {
    databaseUrl: database.url,
    redisKeyPrefix,
    nodes: processes.map((p) => ({ process: p, url: p.url, api: createApiClient(p.url) })),
    stop,
  };
}

async function deleteKeys(redisUrl: string, prefix: string) {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
