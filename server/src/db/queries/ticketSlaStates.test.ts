import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PRIORITIES, SLA_FILTERS, TICKET_STATUSES, type SlaState, type TicketQuery } from '@helpdesk/protocol';
import { useOpenedDatabase } from '../../../test/openedDatabase.js';
import { rowDrift } from '../../../test/rowDrift.js';
import { executedRows } from '../rows.js';
import { tickets, users } from '../schema/index.js';
import { SLA_ROW_COLUMNS, slaRowsOf } from './ticketSlaStates.js';
import { findTicketPageOfRows, findTicketRows, ticketConditions, type TicketScope } from './tickets.js';

const STATES: (SlaState | null)[] = ['ok', 'warning', 'breached', 'paused', 'met', null];

/**
 * ticket_sla_states is a second copy of each ticket's SLA state, next mark and deadline with its list
 * filters (migration 0040): after every kind of write it must hold exactly the tickets under a policy,
 * and a page read off it must be the page the tickets give under the same state, in both orders it keeps.
 */
describe('SLA states in rows of their own', () => {
  const opened = useOpenedDatabase();

  const setUp = async (who: string) => {
    const { db } = opened.database;
    const [owner, agentA, agentB] = await db
      .insert(users)
      .values([
        { name: 'Sal Owner', email: `sal.${who}@example.test`, passwordHash: 'x', role: 'user' },
        { name: 'Agent A', email: `sla.agent.a.${who}@example.test`, passwordHash: 'x', role: 'agent' },
        { name: 'Agent B', email: `sla.agent.b.${who}@example.test`, passwordHash: 'x', role: 'agent' },
      ])
      .returning({ id: users.id });
    const base = Date.UTC(2026, 0, 1);
    await db.insert(tickets).values(
      Array.from({ length: 72 }, (_, i) => ({
        title: `Timed ticket no. ${i}`,
        description: 'Text',
        userId: owner!.id,
        assignedAgentId: [null, agentA!.id, agentB!.id][i % 3]!,
        status: TICKET_STATUSES[i % TICKET_STATUSES.length]!,
        priority: PRIORITIES[(i * 3) % PRIORITIES.length]!,
        slaState: STATES[i % STATES.length]!,
        // Some deadlines shared, some missing; next marks on some.
        slaDueAt: i % 4 === 0 ? null : new Date(base + ((i * 13) % 20) * 3_600_000),
        slaNextMarkAt: i % 3 === 0 ? new Date(base + ((i * 7) % 30) * 60_000) : null,
        // Created in another order than their ids, some at the same moment.
        createdAt: new Date(base - ((i * 37) % 50) * 60_000),
      })),
    );
    return { agentA: agentA!.id, agentB: agentB!.id };
  };

  /** Rows ticket_sla_states should hold, less those it holds, both ways: empty when it is exact. */
  const drift = () =>
    rowDrift(
      opened.database.db,
      `select id, sla_state, created_at, sla_due_at, sla_next_mark_at, status::text, priority::text, coalesce(assigned_agent_id, 0)
       from tickets where sla_state is not null`,
      `select ticket_id, state, created_at, due_at, next_mark_at, status::text, priority::text, agent_id from ticket_sla_states`,
    );

  it('holds every timed ticket through inserts, SLA writes, status, priority and assignee changes, deletion and a removed agent', async () => {
    const { db } = opened.database;
    const { agentA, agentB } = await setUp('kept');
    expect(await drift()).toBe(0);
    const [{ n }] = (await executedRows(db, sql`select count(*)::int as n from ticket_sla_states`)) as [{ n: number }];
    expect(n).toBeGreaterThan(50);

    // States changed, gained and lost; deadlines and next marks moved; the filters beside them changed.
    await db.execute(sql`update tickets set sla_state = 'breached', sla_next_mark_at = null where sla_state = 'warning'`);
    await db.execute(sql`update tickets set sla_state = 'ok', sla_due_at = now() where sla_state is null and id % 2 = 0`);
    await db.execute(sql`update tickets set sla_state = null, sla_due_at = null where id % 10 = 3`);
    await db.execute(sql`update tickets set sla_next_mark_at = now() + interval '1 hour' where id % 5 = 1`);
    await db.execute(sql`update tickets set status = 'pending' where id % 7 = 1`);
    await db.execute(sql`update tickets set priority = 'urgent', assigned_agent_id = ${agentB} where id % 4 = 2`);
    // An update that changes nothing the rows hold leaves them alone.
    await db.execute(sql`update tickets set last_activity_at = now(), sla_response_warned_at = now()`);
    await db.execute(sql`update tickets set created_at = created_at - interval '1 day' where id % 8 = 5`);
    await db.execute(sql`delete from tickets where id % 9 = 4`);
    // The ON DELETE SET NULL of a removed agent is an update too.
    await db.execute(sql`delete from users where id = ${agentA}`);
    expect(await drift()).toBe(0);
    const held = await executedRows(db, sql`select count(*)::int as n from ticket_sla_states where agent_id = ${agentA}`);
    expect(held[0]!.n).toBe(0);
  });

  it('reads the page the tickets read under a state, in creation and deadline order, under every filter it copies', async () => {
    const { db } = opened.database;
    const { agentA } = await setUp('paged');
    const sorts: TicketQuery['sort'][] = [
      { field: 'createdAt', descending: true },
      { field: 'createdAt', descending: false },
      { field: 'slaDueAt', descending: false },
      { field: 'slaDueAt', descending: true },
    ];
    let compared = 0;
    for (const sla of SLA_FILTERS)
      for (const scope of [{}, { assignedAgentId: null }, { assignedAgentId: agentA }] as TicketScope[])
        for (const status of [undefined, 'open'] as const)
          for (const priority of [undefined, 'urgent'] as const)
            for (const sort of sorts)
              for (const pageNumber of [1, 2]) {
                const page = { page: pageNumber, limit: 3, sort };
                const ids = (rows: { ticket: { id: number } }[]) => rows.map((row) => row.ticket.id);
                const walked = ids(await findTicketRows(db, ticketConditions(scope, { sla, status, priority }), page));
                const rows = slaRowsOf(scope, { sla, status, priority }, sort);
                expect(rows).toBeDefined();
                const off = await findTicketPageOfRows(db, rows!, page, undefined, undefined, SLA_ROW_COLUMNS);
                expect(ids(off.rows), JSON.stringify({ sla, scope, status, priority, sort, pageNumber })).toEqual(walked);
                compared += walked.length;
              }
    expect(compared).toBeGreaterThan(150);
  });

  it('is read only for what its rows hold, in the orders their indexes keep', () => {
    const created = { field: 'createdAt', descending: true } as const;
    const read = (scope: TicketScope, filters: Parameters<typeof slaRowsOf>[1], sort: TicketQuery['sort'] = created) =>
      slaRowsOf(scope, filters, sort) !== undefined;
    expect(read({ assignedAgentId: 4 }, { sla: 'warning', status: 'open', priority: 'low' })).toBe(true);
    expect(read({}, { sla: 'breached' }, { field: 'slaDueAt', descending: true })).toBe(true);
    expect(read({}, { status: 'open' })).toBe(false);
    expect(read({ ownerId: 3 }, { sla: 'ok' })).toBe(false);
    for (const sort of ['updatedAt', 'lastActivityAt', 'priority', 'status', 'id'] as const)
      expect(read({}, { sla: 'ok' }, { field: sort, descending: false })).toBe(false);
    expect(read({}, { sla: 'ok', search: 'printer' })).toBe(false);
    expect(read({}, { sla: 'ok', tag: 'vip', tagged: 10 })).toBe(false);
    expect(read({}, { sla: 'ok', category: 'billing' })).toBe(false);
    expect(read({}, { sla: 'ok', requester: 'a@example.test' })).toBe(false);
    expect(read({}, { sla: 'ok', unreadFor: 2 })).toBe(false);
  });
});
