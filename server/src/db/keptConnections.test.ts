import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { openDatabase, POOL_IDLE_MS, type Database } from './client.js';
import { executedRows } from './rows.js';

/** The server process behind the connection a statement ran on (PGlite's one backend has one). */
const backendOf = async (database: Database, planned = false): Promise<number> => {
  const [row] = await executedRows(planned ? database.planned : database.db, sql`select pg_backend_pid() as pid`);
  return Number(row?.pid);
};

describe('connections kept through a quiet desk', () => {
  const opened = useOpenedDatabase();
  afterEach(() => vi.useRealTimers());

  it('answers after a quiet minute on the connection it already had, and lets it go after a long quiet', async () => {
    // The pools' idle timers are set when a connection comes back, so the clock is faked before
    // the database opens; it also runs on by itself, so the opening's own waits still end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const database = await openDatabase(opened.target);
    try {
      const first = await backendOf(database);
      const firstPlanned = await backendOf(database, true);
      // node-postgres's own default would have closed both after 10 s.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await backendOf(database)).toBe(first);
      expect(await backendOf(database, true)).toBe(firstPlanned);

      await vi.advanceTimersByTimeAsync(POOL_IDLE_MS + 1_000);
      const later = await backendOf(database);
      // A pool lets a connection go after POOL_IDLE_MS; PGlite's single backend is the process itself.
      if (opened.target.kind === 'postgres') expect(later).not.toBe(first);
      else expect(later).toBe(first);
    } finally {
      await database.close();
    }
  });
});
