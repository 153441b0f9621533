import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, PRIORITIES, TICKET_STATUSES } from '@helpdesk/protocol';
import { useOpenedDatabase } from '../../../test/openedDatabase.js';
import { executedRows } from '../rows.js';
import { tickets, users } from '../schema/index.js';
import { countedTotal, readTotal, ticketConditions, type ConditionFilters, type TicketScope } from './tickets.js';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * A list under `category=` (migration 0036): its page is read off the category's indexes in the default
 * order, never sorted, the other filters checked on the index entries; its count off the category
 * counters, never the tickets. The planner is kept from the shortcuts a table this small invites (a
 * sequential scan, a bitmap then a sort), so what is left is which index serves the order.
 */
describe('a category read off its indexes and counters', () => {
  const opened = useOpenedDatabase();
  let agentId = 0;

  const explain = async (query: SQL): Promise<PlanNode[]> =>
    opened.database.db.transaction(async (tx) => {
      await tx.execute(sql.raw('set local enable_seqscan = off'));
      await tx.execute(sql.raw('set local enable_bitmapscan = off'));
      await tx.execute(sql.raw('set local enable_sort = off'));
      const [row] = await executedRows(tx, sql`explain (format json) ${query}`);
      const cell = Object.values(row ?? {})[0];
      const [plan] = (typeof cell === 'string' ? JSON.parse(cell) : cell) as [{ Plan: PlanNode }];
      return nodesOf(plan.Plan);
    });

  /** The page's ids as findTicketPage reads them in the default order (newest first). */
  const pageOf = (scope: TicketScope, filters: ConditionFilters) =>
    sql`select ${tickets.id} from ${tickets} where ${ticketConditions(scope, filters)} order by ${tickets.createdAt} desc, ${tickets.id} desc limit 26`;

  it('fills the tickets', async () => {
    const { db } = opened.database;
    const [owner, agent] = await db
      .insert(users)
      .values([
        { name: 'Cat Owner', email: 'cat.owner@example.test', passwordHash: 'x', role: 'user' },
        { name: 'Cat Agent', email: 'cat.agent@example.test', passwordHash: 'x', role: 'agent' },
      ])
      .returning({ id: users.id });
    agentId = agent!.id;
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      title: `Ticket ${i}`,
      description: 'Text',
      userId: owner!.id,
      assignedAgentId: i % 4 === 0 ? null : agent!.id,
      status: TICKET_STATUSES[i % TICKET_STATUSES.length]!,
      priority: PRIORITIES[i % PRIORITIES.length]!,
      // Mostly general, as existing tickets are after the migration.
      category: i % 10 < 6 ? 'general' : CATEGORIES[1 + (i % 4)]!,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    }));
    // In slices: every row fires the counters' and figures' triggers, and one 3,000-row statement ran
    // past the statement timeout on a loaded CI machine.
    for (let at = 0; at < rows.length; at += 500) await db.insert(tickets).values(rows.slice(at, at + 500));
    // Index-only reads need the visibility map.
    await db.execute(sql.raw('vacuum analyze tickets'));
  });

  const BY_CATEGORY = 'tickets_category_created_idx';
  const BY_ASSIGNEE = 'tickets_assigned_category_created_idx';
  // The unassigned are a quarter of these tickets: the category's own index, their status in its entries, serves them as well.
  it.each<[string, TicketScope | 'mine', ConditionFilters, string[]]>([
    ['alone', {}, { category: 'billing' }, [BY_CATEGORY]],
    ['with a status', {}, { category: 'billing', status: 'open' }, [BY_CATEGORY]],
    ['with a priority and a status', {}, { category: 'technical', status: 'pending', priority: 'urgent' }, [BY_CATEGORY]],
    ['unassigned', { assignedAgentId: null }, { category: 'billing' }, [BY_ASSIGNEE, BY_CATEGORY]],
    ['mine with a status', 'mine', { category: 'account', status: 'open' }, [BY_ASSIGNEE]],
  ])('pages a category %s newest first off its index, index-only and unsorted', async (_, scope, filters, indexes) => {
    const nodes = await explain(pageOf(scope === 'mine' ? { assignedAgentId: agentId } : scope, filters));
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    const scan = nodes.find((n) => n['Index Name'] !== undefined);
    expect(scan?.['Node Type']).toBe('Index Only Scan');
    expect(indexes).toContain(scan?.['Index Name']);
  });

  it('counts a category off its counters alone, equal to the tickets', async () => {
    for (const filters of [
      { category: 'billing' },
      { category: 'general', status: 'open' },
      { category: 'other', priority: 'low' },
    ] as const) {
      for (const assignedAgentId of [undefined, null, agentId]) {
        const total = countedTotal({ assignedAgentId, ...filters });
        const nodes = await explain(sql`select ${total}`);
        expect(nodes.map((n) => n['Relation Name']).filter(Boolean)).toEqual(['ticket_category_counts']);
        const [row] = await executedRows(
          opened.database.db,
          sql`select count(*)::int as n from ${tickets} where ${ticketConditions({ assignedAgentId }, filters)}`,
        );
        expect(await readTotal(opened.database.db, total), JSON.stringify([assignedAgentId, filters])).toBe(row!.n);
      }
    }
  });
});
