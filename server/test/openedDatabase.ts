import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database, type DatabaseTarget } from '../src/db/client.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface OpenedDatabase {
  /** The migrated, opened database; read it in hooks and tests, after the suite's setup. */
  readonly database: Database;
  readonly target: DatabaseTarget;
}

/**
 * A fresh database (test/database.ts), migrated and opened before the suite it is called in, then
 * closed and dropped after it. Call it first in a describe, so the suite's own hooks find it open.
 */
export function useOpenedDatabase(): OpenedDatabase {
  let testDb: TestDatabase | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The test database opens in beforeAll; read it from a hook or a test.');
    return value;
  };
  return {
    get database() {
      return opened(database);
    },
    get target() {
      return opened(testDb).target;
    },
  };
}
