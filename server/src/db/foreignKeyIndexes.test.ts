import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { executedRows } from './rows.js';

/**
 * Deleting a row makes PostgreSQL look up every row that references it (to cascade, to set null, or to
 * refuse), by the referencing column. Without an index leading with that column each lookup reads the
 * whole child table: at a million tickets, deleting one read all 2M notifications (257 ms; migration
 * 0023). Accounts are deactivated, never deleted (services/users.ts), so keys to `users` are left out.
 */
const NEVER_DELETED = new Set(['users']);

describe('foreign keys', () => {
  const opened = useOpenedDatabase();

  it('are each found by an index leading with the referencing column, where the parent row may be deleted', async () => {
    const keys = await executedRows(
      opened.database.db,
      sql.raw(`
      select child.relname as child, a.attname as "column", parent.relname as parent,
        exists (select 1 from pg_index i where i.indrelid = k.conrelid and i.indkey[0] = k.conkey[1]) as indexed
      from pg_constraint k
      join pg_class child on child.oid = k.conrelid
      join pg_class parent on parent.oid = k.confrelid
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
      where k.contype = 'f' and child.relnamespace = current_schema()::regnamespace
      order by 1, 2`),
    );
    const checked = keys.filter((key) => !NEVER_DELETED.has(String(key.parent)));
    // The ones that lacked an index until 0023 are among those checked.
    expect(checked.map((key) => `${String(key.child)}.${String(key.column)}`)).toEqual(
      expect.arrayContaining([
        'notifications.ticket_id',
        'ticket_reads.ticket_id',
        'email_messages.comment_id',
        'inbound_messages.ticket_id',
      ]),
    );
    const unindexed = checked
      .filter((key) => key.indexed !== true)
      .map((key) => `${String(key.child)}.${String(key.column)} -> ${String(key.parent)}`);
    expect(unindexed).toEqual([]);
  });
});
