import {
  LIMITS,
  assigneeOf,
  effectiveFilters,
  PRIORITIES,
  requesterNameMatches,
  ticketMatchesFilters,
  TICKET_STATUSES,
  slaDueAtOf,
  type Comment,
  type HistoryEntry,
  type CommentAddedEvent,
  type CsatReceivedEvent,
  type EmailStatusEvent,
  type SlaChangedEvent,
  type Stamped,
  type RequesterTicketsResponse,
  type Ticket,
  type TicketChangedEvent,
  type TicketFilters,
  type TicketListResponse,
  type TicketQuery,
  type TicketResponse,
  type TicketSort,
  type TicketStats,
  type TicketStatsResponse,
} from '@helpdesk/protocol';
import type { Query, QueryClient } from '@tanstack/react-query';
import { notificationsOfDeletedTicket } from './notificationCache';
import { queryKeys } from './queryKeys';
import { holds, movable, readAgain } from './readTimes';
import { answeredBy, withComment, withEmailStatus, withHistory, withOlderComments, withOlderHistory } from './ticketThread';

/**
 * The ticket data in the query cache: its keys, and the only code that writes it. HTTP answers and
 * socket events both come through here, so a change reaches each cached copy once.
 *
 * - An answer (PUT, POST, DELETE) writes what it carries into the copies that hold the ticket. What it
 *   does not carry (counts, a row entering or leaving a filtered page, timeline entries) is left to
 *   the socket's echo of the same change; with no live socket, the answer re-reads those instead.
 * - An event moves every copy: the row, its place in each cached page, the counts, the open ticket.
 *   It asks the server only where this cache cannot know the answer (see `movedPage`).
 * - A copy is replaced only by a newer version. Each event version moves the counts once, in
 *   whatever order versions arrive: a move is a difference, so late ones add up to the same counts.
 * - An event leaves alone every copy read after it was announced (`at`), since that read holds it
 *   (readTimes.ts): a late event replayed by a process that was cut off, or one that lost a race.
 *
 * Plain functions over a QueryClient, free of React and the DOM: the fan-out benchmark runs this file
 * in Node behind real sockets.
 */

export const ticketKeys = {
  all: ['tickets'] as const,
  lists: ['tickets', 'list'] as const,
  list: (query: TicketQuery) => ['tickets', 'list', query] as const,
  stats: ['tickets', 'stats'] as const,
  statsFor: (filters: TicketFilters) => ['tickets', 'stats', filters] as const,
  details: ['tickets', 'detail'] as const,
  detail: (id: number) => ['tickets', 'detail', id] as const,
};

interface CacheState {
  /** A live socket delivers the echo of this tab's own changes. */
  live: boolean;
  /** The newest event version applied per ticket (Infinity once deleted). */
  newest: Map<number, number>;
  /** The event versions whose moves were applied, per ticket. */
  moved: Map<number, Set<number>>;
  /** The staff member whose unread marks the rows show (see setUnreadReader). */
  readerId: number | null;
  /** Recent changes to copies of one ticket, for reads that were on their way when they came. */
  recent: Recent[];
}
const states = new WeakMap<QueryClient, CacheState>();
const stateOf = (client: QueryClient): CacheState => {
  let state = states.get(client);
  if (!state) states.set(client, (state = { live: false, newest: new Map(), moved: new Map(), readerId: null, recent: [] }));
  return state;
};

/**
 * What an event did to the copies of its ticket: the row and the open ticket. Applying it again
 * changes nothing, so a read that lands after the event came, but began before it was announced,
 * gets it applied too instead of putting the older copy back.
 */
interface Recent {
  ticketId: number;
  /** When the server announced it; undefined: unknown, so applied to every read. */
  at: number | undefined;
  arrived: number;
  row: (ticket: Ticket) => Ticket;
  detail: (detail: TicketResponse) => TicketResponse;
}
/** Longer than any read may take (the HTTP timeout is 30 s). */
const RECENT_MS = 60_000;

/** Applies a change to the copies held (but those read after it) and keeps it for reads on their way. */
function changeCopies(client: QueryClient, change: Omit<Recent, 'arrived'>): void {
  const state = stateOf(client);
  const now = Date.now();
  state.recent = [...state.recent.filter((r) => r.arrived > now - RECENT_MS), { ...change, arrived: now }];
  const { ticketId, at } = change;
  const detail = client.getQueryCache().find({ queryKey: ticketKeys.detail(ticketId), exact: true });
  if (detail && !holds(detail, at)) client.setQueryData<TicketResponse>(ticketKeys.detail(ticketId), (held) => held && change.detail(held));
  for (const query of client.getQueryCache().findAll({ queryKey: ticketKeys.lists })) {
    const list = query.state.data as TicketListResponse | undefined;
    if (!list || !rowsOf(list).some((t) => t.id === ticketId) || holds(query, at)) continue;
    const held = rowsOf(list);
    const rows = held.map((t) => (t.id === ticketId ? change.row(t) : t));
    if (rows.some((t, i) => t !== held[i])) client.setQueryData(query.queryKey, withRows(list, rows, list.total));
  }
}

/** A ticket read (a page of rows, or one ticket) landed: changes announced since it began may be missing from it. */
export function withRecentChanges<T extends TicketListResponse | TicketResponse>(
  client: QueryClient,
  answer: T,
  readAt: number | undefined,
): T {
  const missing = stateOf(client).recent.filter((r) => r.at === undefined || readAt === undefined || r.at >= readAt);
  if (missing.length === 0) return answer;
  if ('ticket' in answer) {
    const id = answer.ticket.id;
    return missing.filter((r) => r.ticketId === id).reduce<TicketResponse>((held, r) => r.detail(held), answer) as T;
  }
  const rows = rowsOf(answer).map((t) => missing.filter((r) => r.ticketId === t.id).reduce((row, r) => r.row(row), t));
  return withRows(answer, rows, answer.total) as T;
}

/** Set by the socket: while it is connected, answers leave the rest of a change to its echo. */
export function setLiveEchoes(client: QueryClient, live: boolean): void {
  stateOf(client).live = live;
}

// ---------------------------------------------------------------------------------------------------------------
// Answers to this tab's own requests.

/** PUT /tickets/:id answered with the saved ticket. */
export function ticketSaved(client: QueryClient, ticket: Ticket): Promise<void> {
  replaceRows(client, ticket);
  patchDetail(client, ticket);
  if (stateOf(client).live) return Promise.resolve();
  return refetch(client, [ticketKeys.lists, ticketKeys.stats, ticketKeys.detail(ticket.id)]);
}

/** POST /tickets/bulk answered: each changed ticket as a single save; moves between pages and counts come with the echoes. */
export function bulkSaved(client: QueryClient, tickets: Ticket[]): Promise<void> {
  for (const ticket of tickets) {
    replaceRows(client, ticket);
    patchDetail(client, ticket);
  }
  if (stateOf(client).live) return Promise.resolve();
  return refetch(client, [ticketKeys.lists, ticketKeys.stats]);
}

/**
 * Whose list this is: rows changed or commented by anyone else become unread (bold) as the events
 * arrive, and a ticket this person opens becomes read. Null (not staff) leaves `unread` alone.
 */
export function setUnreadReader(client: QueryClient, readerId: number | null): void {
  stateOf(client).readerId = readerId;
}

/** GET /tickets/:id by staff marks the ticket read on the server; the rows follow here. */
export function ticketOpened(client: QueryClient, id: number): void {
  if (stateOf(client).readerId === null) return;
  setUnread(client, id, false);
}

function setUnread(client: QueryClient, id: number, unread: boolean): void {
  for (const query of client.getQueryCache().findAll({ queryKey: ticketKeys.lists })) {
    const list = query.state.data as TicketListResponse | undefined;
    if (!list || !rowsOf(list).some((t) => t.id === id && Boolean(t.unread) !== unread)) continue;
    client.setQueryData<TicketListResponse>(
      query.queryKey,
      withRows(
        list,
        rowsOf(list).map((t) => (t.id === id ? { ...t, unread } : t)),
        list.total,
      ),
    );
    // An `is:unread` list no longer holds a ticket read (its total and page with it), as a fresh load
    // would show; shown meanwhile as read, it is read again.
    if (!unread && effectiveFilters(query.queryKey[2] as TicketQuery).unread) readAgain(client, query);
  }
}

/** POST /tickets answered: its place in pages and counts comes with the echo. */
export function ticketCreated(client: QueryClient): Promise<void> {
  if (stateOf(client).live) return Promise.resolve();
  return refetch(client, [ticketKeys.lists, ticketKeys.stats]);
}

export function ticketDeleted(client: QueryClient, id: number): Promise<void> {
  client.removeQueries({ queryKey: ticketKeys.detail(id) });
  notificationsOfDeletedTicket(client, id);
  if (stateOf(client).live) return Promise.resolve();
  return refetch(client, [ticketKeys.lists, ticketKeys.stats]);
}

/** POST /tickets/:id/comments answered: the comment shows at once; its timeline entry and row counts come with the echo. */
export function commentSaved(client: QueryClient, ticketId: number, comment: Comment): Promise<void> {
  client.setQueryData<TicketResponse>(ticketKeys.detail(ticketId), (detail) => detail && withComment(detail, comment));
  if (stateOf(client).live) return Promise.resolve();
  return refetch(client, [ticketKeys.detail(ticketId)]);
}

function refetch(client: QueryClient, keys: ReadonlyArray<readonly unknown[]>): Promise<void> {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey }))).then(() => undefined);
}

// ---------------------------------------------------------------------------------------------------------------
// Socket events.

export function applyTicketChanged(client: QueryClient, event: TicketChangedEvent): void {
  const state = stateOf(client);
  const id = event.ticket.id;
  const { at, committing } = event;
  // Events carry no reader's mark: a change by someone else is unread for this staff member.
  const marked = (ticket: Ticket): Ticket => (state.readerId === null ? ticket : { ...ticket, unread: event.by.id !== state.readerId });
  // The newer copy, and the timeline's new entries: facts with ids, merged whatever the version.
  if (event.action === 'updated')
    changeCopies(client, {
      ticketId: id,
      at,
      row: (row) => newestCopy(row, marked(event.ticket)),
      detail: (detail) =>
        withHistory(
          newer(event.ticket, detail.ticket) ? { ...detail, ticket: newestCopy(detail.ticket, event.ticket) } : detail,
          event.history,
        ),
    });
  movePanel(client, event);
  const version = event.action === 'deleted' ? Number.POSITIVE_INFINITY : event.ticket.version;
  const moved = state.moved.get(id) ?? new Set<number>();
  if (moved.has(version)) return;
  state.moved.set(id, moved.add(version));
  // Older than a version already applied: it arrived late, from a process that was cut off.
  const inOrder = version > (state.newest.get(id) ?? 0);
  if (inOrder) state.newest.set(id, version);

  const change: Change = { at, committing, inOrder, before: undefined, after: undefined };
  if (event.action === 'deleted') {
    client.removeQueries({ queryKey: ticketKeys.detail(id) });
    notificationsOfDeletedTicket(client, id);
    moveTicket(client, { ...change, before: event.previous });
  } else if (event.action === 'created') {
    moveTicket(client, { ...change, after: marked(event.ticket) });
  } else {
    moveTicket(client, { ...change, before: { ...event.ticket, ...event.previous }, after: marked(event.ticket) });
  }
}

/**
 * A requester panel lists that person's newest tickets (as many as api/desk.ts asks for) by creation, with
 * their status: a new one of theirs goes first, a changed one is replaced, a deleted one leaves. Only
 * a deleted one from a full panel asks the server, for the ticket that then comes into it.
 */
function movePanel(client: QueryClient, event: TicketChangedEvent): void {
  const requester = event.action === 'deleted' ? event.previous.user.id : event.ticket.user.id;
  const key = queryKeys.desk.requesterTickets(requester);
  const panel = client.getQueryData<RequesterTicketsResponse>(key);
  if (!panel) return;
  const { tickets } = panel;
  const id = event.action === 'deleted' ? event.previous.id : event.ticket.id;
  const at = tickets.findIndex((t) => t.id === id);
  const size = LIMITS.requesterTickets.default;
  let moved: Ticket[] | typeof REFETCH;
  if (event.action === 'created') moved = at === -1 ? [event.ticket, ...tickets].slice(0, size) : tickets;
  else if (event.action === 'deleted') moved = at === -1 ? tickets : tickets.length === size ? REFETCH : tickets.filter((t) => t.id !== id);
  // A changed ticket missing from a panel with room to spare came while it was being read.
  else if (at === -1) moved = tickets.length < size ? REFETCH : tickets;
  else moved = tickets.map((t) => (t.id === id ? newestCopy(t, event.ticket) : t));
  if (moved === REFETCH) void client.invalidateQueries({ queryKey: key, exact: true });
  else if (moved.length !== tickets.length || moved.some((t, i) => t !== tickets[i]))
    client.setQueryData(key, { ...panel, tickets: moved });
}

export function applyCommentAdded(client: QueryClient, event: CommentAddedEvent): void {
  const { ticketId, comment, history, commentCount, at, committing } = event;
  const { readerId } = stateOf(client);
  // The copy before the comment: where the ticket stood in the lists by last activity.
  const held = comment.internal ? undefined : heldTicket(client, ticketId);
  changeCopies(client, {
    ticketId,
    at,
    // An internal note is not activity the owner sees, nor in commentCount (docs/decisions.md).
    row: (t) =>
      comment.internal
        ? t
        : {
            ...t,
            commentCount: Math.max(t.commentCount, commentCount),
            lastActivityAt: latest(t.lastActivityAt, comment.createdAt),
            ...(readerId !== null && { unread: comment.author.id !== readerId }),
            ...answeredBy(comment),
          },
    detail: (detail) => withHistory(withComment(detail, comment, commentCount), [history]),
  });
  if (comment.internal) return;
  // A comment moves its ticket in the lists by last activity, as a change of that field would. A ticket
  // held nowhere can only come into their first pages, whose row only the server has: those are read again.
  const byActivity = (query: Query) => (query.queryKey[2] as TicketQuery | undefined)?.sort.field === 'lastActivityAt';
  if (!held) {
    void client.invalidateQueries({ queryKey: ticketKeys.lists, predicate: (query) => byActivity(query) && !holds(query, at) });
    return;
  }
  const after = {
    ...held,
    commentCount: Math.max(held.commentCount, commentCount),
    lastActivityAt: latest(held.lastActivityAt, comment.createdAt),
  };
  for (const query of client.getQueryCache().findAll({ queryKey: ticketKeys.lists, predicate: byActivity }))
    update(client, query, { at, committing }, (list: TicketListResponse) =>
      movedPage(list, query.queryKey[2] as TicketQuery, held, after, readerId),
    );
}

/** The copy of a ticket this cache holds, the open ticket's or a row's, the newest version of them. */
export function heldTicket(client: QueryClient, id: number): Ticket | undefined {
  let held: Ticket | undefined = client.getQueryData<TicketResponse>(ticketKeys.detail(id))?.ticket;
  for (const query of client.getQueryCache().findAll({ queryKey: ticketKeys.lists })) {
    const list = query.state.data as TicketListResponse | undefined;
    const row = list && rowsOf(list).find((t) => t.id === id);
    if (row && (!held || row.version > held.version)) held = row;
  }
  return held;
}

const sameSla = (a: Ticket['sla'], b: Ticket['sla']) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `sla-changed` (staff): the scanner marked a warning or a breach, or an edited policy moved the
 * deadlines. Marks leave the version alone, so the event's `sla` replaces that of every copy of its
 * version or older; a newer copy came from a later write, which carried its own. The ticket then moves
 * in the lists filtered by SLA state or sorted by deadline, and in the counts under an SLA filter, as
 * for any changed field, from the copy held (the event carries only the `sla`). A ticket held nowhere
 * can only enter a page filtered by its new state: those pages and counts are read again.
 */
export function applySlaChanged(client: QueryClient, event: SlaChangedEvent): void {
  const { ticketId, sla, version, history, at, committing } = event;
  const held = heldTicket(client, ticketId);
  const withSla = <T extends Ticket>(ticket: T): T =>
    ticket.version <= version && !sameSla(ticket.sla, sla) ? { ...ticket, sla } : ticket;
  changeCopies(client, {
    ticketId,
    at,
    row: withSla,
    detail: (detail) => {
      const ticket = withSla(detail.ticket);
      return withHistory(ticket === detail.ticket ? detail : { ...detail, ticket }, history ?? []);
    },
  });
  if (held) {
    if (held.version <= version && !sameSla(held.sla, sla))
      moveTicket(client, { at, committing, inOrder: true, before: held, after: { ...held, sla } });
    return;
  }
  // A page by deadline may take in, or shift by, a ticket it holds nowhere (a re-applied policy moves
  // many at once): read again, once for a burst of them.
  for (const query of client.getQueryCache().findAll({ queryKey: ticketKeys.lists })) {
    if ((query.queryKey[2] as TicketQuery | undefined)?.sort.field === 'slaDueAt' && !holds(query, at)) readAgain(client, query);
  }
  if (!sla) return;
  const enters = (query: Query) => ((query.queryKey[2] ?? {}) as TicketFilters).sla === sla.state && !holds(query, at);
  void client.invalidateQueries({ queryKey: ticketKeys.lists, predicate: enters });
  void client.invalidateQueries({ queryKey: ticketKeys.stats, predicate: enters });
}

/** A staff reply's mail changed state: only the open ticket shows it (rows carry no comments). */
export function applyEmailStatus(client: QueryClient, event: EmailStatusEvent): void {
  const { ticketId, commentId, status, at } = event;
  changeCopies(client, { ticketId, at, row: (t) => t, detail: (detail) => withEmailStatus(detail, commentId, status) });
}

/** `csat-received` (staff): the owner answered the newest survey; only the open ticket shows it (rows carry no rating). */
export function applyCsatReceived(client: QueryClient, event: CsatReceivedEvent): void {
  const { ticketId, csat, at } = event;
  changeCopies(client, { ticketId, at, row: (t) => t, detail: (detail) => ({ ...detail, ticket: { ...detail.ticket, csat } }) });
}

// ---------------------------------------------------------------------------------------------------------------
// Copies of one ticket.

const newer = (incoming: Ticket, cached: { version: number }) => incoming.version > cached.version;
const latest = (a: string, b: string) => (a < b ? b : a);

/**
 * The copy to keep of two. Comments do not change the version, and are never removed: whichever copy
 * is newer, the count and the last activity are the higher of the two, and an answered ticket stays so.
 */
function newestCopy<T extends Ticket>(cached: T, incoming: Ticket): T {
  if (!newer(incoming, cached)) return cached;
  return {
    ...cached,
    ...incoming,
    commentCount: Math.max(cached.commentCount, incoming.commentCount),
    lastActivityAt: latest(cached.lastActivityAt, incoming.lastActivityAt),
    answered: cached.answered || incoming.answered,
  };
}

/** The ticket takes its row's place in every cached page that holds an older copy. */
function replaceRows(client: QueryClient, ticket: Ticket): void {
  client.setQueriesData<TicketListResponse>({ queryKey: ticketKeys.lists }, (list) =>
    list && rowsOf(list).some((t) => t.id === ticket.id && newer(ticket, t))
      ? withRows(
          list,
          rowsOf(list).map((t) => (t.id === ticket.id ? newestCopy(t, ticket) : t)),
          list.total,
        )
      : list,
  );
}

/** The open ticket takes the new fields, keeping its comments and history. */
function patchDetail(client: QueryClient, ticket: Ticket): void {
  client.setQueryData<TicketResponse>(ticketKeys.detail(ticket.id), (detail) =>
    detail && newer(ticket, detail.ticket) ? { ...detail, ticket: newestCopy(detail.ticket, ticket) } : detail,
  );
}

/** GET /tickets/:id/comments?before= answered: the older page goes in front of the comments already held. */
export function olderCommentsLoaded(client: QueryClient, ticketId: number, older: Comment[], hasMore: boolean): void {
  client.setQueryData<TicketResponse>(ticketKeys.detail(ticketId), (detail) => detail && withOlderComments(detail, older, hasMore));
}

export function olderHistoryLoaded(client: QueryClient, ticketId: number, older: HistoryEntry[], hasMore: boolean): void {
  client.setQueryData<TicketResponse>(ticketKeys.detail(ticketId), (detail) => detail && withOlderHistory(detail, older, hasMore));
}

/** The rows a cached answer holds: its page, then the spare rows that follow it. */
const rowsOf = (list: TicketListResponse): Ticket[] => {
  // An answer written by a test or an older server may have none.
  const spares = (list as { next?: Ticket[] }).next;
  return spares?.length ? [...list.data, ...spares] : list.data;
};

/** The answer holding these rows: the first `limit` are the page (both envelope arrays), the rest its spares. */
const withRows = (list: TicketListResponse, rows: Ticket[], total: number): TicketListResponse => {
  const page = rows.slice(0, list.limit);
  return { ...list, tickets: page, data: page, next: rows.slice(list.limit), total };
};

// ---------------------------------------------------------------------------------------------------------------
// A ticket moving between filters, pages and counts: `before` absent for a new ticket, `after` for a deleted one.

interface Change extends Stamped {
  /** When the server announced it (readTimes.ts). */
  at: number | undefined;
  /** False for a version older than one already applied. */
  inOrder: boolean;
  before: Ticket | undefined;
  after: Ticket | undefined;
}

function moveTicket(client: QueryClient, { at, committing, inOrder, before, after }: Change): void {
  const cache = client.getQueryCache();
  const { readerId } = stateOf(client);
  for (const query of cache.findAll({ queryKey: ticketKeys.lists })) {
    const params = query.queryKey[2] as TicketQuery;
    update(client, query, { at, committing }, (list: TicketListResponse) =>
      inOrder ? movedPage(list, params, before, after, readerId) : lateMove(list, params, before, after, readerId),
    );
  }
  for (const query of cache.findAll({ queryKey: ticketKeys.stats })) {
    update(client, query, { at, committing }, (stats: TicketStatsResponse) =>
      movedCounts(stats, (query.queryKey[2] ?? {}) as TicketFilters, before, after, readerId),
    );
  }
}

/**
 * A version older than the copies held came late. Rows keep the newer copy; but a page is ordered and
 * filtered by the state each version left, and which rows this late move shifts past its edges is
 * not known here: when it touches what the page filters or sorts by, the page is read again. This
 * happens only when one ticket was changed through two server processes cut off from each other.
 */
function lateMove(
  list: TicketListResponse,
  params: TicketQuery,
  before: Ticket | undefined,
  after: Ticket | undefined,
  readerId: number | null,
) {
  const wasIn = before !== undefined && matchesKnownFilters(params, before, readerId);
  const isIn = after !== undefined && matchesKnownFilters(params, after, readerId);
  const touched =
    wasIn !== isIn ||
    before === undefined ||
    after === undefined ||
    comparatorFor(params.sort)(before, after) !== 0 ||
    differs(before, after, opaqueFieldsOf(params, readerId));
  return (wasIn || isIn) && touched ? REFETCH : list;
}

const REFETCH = Symbol('refetch');
type Moved<T> = T | typeof REFETCH;

function update<T>(client: QueryClient, query: Query, stamp: Stamped, move: (data: T) => Moved<T>): void {
  // A late event (one held back by a process cut off from the others) or a read racing it.
  if (!movable(client, query, stamp)) return;
  const data = query.state.data as T | undefined;
  if (data === undefined) return;
  const moved = move(data);
  if (moved === REFETCH) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  else if (moved !== data) client.setQueryData(query.queryKey, moved);
}

/**
 * The filters this cache judges itself, with the protocol's predicate: status, priority, category, tag,
 * SLA state (on every staff copy), the assignee (`me` is this reader) and a requester named by name.
 * A search (the server also matches the requester's account) and a requester's email are the server's
 * call: opaqueFieldsOf names the fields they read.
 */
const matchesKnownFilters = (filters: TicketFilters, t: Ticket, readerId: number | null) =>
  ticketMatchesFilters(
    t,
    {
      ...filters,
      search: undefined,
      requester: undefined,
      ...(unknownReader(filters, readerId) && { assignee: undefined, mine: undefined }),
    },
    readerId,
  ) && requesterNameMatches(filters.requester, t.user.name) !== false;
/** `me` before the reader is known: whose tickets those are is not known here yet. */
const unknownReader = (filters: TicketFilters, readerId: number | null) => readerId === null && assigneeOf(filters) === 'me';
const opaqueFieldsOf = (filters: TicketFilters, readerId: number | null): (keyof Ticket)[] => [
  ...(filters.search ? (['title', 'description'] as const) : []),
  ...(unknownReader(filters, readerId) ? (['assignedAgent'] as const) : []),
  ...(requesterNameMatches(filters.requester, '') === undefined ? (['user'] as const) : []),
];
const differs = (a: Ticket, b: Ticket, fields: (keyof Ticket)[]) => fields.some((f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]));

/**
 * One cached page after the change, or REFETCH when it depends on rows this cache does not hold: a row
 * leaving a page that has more after it, a row moving in from or out to a neighbouring page, or
 * whether the ticket matches a search. A change that keeps the row where it was in the sort (every
 * status or priority change under the default newest-first order) never needs the server.
 */
export function movedPage(
  list: TicketListResponse,
  params: TicketQuery,
  before: Ticket | undefined,
  after: Ticket | undefined,
  readerId: number | null,
): Moved<TicketListResponse> {
  const order = comparatorFor(params.sort);
  const id = after?.id ?? before?.id;
  // The page and its spares: a row leaving the page is replaced from them, not from the server.
  const rows = rowsOf(list);
  const at = rows.findIndex((t) => t.id === id);
  const cached: Ticket | undefined = rows[at];
  const size = list.limit;
  const room = size + LIMITS.ticketList.spare;
  const first = (list.page - 1) * size;
  let total = list.total;
  let moreAfter = first + rows.length < total;

  const wasIn = cached !== undefined || (before !== undefined && matchesKnownFilters(params, before, readerId));
  const isIn = after !== undefined && matchesKnownFilters(params, after, readerId);
  if (!wasIn && !isIn) return list;
  const opaque = opaqueFieldsOf(params, readerId);
  /** The fields a search or assignee filter matches on did not change. */
  const opaqueKept = !before || !after || !differs(before, after, opaque);

  // Still on this page between the same neighbours: replaced where it is. The copy the page was
  // ordered by is the reference (`before` once the row holds this change already: the copies are
  // replaced first); past the page's edges only a move inwards is safe.
  if (cached && isIn && opaqueKept) {
    const incoming = newestCopy(cached, after);
    const reference = before && cached.version >= after.version ? before : cached;
    const previousRow = rows[at - 1];
    const nextRow = rows[at + 1];
    const stays =
      (previousRow ? order(previousRow, incoming) < 0 : list.page === 1 || order(reference, incoming) <= 0) &&
      (nextRow ? order(incoming, nextRow) < 0 : !moreAfter || order(incoming, reference) <= 0);
    if (stays)
      return incoming === cached
        ? list
        : withRows(
            list,
            rows.map((t) => (t.id === id ? incoming : t)),
            total,
          );
  }

  // Off this page a row stays out of sight if nothing it is filtered or sorted by changed.
  if (!cached && before && after && wasIn === isIn && opaqueKept && order(before, after) === 0) return list;
  // Only a row on this page is known to match a search, and keeps matching while the searched fields stay.
  if (opaque.length > 0 && (!cached || (isIn && !opaqueKept) || (isIn && !before))) return REFETCH;

  // The rows held stay the run that starts at the page's first row: a row lost from it shortens the
  // run at its end, where only the server knows what follows.
  const page = [...rows];

  if (wasIn) {
    total -= 1;
    if (cached) page.splice(at, 1);
    else if (before) {
      const place = placeOf(rows, before, order);
      if (place === 'inside' || (place === 'before' && list.page === 1)) return REFETCH;
      // Everything shifts up by one: this page's first row moves to the previous page.
      if (place === 'before') page.shift();
    }
    moreAfter = first + page.length < total;
  }

  if (isIn) {
    total += 1;
    const incoming = cached ? newestCopy(cached, after) : after;
    const pos = page.findIndex((t) => order(incoming, t) < 0);
    if (pos === 0 && list.page > 1) return REFETCH;
    if (pos === -1) {
      // After every row held: it continues the run only if nothing else could.
      if (!moreAfter && page.length < room) page.push(incoming);
    } else {
      page.splice(pos, 0, incoming);
      if (page.length > room) page.pop();
    }
  }
  // The spares ran out: the page itself is short of rows only the server holds.
  if (page.length < size && first + page.length < total) return REFETCH;
  return withRows(list, page, total);
}

function placeOf(rows: Ticket[], ticket: Ticket, order: (a: Ticket, b: Ticket) => number): 'before' | 'inside' | 'after' {
  const [head, tail] = [rows[0], rows.at(-1)];
  if (!head || !tail || order(ticket, tail) > 0) return 'after';
  return order(ticket, head) < 0 ? 'before' : 'inside';
}

/** The server's order for a sort (see db/queries/tickets.ts). */
function comparatorFor({ field, descending }: TicketSort): (a: Ticket, b: Ticket) => number {
  const direction = descending ? -1 : 1;
  return (a, b) => {
    if (field === 'slaDueAt') {
      // Tickets without an open deadline come last whichever the direction.
      const [dueA, dueB] = [slaDueAtOf(a.sla), slaDueAtOf(b.sla)];
      if (dueA !== dueB) return dueA === null ? 1 : dueB === null ? -1 : direction * compareText(dueA, dueB);
      return direction * Math.sign(a.id - b.id);
    }
    const key =
      field === 'priority'
        ? PRIORITIES.indexOf(a.priority) - PRIORITIES.indexOf(b.priority)
        : field === 'status'
          ? TICKET_STATUSES.indexOf(a.status) - TICKET_STATUSES.indexOf(b.status)
          : field === 'id'
            ? a.id - b.id
            : compareText(a[field], b[field]);
    if (key !== 0) return direction * Math.sign(key);
    // Equal priorities: newest first, whichever the direction; equal statuses follow the direction.
    if (field === 'priority') {
      const newest = compareText(b.createdAt, a.createdAt);
      if (newest !== 0) return newest;
    }
    if (field === 'status') {
      const created = compareText(a.createdAt, b.createdAt);
      if (created !== 0) return direction * created;
    }
    return direction * Math.sign(a.id - b.id);
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const COUNTED: (keyof TicketStats)[] = ['total', 'open', 'in_progress', 'pending', 'resolved', 'closed', 'urgent'];

/** The count cards after the change; the previous status and priority say which counts it leaves. */
export function movedCounts(
  response: TicketStatsResponse,
  filters: TicketFilters,
  before: Ticket | undefined,
  after: Ticket | undefined,
  readerId: number | null,
): Moved<TicketStatsResponse> {
  const wasCounted = before !== undefined && matchesKnownFilters(filters, before, readerId);
  const isCounted = after !== undefined && matchesKnownFilters(filters, after, readerId);
  if (!wasCounted && !isCounted) return response;
  const opaque = opaqueFieldsOf(filters, readerId);
  if (opaque.length > 0) {
    // Whether the ticket is counted at all is the server's call; unless nothing that counts changed.
    const unchanged =
      before && after && before.status === after.status && before.priority === after.priority && !differs(before, after, opaque);
    return unchanged ? response : REFETCH;
  }
  const stats = { ...response.stats };
  const add = (t: Ticket, n: number) => {
    stats.total += n;
    stats[t.status] += n;
    if (t.priority === 'urgent') stats.urgent += n;
  };
  if (wasCounted) add(before, -1);
  if (isCounted) add(after, 1);
  return COUNTED.every((k) => stats[k] === response.stats[k]) ? response : { ...response, stats };
}
