import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PRIORITIES, TICKET_STATUSES, type TicketQuery } from '@helpdesk/protocol';
import { useOpenedDatabase } from '../../../test/openedDatabase.js';
import { rowDrift } from '../../../test/rowDrift.js';
import { executedRows } from '../rows.js';
import { tickets, users } from '../schema/index.js';
import { FEW_TAGGED, fewTaggedOf, taggedRowsOf, tagRows } from './ticketTags.js';
import {
  findTicketPageOfRows,
  findTicketRows,
  sortsOffMatches,
  ticketConditions,
  type ConditionFilters,
  type TicketScope,
} from './tickets.js';

/**
 * ticket_tags is a second copy of the tickets' tags (migration 0031): after every kind of write it
 * must hold exactly each ticket's tags with its creation time, status, priority and assignee, and a
 * page read off it must be the page the tickets' own indexes give, in every order it carries.
 */
describe('a tag walked in its own rows', () => {
  const opened = useOpenedDatabase();
  const TAGS = ['billing', 'vpn', 'vip', 'legal-hold'];

  const setUp = async (who: string) => {
    const { db } = opened.database;
    const [owner, agentA, agentB] = await db
      .insert(users)
      .values([
        { name: 'Tess Tags', email: `tess.${who}@example.test`, passwordHash: 'x', role: 'user' },
        { name: 'Agent A', email: `agent.a.${who}@example.test`, passwordHash: 'x', role: 'agent' },
        { name: 'Agent B', email: `agent.b.${who}@example.test`, passwordHash: 'x', role: 'agent' },
      ])
      .returning({ id: users.id });
    await db.insert(tickets).values(
      Array.from({ length: 60 }, (_, i) => ({
        title: `Tagged ticket no. ${i}`,
        description: 'Text',
        userId: owner!.id,
        assignedAgentId: [null, agentA!.id, agentB!.id][i % 3]!,
        status: TICKET_STATUSES[i % TICKET_STATUSES.length]!,
        priority: PRIORITIES[(i * 3) % PRIORITIES.length]!,
        // Several tags on some, none on others.
        tags: TAGS.filter((_, t) => (i + t) % (t + 2) === 0),
        // Created in another order than their ids, some at the same moment.
        createdAt: new Date(Date.UTC(2026, 0, 1) + ((i * 37) % 50) * 60_000),
      })),
    );
    return { agentA: agentA!.id, agentB: agentB!.id };
  };

  /** Rows ticket_tags should hold, less those it holds, both ways: empty when it is exact. */
  const drift = () =>
    rowDrift(
      opened.database.db,
      `select t, created_at, id, status::text, priority::text, coalesce(assigned_agent_id, 0) from tickets, unnest(tags) t`,
      `select tag, created_at, ticket_id, status::text, priority::text, agent_id from ticket_tags`,
    );

  it('holds every ticket’s tags through inserts, tag edits, status, priority and assignee changes, deletion and a removed agent', async () => {
    const { db } = opened.database;
    const { agentA, agentB } = await setUp('kept');
    expect(await drift()).toBe(0);
    const [{ n }] = (await executedRows(db, sql`select count(*)::int as n from ticket_tags`)) as [{ n: number }];
    expect(n).toBeGreaterThan(30);

    // Tags added, removed and emptied; status, priority and assignee changed, alone and together.
    await db.execute(sql`update tickets set tags = array_append(tags, 'new-tag') where id % 5 = 0`);
    await db.execute(sql`update tickets set tags = array_remove(tags, 'vip') where id % 4 = 1`);
    await db.execute(sql`update tickets set tags = '{}' where id % 11 = 2`);
    await db.execute(sql`update tickets set status = 'pending' where id % 7 = 1`);
    await db.execute(sql`update tickets set priority = 'urgent', assigned_agent_id = ${agentB} where id % 4 = 2`);
    // An update that changes nothing the rows hold leaves them alone.
    await db.execute(sql`update tickets set last_activity_at = now()`);
    // The app never moves a creation time; a hand-made fix still reaches the rows it sorts by.
    await db.execute(sql`update tickets set created_at = created_at - interval '1 day' where id % 8 = 5`);
    await db.execute(sql`delete from tickets where id % 9 = 4`);
    // The ON DELETE SET NULL of a removed agent is an update too.
    await db.execute(sql`delete from users where id = ${agentA}`);
    expect(await drift()).toBe(0);
    const held = await executedRows(db, sql`select count(*)::int as n from ticket_tags where agent_id = ${agentA}`);
    expect(held[0]!.n).toBe(0);
  });

  it('reads the page the tickets’ indexes read, in every order its rows carry, under every filter', async () => {
    const { db } = opened.database;
    const { agentA } = await setUp('paged');
    const sorts: TicketQuery['sort'][] = [
      { field: 'createdAt', descending: true },
      { field: 'createdAt', descending: false },
      { field: 'id', descending: true },
      { field: 'id', descending: false },
      { field: 'priority', descending: false },
      { field: 'status', descending: true },
    ];
    let compared = 0;
    for (const tag of [...TAGS, 'nobody-has-it'])
      for (const scope of [{}, { assignedAgentId: null }, { assignedAgentId: agentA }] as TicketScope[])
        for (const status of [undefined, 'open'] as const)
          for (const priority of [undefined, 'urgent'] as const)
            for (const sort of sorts)
              for (const pageNumber of [1, 2]) {
                expect(sortsOffMatches(sort)).toBe(true);
                const page = { page: pageNumber, limit: 3, sort };
                const ids = (rows: { ticket: { id: number } }[]) => rows.map((row) => row.ticket.id);
                const walked = ids(await findTicketRows(db, ticketConditions(scope, { tag, status, priority }), page));
                const off = await findTicketPageOfRows(db, tagRows(tag, scope, { status, priority }), page);
                expect(ids(off.rows), JSON.stringify({ tag, scope, status, priority, sort, pageNumber })).toEqual(walked);
                compared += walked.length;
              }
    expect(compared).toBeGreaterThan(200);
  });

  it('reads a few tagged tickets by id off its rows in the orders its rows do not carry, as the walk does', async () => {
    const { db } = opened.database;
    const { agentA } = await setUp('few');
    let compared = 0;
    for (const tag of TAGS)
      for (const scope of [{}, { assignedAgentId: null }] as TicketScope[])
        for (const status of [undefined, 'open', 'closed'] as const)
          for (const priority of [undefined, 'urgent'] as const)
            for (const sort of [
              { field: 'updatedAt', descending: true },
              { field: 'lastActivityAt', descending: false },
              { field: 'slaDueAt', descending: false },
            ] as TicketQuery['sort'][])
              for (const pageNumber of [1, 2]) {
                const filters = { tag, tagged: 5_000, status, priority };
                const found = await fewTaggedOf(scope, filters, sort, () => Promise.resolve(FEW_TAGGED));
                const where = ticketConditions(scope, { tag, status, priority });
                const page = { page: pageNumber, limit: 3, sort };
                const ids = (rows: { ticket: { id: number } }[]) => rows.map((row) => row.ticket.id);
                const context = JSON.stringify({ tag, scope, status, priority, sort, pageNumber });
                if (status === undefined && priority === undefined && scope.assignedAgentId !== null) {
                  expect(found, context).toBeUndefined();
                  continue;
                }
                expect(found?.few, context).toBeDefined();
                const walked = ids(await findTicketRows(db, where, page));
                expect(ids(await findTicketRows(db, where, page, undefined, { few: found?.few })), context).toEqual(walked);
                compared += walked.length;
              }
    expect(compared).toBeGreaterThan(100);
    // Another agent's tickets are theirs: a named agent keeps their own index.
    expect(
      await fewTaggedOf(
        { assignedAgentId: agentA },
        { tag: 'vip', tagged: 5_000, status: 'open' },
        { field: 'updatedAt', descending: true },
        () => Promise.resolve(1),
      ),
    ).toBeUndefined();
  });

  it('counts a tag under filters first only where its rows may read the page, and uses them only for a few', async () => {
    const updated = { field: 'updatedAt', descending: true } as const;
    const created = { field: 'createdAt', descending: true } as const;
    const vip = { tag: 'vip', tagged: 10_000 };
    let asked = 0;
    const read = (scope: TicketScope, filters: ConditionFilters, sort: TicketQuery['sort'], count = 10) =>
      fewTaggedOf(scope, filters, sort, () => {
        asked += 1;
        return Promise.resolve(count);
      }).then((found) => (found === undefined ? 'as before' : found.few ? `few of ${found.total}` : `walked, ${found.total}`));

    expect(await read({}, { ...vip, status: 'resolved', priority: 'urgent' }, updated, 216)).toBe('few of 216');
    expect(await read({ assignedAgentId: null }, vip, { field: 'slaDueAt', descending: false }, FEW_TAGGED)).toBe(`few of ${FEW_TAGGED}`);
    expect(await read({}, { ...vip, priority: 'low' }, updated, FEW_TAGGED + 1)).toBe(`walked, ${FEW_TAGGED + 1}`);
    expect(asked).toBe(3);
    // Not counted: no filter its rows copy, an order they carry, a rare tag, a tag on too many, or what they do not hold.
    expect(await read({}, vip, updated)).toBe('as before');
    expect(await read({}, { ...vip, status: 'open' }, created)).toBe('as before');
    expect(await read({}, { tag: 'legal-hold', tagged: 500, status: 'open' }, updated)).toBe('as before');
    expect(await read({}, { tag: 'billing', tagged: 200_000, status: 'open' }, updated)).toBe('as before');
    expect(await read({ ownerId: 3 }, { ...vip, status: 'open' }, updated)).toBe('as before');
    expect(await read({}, { ...vip, status: 'open', search: 'printer' }, updated)).toBe('as before');
    expect(await read({}, { ...vip, status: 'open', category: 'billing' }, updated)).toBe('as before');
    expect(asked).toBe(3);
  });

  it('is read for a rare tag in any order its rows carry, another against the tickets its other filters hold', async () => {
    const created = { field: 'createdAt', descending: true } as const;
    const byStatus = { field: 'status', descending: false } as const;
    const updated = { field: 'updatedAt', descending: true } as const;
    const rare = { tag: 'legal-hold', tagged: 500 };
    const vip = { tag: 'vip', tagged: 10_000 };
    let asked = 0;
    const read = (scope: TicketScope, filters: ConditionFilters, sort: TicketQuery['sort'], untagged = 1_000_000) =>
      taggedRowsOf(scope, filters, sort, () => {
        asked += 1;
        return Promise.resolve(untagged);
      }).then((rows) => rows !== undefined);

    expect(await read({ assignedAgentId: 7 }, { ...rare, status: 'open', priority: 'low' }, byStatus)).toBe(true);
    expect(await read({}, rare, updated)).toBe(false);
    // The other filters' count is read only where it chooses.
    expect(asked).toBe(0);
    expect(await read({}, { ...vip, priority: 'urgent' }, created, 70_000)).toBe(true);
    expect(await read({ assignedAgentId: null }, { ...vip, status: 'closed' }, created, 3_334)).toBe(true);
    expect(await read({ assignedAgentId: null }, { ...vip, status: 'pending' }, created, 3_333)).toBe(false);
    expect(await read({}, { tag: 'billing', tagged: 200_000 }, created)).toBe(true);
    expect(asked).toBe(4);
    expect(await read({ assignedAgentId: 7 }, vip, created)).toBe(false);
    // Sorted otherwise: read whole under a filter when few enough.
    expect(await read({}, vip, byStatus)).toBe(false);
    expect(await read({}, { ...vip, status: 'open' }, byStatus)).toBe(true);
    expect(await read({ assignedAgentId: null }, vip, byStatus)).toBe(true);
    expect(await read({ assignedAgentId: 7 }, { ...vip, priority: 'low' }, byStatus)).toBe(false);
    expect(await read({}, { tag: 'vpn', tagged: 50_000, priority: 'low' }, byStatus)).toBe(false);
    expect(asked).toBe(4);
    // What the rows do not hold stays with the tickets.
    expect(await read({ ownerId: 3 }, rare, created)).toBe(false);
    expect(await read({}, { ...rare, search: 'printer' }, created)).toBe(false);
    expect(await read({}, { ...rare, sla: 'breached' }, created)).toBe(false);
    expect(await read({}, { ...rare, unreadFor: 3 }, created)).toBe(false);
    expect(await read({}, { ...rare, requester: 'someone@example.test' }, created)).toBe(false);
  });
});
