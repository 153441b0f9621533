import { randomBytes } from 'node:crypto';
import { createPostgresDatabase, requiredEnv } from '../database.js';
import { ADMIN_ENV } from '../factories.js';
import { createApiClient, type ApiClient } from '../http.js';
import { deleteRedisKeys } from '../redisKeys.js';
import { startServerProcesses, type ServerProcess } from '../serverProcess.js';

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
  /** Given each process's index, so one process alone can be cut from Redis. */
  redisUrl?: (direct: string, index: number) => string;
  env?: Record<string, string>;
}

/**
 * Several real server processes (src/main.ts bundled) on loopback ports, started at the same moment, sharing
 * a fresh PostgreSQL database and a Redis key prefix of their own, so suites never hear each other.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const { postgresUrl, redisUrl } = sharedServices();
  const database = await createPostgresDatabase(postgresUrl);
  const redisKeyPrefix = `helpdesk-test-${randomBytes(4).toString('hex')}`;
  const removeShared = async () => {
    await database.drop();
    await deleteRedisKeys(redisUrl, redisKeyPrefix);
  };
  const started = await startServerProcesses(
    options.processes ?? 2,
    {
      DATABASE_URL: options.databaseUrl?.(database.url) ?? database.url,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      JWT_SECRET,
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://helpdesk.test',
      SEED_DEMO: 'false',
      // Tests sign agents up through the API; a real deployment defaults to closed.
      AGENT_SIGNUP: 'open',
      ...ADMIN_ENV,
      ...options.env,
    },
    { envOf: (index) => ({ REDIS_URL: options.redisUrl?.(redisUrl, index) ?? redisUrl }) },
  ).catch(async (error: unknown) => {
    await removeShared();
    throw error;
  });
  return {
    databaseUrl: database.url,
    redisKeyPrefix,
    nodes: started.processes.map((p) => ({ process: p, url: p.url, api: createApiClient(p.url) })),
    async stop() {
      await started.stop();
      await removeShared();
    },
  };
}
