import { startServerProcesses, type ServerProcess } from '../test/serverProcess.js';

/** Every process of a benchmark signs and verifies tokens with this one (REDIS_URL requires a shared secret). */
export const BENCH_JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';
/** The scale bench's servers keep metrics, as a monitored deployment does, and its scrape is a call of its own. */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';

export interface BenchServers {
  processes: ServerProcess[];
  urls: string[];
  stop(): Promise<void>;
}

export interface BenchServerOptions {
  databaseUrl: string;
  /** Without it each process uses Socket.IO's in-memory adapter, the single-process deployment. */
  redis?: { url: string; keyPrefix: string };
  /** More settings or NODE_OPTIONS, e.g. for a profiling run. */
  env?: Record<string, string>;
}

/**
 * Real server processes (src/main.ts bundled) on fixed loopback ports, sharing one database. A fixed PORT lets
 * readiness come from /api/health, so LOG_LEVEL can stay at warn: per-request log lines would be
 * part of every figure otherwise.
 */
export async function startBenchServers(count: number, options: BenchServerOptions): Promise<BenchServers> {
  const { processes, stop } = await startServerProcesses(
    count,
    {
      DATABASE_URL: options.databaseUrl,
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      // The benches sign their agents up through the API.
      AGENT_SIGNUP: 'open',
      LOG_LEVEL: 'warn',
      // The realtime bench opens thousands of sockets with one agent's token.
      MAX_SOCKETS_PER_USER: '1000000',
      JWT_SECRET: BENCH_JWT_SECRET,
      ...(options.redis && { REDIS_URL: options.redis.url, REDIS_KEY_PREFIX: options.redis.keyPrefix }),
      ...options.env,
    },
    { fixedPorts: true },
  );
  return { processes, urls: processes.map((p) => p.url), stop };
}
