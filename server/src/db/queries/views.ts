import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';
import { returnedRow } from '../rows.js';
import { insertUnderCap } from './ownedItems.js';
import { counterConditions, countersFor } from './tickets.js';
import { savedViews, users } from '../schema/index.js';

/**
 * A filter-only view as the maintained counters can answer it: agent id (-1 every ticket, 0
 * unassigned), status, priority, category, SLA state.
 */
export interface CountedFilter {
  agentId: number;
  status?: string;
  priority?: string;
  category?: string;
  sla?: string;
}

/**
 * Every filter-only view's count in one read of ticket_counts (migrations 0004, 0010, 0021), and one of
 * ticket_category_counts for the views with a category (migration 0036): one sum per view over the rows
 * of the assignees the views name, never the tickets table.
 */
export async function countedViewTotals(db: Db, filters: CountedFilter[]): Promise<number[]> {
  const categorised = filters.map((f) => f.category !== undefined);
  // One after the other: a request holds one connection.
  const plain = await summedViews(
    db,
    filters.filter((_, i) => !categorised[i]),
  );
  const byCategory = await summedViews(
    db,
    filters.filter((_, i) => categorised[i]),
  );
  return categorised.map((has) => (has ? byCategory : plain).shift() ?? 0);
}

/** The views' sums from one counters table: all of them with a category or none. */
async function summedViews(db: Db, filters: CountedFilter[]): Promise<number[]> {
  if (filters.length === 0) return [];
  const c = countersFor({ category: filters[0]?.category });
  const sums = Object.fromEntries(
    filters.map((f, i) => {
      const where: SQL | undefined = and(eq(c.agentId, f.agentId), ...counterConditions(c, f));
      return [`v${i}`, sql<number>`coalesce(sum(${c.n}) ${where ? sql`filter (where ${where})` : sql``}, 0)::int`];
    }),
  );
  const [row] = await db
    .select(sums)
    .from(c)
    .where(inArray(c.agentId, [...new Set(filters.map((f) => f.agentId))]));
  return filters.map((_, i) => row?.[`v${i}`] ?? 0);
}

/** Every saved view with a text search, with its owner's role and whether the account still exists. */
export const findSearchedViews = (db: Db) =>
  db
    .select({
      id: savedViews.id,
      filters: savedViews.filters,
      shared: savedViews.shared,
      ownerId: savedViews.ownerId,
      ownerRole: users.role,
      ownerDeletedAt: users.deletedAt,
    })
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerId))
    .where(sql`${savedViews.filters} ->> 'search' is not null`);

export type ViewRecord = typeof savedViews.$inferSelect;
export type ViewRow = ViewRecord & { ownerName: string };

const select = (db: Db) =>
  db.select({ item: savedViews, ownerName: users.name }).from(savedViews).innerJoin(users, eq(users.id, savedViews.ownerId));

const toRow = ({ item, ownerName }: { item: ViewRecord; ownerName: string }): ViewRow => ({ ...item, ownerName });

/** Saved views, in the shape services/sharedItems.ts reads and writes every shared item with. */
export const viewQueries = {
  async find(db: Db, id: number): Promise<ViewRow | undefined> {
    const [row] = await select(db).where(eq(savedViews.id, id));
    return row && toRow(row);
  },

  /** The staff member's own and the shared ones, by name. */
  async findVisible(db: Db, userId: number): Promise<ViewRow[]> {
    const rows = await select(db)
      .where(or(eq(savedViews.ownerId, userId), eq(savedViews.shared, true)))
      .orderBy(asc(savedViews.name), asc(savedViews.id));
    return rows.map(toRow);
  },

  /** Undefined once the owner already has `max`. */
  insert(db: Db, values: typeof savedViews.$inferInsert, max: number): Promise<ViewRecord | undefined> {
    return insertUnderCap(db, savedViews, values.ownerId, max, async (tx) =>
      returnedRow(await tx.insert(savedViews).values(values).returning(), 'the view insert'),
    );
  },

  async update(db: Db, id: number, set: Partial<typeof savedViews.$inferInsert>): Promise<ViewRecord> {
    return returnedRow(await db.update(savedViews).set(set).where(eq(savedViews.id, id)).returning(), 'the view update');
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.delete(savedViews).where(eq(savedViews.id, id));
  },
};
