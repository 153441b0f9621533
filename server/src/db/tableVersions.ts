import { AsyncLocalStorage } from 'node:async_hooks';
import { EVERY_TABLE, type Tables } from './tableDependencies.js';

/**
 * A version per table, bumped each time a write that may have changed the table ends, and one for
 * every table at once (EVERY_TABLE). A kept answer (services/readMemo.ts) is still the answer while
 * the versions of the tables its read named are those taken before that read started.
 */
export interface Versions {
  /** Changes whenever a kept answer can no longer be compared (the shared store was lost meanwhile). */
  generation: number;
  /** Bumps of any table so far: equal stamps (and generations) mean no write has ended in between. */
  stamp: number;
  of(table: string): number;
}

export interface TableVersions {
  /**
   * Called by the driver when a write has ended, before its caller sees the result: once it resolves,
   * no process may trust an answer read before the write (scaleout/sharedVersions.ts). Never rejects.
   */
  bump(tables: Tables): void | Promise<void>;
  /** The versions now, or undefined when they cannot be known now: then nothing is kept or trusted. */
  current(): Versions | undefined | Promise<Versions | undefined>;
  /** Stops any timers (process shutdown). */
  stop?(): Promise<void>;
  /**
   * Resolves once this process takes part (a shared store has counted it in), or after `timeoutMs`
   * without the store: joining bumps every table, which must happen before the process answers.
   */
  joined?(timeoutMs: number): Promise<void>;
}

/** Whether nothing a read of `tables` depends on has changed between `then` and `now`. */
export function unchanged(then: Versions, now: Versions, tables: Iterable<string>): boolean {
  if (then.generation !== now.generation || then.of(EVERY_TABLE) !== now.of(EVERY_TABLE)) return false;
  for (const table of tables) if (then.of(table) !== now.of(table)) return false;
  return true;
}

/** Whether no write at all has ended between `then` and `now`. */
export const unchangedAnywhere = (then: Versions, now: Versions): boolean => then.generation === now.generation && then.stamp === now.stamp;

/** The field of a record of table → version that counts every bump. */
export const STAMP = '#';

/** Versions from a plain record of table → version (and STAMP). */
export function versionsOf(record: Readonly<Record<string, number>>, generation = 0): Versions {
  return { generation, stamp: record[STAMP] ?? 0, of: (table) => record[table] ?? 0 };
}

/** One process is the database's only writer (PGlite, or PostgreSQL without Redis): versions live here. */
export function localVersions(): TableVersions {
  const counts: Record<string, number> = {};
  // One copy serves every lookup until the next bump.
  let snapshot: Versions | undefined;
  return {
    bump(tables) {
      for (const table of [...tables, STAMP]) counts[table] = (counts[table] ?? 0) + 1;
      snapshot = undefined;
    },
    current: () => (snapshot ??= versionsOf({ ...counts })),
  };
}

/**
 * The tables the statements of a read named, collected while it runs: the driver reports each
 * statement to the read it belongs to (db/writeCounter.ts), and a kept answer reused inside another
 * read reports its own tables.
 */
const reading = new AsyncLocalStorage<Set<string>>();

export function collectTablesRead<T>(tables: Set<string>, read: () => PromiseLike<T>): Promise<T> {
  // Awaited inside: a drizzle query is a thenable that runs only when awaited, which must be here.
  return reading.run(tables, async () => await read());
}

export function noteTablesRead(tables: Iterable<string>): void {
  const store = reading.getStore();
  if (store) for (const table of tables) store.add(table);
}

/** Keeps nothing: every read reads (a measurement of the memo off, or a read that must not be kept). */
export const memoOff: TableVersions = { bump: () => undefined, current: () => undefined };
