import { EVERY_TABLE, type TableDependencies, type Tables } from './tableDependencies.js';
import { noteTablesRead, type TableVersions } from './tableVersions.js';

/**
 * Watches every statement at the driver, so a write or a read added later cannot forget to count:
 * - a write bumps the versions of the tables it may have changed (db/tableDependencies.ts) when it
 *   ends, committed or failed (a lost answer may hide a commit), and its caller sees the result only
 *   once the bump is done (with Redis, once every process can see it);
 * - inside a transaction, only the end makes changes visible, so the tables its writes named are
 *   bumped together when it commits or rolls back;
 * - an INSERT, UPDATE, DELETE or MERGE that reports zero changed rows changed nothing, unless a
 *   statement trigger may have: alone it bumps nothing, in a transaction it adds nothing to the end's;
 * - every statement reports the tables it named to the kept answer being read, if any
 *   (db/tableVersions.ts).
 */
type Method = (...args: unknown[]) => unknown;

/**
 * Statements that change no row of any table; everything else may write. EXPLAIN only plans (a
 * search's estimate), unless it ANALYZEs, which runs the statement.
 */
const CHANGES_NO_ROW =
  /^\s*(select|values|show|set|reset|savepoint|release|lock|listen|unlisten|discard|deallocate|begin|start\s+transaction|commit|end|rollback|abort|explain\b(?![^;]*\banaly[sz]e\b))\b/i;
const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
const ENDS = /^\s*(commit|end|abort|rollback(?!\s+(?:(?:work|transaction)\s+)?to\b))\b/i;
/**
 * Statements whose reported row count is what they changed. Not WITH (the count is the final
 * query's, a data-modifying CTE's rows are not in it) nor EXPLAIN ANALYZE (it reports no rows).
 */
const COUNTS_CHANGED_ROWS = /^\s*(insert|update|delete|merge)\b/i;
/** Several statements in one text (PGlite `exec`): judged as a write by all the text names. */
const SEVERAL = /;\s*\S/;

const statementText = (first: unknown): string | undefined =>
  typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'text' in first ? String(first.text) : undefined;

/** node-postgres reports `rowCount`, PGlite `affectedRows`; both are 0 for an UPDATE or upsert that matched nothing. */
const changedNothing = (result: unknown): boolean =>
  typeof result === 'object' &&
  result !== null &&
  (('rowCount' in result && result.rowCount === 0) || ('affectedRows' in result && result.affectedRows === 0));

/** What a statement may change: `tables` is empty but for a write. */
type Statement = { kind: 'read' | 'begin' | 'end' | 'write'; tables: Tables };
const NONE: Tables = new Set();

export function createWriteWatch(dependencies: () => TableDependencies, versions: () => TableVersions) {
  const bump = (tables: Tables) => (tables.size > 0 ? versions().bump(tables) : undefined);

  const classify = (text: string | undefined): Statement => {
    if (text === undefined) return { kind: 'write', tables: new Set([EVERY_TABLE]) };
    const single = !SEVERAL.test(text);
    if (single && BEGINS.test(text)) return { kind: 'begin', tables: NONE };
    if (single && ENDS.test(text)) return { kind: 'end', tables: NONE };
    if (single && CHANGES_NO_ROW.test(text)) return { kind: 'read', tables: NONE };
    return { kind: 'write', tables: dependencies().written(text) };
  };

  /** A kept answer depends on every table its statements named, writes included (a read mark's upsert reads the ticket). */
  const noteNamed = (text: string | undefined) => noteTablesRead(text === undefined ? [EVERY_TABLE] : dependencies().read(text));

  /** The tables named by the writes of each open node-postgres transaction, by its client. */
  const open = new WeakMap<object, Set<string>>();

  /** Runs `after` once the call's promise settles, and settles the same way after it. */
  const afterSettled = (result: Promise<unknown>, after: (value: unknown, failed: boolean) => void | Promise<void>) =>
    result.then(
      async (value: unknown) => {
        await after(value, false);
        return value;
      },
      async (error: unknown) => {
        await after(undefined, true);
        throw error;
      },
    );

  /** Whether a write that ended may have changed rows: a failed one may (a lost answer may hide a commit). */
  const mayHaveChanged = (text: string | undefined, tables: Tables) => {
    const rowsTell = text !== undefined && COUNTS_CHANGED_ROWS.test(text) && !dependencies().changesWithoutRows(tables);
    return (value: unknown, failed: boolean) => failed || !rowsTell || !changedNothing(value);
  };

  /**
   * A write inside a transaction adds its tables to what the end bumps, unless it changed no row:
   * an idle SLA scan would otherwise drop every kept ticket answer on every pass.
   */
  const noteWritten = (result: unknown, changed: ReturnType<typeof mayHaveChanged>, tables: Tables, written: Set<string>) => {
    const note = (value: unknown, failed: boolean) => {
      if (changed(value, failed)) for (const table of tables) written.add(table);
    };
    if (result instanceof Promise) return afterSettled(result, note);
    note(undefined, true);
    return result;
  };

  const wrap = (target: object, method: string, watched: (self: unknown, args: unknown[], call: () => unknown) => unknown) => {
    const original = Reflect.get(target, method) as Method;
    Reflect.set(target, method, function (this: unknown, ...args: unknown[]) {
      return watched(this, args, () => original.apply(this, args));
    });
  };

  return {
    /**
     * A statement method (node-postgres `query`, PGlite `query`/`exec`). `transactions`: this target
     * also runs BEGIN … COMMIT (a node-postgres client), whose writes are bumped at the end.
     */
    watchStatements(target: object, method: string, { transactions = false } = {}) {
      wrap(target, method, (self, args, call) => {
        const text = statementText(args[0]);
        const statement = classify(text);
        noteNamed(text);
        const result = call();
        // node-postgres pool.query runs its client's query with a callback: it is counted at the pool.
        if (!(result instanceof Promise) || statement.kind === 'read') return result;
        const client = self as object;
        if (transactions && statement.kind === 'begin') {
          open.set(client, new Set());
          return result;
        }
        const inTransaction = transactions ? open.get(client) : undefined;
        if (statement.kind === 'end') {
          if (inTransaction) open.delete(client);
          return inTransaction ? afterSettled(result, () => bump(inTransaction)) : result;
        }
        if (statement.kind === 'begin') return result;
        const changed = mayHaveChanged(text, statement.tables);
        if (inTransaction) return noteWritten(result, changed, statement.tables, inTransaction);
        return afterSettled(result, (value, failed) => (changed(value, failed) ? bump(statement.tables) : undefined));
      });
    },
    /** PGlite `transaction`: its statements go through a handle of its own, bumped together at its end. */
    watchTransactions(target: object, method: string) {
      wrap(target, method, (_self, args, call) => {
        const written = new Set<string>();
        const [work, ...rest] = args as [(tx: object) => unknown, ...unknown[]];
        args.splice(
          0,
          args.length,
          (tx: object) => {
            for (const name of ['query', 'exec'])
              wrap(tx, name, (_s, statementArgs, statementCall) => {
                const text = statementText(statementArgs[0]);
                const statement = classify(text);
                noteNamed(text);
                const result = statementCall();
                if (statement.kind === 'read') return result;
                return noteWritten(result, mayHaveChanged(text, statement.tables), statement.tables, written);
              });
            return work(tx);
          },
          ...rest,
        );
        const result = call();
        return result instanceof Promise ? afterSettled(result, () => bump(written)) : result;
      });
    },
  };
}
