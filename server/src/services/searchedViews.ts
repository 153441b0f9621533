import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { isStaff, STAFF_ROLES, type TicketAssignee, type ViewFilters } from '@helpdesk/protocol';
import { ticketConditions } from '../db/queries/tickets.js';
import { savedViews, users } from '../db/schema/index.js';
import type { ServiceContext } from './context.js';
import type { SearchCounts } from './searchCounts.js';

/** A saved view with a text search: the server counts it, since only the database can say what a search matches. */
export interface SearchedView {
  id: number;
  filters: ViewFilters;
  shared: boolean;
  ownerId: number;
  /** The owner is an active staff member: only then is a private view theirs to see. */
  ownerIsStaff: boolean;
}

/** The staff member `assignee` names for this viewer: undefined for no filter, null for the unassigned. */
export const assignedAgentFor = (viewerId: number | null, assignee: TicketAssignee | undefined): number | null | undefined =>
  assignee === undefined ? undefined : assignee === 'none' ? null : assignee === 'me' ? (viewerId ?? 0) : assignee;

/** What the live counts of searched views (realtime/viewCountsPush.ts) read: the views, who is staff, one count. */
export function createSearchedViews({ db }: Pick<ServiceContext, 'db'>, searchCounts: SearchCounts) {
  return {
    async list(): Promise<SearchedView[]> {
      const rows = await db
        .select({
          id: savedViews.id,
          filters: savedViews.filters,
          shared: savedViews.shared,
          ownerId: savedViews.ownerId,
          role: users.role,
          deletedAt: users.deletedAt,
        })
        .from(savedViews)
        .innerJoin(users, eq(users.id, savedViews.ownerId))
        .where(sql`${savedViews.filters} ->> 'search' is not null`);
      return rows.map(({ role, deletedAt, ...view }) => ({ ...view, ownerIsStaff: deletedAt === null && isStaff({ role }) }));
    },

    /** The active staff members among these accounts. */
    async staffAmong(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, ids), inArray(users.role, [...STAFF_ROLES]), isNull(users.deletedAt)));
      return new Set(rows.map((row) => row.id));
    },

    /** The view's count for this viewer, as GET /views/counts answers it (up to the list's cap). */
    async count(view: Pick<SearchedView, 'filters'>, viewerId: number | null): Promise<number> {
      const assignedAgentId = assignedAgentFor(viewerId, view.filters.assignee);
      const { stats } = await searchCounts(ticketConditions({ assignedAgentId }, view.filters));
      return stats.total;
    },
  };
}

export type SearchedViews = ReturnType<typeof createSearchedViews>;
