import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../../test/openedDatabase.js';
import { executedRows } from '../rows.js';
import { ticketReads, tickets, users } from '../schema/index.js';
import { markTicketRead } from './tickets.js';

/**
 * Opening a ticket marks it read for that staff member. Opened again with nothing new, the mark must
 * not lock its row: that would take a transaction id, and so a WAL flush, for every ticket opened.
 */
describe('a ticket marked read', () => {
  const opened = useOpenedDatabase();

  it('is marked, takes no transaction id when opened again with nothing new, and moves with new activity', async () => {
    const { db } = opened.database;
    const [owner, agent] = await db
      .insert(users)
      .values([
        { name: 'Rita Reader', email: 'rita@reads.test', passwordHash: 'x', role: 'user' },
        { name: 'Agent Read', email: 'agent@reads.test', passwordHash: 'x', role: 'agent' },
      ])
      .returning({ id: users.id });
    const [ticket] = await db
      .insert(tickets)
      .values({ title: 'Read me', description: 'Text', userId: owner!.id })
      .returning({ id: tickets.id });
    const readAt = async () =>
      (await db.select({ at: ticketReads.readAt }).from(ticketReads).where(eq(ticketReads.ticketId, ticket!.id)))[0]?.at;
    /** Marks it read in a transaction of its own, answering whether that took a transaction id. */
    const open = () =>
      db.transaction(async (tx) => {
        await markTicketRead(tx, agent!.id, ticket!.id);
        const [row] = await executedRows(tx, sql`select txid_current_if_assigned() is not null as wrote`);
        return row?.wrote === true;
      });

    expect(await readAt()).toBeUndefined();
    expect(await open()).toBe(true);
    const first = await readAt();
    expect(first).toBeInstanceOf(Date);
    expect(await open()).toBe(false);
    expect(await readAt()).toEqual(first);
    // The ticket moved on since the mark (here the mark put an hour back): the next opening marks it again.
    await db
      .update(ticketReads)
      .set({ readAt: sql`${ticketReads.readAt} - interval '1 hour'` })
      .where(eq(ticketReads.ticketId, ticket!.id));
    expect(await open()).toBe(true);
    expect((await readAt())!.getTime()).toBeGreaterThanOrEqual(first!.getTime());
    expect(await open()).toBe(false);
  });
});
