import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './dataDirLock.js';
import { claimProcess } from './dbProcesses.js';
import { CATALOG_QUERIES, tableDependencies, unknownDependencies, type Catalog, type TableDependencies } from './tableDependencies.js';
import { nameStatements, recordPlannedPartner } from './plannedStatements.js';
import { localVersions, type TableVersions } from './tableVersions.js';
import { createWriteWatch } from './writeCounter.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** Both drivers share this type, so services never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A lock taken by tryExclusive. */
export interface ExclusiveLock {
  /** The lock's connection failed, so the database has let the lock go: take it again before relying on it. */
  readonly lost: boolean;
  release(): Promise<void>;
}

export interface Database {
  db: Db;
  /**
   * Reads whose best plan does not depend on their values (a ticket by id, a thread's page, a list
   * page in an index's order), each planned once per connection (db/plannedStatements.ts). On
   * PGlite, `db` itself: it plans in-process, with no round trip to save.
   */
  planned: Db;
  kind: 'pglite' | 'postgres';
  /** Runs fn while holding a cluster-wide lock, so concurrent processes migrate and seed one at a time. */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * Takes a cluster-wide lock held until `release` (or the process's end), or answers undefined at
   * once when another process holds it: a job only one process may run (the IMAP intake).
   */
  tryExclusive(key: number): Promise<ExclusiveLock | undefined>;
  /**
   * Counts this server process in on the database, on a connection of its own for as long as it
   * runs: `alone` (no Redis, so nothing it keeps in memory is shared) only if no other process is in,
   * else beside any others that are not alone. Undefined when that cannot be (dbProcesses.ts).
   */
  claimProcess(alone: boolean): Promise<ExclusiveLock | undefined>;
  close(): Promise<void>;
  /**
   * Where the driver bumps table versions when writes end (db/writeCounter.ts), and kept answers
   * compare them (services/readMemo.ts): this process alone, until `shareVersions` puts them in Redis.
   */
  versions(): TableVersions;
  shareVersions(shared: TableVersions): void;
}

/**
 * A PGlite `dataDir` is a directory, or the string 'memory' for a database that lives only in this
 * process; `template` is a dump (`dumpDataDir`) to start it from, which the tests use to skip
 * migrating each fresh database. `preparedStatements: false` sends every statement unnamed (behind a
 * pooler that cannot keep named ones).
 */
export type DatabaseTarget =
  { kind: 'postgres'; url: string; preparedStatements?: boolean } | { kind: 'pglite'; dataDir: string; template?: Blob };

const here = path.dirname(fileURLToPath(import.meta.url));

const STARTUP_LOCK_KEY = 727_001;
/** No request may hold the database for more than a second (docs/decisions.md#scale). */
const STATEMENT_TIMEOUT_MS = 1000;
/**
 * How long a pool keeps a connection nobody is using. node-postgres closes them after 10 s, and a
 * desk is quiet for longer than that all day: the next request then waits for a new connection,
 * whose catalog is cold (the tickets' thirty indexes read again: a list planned in 2.7 ms, not 0.6)
 * and whose statements planned once are planned again (docs/decisions.md#connections-kept-warm).
 */
export const POOL_IDLE_MS = 5 * 60_000;
/** Keepalive on the kept connections, so a NAT or firewall that drops quiet flows keeps them open. */
const KEEPALIVE_DELAY_MS = 60_000;

/** Closing twice (shutdown racing a test's teardown) must not throw. */
const once = (fn: () => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
};

export async function openDatabase(target: DatabaseTarget, migrationsDir = resolveMigrationsDir()): Promise<Database> {
  const watch = watchStatements();
  const database = target.kind === 'postgres' ? openPostgres(target, watch) : await openPglite(target, watch);
  await database.withStartupLock(async () => {
    if (target.kind === 'postgres') await migratePostgres(target.url, migrationsDir);
    else await migratePglite(database.db as never, { migrationsFolder: migrationsDir });
  });
  // Read once the tables and triggers are all there; until then every write may change anything.
  watch.learn(await readCatalog(database.db));
  return database;
}

type Watch = ReturnType<typeof watchStatements>;

/** The driver's statement watch, with the dependencies and the versions it reports to. */
function watchStatements() {
  let dependencies: TableDependencies = unknownDependencies;
  let versions: TableVersions = localVersions();
  return {
    ...createWriteWatch(
      () => dependencies,
      () => versions,
    ),
    learn(catalog: Catalog) {
      dependencies = tableDependencies(catalog);
    },
    versions: () => versions,
    shareVersions(shared: TableVersions) {
      versions = shared;
    },
  };
}

async function readCatalog(db: Db): Promise<Catalog> {
  const rows = async <T>(query: string): Promise<T[]> => {
    const result: unknown = await db.execute(sql.raw(query));
    return (result as { rows: T[] }).rows;
  };
  return {
    relations: await rows(CATALOG_QUERIES.relations),
    functions: await rows(CATALOG_QUERIES.functions),
    triggers: await rows(CATALOG_QUERIES.triggers),
    cascades: await rows(CATALOG_QUERIES.cascades),
  };
}

/** A migration may build an index over millions of rows: its connection has no statement timeout. */
async function migratePostgres(url: string, migrationsFolder: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
  } finally {
    await client.end();
  }
}

/** server/migrations, seen from src/db/ in development and from the bundled dist/ in production. */
function resolveMigrationsDir(): string {
  const found = [path.resolve(here, '../../migrations'), path.resolve(here, '../migrations')].find(existsSync);
  if (!found) throw new Error(`Database migrations not found near ${here}`);
  return found;
}

function openPool(url: string, writes: Watch, { planOnce = false } = {}): pg.Pool {
  // JIT compiles big plans for ~200 ms that the bounded queries never earn back; the timeout is the
  // safety net for a plan gone wrong (migrations use their own connection, without it).
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: POOL_IDLE_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    connectionTimeoutMillis: 5000,
    options: `-c jit=off -c statement_timeout=${STATEMENT_TIMEOUT_MS}${planOnce ? ' -c plan_cache_mode=force_generic_plan' : ''}`,
  });
  // A dropped connection must not crash the process: the pool reports idle ones here, and a client
  // checked out for a transaction emits on itself (pg-pool removes its listener while lent). The
  // running query fails with the same error, and the pool discards the broken client on release.
  pool.on('error', () => undefined);
  // A transaction's statements run on a checked-out client; the others through pool.query, which
  // calls its client back-style (not counted there), so each statement counts once.
  writes.watchStatements(pool, 'query');
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    if (planOnce) nameStatements(client);
    writes.watchStatements(client, 'query', { transactions: true });
  });
  return pool;
}

function openPostgres({ url, preparedStatements = true }: { url: string; preparedStatements?: boolean }, writes: Watch): Database {
  const pool = openPool(url, writes);
  const plannedPool = preparedStatements ? openPool(url, writes, { planOnce: true }) : undefined;
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const planned = plannedPool ? (drizzlePg({ client: plannedPool, schema }) as unknown as Db) : db;
  if (planned !== db) recordPlannedPartner(db, planned);
  return {
    db,
    planned,
    kind: 'postgres',
    versions: () => writes.versions(),
    shareVersions: (shared) => writes.shareVersions(shared),
    async withStartupLock(fn) {
      const client = await pool.connect();
      try {
        // Waiting for another process's migrations may take longer than any statement may: a replica
        // started beside a loaded one must wait, not die of the statement timeout.
        await client.query('set statement_timeout = 0');
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => undefined);
        await client.query('reset statement_timeout').catch(() => undefined);
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async tryExclusive(key) {
      // A session-level lock lives with its connection, so that connection stays out of the pool.
      const client = await pool.connect();
      let lost = false;
      const onError = () => (lost = true);
      client.on('error', onError);
      const giveBack = (broken: boolean) => {
        client.off('error', onError);
        // A failed connection is destroyed, never pooled again: ending it later would wait forever.
        client.release(broken || undefined);
      };
      try {
        const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
        if (rows[0]?.locked) {
          return {
            get lost() {
              return lost;
            },
            async release() {
              if (!lost) await client.query('select pg_advisory_unlock($1)', [key]).catch(() => (lost = true));
              giveBack(lost);
            },
          };
        }
      } catch (error) {
        giveBack(true);
        throw error;
      }
      giveBack(lost);
      return undefined;
    },
    claimProcess: (alone) => claimProcess(url, alone),
    close: once(async () => {
      await Promise.all([pool.end(), plannedPool?.end()]);
    }),
  };
}

/** A PGlite with the extensions the migrations need, empty or started from `template`; a folder must exist. */
function createPglite(dataDir: string, template?: Blob): Promise<PGlite> {
  return PGlite.create(dataDir === 'memory' ? undefined : dataDir, { extensions: { pg_trgm }, loadDataDir: template });
}

/** A dump of an in-memory PGlite with every migration applied: a `template` for fresh databases. */
export async function migratedPgliteTemplate(migrationsDir = resolveMigrationsDir()): Promise<Blob> {
  const client = await createPglite('memory');
  try {
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: migrationsDir });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

async function openPglite({ dataDir, template }: { dataDir: string; template?: Blob }, writes: Watch): Promise<Database> {
  // One process per folder: PGlite itself would let a second one open the same files (dataDirLock.ts).
  if (dataDir !== 'memory') mkdirSync(dataDir, { recursive: true });
  const release = dataDir === 'memory' ? () => undefined : lockDataDir(dataDir);
  const client = await createPglite(dataDir, template).catch((error: unknown) => {
    release();
    throw error;
  });
  // A transaction's statements go through its own handle, watched for the transaction's end.
  writes.watchStatements(client, 'query');
  writes.watchStatements(client, 'exec');
  writes.watchTransactions(client, 'transaction');
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    planned: db,
    kind: 'pglite',
    versions: () => writes.versions(),
    shareVersions: (shared) => writes.shareVersions(shared),
    // PGlite lives inside this one process; nothing else can race it.
    withStartupLock: (fn) => fn(),
    tryExclusive: () => Promise.resolve({ lost: false, release: () => Promise.resolve() }),
    // The folder's lock (dataDirLock.ts) already keeps every other process out.
    claimProcess: () => Promise.resolve({ lost: false, release: () => Promise.resolve() }),
    async ping() {
      await db.execute(sql`select 1`);
    },
    close: once(async () => {
      await client.close();
      release();
    }),
  };
}
