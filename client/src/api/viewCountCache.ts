import {
  countMove,
  ticketStatesOf,
  type SlaChangedEvent,
  type Ticket,
  type TicketChangedEvent,
  type ViewCountsEvent,
  type ViewCountsResponse,
  type ViewsResponse,
} from '@helpdesk/protocol';
import type { Query, QueryClient } from '@tanstack/react-query';
import { queryKeys } from './queryKeys';
import { holds, movable, readAgain } from './readTimes';

/**
 * The saved views' counts in the query cache and the only code that writes them from events, so
 * `GET /views/counts` is read on load and after a reconnect only (docs/architecture.md#an-event):
 *
 * - A filter-only view's count moves by −1/0/+1 from a `ticket-changed` event's ticket before and
 *   after, with the protocol's predicate. Each (ticket, version) moves the counts once, however often
 *   the event arrives and in whatever order versions arrive: a move is the difference a version made
 *   to the one before it, so a late one adds up to the same counts (skipping a version older than
 *   one applied lost its difference: a ticket taken in a late event stayed counted as unassigned).
 * - A view with a text search is counted by the server, which pushes `view-counts`.
 * - While a read of the counts is out, it may or may not hold a change: a moved count is read again
 *   once it settles, and pushed counts are applied on top of its answer, in the order they came.
 * - A read the server began after a change was announced holds it: a late event (a process back from a
 *   cut from the others replays what it announced meanwhile) moves nothing. The query is `timed`.
 *
 * Plain functions over a QueryClient, free of React and the DOM, like api/ticketCache.ts (whose
 * versions it does not share: each cache applies a version once, whichever saw it first).
 */

interface CountState {
  /** The ticket versions that moved the counts, per ticket (Infinity: its deletion). */
  applied: Map<number, Set<number>>;
  /** Counts pushed while a read was out, to apply once it settles. */
  pushedDuringRead: ViewCountsEvent['counts'][];
}
const states = new WeakMap<QueryClient, CountState>();
const stateOf = (client: QueryClient): CountState => {
  let state = states.get(client);
  if (!state) states.set(client, (state = { applied: new Map(), pushedDuringRead: [] }));
  return state;
};

const countsQuery = (client: QueryClient): Query | undefined =>
  client.getQueryCache().find({ queryKey: queryKeys.queue.viewCounts, exact: true });
const reading = (query: Query) => query.state.fetchStatus === 'fetching';
/** Once the read in flight settles, whatever its outcome. */
const settled = (query: Query) => Promise.resolve(query.promise).catch(() => undefined);

function withCounts(client: QueryClient, change: (counts: Record<string, number>) => Record<string, number>): void {
  client.setQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts, (data) => {
    if (!data) return data;
    const counts = change(data.counts);
    return counts === data.counts ? data : { ...data, counts };
  });
}

/** `ticket-changed`: the filter-only views' counts follow the ticket; `viewerId` is whom `assignee: me` means. */
export function moveViewCounts(client: QueryClient, event: TicketChangedEvent, viewerId: number | null): void {
  const state = stateOf(client);
  const id = event.ticket.id;
  const version = event.action === 'deleted' ? Number.POSITIVE_INFINITY : event.ticket.version;
  const applied = state.applied.get(id) ?? new Set<number>();
  if (applied.has(version)) return;
  state.applied.set(id, applied.add(version));

  const query = countsQuery(client);
  // The answer may hold the change already, or may or may not (then it is read again).
  if (!query || !movable(client, query, event)) return;
  const views = client.getQueryData<ViewsResponse>(queryKeys.queue.views)?.views;
  if (!views) {
    // Nothing says which filters the counts are of: the next time they are shown they are read again.
    void client.invalidateQueries({ queryKey: queryKeys.queue.viewCounts, exact: true, refetchType: 'none' });
    return;
  }
  const { before, after } = ticketStatesOf(event);
  withCounts(client, (counts) => {
    let moved = counts;
    for (const view of views) {
      const count = counts[view.id];
      if (view.filters.search || count === undefined) continue;
      const move = countMove(view.filters, viewerId, before, after);
      if (move !== 0) moved = { ...moved, [view.id]: count + move };
    }
    return moved;
  });
}

/**
 * `sla-changed`: the views filtered by SLA state (the built-in "SLA at risk" among them) follow the
 * ticket, judged on the copy this tab held before the event (`held`, api/ticketCache.ts heldTicket),
 * which the event changes only in its `sla`. A copy already holding that `sla`, or newer than the
 * event, has moved the counts. Without a copy the views' filters cannot be judged: the counts are read again.
 */
export function moveSlaViewCounts(client: QueryClient, event: SlaChangedEvent, viewerId: number | null, held: Ticket | undefined): void {
  const views = client.getQueryData<ViewsResponse>(queryKeys.queue.views)?.views;
  const query = countsQuery(client);
  if (!views?.some((view) => view.filters.sla) || !query || holds(query, event.at)) return;
  if (held && (held.version > event.version || JSON.stringify(held.sla ?? null) === JSON.stringify(event.sla))) return;
  if (!held) {
    readAgain(client, query);
    return;
  }
  if (!movable(client, query, event)) return;
  const after = { ...held, sla: event.sla };
  withCounts(client, (counts) => {
    let moved = counts;
    for (const view of views) {
      const count = counts[view.id];
      if (view.filters.search || count === undefined) continue;
      const move = countMove(view.filters, viewerId, held, after);
      if (move !== 0) moved = { ...moved, [view.id]: count + move };
    }
    return moved;
  });
}

/** `view-counts`: the server's counts of views with a search replace the cached ones. */
export function applyPushedViewCounts(client: QueryClient, { counts }: ViewCountsEvent): void {
  const query = countsQuery(client);
  if (!query) return;
  const state = stateOf(client);
  if (reading(query)) {
    // The read may have started before these were counted: they go on top of its answer.
    if (state.pushedDuringRead.push(counts) === 1)
      void settled(query).then(() => {
        const pushed = state.pushedDuringRead.splice(0);
        withCounts(client, (held) => Object.assign({ ...held }, ...pushed) as Record<string, number>);
      });
    return;
  }
  withCounts(client, (held) => ({ ...held, ...counts }));
}
