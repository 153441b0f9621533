import type { TicketQuery } from '@helpdesk/protocol';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../../test/openedDatabase.js';
import { sentStatements } from '../../../test/sentStatements.js';
import { sql } from 'drizzle-orm';
import { tickets, users } from '../schema/index.js';
import { WIDESPREAD_TAG_TICKETS } from './ticketFilters.js';
import { countedTotal, findTicketPage, findTicketPageOfMatches, ticketConditions, type ConditionFilters } from './tickets.js';

/**
 * A staff page whose exact count rides in its statement walks its order's index only when that count
 * reaches past the page's offset: it must give the page the plain walk gives, in every order, on every
 * page, the last partial page and a filter nothing matches included; and so must the page of a
 * filter read as few (findTicketPage's `few`).
 */
describe('a ticket page behind its exact count', () => {
  const opened = useOpenedDatabase();

  const sorts: TicketQuery['sort'][] = (
    ['createdAt', 'updatedAt', 'priority', 'id', 'status', 'lastActivityAt', 'slaDueAt'] as const
  ).flatMap((field) => [
    { field, descending: false },
    { field, descending: true },
  ]);

  const statuses = ['open', 'in_progress', 'pending', 'resolved', 'closed'] as const;
  const priorities = ['low', 'medium', 'high', 'urgent'] as const;

  /** `count` tickets of the owner's, with equal times and deadlines among them (the id breaks ties). */
  const insertTickets = (ownerId: number, agentId: number, count = 40) =>
    opened.database.db.insert(tickets).values(
      Array.from({ length: count }, (_, i) => ({
        title: `Page ${i}`,
        description: 'Read another way',
        userId: ownerId,
        assignedAgentId: i % 3 === 0 ? null : agentId,
        status: statuses[i % 5]!,
        priority: priorities[i % 4]!,
        tags: i % 2 === 0 ? ['billing'] : [],
        createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 7))),
        updatedAt: new Date(Date.UTC(2026, 1, 1 + (i % 5))),
        lastActivityAt: new Date(Date.UTC(2026, 2, 1 + (i % 6))),
        slaDueAt: i % 4 === 0 ? null : new Date(Date.UTC(2026, 3, 1 + (i % 3))),
      })),
    );

  /** An owner and an agent named after `who`, and the owner's tickets (insertTickets): the agent's id. */
  const insertOwnersTickets = async (who: string) => {
    const [owner, agent] = await opened.database.db
      .insert(users)
      .values([
        { name: `${who} owner`, email: `${who}.owner@example.test`, passwordHash: 'x', role: 'user' },
        { name: `${who} agent`, email: `${who}.agent@example.test`, passwordHash: 'x', role: 'agent' },
      ])
      .returning({ id: users.id });
    await insertTickets(owner!.id, agent!.id);
    return agent!.id;
  };

  it('reads the same pages as the walk alone', async () => {
    const { db } = opened.database;
    const agent = await insertOwnersTickets('page');
    const questions: { assignedAgentId?: number | null; filters: ConditionFilters }[] = [
      { filters: { status: 'open' } },
      { assignedAgentId: null, filters: { priority: 'low' } },
      { assignedAgentId: agent, filters: { tag: 'billing' } },
      { filters: { tag: 'billing', status: 'closed' } },
      // No ticket is both in progress and unassigned here.
      { assignedAgentId: null, filters: { status: 'in_progress' } },
    ];
    let compared = 0;
    for (const { assignedAgentId, filters } of questions) {
      const where = ticketConditions({ assignedAgentId }, filters);
      const total = countedTotal({ assignedAgentId, ...filters });
      for (const sort of sorts) {
        for (const page of [1, 2, 3]) {
          const question = { page, limit: 4, sort, spare: 1 };
          const walked = await findTicketPage(db, where, question, undefined, total);
          const ids = walked.rows.map((row) => row.ticket.id);
          const gated = await findTicketPage(db, where, question, undefined, total, { gateByTotal: true });
          expect(
            gated.rows.map((row) => row.ticket.id),
            JSON.stringify({ filters, sort, page }),
          ).toEqual(ids);
          expect(gated.total).toBe(walked.total);
          // The filters read as few (a rare tag's page), planned apart, the assignee beside them: the same rows in the same order.
          const few = ticketConditions({}, filters);
          const beside = ticketConditions({ assignedAgentId }, {});
          for (const gateByTotal of [false, true]) {
            const fenced = await findTicketPage(db, beside, question, undefined, total, { gateByTotal, few });
            expect(
              fenced.rows.map((row) => row.ticket.id),
              JSON.stringify({ filters, sort, page, few: true, gateByTotal }),
            ).toEqual(ids);
            expect(fenced.total).toBe(walked.total);
          }
          // A widespread tag asked as `= any`, which no index answers: the same rows in the same order.
          if (filters.tag) {
            const widespread = ticketConditions({ assignedAgentId }, { ...filters, tagged: WIDESPREAD_TAG_TICKETS + 1 });
            const asked = await findTicketPage(db, widespread, question, undefined, total);
            expect(
              asked.rows.map((row) => row.ticket.id),
              JSON.stringify({ filters, sort, page, widespread: true }),
            ).toEqual(ids);
          }
          compared += ids.length;
        }
      }
    }
    // Pages with rows were compared, not only empty ones.
    expect(compared).toBeGreaterThan(200);
  });

  it('sorts a page out of its matches read once, with their count, and says when the cap cut them', async () => {
    const { db } = opened.database;
    await insertOwnersTickets('match');
    let compared = 0;
    for (const filters of [{ search: 'another' }, { search: 'read', status: 'open' }, { search: 'nowhere' }] as ConditionFilters[]) {
      const where = ticketConditions({}, filters);
      const { n } = ((await db.execute(sql`select count(*)::int as n from ${tickets} where ${where}`)) as { rows: { n: number }[] })
        .rows[0]!;
      for (const sort of sorts) {
        for (const page of [1, 2, 3]) {
          const question = { page, limit: 4, sort, spare: 1 };
          const walked = await findTicketPage(db, where, question);
          const once = await findTicketPageOfMatches(db, where, question, undefined, 1_000);
          const label = JSON.stringify({ filters, sort, page });
          expect(
            once.rows.map((row) => row.ticket.id),
            label,
          ).toEqual(walked.rows.map((row) => row.ticket.id));
          // An empty first page means no match: 0. Past the last page there is no row to carry it.
          expect(once.total, label).toBe(once.rows.length > 0 || page === 1 ? n : undefined);
          compared += once.rows.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
    // Under a cap below the matches: cap + 1 counted, so the caller knows the page is not the search's.
    const capped = await findTicketPageOfMatches(
      db,
      ticketConditions({}, { search: 'another' }),
      { page: 1, limit: 4, sort: sorts[0]! },
      undefined,
      10,
    );
    expect(capped.total).toBe(11);
  });

  it('reads a page in two statements beside a planned pool, the same rows as one statement, the rows by one text', async () => {
    const { db, planned } = opened.database;
    const agent = await insertOwnersTickets('split');
    // What reaches the planned pool's connections; a transaction has no planned pool beside it, so
    // the same page read inside one is the one-statement read.
    const sent = sentStatements(planned);
    try {
      let compared = 0;
      for (const filters of [{ status: 'open' }, { priority: 'high', tag: 'billing' }] as ConditionFilters[]) {
        const where = ticketConditions({ assignedAgentId: agent }, filters);
        const total = countedTotal({ assignedAgentId: agent, ...filters });
        for (const sort of sorts) {
          const question = { page: 1, limit: 4, sort, spare: 1 };
          const split = await findTicketPage(db, where, question, agent, total);
          const whole = await db.transaction((tx) => findTicketPage(tx, where, question, agent, total));
          expect(split, JSON.stringify({ filters, sort })).toEqual(whole);
          compared += split.rows.length;
        }
      }
      expect(compared).toBeGreaterThan(20);
      const rowReads = new Set(sent.texts.filter((text) => text.includes('= any(')));
      if (planned === db) expect(rowReads.size).toBe(0);
      // One text per order, whatever the filter: each connection plans it once.
      else expect(rowReads.size).toBe(sorts.length);
    } finally {
      sent.stop();
    }
  });
});
