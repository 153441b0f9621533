import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { executedRows } from '../src/db/rows.js';

/**
 * For a table the triggers keep as a copy of the tickets (ticket_words, ticket_tags): the rows
 * `expected` selects that `held` lacks plus those it holds beyond them, duplicates counted (EXCEPT
 * ALL both ways). 0 when the copy is exact.
 */
export async function rowDrift(db: Db, expected: string, held: string): Promise<number> {
  const rows = await executedRows(
    db,
    sql.raw(
      `select (select count(*) from (${expected} except all ${held}) a)::int + (select count(*) from (${held} except all ${expected}) b)::int as n`,
    ),
  );
  return rows[0]!.n as number;
}
