import { asc, eq, or } from 'drizzle-orm';
import {
  BUILT_IN_VIEWS,
  MESSAGES,
  type CreateViewBody,
  type TicketAssignee,
  type UpdateViewBody,
  type View,
  type ViewFilters,
} from '@helpdesk/protocol';
import { returnedRow } from '../db/rows.js';
import { ticketConditions } from '../db/queries/tickets.js';
import { countedViewTotals, type CountedFilter } from '../db/queries/views.js';
import { savedViews, users } from '../db/schema/index.js';
import { ForbiddenError } from '../lib/errors.js';
import type { Actor } from './actor.js';
import type { ServiceContext } from './context.js';
import type { SearchCounts } from './searchCounts.js';
import { itemAccess } from './sharedItems.js';

export type ViewService = ReturnType<typeof createViewService>;

type ViewRow = typeof savedViews.$inferSelect & { ownerName: string };

const presentView = (row: ViewRow): View => ({
  id: row.id,
  name: row.name,
  filters: row.filters,
  ...(row.sort !== null && { sort: row.sort }),
  shared: row.shared,
  owner: { id: row.ownerId, name: row.ownerName },
});

const builtIns = (): View[] => BUILT_IN_VIEWS.map((view) => ({ ...view, filters: { ...view.filters }, owner: null }));

/** The stored filters without empty values, so a view's JSON says only what it filters by. */
const compact = (filters: ViewFilters): ViewFilters =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));

const agentIdOf = (actor: Actor, assignee: TicketAssignee | undefined): number | null | undefined =>
  assignee === undefined ? undefined : assignee === 'me' ? actor.id : assignee === 'none' ? null : assignee;

export function createViewService({ db }: ServiceContext, cappedSearchStats: SearchCounts) {
  const access = itemAccess(MESSAGES.views);
  const select = () =>
    db.select({ view: savedViews, ownerName: users.name }).from(savedViews).innerJoin(users, eq(users.id, savedViews.ownerId));
  const toRow = ({ view, ownerName }: { view: typeof savedViews.$inferSelect; ownerName: string }): ViewRow => ({ ...view, ownerName });

  const load = async (id: number) => {
    const [row] = await select().where(eq(savedViews.id, id));
    return row && toRow(row);
  };

  const visibleViews = async (actor: Actor): Promise<View[]> => {
    const rows = await select()
      .where(or(eq(savedViews.ownerId, actor.id), eq(savedViews.shared, true)))
      .orderBy(asc(savedViews.name), asc(savedViews.id));
    return [...builtIns(), ...rows.map(toRow).map(presentView)];
  };

  const notBuiltIn = (id: number) => {
    if (id < 0) throw new ForbiddenError(MESSAGES.views.builtInLocked);
  };

  return {
    list: visibleViews,

    async create(actor: Actor, input: CreateViewBody): Promise<View> {
      access.creatable(actor, input.shared);
      const inserted = await db
        .insert(savedViews)
        .values({ ownerId: actor.id, name: input.name, filters: compact(input.filters), sort: input.sort ?? null, shared: input.shared })
        .returning();
      return presentView({ ...returnedRow(inserted, 'the view insert'), ownerName: actor.name });
    },

    async update(actor: Actor, id: number, input: UpdateViewBody): Promise<View> {
      notBuiltIn(id);
      const current = access.changeable(actor, await load(id), input.shared);
      const updated = await db
        .update(savedViews)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.filters !== undefined && { filters: compact(input.filters) }),
          ...(input.sort !== undefined && { sort: input.sort }),
          ...(input.shared !== undefined && { shared: input.shared }),
        })
        .where(eq(savedViews.id, id))
        .returning();
      return presentView({ ...returnedRow(updated, 'the view update'), ownerName: current.ownerName });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      notBuiltIn(id);
      access.changeable(actor, await load(id));
      await db.delete(savedViews).where(eq(savedViews.id, id));
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
        if (view.filters.search) {
          searched.push(view);
          continue;
        }
        const agentId = agentIdOf(actor, view.filters.assignee);
        counted.push({
          id: view.id,
          filter: {
            ...(agentId !== undefined && { agentId: agentId ?? 0 }),
            status: view.filters.status,
            priority: view.filters.priority,
          },
        });
      }
      const [totals, capped] = await Promise.all([
        countedViewTotals(
          db,
          counted.map((c) => c.filter),
        ),
        Promise.all(
          searched.map((view) =>
            cappedSearchStats(ticketConditions({ assignedAgentId: agentIdOf(actor, view.filters.assignee) }, view.filters)),
          ),
        ),
      ]);
      const counts: Record<string, number> = {};
      counted.forEach((c, i) => (counts[c.id] = totals[i] ?? 0));
      searched.forEach((view, i) => (counts[view.id] = capped[i]?.stats.total ?? 0));
      return counts;
    },
  };
}
