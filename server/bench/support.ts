/** Small helpers the benchmark scripts share: settings from the environment, services, figures. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/** A comma-separated list of positive integers, e.g. BENCH_CLIENTS=1000,5000. */
export function positiveInts(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 1))
    throw new Error(`${name} must be a comma-separated list of positive integers, got "${raw}"`);
  return values;
}

/** Fails with a sentence that says which setting to fix, instead of a connection stack trace later. */
export async function requirePostgres(url: string, setting: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${url} (set ${setting}): ${(error as Error).message}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function requireRedis(url: string, setting: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${url} (set ${setting}): ${(error as Error).message}`, { cause: error });
  } finally {
    redis.disconnect();
  }
}

/** Resident set size of a process in KB, from /proc (Linux). */
export function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number.parseInt(line.slice('VmRSS:'.length), 10);
}

/**
 * Microseconds during which some task on this machine waited for a CPU, or for the disk (Linux PSI,
 * cumulative), or undefined without /proc/pressure. Other work on the machine shows up here, and in
 * the tail figures; waits for the disk mean what was read was not in memory.
 */
export function waitMicros(resource: 'cpu' | 'io'): number | undefined {
  try {
    const match = /^some .*total=(\d+)/m.exec(readFileSync(`/proc/pressure/${resource}`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** How every bench client connects: one WebSocket per client, no retries, as a browser tab would. */
export const benchSocketOptions = (token: string) => ({
  path: '/socket.io',
  transports: ['websocket'],
  auth: { token },
  reconnection: false,
  forceNew: true,
  timeout: 20_000,
});

export const machine = () => `cpus: ${os.cpus().length} (${os.cpus()[0]?.model.trim()}) | node ${process.version}`;

/** A markdown table: the first column left-aligned, the figures right-aligned. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
