import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { estimateTicketRows, ticketConditions } from '../db/queries/tickets.js';
import { createSearchCounts } from './searchCounts.js';
import { memoOff } from '../db/tableVersions.js';

/**
 * A search's counts on a real database, with a cap of 1,000 so a few thousand tickets are "far past
 * it": 3,000 tickets say "common" (the first 2,000 written closed, the last 1,000 open), 30 say "rare".
 */
describe('search counts', () => {
  const CAP = 1_000;
  const opened = useOpenedDatabase();

  beforeAll(async () => {
    const { db } = opened.database;
    await db.execute(sql`insert into users (name, email, password_hash, role) values ('Owner', 'owner@counts.test', 'x', 'user')`);
    // In slices of 500: each row fires the counters' and words' triggers, and a 2,000-row statement
    // risks the one-second statement timeout on a loaded CI machine.
    const insert = async (from: number, to: number, title: string, status: string) => {
      for (let start = from; start <= to; start += 500)
        await db.execute(
          sql.raw(`insert into tickets (title, description, status, user_id)
            select '${title} ' || g, 'A ticket body of some length', '${status}', (select id from users limit 1) from generate_series(${start}, ${Math.min(start + 499, to)}) g`),
        );
    };
    await insert(1, 2_000, 'Common closed', 'closed');
    await insert(2_001, 3_000, 'Common open', 'open');
    await insert(1, 30, 'Rare', 'resolved');
    await db.execute(sql`analyze tickets`);
  });

  const question = (search: string, status?: 'open' | 'closed') => ({ scope: {}, conditions: { search, status } });
  const where = (search: string, status?: 'open' | 'closed') => ticketConditions({}, { search, status });
  const countsOff = () => createSearchCounts({ db: opened.database.db, memoVersions: memoOff }, CAP);

  it("reads the planner's estimate of a search from the statistics", async () => {
    const common = await estimateTicketRows(opened.database.db, where('COMM'));
    expect(common).toBeGreaterThan(2_500);
    expect(common).toBeLessThan(3_500);
    expect(await estimateTicketRows(opened.database.db, where('rare'))).toBeLessThan(100);
  });

  it('answers a search far past the cap from estimates: the cap as total, each card estimated', async () => {
    const counts = countsOff();
    expect(await counts.total(question('common'))).toEqual({ total: CAP, capped: true });
    const { stats, capped } = await counts.stats(question('common'));
    expect(capped).toBe(true);
    expect(stats.total).toBe(CAP);
    // Counting the first 1,001 matches would have met closed tickets only; the estimate sees the open ones.
    expect(stats.open).toBeGreaterThan(CAP / 2);
    expect(stats.closed).toBe(CAP);
    expect(stats.in_progress).toBeLessThan(10);
  });

  it('counts exactly a search the statistics put below the margin, up to the cap', async () => {
    const counts = countsOff();
    expect(await counts.total(question('rare'))).toEqual({ total: 30, capped: false });
    expect((await counts.stats(question('rare'))).stats).toEqual({
      total: 30,
      open: 0,
      in_progress: 0,
      pending: 0,
      resolved: 30,
      closed: 0,
      urgent: 0,
    });
    // 1,000 open matches: estimated below 1.5 × the cap, so counted; and one past the cap is capped.
    expect(await counts.total(question('common', 'open'))).toEqual({ total: CAP, capped: false });
    await opened.database.db.execute(sql`update tickets set status = 'open' where title = 'Common closed 1'`);
    expect(await counts.total(question('common', 'open'))).toEqual({ total: CAP, capped: true });
  });
});
