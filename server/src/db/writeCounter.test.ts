import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { uniqueEmail } from '../../test/factories.js';
import type { Database } from './client.js';
import { updateTicketRows } from './queries/tickets.js';
import { articles, ticketComments, tickets, users } from './schema/index.js';
import { collectTablesRead, type Versions } from './tableVersions.js';

/** The driver's watch on a real database: which tables each statement reads or bumps. */
describe('statements seen at the driver', () => {
  const opened = useOpenedDatabase();
  let ownerId: number;

  beforeAll(async () => {
    ownerId = await insertUser(opened.database.db);
  });

  const insertUser = (db: Database['db']) =>
    db
      .insert(users)
      .values({ name: 'Driver Watch', email: uniqueEmail('watch'), passwordHash: 'x' })
      .returning({ id: users.id })
      .then((rows) => rows[0]!.id);

  const now = async () => (await opened.database.versions().current())!;
  /** The tables among `tables` whose version moved from `before` to now. */
  const bumped = async (before: Versions, tables: string[]) => {
    const after = await now();
    return tables.filter((t) => after.of(t) !== before.of(t));
  };
  const ALL = ['*', 'users', 'tickets', 'ticket_counts', 'ticket_comments', 'ticket_history', 'ticket_reads', 'notifications', 'articles'];

  it('tells a read the tables its statements named', async () => {
    const named = new Set<string>();
    await collectTablesRead(named, () =>
      opened.database.db.select({ id: tickets.id }).from(tickets).leftJoin(users, eq(users.id, tickets.userId)).limit(1),
    );
    expect([...named].sort()).toEqual(['tickets', 'users']);

    // A write run as a kept read (a read mark) depends on what it names too.
    const upsert = new Set<string>();
    await collectTablesRead(upsert, () => opened.database.db.update(articles).set({ title: 'x' }).where(eq(articles.id, -1)));
    expect([...upsert]).toEqual(['articles']);
  });

  it('bumps the table a write names and what its triggers write, and nothing else', async () => {
    const before = await now();
    await opened.database.db.insert(tickets).values({ title: 'Watched', description: 'd', userId: ownerId });
    // ticket_counts is kept by a trigger on tickets (migrations/0004_ticket_counts_triggers.sql).
    expect(await bumped(before, ALL)).toEqual(['tickets', 'ticket_counts']);
  });

  it('leaves alone the tables a write only reads', async () => {
    const [ticket] = await opened.database.db.insert(tickets).values({ title: 'Read back', description: 'd', userId: ownerId }).returning();
    const before = await now();
    // A ticket's change returns its row as every write does: the owner's, assignee's and editor's names
    // from users. Counting users as changed dropped every kept session row at each ticket change.
    const [row] = await updateTicketRows(opened.database.db, eq(tickets.id, ticket!.id), { title: 'Renamed' });
    expect(row?.ownerName).toBe('Driver Watch');
    const moved = await bumped(before, ALL);
    expect(moved).toContain('tickets');
    expect(moved).not.toContain('users');
    expect(moved).not.toContain('*');
  });

  it('bumps the tables a delete cascades into', async () => {
    const [ticket] = await opened.database.db.insert(tickets).values({ title: 'Gone', description: 'd', userId: ownerId }).returning();
    await opened.database.db.insert(ticketComments).values({ ticketId: ticket!.id, authorId: ownerId, content: 'c' });
    const before = await now();
    await opened.database.db.delete(tickets).where(eq(tickets.id, ticket!.id));
    expect(await bumped(before, ALL)).toEqual([
      'tickets',
      'ticket_counts',
      'ticket_comments',
      'ticket_history',
      'ticket_reads',
      'notifications',
    ]);
  });

  it('bumps nothing for a read, a plan or a change that matched no row', async () => {
    const before = await now();
    await opened.database.db.select().from(articles);
    await opened.database.db.update(users).set({ name: 'x' }).where(eq(users.id, -1));
    // Planning a statement runs nothing (a search's row estimate).
    await opened.database.db.execute(sql`explain (format json) select 1 from ${tickets}`);
    expect((await now()).stamp).toBe(before.stamp);
    // EXPLAIN ANALYZE runs it.
    await opened.database.db.execute(sql`explain analyze update ${users} set name = 'y' where id = ${ownerId}`);
    expect(await bumped(before, ['users'])).toEqual(['users']);
  });

  it('bumps every table for a write naming none it knows', async () => {
    const before = await now();
    await opened.database.db.execute(sql`create temporary table watch_probe (x int)`);
    expect(await bumped(before, ['*'])).toEqual(['*']);
  });

  it('bumps a transaction’s tables when it commits, not before', async () => {
    const before = await now();
    let during: string[] = [];
    await opened.database.db.transaction(async (tx) => {
      await insertUser(tx);
      during = await bumped(before, ALL);
    });
    expect(during).toEqual([]);
    expect(await bumped(before, ALL)).toEqual(['users']);
  });

  it('leaves out of a transaction’s bump a change that matched no row', async () => {
    const before = await now();
    await opened.database.db.transaction(async (tx) => {
      await tx.update(articles).set({ title: 'x' }).where(eq(articles.id, -1));
    });
    expect((await now()).stamp).toBe(before.stamp);

    await opened.database.db.transaction(async (tx) => {
      await tx.update(articles).set({ title: 'x' }).where(eq(articles.id, -1));
      await insertUser(tx);
    });
    expect(await bumped(before, ALL)).toEqual(['users']);
  });
});
