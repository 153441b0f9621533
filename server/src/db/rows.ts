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
