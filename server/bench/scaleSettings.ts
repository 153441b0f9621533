/** The scale bench's settings, read once from the environment (the knobs are listed in scale.ts). */
import { positiveInt, positiveInts } from './support.js';

export const HOST = '127.0.0.1';

export const TICKETS = positiveInt('BENCH_TICKETS', 1_000_000, 100);
export const USERS = positiveInt('BENCH_USERS', 20_000, 50);
export const COMMENTS = positiveInt('BENCH_COMMENTS', 2 * TICKETS, 0);
export const ARTICLES = positiveInt('BENCH_ARTICLES', 200, 1);
export const SECONDS = positiveInt('BENCH_SECONDS', 2);
export const WARMUP = positiveInt('BENCH_WARMUP', 2, 0);
/** The floor's slice before each call: the machine is shared, so each share is of a floor measured next to it. */
export const FLOOR_SECONDS = positiveInt('BENCH_FLOOR_SECONDS', 1);
export const TIMEOUT_S = positiveInt('BENCH_TIMEOUT', 10);
export const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
/** Questions of each call also asked one at a time after its load (0: none): their cost without a queue. */
export const SERIAL = positiveInt('BENCH_SERIAL', 0, 0);
/** How many agents and users the questions are asked by (each with a token of their own). */
export const AGENT_ACCOUNTS = positiveInt('BENCH_AGENTS', 60);
export const USER_ACCOUNTS = positiveInt('BENCH_USER_ACCOUNTS', 300);
export const SEED = positiveInt('BENCH_SEED', 42, 0);
/** Whether the data set is read into the OS cache before the cells (Place.warm); 0 measures it cold. */
export const WARM = !['0', 'false'].includes(process.env.BENCH_WARM ?? '');

export const KIND: 'postgres' | 'pglite' = (() => {
  const raw = (process.env.BENCH_DB ?? 'postgres').toLowerCase();
  if (raw !== 'postgres' && raw !== 'pglite') throw new Error(`BENCH_DB must be postgres or pglite, got "${raw}"`);
  return raw;
})();

/** The matrix: each cell is one server setup measured with every call. */
const words = (name: string, fallback: string[], allowed: readonly string[]): string[] => {
  const raw = process.env[name];
  const values = raw?.trim() ? raw.split(',').map((v) => v.trim().toLowerCase()) : fallback;
  const wrong = values.find((v) => !allowed.includes(v));
  if (wrong) throw new Error(`${name} must be a comma-separated list of ${allowed.join(', ')}, got "${raw}"`);
  return values;
};
export const MEMO = words('BENCH_MEMO', ['off', 'on'], ['off', 'on']) as ('off' | 'on')[];
/** Reads planned once per connection (PREPARED_STATEMENTS); `on,off` measures both in one run. */
export const PREPARED = words('BENCH_PREPARED', ['on'], ['on', 'off']) as ('on' | 'off')[];
/** PGlite is embedded in one process: two processes need PostgreSQL. */
export const PROCESSES = positiveInts('BENCH_PROCESSES', KIND === 'pglite' ? [1] : [1, 2]);
export const WRITE_RATES = positiveInts('BENCH_WRITES', [2, 10]);

export const KEEP = process.env.BENCH_KEEP && !['0', 'false', ''].includes(process.env.BENCH_KEEP) ? process.env.BENCH_KEEP : undefined;
export const EXPLAIN = process.env.BENCH_EXPLAIN === 'all' ? Infinity : positiveInt('BENCH_EXPLAIN', 0, 0);
export const EXPLAIN_FILE = process.env.BENCH_EXPLAIN_FILE;
export const ONLY = process.env.BENCH_ONLY;
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A few hundred staff for 20,000 users; the first few of them admins. */
export const STAFF = Math.min(USERS - 10, Math.max(5, Math.round(USERS * 0.015)));
export const ADMINS = Math.max(1, Math.round(STAFF / 30));
export const PASSWORD = 'Scale-Bench-Passw0rd!';

/**
 * Bumped whenever the generator changes, so an older kept data set is rebuilt, not reused. Version 2:
 * ticket text drawn from a vocabulary of thousands of words, saved views, notifications, reads. Its
 * database is named apart from version 1's, which may be kept for other runs. Version 3: tickets carry
 * tags (scaleDataset.ts#TAGS), counted as the triggers count them. Version 4: service levels
 * (scaleDataset.ts#slaSql): one policy on every ticket, a sixth of the tickets in progress waiting on
 * the customer, the active ones' deadlines spread around now (ok, warning, breached), the done ones met
 * or breached. Version 5: tickets carry a category where the schema has one (scaleDataset.ts#CATEGORY_SHARES),
 * counted as the triggers count them. Version 6: the same rows, written after migration 0040 set the
 * tickets' fillfactor to 50, as every ticket made since is (a data set kept from before stays packed).
 */
export const SEED_VERSION = 6;
export const SPEC = JSON.stringify({ v: SEED_VERSION, tickets: TICKETS, users: USERS, comments: COMMENTS, articles: ARTICLES });
const DEFAULT_SIZES = USERS === 20_000 && COMMENTS === 2 * TICKETS && ARTICLES === 200;
export const DATASET_NAME = `helpdesk_scale_v${SEED_VERSION}_${TICKETS}${DEFAULT_SIZES ? '' : `_u${USERS}_c${COMMENTS}_a${ARTICLES}`}`;

// Phases: every step says how long it took, and the run ends with the list.
export const phases: { name: string; seconds: number }[] = [];

export async function phase<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    const seconds = (performance.now() - started) / 1000;
    phases.push({ name, seconds });
    console.log(`[phase] ${name}: ${seconds.toFixed(1)} s`);
  }
}

export const ms = (v: number) => (Number.isNaN(v) ? '-' : v < 1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : v.toFixed(0));
