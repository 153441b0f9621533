import { collectTablesRead, noteTablesRead, unchanged, unchangedAnywhere, type TableVersions, type Versions } from '../db/tableVersions.js';
import { createRecentlyUsed } from '../lib/recentlyUsed.js';

/**
 * Keeps the answer of a costly read until a write that may have changed it ends, sharing one read
 * among callers that ask at the same time. An answer is kept with the table versions taken before
 * its read started and the tables its statements named (seen at the driver, db/writeCounter.ts); it
 * is served again only while those tables' versions are unchanged. A write to another table keeps it.
 *
 * Exact on every process: a write bumps its tables' versions after it ends and before its caller
 * sees the result, in this process or, with Redis, in Redis (scaleout/sharedVersions.ts); every
 * lookup reads the versions now (with Redis, one round trip) before trusting a kept answer. So once a
 * write has been answered, a later lookup anywhere sees its bump, and drops every answer read before
 * it that named a table it may have changed. When the versions cannot be read, nothing is kept.
 */
export interface ReadMemo<T> {
  (key: string, read: () => Promise<T>): Promise<T>;
}

interface Entry<T> {
  /** Taken before the read started: a write ending during the read makes the entry stale at once. */
  versions: Versions;
  /** The tables the read named, once it has ended. */
  tables?: Set<string>;
  value: Promise<T>;
}

export function createReadMemo<T>({ memoVersions }: { memoVersions: TableVersions }, size: number): ReadMemo<T> {
  const entries = createRecentlyUsed<string, Entry<T>>(size);

  /** The answer, after telling an enclosing read (one whose answer is kept too) the tables it named. */
  const reported = (entry: Entry<T>) =>
    entry.value.then((value) => {
      if (entry.tables) noteTablesRead(entry.tables);
      return value;
    });

  const lookup = (key: string, read: () => Promise<T>, now: Versions | undefined): Promise<T> => {
    if (!now) return read();
    const hit = entries.get(key);
    // While its read runs, an entry's tables are not known yet: any change at all makes it stale.
    if (hit && (hit.tables ? unchanged(hit.versions, now, hit.tables) : unchangedAnywhere(hit.versions, now))) return reported(hit);
    const tables = new Set<string>();
    const entry: Entry<T> = { versions: now, value: collectTablesRead(tables, read) };
    entries.set(key, entry);
    entry.value.then(
      () => (entry.tables = tables),
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return reported(entry);
  };

  return (key, read) => {
    const now = memoVersions.current();
    return now instanceof Promise ? now.then((versions) => lookup(key, read, versions)) : lookup(key, read, now);
  };
}
