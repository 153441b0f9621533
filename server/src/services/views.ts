import {
  isStaff,
  LIMITS,
  MESSAGES,
  type CreateViewBody,
  type TicketAssignee,
  type UpdateViewBody,
  type View,
  type ViewFilters,
} from '@helpdesk/protocol';
import { findActiveStaffIds } from '../db/queries/staff.js';
import { countedStats, countsAgentId } from '../db/queries/tickets.js';
import { countedViewTotals, findSearchedViews, viewQueries, type CountedFilter } from '../db/queries/views.js';
import type { Actor } from '../lib/actor.js';
import { ForbiddenError } from '../lib/errors.js';
import { presentBuiltInViews, presentView } from '../presenters/views.js';
import type { ServiceContext } from './context.js';
import type { SearchCounts } from './searchCounts.js';
import { listFilters } from './tickets/access.js';
import { sharedItemService } from './sharedItems.js';

export type ViewService = ReturnType<typeof createViewService>;

/** The stored filters without empty values, so a view's JSON says only what it filters by. */
const compact = (filters: ViewFilters): ViewFilters =>
  Object.fromEntries(Object.entries(filters as Record<string, unknown>).filter(([, value]) => value !== undefined));

/** The staff member `assignee` names for this viewer: undefined for no filter, null for the unassigned. */
const agentIdOf = (viewerId: number, assignee: TicketAssignee | undefined): number | null | undefined =>
  assignee === undefined ? undefined : assignee === 'me' ? viewerId : assignee === 'none' ? null : assignee;

/** A saved view with a text search: only the database can say what a search matches, so the server counts it. */
export interface SearchedView {
  id: number;
  filters: ViewFilters;
  shared: boolean;
  ownerId: number;
  /** The owner is an active staff member: only then is a private view theirs to see. */
  ownerIsStaff: boolean;
}

/** Built-in views (negative ids) are nobody's: they cannot be changed or deleted. */
const notBuiltIn = (id: number) => {
  if (id < 0) throw new ForbiddenError(MESSAGES.views.builtInLocked);
};

export function createViewService({ db, announceWrite }: ServiceContext, searchCounts: SearchCounts) {
  const saved = sharedItemService(db, announceWrite, {
    texts: MESSAGES.views,
    announcedAs: 'views',
    maxPerOwner: LIMITS.perOwner.views,
    queries: viewQueries,
    present: presentView,
    toInsert: (actor, input: CreateViewBody) => ({
      ownerId: actor.id,
      name: input.name,
      filters: compact(input.filters),
      sort: input.sort ?? null,
      shared: input.shared,
    }),
    toSet: (input: UpdateViewBody) => ({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.filters !== undefined && { filters: compact(input.filters) }),
      ...(input.sort !== undefined && { sort: input.sort }),
      ...(input.shared !== undefined && { shared: input.shared }),
    }),
  });

  const visibleViews = async (actor: Actor): Promise<View[]> => [...presentBuiltInViews(), ...(await saved.list(actor))];
  /** A searched view's count for this viewer, up to the list's cap. */
  const searchedCount = async (filters: ViewFilters, viewerId: number): Promise<number> => {
    // Views are staff's: the viewer reads them as staff, the search syntax and tag included.
    const { scope, conditions, plain } = await listFilters(db, { id: viewerId, role: 'agent' }, filters);
    // A tag alone is still counted by the maintained counters (per tag); words are counted under the cap.
    if (plain) return (await countedStats(db, { assignedAgentId: scope.assignedAgentId, ...conditions })).total;
    return (await searchCounts.total({ scope, conditions })).total;
  };

  return {
    list: visibleViews,

    create: (actor: Actor, input: CreateViewBody): Promise<View> => saved.create(actor, input),

    async update(actor: Actor, id: number, input: UpdateViewBody): Promise<View> {
      notBuiltIn(id);
      return saved.update(actor, id, input);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      notBuiltIn(id);
      return saved.remove(actor, id);
    },

    /**
     * Every visible view's count for one request. Filter-only views are summed from the maintained
     * counters in one query; a view with a search counts its matches up to the list's cap.
     */
    async counts(actor: Actor): Promise<Record<string, number>> {
      const views = await visibleViews(actor);
      const counted: { id: number; filter: CountedFilter }[] = [];
      const searched: View[] = [];
      for (const view of views) {
        // The counters know status, priority, category, SLA state and assignee: a view with a search or
        // a tag is counted alone.
        if (view.filters.search || view.filters.tag) {
          searched.push(view);
          continue;
        }
        counted.push({
          id: view.id,
          filter: {
            agentId: countsAgentId(agentIdOf(actor.id, view.filters.assignee)),
            status: view.filters.status,
            priority: view.filters.priority,
            category: view.filters.category,
            sla: view.filters.sla,
          },
        });
      }
      const [totals, capped] = await Promise.all([
        countedViewTotals(
          db,
          counted.map((c) => c.filter),
        ),
        Promise.all(searched.map((view) => searchedCount(view.filters, actor.id))),
      ]);
      const counts: Record<string, number> = {};
      counted.forEach((c, i) => (counts[c.id] = totals[i] ?? 0));
      searched.forEach((view, i) => (counts[view.id] = capped[i] ?? 0));
      return counts;
    },

    // What the live counts of searched views read (realtime/viewCountsPush.ts).

    /** Every saved view with a text search, whoever owns it. */
    async searched(): Promise<SearchedView[]> {
      const rows = await findSearchedViews(db);
      return rows.map(({ ownerRole, ownerDeletedAt, ...view }) => ({
        ...view,
        ownerIsStaff: ownerDeletedAt === null && isStaff({ role: ownerRole }),
      }));
    },

    /** A searched view's count as GET /views/counts gives it to this viewer; `staff` (no viewer) for a view without `me`. */
    countFor: (filters: ViewFilters, viewerId: number | null): Promise<number> => searchedCount(filters, viewerId ?? 0),

    /** The active staff members among these accounts: who may still be sent a shared view's count. */
    staffAmong: async (ids: number[]): Promise<Set<number>> => new Set(ids.length === 0 ? [] : await findActiveStaffIds(db, ids)),
  };
}
