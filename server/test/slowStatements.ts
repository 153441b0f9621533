import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';

/**
 * Until the returned undo, every statement changing more than `over` rows of `table` fails as the
 * statement timeout fails one on a machine too slow for the batch sizes (SQLSTATE 57014, raised by
 * hand: PGlite has no timer). For work done in batches (db/shrinkingBatch.ts).
 */
export async function cancelWideUpdates(db: Db, table: 'tickets' | 'notifications', over: number): Promise<() => Promise<void>> {
  await db.execute(
    sql.raw(`create function test_cancel_wide_updates() returns trigger language plpgsql as $$
      begin
        if (select count(*) from changed) > ${over} then
          raise exception 'canceling statement due to statement timeout' using errcode = '57014';
        end if;
        return null;
      end $$`),
  );
  await db.execute(
    sql.raw(`create trigger test_cancel_wide_updates after update on ${table} referencing new table as changed
      for each statement execute function test_cancel_wide_updates()`),
  );
  return async () => {
    await db.execute(sql.raw(`drop trigger test_cancel_wide_updates on ${table}`));
    await db.execute(sql.raw('drop function test_cancel_wide_updates()'));
  };
}
