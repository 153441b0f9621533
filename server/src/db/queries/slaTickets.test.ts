import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../../test/openedDatabase.js';
import { executedRows } from '../rows.js';
import { ticketReads, tickets, users } from '../schema/index.js';
import { claimDueTickets } from './slaTickets.js';

/** The scanner's claim (services/sla/scanner.ts): the most overdue marks first, and nothing left behind. */
describe('claiming due SLA marks', () => {
  const opened = useOpenedDatabase();

  it('takes the earliest due marks up to the limit, and leaves the planner as it was', async () => {
    const { db } = opened.database;
    const [owner] = await db
      .insert(users)
      .values({ name: 'Clara Claim', email: 'clara.claim@example.test', passwordHash: 'x', role: 'user' })
      .returning({ id: users.id });
    const now = new Date(Date.UTC(2026, 5, 1, 12));
    const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
    // Thirty due in an order unlike their ids, ten not due yet.
    const offsets = [...Array.from({ length: 30 }, (_, i) => -1 - ((i * 17) % 30)), ...Array.from({ length: 10 }, (_, i) => 5 + i)];
    const inserted = await db
      .insert(tickets)
      .values(
        offsets.map((offset, i) => ({
          title: `Due ticket ${i}`,
          description: 'Text',
          userId: owner!.id,
          status: 'open' as const,
          slaState: 'ok' as const,
          slaResponseDueAt: minutes(offset),
          slaResolutionDueAt: minutes(600),
          slaNextMarkAt: minutes(offset),
          slaDueAt: minutes(offset),
        })),
      )
      .returning({ id: tickets.id, slaNextMarkAt: tickets.slaNextMarkAt });
    const earliest = inserted
      .filter((row) => row.slaNextMarkAt! <= now)
      .sort((a, b) => a.slaNextMarkAt!.getTime() - b.slaNextMarkAt!.getTime())
      .slice(0, 10)
      .map((row) => row.id)
      .sort((a, b) => a - b);

    await db.transaction(async (tx) => {
      const claimed = await claimDueTickets(tx, now, 10);
      expect(claimed.map((ticket) => ticket.id).sort((a, b) => a - b)).toEqual(earliest);
      expect(claimed.every((ticket) => ticket.responseBreached && ticket.ownerName === 'Clara Claim')).toBe(true);
      // The claim reads its rows in index order by a setting of its own, which ends with it.
      const [setting] = await executedRows(tx, sql`select current_setting('enable_bitmapscan') as value`);
      expect(setting?.value).toBe('on');
      if (opened.database.kind !== 'postgres') return;
      // Beside the batch, on another connection: a writer cannot take a claimed ticket, and a read mark
      // naming it (its key check) goes through without waiting for the batch to end.
      const ticketId = claimed[0]!.id;
      await expect(db.execute(sql`select id from tickets where id = ${ticketId} for update nowait`)).rejects.toThrow();
      await db.insert(ticketReads).values({ userId: owner!.id, ticketId });
    });
    if (opened.database.kind === 'postgres')
      expect(await db.select().from(ticketReads)).toEqual([expect.objectContaining({ userId: owner!.id })]);
  });
});
