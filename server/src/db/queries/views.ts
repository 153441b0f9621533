import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';
import { ticketCounts } from '../schema/index.js';

/** A filter-only view as the maintained counters can answer it: agent id (0 = unassigned), status, priority. */
export interface CountedFilter {
  agentId?: number;
  status?: string;
  priority?: string;
}

/**
 * Every filter-only view's count in one read of ticket_counts (migration 0004): one sum per view,
 * never the tickets table, however many views there are.
 */
export async function countedViewTotals(db: Db, filters: CountedFilter[]): Promise<number[]> {
  if (filters.length === 0) return [];
  const c = ticketCounts;
  const sums = Object.fromEntries(
    filters.map((f, i) => {
      const where: SQL | undefined = and(
        f.agentId !== undefined ? eq(c.agentId, f.agentId) : undefined,
        f.status ? sql`${c.status} = ${f.status}` : undefined,
        f.priority ? sql`${c.priority} = ${f.priority}` : undefined,
      );
      return [`v${i}`, sql<number>`coalesce(sum(${c.n}) ${where ? sql`filter (where ${where})` : sql``}, 0)::int`];
    }),
  );
  const [row] = await db.select(sums).from(c);
  return filters.map((_, i) => row?.[`v${i}`] ?? 0);
}
