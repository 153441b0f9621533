import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { renderedStatements, renderSelection } from './renderedSelection.js';
import { executedRows } from './rows.js';
import { tickets, users } from './schema/index.js';

describe('a selection rendered once', () => {
  const opened = useOpenedDatabase();

  const { searchWords: _words, ...ticketColumns } = getTableColumns(tickets);
  // Columns of every kind the ticket row holds (timestamps, a bigint, an array, enums, nulls), an
  // expression with parameters of its own, and one decoded by mapWith.
  const fields = {
    ticket: ticketColumns,
    ownerName: sql<string | null>`(select u.name from ${users} u where u.id = "tickets"."user_id")`,
    ownerIsStaff: sql<boolean>`exists (select 1 from ${users} u where u.id = "tickets"."user_id" and ${inArray(sql`u.role`, ['agent', 'admin'])})`,
    titleLength: sql`length("tickets"."title")::text`.mapWith(Number),
  };

  it('reads the rows the query builder reads, value for value', async () => {
    const { db } = opened.database;
    const [owner] = await db
      .insert(users)
      .values({ name: 'Rendered O’Brien', email: 'rendered@example.com', passwordHash: 'x', role: 'agent' })
      .returning({ id: users.id });
    const [plain] = await db
      .insert(tickets)
      .values({ title: 'Plain', description: 'Nothing set', userId: owner!.id })
      .returning({ id: tickets.id });
    const [full] = await db
      .insert(tickets)
      .values({
        title: 'Everything set',
        description: 'Tags, a clock and deadlines',
        userId: owner!.id,
        assignedAgentId: owner!.id,
        priority: 'urgent',
        status: 'pending',
        tags: ['billing', 'vip'],
        slaUsedMs: 9_007_199_254,
        slaResponseDueAt: new Date('2026-01-19T08:30:00.123Z'),
        slaState: 'paused',
      })
      .returning({ id: tickets.id });

    const rendered = renderSelection<Record<string, unknown>>(fields);
    expect(rendered.text).not.toMatch(/\$\d/);
    const built = await db
      .select(fields)
      .from(tickets)
      .where(inArray(tickets.id, [plain!.id, full!.id]))
      .orderBy(tickets.id);
    const raws = await executedRows(
      db,
      sql`select ${sql.raw(rendered.text)} from ${tickets} where ${inArray(tickets.id, [plain!.id, full!.id])} order by ${tickets.id}`,
    );
    const read = raws.map((raw) => rendered.rowOf(raw));
    expect(read).toEqual(built);
    const [, everything] = read as { ticket: typeof tickets.$inferSelect; ownerIsStaff: boolean; titleLength: number }[];
    expect(everything!.ticket.tags).toEqual(['billing', 'vip']);
    expect(everything!.ticket.slaUsedMs).toBe(9_007_199_254);
    expect(everything!.ticket.slaResponseDueAt).toEqual(new Date('2026-01-19T08:30:00.123Z'));
    expect(everything!.ownerIsStaff).toBe(true);
    expect(everything!.titleLength).toBe(14);
    const [row] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, full!.id));
    expect(row?.id).toBe(full!.id);
  });

  it('binds a statement rendered once per key, placeholder by placeholder', async () => {
    const { db } = opened.database;
    const [owner] = await db
      .insert(users)
      .values({ name: 'Bound Twice', email: 'bound@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    const made = await db
      .insert(tickets)
      .values(['First', 'Second', 'Third'].map((title) => ({ title, description: 'd', userId: owner!.id })))
      .returning({ id: tickets.id });
    const ids = `{${made.map((t) => t.id).join(',')}}`;
    let renders = 0;
    const statement = renderedStatements<'asc' | 'desc', { ids: string; owner: number }>((direction, placeholder) => {
      renders += 1;
      const owner = placeholder('owner');
      // One placeholder twice, one once, in an order the key chooses.
      return sql`select ${tickets.title} as title from ${tickets} where ${tickets.id} = any(${placeholder('ids')}::int[]) and ${tickets.userId} = ${owner} and ${owner} > 0 order by ${tickets.id} ${sql.raw(direction)}`;
    });
    const titles = async (direction: 'asc' | 'desc', values: { ids: string; owner: number }) =>
      (await executedRows(db, statement(direction, values))).map((row) => row.title);
    expect(await titles('asc', { ids, owner: owner!.id })).toEqual(['First', 'Second', 'Third']);
    expect(await titles('desc', { ids, owner: owner!.id })).toEqual(['Third', 'Second', 'First']);
    expect(await titles('asc', { ids: `{${made[1]!.id}}`, owner: owner!.id })).toEqual(['Second']);
    expect(await titles('asc', { ids, owner: owner!.id + 1_000_000 })).toEqual([]);
    expect(renders).toBe(2);

    // A value written in place of a placeholder would be bound once and kept for every later call.
    const unbound = renderedStatements<'x', Record<string, never>>(() => sql`select ${1} as one`);
    expect(() => unbound('x', {})).toThrow(/placeholders only/);
  });
});
