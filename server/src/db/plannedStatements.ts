import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createRecentlyUsed } from '../lib/recentlyUsed.js';

/**
 * Statements planned once per connection (docs/decisions.md#statements-planned-once).
 *
 * A node-postgres statement without a name is parsed and planned anew on every call, and at a
 * million tickets planning a list's statement costs PostgreSQL twice what running it does. On the
 * connections of `plannedDb` (plan_cache_mode=force_generic_plan) each statement is sent under a
 * name derived from its text, so the connection parses and plans it once and only binds values
 * after that. Only reads whose best plan does not depend on their values are sent there.
 */

/**
 * Names a connection keeps at most: past them the least recently used is deallocated, so its memory
 * stays bounded and the statements a desk sends all day (the page rows' texts, one per order) keep
 * their plans however many other texts came first.
 */
export const NAMES_PER_CONNECTION = 200;

/**
 * A generic plan never sees the values, so a LIMIT or OFFSET sent as one is planned as a tenth of the
 * table: at a million tickets that is a sort of every row. A planned statement's are part of its text.
 */
const VALUED_LIMIT = /\b(?:limit|offset) \$\d/i;

interface QueryConfig {
  text: string;
  name?: string;
  values?: unknown[];
}

type Query = (config: unknown, ...rest: unknown[]) => unknown;

/** The part of node-postgres's connection a name's deallocation goes through. */
interface Connection {
  parsedStatements: Record<string, string>;
  bind(message: { statement?: string }): void;
  close(message: { type: 'S'; name: string }): void;
}

/**
 * A text's name, its digest. The same few hundred texts come on every connection all day, so their
 * digests are kept: hashing each statement's text took 1.3 % of a server's time under a list load.
 */
const DIGESTS_KEPT = 2_000;
const digests = createRecentlyUsed<string, string>(DIGESTS_KEPT);
const nameOf = (text: string) => {
  let digest = digests.get(text);
  if (digest === undefined) digests.set(text, (digest = `p${createHash('sha1').update(text).digest('base64url')}`));
  return digest;
};

/**
 * Wraps a connection's `query` so each statement with values goes under its text's name, at most
 * `capacity` names at a time. Past them the least recently used is closed (the protocol's Close, as
 * DEALLOCATE) in the same message as the statement that displaced it: that statement was queued after
 * every statement sent under the old name, so those have gone before it, and no round trip is added.
 */
export function nameStatements(client: { query: Query; connection: unknown }, capacity = NAMES_PER_CONNECTION): void {
  const connection = client.connection as Connection;
  // Text's digest → its name now, least recently used first (a Map iterates in insertion order).
  const named = new Map<string, string>();
  // A new name → the names to close just before it is bound.
  const closing = new Map<string, string[]>();
  // Names displaced but not closed yet: a text coming back meanwhile gets a name never used.
  const displaced = new Set<string>();
  let renamed = 0;
  const bind = connection.bind.bind(connection);
  connection.bind = (message) => {
    const { statement } = message;
    const names = statement === undefined ? undefined : closing.get(statement);
    if (statement !== undefined && names) {
      closing.delete(statement);
      for (const name of names) {
        connection.close({ type: 'S', name });
        Reflect.deleteProperty(connection.parsedStatements, name);
        displaced.delete(name);
      }
    }
    bind(message);
  };
  const nameFor = (digest: string): string => {
    const known = named.get(digest);
    if (known !== undefined) {
      named.delete(digest);
      return known;
    }
    const name = displaced.has(digest) ? `${digest}.${(renamed += 1)}` : digest;
    if (named.size >= capacity) {
      const [oldest, oldName] = named.entries().next().value as [string, string];
      named.delete(oldest);
      displaced.add(oldName);
      closing.set(name, [...(closing.get(name) ?? []), oldName]);
    }
    return name;
  };
  const query = client.query.bind(client);
  client.query = (config: unknown, ...rest: unknown[]) => {
    if (!config || typeof config !== 'object' || !('text' in config)) return query(config, ...rest);
    const statement = config as QueryConfig;
    if (VALUED_LIMIT.test(statement.text)) {
      throw new Error(
        `A statement planned once must write its LIMIT and OFFSET into its text (literalLimit): ${statement.text.slice(0, 200)}`,
      );
    }
    const values = statement.values ?? rest[0];
    if (statement.name || !Array.isArray(values) || values.length === 0) return query(config, ...rest);
    const digest = nameOf(statement.text);
    const name = nameFor(digest);
    named.set(digest, name);
    return query({ ...statement, name }, ...rest);
  };
}

/**
 * A LIMIT or OFFSET written into the statement's text rather than sent as a value, for statements
 * planned once (see VALUED_LIMIT; an OFFSET sent as a value is planned as a tenth of the rows too).
 * Drizzle writes an SQL chunk given to `.limit()` or `.offset()` as it is.
 */
export const literalLimit = (rows: number): number => {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`Not a row count: ${rows}`);
  return sql.raw(String(rows)) as unknown as number;
};

const plannedPartners = new WeakMap<object, unknown>();

/** Records that `planned` (a pool planning once per connection) reads the same database as `db`. */
export function recordPlannedPartner<D extends object>(db: D, planned: D): void {
  plannedPartners.set(db, planned);
  plannedPartners.set(planned, planned);
}

/**
 * The planned-once pool beside `db` (itself, for that pool), where a read can send its fixed part;
 * undefined where there is none: PGlite (it plans in its own process, with no round trip to save),
 * PREPARED_STATEMENTS=off, and a transaction, whose statements must all run on its own connection.
 */
export const plannedPartnerOf = <D extends object>(db: D): D | undefined => plannedPartners.get(db) as D | undefined;
