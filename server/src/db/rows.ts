import type { SQL } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * The row a statement cannot fail to return: an INSERT … RETURNING of one row, an aggregate without
 * GROUP BY, an UPDATE of a row the transaction holds. Its absence is a bug, so it fails loudly here
 * instead of passing `undefined` on.
 */
export function returnedRow<T>(rows: readonly T[], statement: string): T {
  const [row] = rows;
  if (row === undefined) throw new Error(`${statement} returned no row`);
  return row;
}

/** A raw statement's rows: both drivers answer execute() with { rows }, though their declared types differ. */
export async function executedRows(db: Db, statement: SQL): Promise<Record<string, unknown>[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: Record<string, unknown>[] }).rows;
}
