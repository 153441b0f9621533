import pg from 'pg';
import type { ExclusiveLock } from './client.js';

/** The advisory lock every server process on a PostgreSQL database holds (startup 727_001, IMAP 727_002, SLA 727_003). */
export const PROCESSES_LOCK_KEY = 727_004;

/**
 * A process without Redis keeps answers, rate limits and live events in its own memory, which is
 * right only while it is the database's sole server: a second one would serve answers the first's
 * writes made stale, and neither would hear the other's events. So such a process holds the lock
 * exclusive, and processes sharing Redis hold it shared: a start that would break that is refused.
 * The lock lives on a connection of its own, outside the pools, for the process's life; the
 * database frees it when the process goes, however it ends.
 */
export async function claimProcess(url: string, alone: boolean): Promise<ExclusiveLock | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  let lost = false;
  // A connection cut in an outage lets the lock go; the process goes on serving.
  client.on('error', () => (lost = true));
  await client.connect();
  const mode = alone ? '' : '_shared';
  try {
    const { rows } = await client.query<{ locked: boolean }>(`select pg_try_advisory_lock${mode}($1) as locked`, [PROCESSES_LOCK_KEY]);
    if (!rows[0]?.locked) {
      await client.end();
      return undefined;
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    get lost() {
      return lost;
    },
    async release() {
      await client.end().catch(() => undefined);
    },
  };
}

/** claimProcess's refusal: whether this process came alone (no Redis) or sharing. */
export class DatabaseInUseError extends Error {
  constructor(readonly alone: boolean) {
    super(alone ? 'Another server process uses this database' : 'A server process without Redis uses this database');
    this.name = 'DatabaseInUseError';
  }
}
