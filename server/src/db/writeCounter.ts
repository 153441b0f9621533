/**
 * Counts the writes that have ended in this process, seen at the driver: every statement but a plain
 * SELECT, and every PGlite transaction, bumps the count when it finishes, committed or failed (a lost
 * answer may hide a commit). A statement that reports zero changed rows changed nothing, so it does
 * not count (inside a transaction only the commit makes changes visible, and the commit counts).
 * Equal counts before and after a read mean no write of this process landed in between, which is what
 * services/readMemo.ts keeps answers by. Counting at the driver rather than in the services means a
 * write added later cannot forget to count.
 */
type Method = (...args: unknown[]) => unknown;

const PLAIN_READ = /^\s*select\b/i;

const statementText = (first: unknown): string | undefined =>
  typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'text' in first ? String(first.text) : undefined;

/** node-postgres reports `rowCount`, PGlite `affectedRows`; both are 0 for an UPDATE or upsert that matched nothing. */
const changedNothing = (result: unknown): boolean =>
  typeof result === 'object' &&
  result !== null &&
  (('rowCount' in result && result.rowCount === 0) || ('affectedRows' in result && result.affectedRows === 0));

export function createWriteCounter() {
  let ended = 0;
  const end = () => {
    ended += 1;
  };
  /** Wraps `target[method]` so its calls count once their promise settles; `reads` tells which calls are plain reads. */
  const watch = (target: object, method: string, reads: (args: unknown[]) => boolean) => {
    const original = Reflect.get(target, method) as Method;
    const counted: Method = function (this: unknown, ...args) {
      const result = original.apply(this, args);
      if (!(result instanceof Promise) || reads(args)) return result;
      return result.then(
        (value: unknown) => {
          if (!changedNothing(value)) end();
          return value;
        },
        (error: unknown) => {
          end();
          throw error;
        },
      );
    };
    Reflect.set(target, method, counted);
  };
  return {
    ended: () => ended,
    /** A statement method (node-postgres `query`, PGlite `query`/`exec`): anything but a plain SELECT counts. */
    watchStatements(target: object, method: string) {
      watch(target, method, (args) => PLAIN_READ.test(statementText(args[0]) ?? ''));
    },
    /** A method whose every call is a write (PGlite `transaction`). */
    watchWrites(target: object, method: string) {
      watch(target, method, () => false);
    },
  };
}
