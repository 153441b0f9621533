import {
  DEFAULT_TICKET_QUERY,
  type Comment,
  type HistoryEntry,
  type Ticket,
  type TicketChangedEvent,
  type TicketFilters,
  type TicketListResponse,
  type TicketQuery,
  type TicketResponse,
  type TicketStats,
  type TicketStatsResponse,
} from '@helpdesk/protocol';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from './queryKeys';
import { noteReadAt, timed } from './readTimes';
import {
  applyCommentAdded,
  applyEmailStatus,
  applySlaChanged,
  applyTicketChanged,
  commentSaved,
  setLiveEchoes,
  setUnreadReader,
  ticketKeys,
  ticketOpened,
  ticketSaved,
  withRecentChanges,
} from './ticketCache';

/** Ticket n was created n hours into the day, so newest first is highest id first. */
const ticket = (id: number, overrides: Partial<Ticket> = {}): Ticket => ({
  id,
  title: `Ticket ${id}`,
  description: 'Something is broken here',
  priority: 'medium',
  category: 'general',
  status: 'open',
  resolutionNotes: null,
  user: { id: 7, name: 'Olive' },
  assignedAgent: null,
  updatedBy: null,
  commentCount: 0,
  answered: false,
  version: 1,
  createdAt: `2026-01-01T${String(id).padStart(2, '0')}:00:00.000Z`,
  updatedAt: `2026-01-01T${String(id).padStart(2, '0')}:00:00.000Z`,
  lastActivityAt: `2026-01-01T${String(id).padStart(2, '0')}:00:00.000Z`,
  ...overrides,
});
const by = { id: 2, name: 'Agent' };
const entry = (id: number, ticketId: number, overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id,
  ticketId,
  type: 'status',
  from: 'open',
  to: 'in_progress',
  actor: by,
  createdAt: '2026-01-02T00:00:00.000Z',
  ...overrides,
});
const comment = (id: number, ticketId: number): Comment => ({
  id,
  ticketId,
  content: 'On it',
  author: { id: 2, name: 'Agent', role: 'agent' },
  internal: false,
  attachments: [],
  createdAt: '2026-01-02T00:00:00.000Z',
});

const NO_STATS: TicketStats = { total: 0, open: 0, in_progress: 0, pending: 0, resolved: 0, closed: 0, urgent: 0 };
const countOf = (tickets: Ticket[]): TicketStats =>
  tickets.reduce(
    (s, t) => ({ ...s, total: s.total + 1, [t.status]: s[t.status] + 1, urgent: s.urgent + (t.priority === 'urgent' ? 1 : 0) }),
    NO_STATS,
  );

/** An update event computed from the ticket before and after, as the server sends it. */
function updated(
  before: Ticket,
  change: Partial<Ticket>,
  history: HistoryEntry[] = [],
): Extract<TicketChangedEvent, { action: 'updated' }> {
  const after = { ...before, ...change, version: before.version + 1, updatedAt: '2026-01-02T00:00:00.000Z' };
  const previous: Record<string, unknown> = {};
  for (const key of [
    'title',
    'description',
    'priority',
    'category',
    'status',
    'resolutionNotes',
    'assignedAgent',
    'updatedBy',
    'updatedAt',
    'lastActivityAt',
  ] as const) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return { action: 'updated', ticket: after, by, previous, history };
}

const listQuery = (change: Partial<TicketQuery>): TicketQuery => ({ ...DEFAULT_TICKET_QUERY, ...change });
/** The first page of three, newest first. */
const PAGE_ONE = listQuery({ limit: 3 });

/** A cache holding one page of `all` (sorted and filtered as the server would) and counts. */
function cacheWith(all: Ticket[], params: TicketQuery = PAGE_ONE, statsParams: TicketFilters = {}, spare = 0) {
  const client = new QueryClient();
  const listed = serverPage(all, params, spare);
  client.setQueryData(ticketKeys.list(params), listed);
  client.setQueryData<TicketStatsResponse>(ticketKeys.statsFor(statsParams), {
    success: true,
    stats: countOf(all.filter((t) => matches(t, statsParams))),
  });
  return client;
}
const matches = (t: Ticket, f: TicketFilters) =>
  (!f.status || t.status === f.status) &&
  (!f.priority || t.priority === f.priority) &&
  (!f.category || t.category === f.category) &&
  (!f.sla || t.sla?.state === f.sla);
/** What GET /tickets answers for these tickets (only createdAt sorting, as the tests use), with `spare` rows after the page. */
function serverPage(all: Ticket[], params: TicketQuery, spare = 0): TicketListResponse {
  const sorted = all.filter((t) => matches(t, params)).sort((a, b) => (params.sort.descending ? b.id - a.id : a.id - b.id));
  const { page, limit } = params;
  const rows = sorted.slice((page - 1) * limit, page * limit);
  const next = sorted.slice(page * limit, page * limit + spare);
  return { success: true, tickets: rows, data: rows, total: sorted.length, page, limit, next };
}
/** A first page holding exactly these rows, as many as its limit, with nothing after them. */
const firstPageOf = (rows: Ticket[]): TicketListResponse => ({
  success: true,
  tickets: rows,
  data: rows,
  total: rows.length,
  page: 1,
  limit: rows.length,
  next: [],
});
const listOf = (client: QueryClient, params: TicketQuery) => client.getQueryData<TicketListResponse>(ticketKeys.list(params));
const statsOf = (client: QueryClient, params: TicketFilters = {}) =>
  client.getQueryData<TicketStatsResponse>(ticketKeys.statsFor(params))?.stats;
const refetching = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated === true;
const ids = (list: TicketListResponse | undefined) => list?.data.map((t) => t.id);

describe('ticket cache: events', () => {
  const five = [1, 2, 3, 4, 5].map((id) => ticket(id));

  it('moves a status change on the default page without asking the server: row, counts, open ticket and timeline', () => {
    const client = cacheWith(five);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...five[4]!, comments: [], attachments: [], history: [entry(1, 5, { type: 'created', from: null, to: 'open' })] },
    });
    applyTicketChanged(client, updated(five[4]!, { status: 'in_progress', priority: 'urgent' }, [entry(2, 5)]));

    const list = listOf(client, PAGE_ONE);
    expect(list?.data.map((t) => [t.id, t.status])).toEqual([
      [5, 'in_progress'],
      [4, 'open'],
      [3, 'open'],
    ]);
    expect(list?.tickets).toEqual(list?.data);
    expect(list?.total).toBe(5);
    expect(statsOf(client)).toEqual({ total: 5, open: 4, in_progress: 1, pending: 0, resolved: 0, closed: 0, urgent: 1 });
    const detail = client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket;
    expect(detail).toMatchObject({ status: 'in_progress', version: 2 });
    expect(detail?.history.map((h) => h.id)).toEqual([1, 2]);
    for (const key of [ticketKeys.list(PAGE_ONE), ticketKeys.statsFor({}), ticketKeys.detail(5)])
      expect(refetching(client, key)).toBe(false);
  });

  it('keeps a requester panel from the events: a new ticket first, a change in place, a deletion out, without asking', () => {
    const client = cacheWith(five);
    const panel = (userId: number) => queryKeys.desk.requesterTickets(userId);
    const panelIds = (userId: number) => client.getQueryData<{ tickets: Ticket[] }>(panel(userId))?.tickets.map((t) => [t.id, t.status]);
    const requester = { id: 1, name: 'Olive', email: 'olive@example.com', createdAt: '2026-01-01T00:00:00.000Z' };
    client.setQueryData(panel(7), { success: true, requester, tickets: [...five].reverse() });
    client.setQueryData(panel(8), { success: true, requester, tickets: [] });
    applyTicketChanged(client, updated(five[0]!, { status: 'resolved' }));
    applyTicketChanged(client, { action: 'created', ticket: ticket(6), by });
    applyTicketChanged(client, { action: 'deleted', ticket: { id: 2 }, by, previous: five[1]! });
    expect(panelIds(7)).toEqual([
      [6, 'open'],
      [5, 'open'],
      [4, 'open'],
      [3, 'open'],
      [1, 'resolved'],
    ]);
    expect(panelIds(8)).toEqual([]);
    for (const userId of [7, 8]) expect(refetching(client, panel(userId))).toBe(false);

    // A full panel that loses a ticket is short of the one that comes into it: only the server has it.
    const ten = Array.from({ length: 10 }, (_, i) => ticket(20 - i));
    client.setQueryData(panel(7), { success: true, requester, tickets: ten });
    applyTicketChanged(client, { action: 'created', ticket: ticket(21), by });
    expect(panelIds(7)?.map(([id]) => id)).toEqual([21, ...ten.slice(0, 9).map((t) => t.id)]);
    applyTicketChanged(client, { action: 'deleted', ticket: { id: 15 }, by, previous: ticket(15) });
    expect(refetching(client, panel(7))).toBe(true);
  });

  it('also moves the counts for a ticket that is on no cached page', () => {
    const client = cacheWith(five);
    applyTicketChanged(client, updated(five[0]!, { status: 'resolved' }));
    expect(ids(listOf(client, PAGE_ONE))).toEqual([5, 4, 3]);
    expect(statsOf(client)).toMatchObject({ open: 4, resolved: 1, total: 5 });
    expect(refetching(client, ticketKeys.list(PAGE_ONE))).toBe(false);
  });

  it('applies an event once: the same version again, or an older one, changes nothing', () => {
    const client = cacheWith(five);
    const first = updated(five[4]!, { status: 'in_progress' });
    applyTicketChanged(client, first);
    applyTicketChanged(client, first);
    const stale = updated(five[4]!, { status: 'resolved' }); // version 2 again, from another writer's view
    applyTicketChanged(client, stale);
    expect(listOf(client, PAGE_ONE)?.data[0]?.status).toBe('in_progress');
    expect(statsOf(client)).toMatchObject({ open: 4, in_progress: 1, resolved: 0 });
  });

  it('removes a ticket leaving a filtered last page, and re-reads a page that a row from the next page would fill', () => {
    const params = listQuery({ status: 'open', page: 1, limit: 3 });
    const last = cacheWith(five.slice(0, 3), params);
    applyTicketChanged(last, updated(five[2]!, { status: 'resolved' }));
    expect(ids(listOf(last, params))).toEqual([2, 1]);
    expect(listOf(last, params)?.total).toBe(2);
    expect(refetching(last, ticketKeys.list(params))).toBe(false);

    const full = cacheWith(five, params);
    applyTicketChanged(full, updated(five[4]!, { status: 'resolved' }));
    expect(refetching(full, ticketKeys.list(params))).toBe(true);
  });

  it('fills the gap a leaving or deleted row opens from the spare rows, and re-reads only once they run out', () => {
    const many = Array.from({ length: 12 }, (_, i) => ticket(i + 1));
    const params = listQuery({ status: 'open', limit: 3 });
    const client = cacheWith(many, params, {}, 2);
    // Page 12, 11, 10 with spares 9, 8.
    applyTicketChanged(client, updated(many[10]!, { status: 'resolved' }));
    expect(ids(listOf(client, params))).toEqual([12, 10, 9]);
    expect(listOf(client, params)?.next.map((t) => t.id)).toEqual([8]);
    expect(listOf(client, params)?.total).toBe(11);
    applyTicketChanged(client, { action: 'deleted', ticket: { id: 12 }, by, previous: many[11]! });
    expect(ids(listOf(client, params))).toEqual([10, 9, 8]);
    expect(listOf(client, params)?.total).toBe(10);
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
    // As a fresh read would answer.
    const fresh = serverPage(
      many.filter((t) => t.id !== 12 && t.id !== 11),
      params,
    );
    expect(ids(listOf(client, params))).toEqual(ids(fresh));
    // A row entering pushes the page's last row back into the spares.
    applyTicketChanged(client, updated({ ...many[10]!, status: 'resolved', version: 2 }, { status: 'open' }));
    expect(ids(listOf(client, params))).toEqual([11, 10, 9]);
    expect(listOf(client, params)?.next.map((t) => t.id)).toEqual([8]);
    // With the spares gone, the page cannot be filled here.
    applyTicketChanged(client, { action: 'deleted', ticket: { id: 11 }, by, previous: many[10]! });
    applyTicketChanged(client, { action: 'deleted', ticket: { id: 10 }, by, previous: many[9]! });
    expect(refetching(client, ticketKeys.list(params))).toBe(true);
  });

  it('lowers the total without a re-read when the leaving ticket is further down the order', () => {
    const params = listQuery({ status: 'open', page: 1, limit: 3 });
    const client = cacheWith(five, params);
    applyTicketChanged(client, updated(five[0]!, { status: 'resolved' }));
    expect(ids(listOf(client, params))).toEqual([5, 4, 3]);
    expect(listOf(client, params)?.total).toBe(4);
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
  });

  it('puts a ticket entering a filtered first page in its place, pushing the last row to the next page', () => {
    const params = listQuery({ status: 'open', page: 1, limit: 3 });
    const all = [ticket(1), ticket(2), ticket(3, { status: 'resolved' }), ticket(4), ticket(5)];
    const client = cacheWith(all, params, { status: 'open' });
    applyTicketChanged(client, updated(all[2]!, { status: 'open' }));
    expect(ids(listOf(client, params))).toEqual([5, 4, 3]);
    expect(listOf(client, params)?.total).toBe(5);
    expect(statsOf(client, { status: 'open' })).toMatchObject({ total: 5, open: 5 });
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
  });

  it('moves a category change out of one category page and into another, counts included, without asking', () => {
    const all = [
      ticket(1, { category: 'billing' }),
      ticket(2),
      ticket(3, { category: 'billing' }),
      ticket(4),
      ticket(5, { category: 'billing' }),
    ];
    const billing = listQuery({ category: 'billing', limit: 3 });
    const general = listQuery({ category: 'general', limit: 3 });
    const client = cacheWith(all, billing, { category: 'billing' });
    client.setQueryData(ticketKeys.list(general), serverPage(all, general));
    applyTicketChanged(client, updated(all[2]!, { category: 'general' }));
    expect(ids(listOf(client, billing))).toEqual([5, 1]);
    expect(listOf(client, billing)?.total).toBe(2);
    expect(statsOf(client, { category: 'billing' })).toMatchObject({ total: 2, open: 2 });
    expect(ids(listOf(client, general))).toEqual([4, 3, 2]);
    expect(listOf(client, general)?.total).toBe(3);
    expect(refetching(client, ticketKeys.list(billing))).toBe(false);
    expect(refetching(client, ticketKeys.list(general))).toBe(false);
  });

  it('re-reads a later page when a row may come in from the page before it', () => {
    const params = listQuery({ status: 'open', page: 2, limit: 2 });
    const all = [ticket(1), ticket(2), ticket(3), ticket(4, { status: 'resolved' }), ticket(5)];
    const client = cacheWith(all, params);
    expect(ids(listOf(client, params))).toEqual([2, 1]);
    applyTicketChanged(client, updated(all[3]!, { status: 'open' }));
    expect(refetching(client, ticketKeys.list(params))).toBe(true);
  });

  it('leaves a searched page alone unless what the search matches, or the row, is in question', () => {
    const params = listQuery({ search: 'printer', page: 1, limit: 3 });
    const client = cacheWith(five, params, { search: 'printer' });
    // On the page, and its title stays: it still matches.
    applyTicketChanged(client, updated(five[4]!, { status: 'in_progress' }));
    expect(listOf(client, params)?.data[0]?.status).toBe('in_progress');
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
    // The counts under a search are the server's to say once a counted field moves.
    expect(refetching(client, ticketKeys.statsFor({ search: 'printer' }))).toBe(true);

    const edited = cacheWith(five, params);
    applyTicketChanged(edited, updated(five[4]!, { title: 'Scanner jammed' }));
    expect(refetching(edited, ticketKeys.list(params))).toBe(true);

    const created = cacheWith(five, params);
    applyTicketChanged(created, { action: 'created', ticket: ticket(6), by });
    expect(refetching(created, ticketKeys.list(params))).toBe(true);
  });

  it('judges a tag, an assignee and a requester by name itself: nothing enters a page it does not belong on, nothing is re-read', () => {
    const me = 2;
    const mine = { id: me, name: 'Agent' };
    const cases: { filters: TicketFilters; held: (id: number) => Ticket; outsider: Ticket; insider: Ticket }[] = [
      {
        filters: { tag: 'vip' },
        held: (id) => ticket(id, { tags: ['vip'] }),
        outsider: ticket(6, { tags: [] }),
        insider: ticket(7, { tags: ['vip'] }),
      },
      {
        filters: { assignee: 'me' },
        held: (id) => ticket(id, { assignedAgent: mine }),
        outsider: ticket(6),
        insider: ticket(7, { assignedAgent: mine }),
      },
      {
        filters: { assignee: 'none' },
        held: (id) => ticket(id),
        outsider: ticket(6, { assignedAgent: { id: 9, name: 'Other' } }),
        insider: ticket(7),
      },
      {
        filters: { requester: 'oli' },
        held: (id) => ticket(id),
        outsider: ticket(6, { user: { id: 8, name: 'Peter' } }),
        insider: ticket(7, { user: { id: 7, name: 'Olive' } }),
      },
    ];
    for (const { filters, held, outsider, insider } of cases) {
      const params = listQuery({ ...filters, limit: 3 });
      const rows = [3, 2, 1].map(held);
      const client = new QueryClient();
      setUnreadReader(client, me);
      client.setQueryData(ticketKeys.list(params), firstPageOf(rows));
      client.setQueryData<TicketStatsResponse>(ticketKeys.statsFor(filters), { success: true, stats: countOf(rows) });
      const what = JSON.stringify(filters);

      applyTicketChanged(client, { action: 'created', ticket: outsider, by });
      expect(ids(listOf(client, params)), what).toEqual([3, 2, 1]);
      expect(statsOf(client, filters)?.total, what).toBe(3);
      applyTicketChanged(client, { action: 'created', ticket: insider, by });
      expect(ids(listOf(client, params)), what).toEqual([7, 3, 2]);
      expect(statsOf(client, filters)?.total, what).toBe(4);
      for (const key of [ticketKeys.list(params), ticketKeys.statsFor(filters)]) expect(refetching(client, key), what).toBe(false);
    }
  });

  it('takes the unread mark off a ticket opened, and re-reads the is:unread lists that held it', () => {
    const unreadOnly = listQuery({ search: 'is:unread', limit: 3 });
    const client = new QueryClient();
    setUnreadReader(client, 9);
    const rows = [3, 2, 1].map((id) => ticket(id, { unread: true }));
    client.setQueryData(ticketKeys.list(PAGE_ONE), firstPageOf(rows));
    client.setQueryData(ticketKeys.list(unreadOnly), firstPageOf(rows));
    ticketOpened(client, 2);
    for (const params of [PAGE_ONE, unreadOnly]) expect(listOf(client, params)?.data.map((t) => t.unread)).toEqual([true, false, true]);
    expect(refetching(client, ticketKeys.list(PAGE_ONE))).toBe(false);
    expect(refetching(client, ticketKeys.list(unreadOnly))).toBe(true);
  });

  it('re-reads a page filtered by a requester email for a ticket it holds no copy of: the email is not on the ticket', () => {
    const params = listQuery({ requester: 'olive@example.com', limit: 3 });
    const client = cacheWith(five, params);
    applyTicketChanged(client, updated(five[4]!, { status: 'pending' }));
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
    applyTicketChanged(client, { action: 'created', ticket: ticket(6), by });
    expect(refetching(client, ticketKeys.list(params))).toBe(true);
  });

  it('puts a created ticket at the top of the newest-first page, counts it, and re-reads later pages', () => {
    const client = cacheWith(five);
    client.setQueryData(ticketKeys.list(listQuery({ page: 2, limit: 3 })), serverPage(five, listQuery({ page: 2, limit: 3 })));
    applyTicketChanged(client, { action: 'created', ticket: ticket(6, { priority: 'urgent' }), by });
    expect(ids(listOf(client, PAGE_ONE))).toEqual([6, 5, 4]);
    expect(listOf(client, PAGE_ONE)?.total).toBe(6);
    expect(statsOf(client)).toMatchObject({ total: 6, open: 6, urgent: 1 });
    expect(refetching(client, ticketKeys.list(PAGE_ONE))).toBe(false);
    expect(refetching(client, ticketKeys.list(listQuery({ page: 2, limit: 3 })))).toBe(true);
  });

  it('appends a created ticket to the last page of an oldest-first list', () => {
    const params = listQuery({ sort: { field: 'createdAt', descending: false }, limit: 10 });
    const client = cacheWith(five, params);
    applyTicketChanged(client, { action: 'created', ticket: ticket(6), by });
    expect(ids(listOf(client, params))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
  });

  it('moves a recently-updated ticket to the top of the first page', () => {
    const params = listQuery({ sort: { field: 'updatedAt', descending: true }, limit: 3 });
    const client = cacheWith(five, params);
    applyTicketChanged(client, updated(five[0]!, { priority: 'high' }));
    expect(ids(listOf(client, params))).toEqual([1, 5, 4]);
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
  });

  it('removes a deleted ticket, its counts and the open ticket; a page that loses a row with more after it is re-read', () => {
    const small = cacheWith(five, listQuery({ limit: 10 }));
    small.setQueryData<TicketResponse>(ticketKeys.detail(3), {
      success: true,
      ticket: { ...five[2]!, comments: [], attachments: [], history: [] },
    });
    applyTicketChanged(small, { action: 'deleted', ticket: { id: 3 }, by, previous: five[2]! });
    expect(ids(listOf(small, listQuery({ limit: 10 })))).toEqual([5, 4, 2, 1]);
    expect(listOf(small, listQuery({ limit: 10 }))?.total).toBe(4);
    expect(statsOf(small)).toMatchObject({ total: 4, open: 4 });
    expect(small.getQueryData(ticketKeys.detail(3))).toBeUndefined();
    // A late update of the deleted ticket cannot bring it back.
    applyTicketChanged(small, updated(five[2]!, { status: 'resolved' }));
    expect(ids(listOf(small, listQuery({ limit: 10 })))).toEqual([5, 4, 2, 1]);

    const paged = cacheWith(five);
    applyTicketChanged(paged, { action: 'deleted', ticket: { id: 5 }, by, previous: five[4]! });
    expect(refetching(paged, ticketKeys.list(PAGE_ONE))).toBe(true);
  });

  it('reads a query again after a read that was in flight when events came: that read may predate them', async () => {
    const client = cacheWith(five);
    let reads = 0;
    const observer = new QueryObserver(client, {
      queryKey: ticketKeys.statsFor({}),
      queryFn: async () => {
        reads++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { success: true as const, stats: countOf(five) };
      },
      staleTime: Infinity,
    });
    const stop = observer.subscribe(() => undefined);
    void observer.refetch();
    expect(client.getQueryState(ticketKeys.statsFor({}))?.fetchStatus).toBe('fetching');
    applyTicketChanged(client, updated(five[4]!, { status: 'in_progress' }));
    applyTicketChanged(client, updated(five[3]!, { status: 'resolved' }));
    await vi.waitFor(() => expect(reads).toBe(2));
    await vi.waitFor(() => expect(client.getQueryState(ticketKeys.statsFor({}))?.fetchStatus).toBe('idle'));
    // One more read after the one in flight, which was left to finish, however many events came meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toBe(2);
    stop();
  });

  it('comment-added appends once to the open ticket with its timeline entry, and counts it once on the row', () => {
    const client = cacheWith(five);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...five[4]!, comments: [], attachments: [], history: [] },
    });
    const event = { ticketId: 5, comment: comment(9, 5), history: entry(3, 5, { type: 'comment', from: null, to: '9' }), commentCount: 1 };
    applyCommentAdded(client, event);
    applyCommentAdded(client, event);
    const detail = client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket;
    expect(detail?.comments.map((c) => c.id)).toEqual([9]);
    expect(detail?.commentCount).toBe(1);
    expect(detail?.history.map((h) => h.type)).toEqual(['comment']);
    expect(listOf(client, PAGE_ONE)?.data[0]?.commentCount).toBe(1);
  });

  it('brings a changed ticket held nowhere to the top of the last-activity page, by where it was before', () => {
    const byActivity = listQuery({ limit: 3, sort: { field: 'lastActivityAt', descending: true } });
    const client = new QueryClient();
    client.setQueryData(ticketKeys.list(byActivity), { ...firstPageOf([five[4]!, five[3]!, five[2]!]), total: 5 });
    // Ticket 1, on no page held here, was last active before all of them; now it is the latest.
    applyTicketChanged(client, updated(five[0]!, { status: 'pending', lastActivityAt: '2026-01-02T00:00:00.000Z' }));
    expect(ids(listOf(client, byActivity))).toEqual([1, 5, 4]);
    expect(listOf(client, byActivity)?.total).toBe(5);
    expect(refetching(client, ticketKeys.list(byActivity))).toBe(false);
  });

  it('re-reads a later page whose first row a change moves onto an earlier page', () => {
    const byActivity = listQuery({ limit: 3, sort: { field: 'lastActivityAt', descending: true } });
    const pageTwo = { ...byActivity, page: 2 };
    const client = new QueryClient();
    client.setQueryData(ticketKeys.list(pageTwo), { ...firstPageOf([five[1]!, five[0]!]), page: 2, limit: 3, total: 5 });
    applyTicketChanged(client, updated(five[1]!, { priority: 'high', lastActivityAt: '2026-01-02T00:00:00.000Z' }));
    expect(refetching(client, ticketKeys.list(pageTwo))).toBe(true);
  });

  it('moves a commented ticket to the top of the last-activity page without asking; one held nowhere is read', () => {
    const byActivity = listQuery({ limit: 3, sort: { field: 'lastActivityAt', descending: true } });
    const client = new QueryClient();
    // Ticket 1 is held (on the next page, read too); the first page shows 5, 4, 3.
    client.setQueryData(ticketKeys.list(byActivity), { ...firstPageOf([five[4]!, five[3]!, five[2]!]), total: 5 });
    client.setQueryData(ticketKeys.list({ ...byActivity, page: 2 }), { ...firstPageOf([five[1]!, five[0]!]), page: 2, limit: 3, total: 5 });
    const at = '2026-01-02T00:00:00.000Z';
    applyCommentAdded(client, {
      ticketId: 1,
      comment: { ...comment(9, 1), createdAt: at },
      history: entry(3, 1, { type: 'comment' }),
      commentCount: 1,
    });
    expect(ids(listOf(client, byActivity))).toEqual([1, 5, 4]);
    expect(listOf(client, byActivity)?.data[0]).toMatchObject({ commentCount: 1, lastActivityAt: at });
    expect(refetching(client, ticketKeys.list(byActivity))).toBe(false);
    // Held nowhere: its row can only come from the server.
    applyCommentAdded(client, { ticketId: 42, comment: comment(10, 42), history: entry(4, 42, { type: 'comment' }), commentCount: 1 });
    expect(refetching(client, ticketKeys.list(byActivity))).toBe(true);
  });

  it("a note moves staff's note count once and never the conversation's", () => {
    const client = cacheWith(five);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...five[4]!, comments: [], attachments: [], history: [], noteCount: 2 },
    });
    const note = { ...comment(9, 5), internal: true };
    const event = {
      ticketId: 5,
      comment: note,
      history: entry(3, 5, { type: 'comment', from: null, to: '9' }),
      commentCount: 0,
    };
    applyCommentAdded(client, event);
    applyCommentAdded(client, event);
    const detail = client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket;
    expect(detail?.noteCount).toBe(3);
    expect(detail?.commentCount).toBe(0);
  });

  it('email-status marks the reply on the open ticket; a late queued never undoes sent', () => {
    const client = cacheWith(five);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...five[4]!, comments: [comment(9, 5)], attachments: [], history: [] },
    });
    const statusOf = () => client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket.comments[0]?.emailStatus;
    expect(statusOf()).toBeUndefined();
    applyEmailStatus(client, { ticketId: 5, commentId: 9, status: 'queued' });
    expect(statusOf()).toBe('queued');
    applyEmailStatus(client, { ticketId: 5, commentId: 9, status: 'sent' });
    expect(statusOf()).toBe('sent');
    applyEmailStatus(client, { ticketId: 5, commentId: 9, status: 'queued' });
    expect(statusOf()).toBe('sent');
    applyEmailStatus(client, { ticketId: 5, commentId: 9, status: 'bounced' });
    expect(statusOf()).toBe('bounced');
    // Another comment or ticket is left alone.
    applyEmailStatus(client, { ticketId: 5, commentId: 10, status: 'failed' });
    applyEmailStatus(client, { ticketId: 4, commentId: 9, status: 'failed' });
    expect(statusOf()).toBe('bounced');
  });
});

describe('ticket cache: events that come late or out of order', () => {
  const five = [1, 2, 3, 4, 5].map((id) => ticket(id));

  it('adds up versions of one ticket that arrive out of order to the same counts', () => {
    const client = cacheWith(five);
    const second = updated(five[4]!, { status: 'in_progress' });
    const third = updated(second.ticket, { status: 'resolved', priority: 'urgent' });
    // The third version reached this tab first: the second was held back by a process cut from Redis.
    applyTicketChanged(client, third);
    applyTicketChanged(client, second);
    applyTicketChanged(client, second);
    expect(statsOf(client)).toEqual({ total: 5, open: 4, in_progress: 0, pending: 0, resolved: 1, closed: 0, urgent: 1 });
    expect(listOf(client, PAGE_ONE)?.data[0]).toMatchObject({ status: 'resolved', version: 3 });
    // A created event behind the ticket's first update counts it once too.
    const sixth = ticket(6);
    applyTicketChanged(client, updated(sixth, { priority: 'high' }));
    applyTicketChanged(client, { action: 'created', ticket: sixth, by });
    expect(statsOf(client)).toMatchObject({ total: 6, open: 5 });
  });

  it('re-reads a filtered page that a late version moves into or out of, and only that', () => {
    // Oldest first: ticket 5 is on no page held, and only its late version says it left the open ones.
    const params = listQuery({ status: 'open', limit: 3, sort: { field: 'createdAt', descending: false } });
    const client = cacheWith(five, params);
    client.setQueryData(ticketKeys.list(PAGE_ONE), serverPage(five, PAGE_ONE));
    const second = updated(five[4]!, { status: 'resolved' });
    const third = updated(second.ticket, { priority: 'high' });
    applyTicketChanged(client, third);
    expect(refetching(client, ticketKeys.list(params))).toBe(false);
    applyTicketChanged(client, second);
    expect(refetching(client, ticketKeys.list(params))).toBe(true);
    expect(refetching(client, ticketKeys.list(PAGE_ONE))).toBe(false);
    expect(listOf(client, PAGE_ONE)?.data[0]).toMatchObject({ status: 'resolved', priority: 'high', version: 3 });
  });

  it('leaves an event out of data read after it was announced, and applies it to data read before', async () => {
    const client = new QueryClient();
    const announced = Date.parse('2026-01-02T10:00:00.000Z');
    const readAt = (time: number) => {
      const answer = { success: true as const, stats: countOf(five) };
      noteReadAt(answer, String(time));
      return answer;
    };
    const read = (filters: TicketFilters, time: number) =>
      client.query({ queryKey: ticketKeys.statsFor(filters), queryFn: timed(() => Promise.resolve(readAt(time))) });
    await read({ priority: 'medium' }, announced + 1);
    await read({}, announced - 1);
    // Announced at 10:00 by a process that was cut off from this tab's; replayed now.
    applyTicketChanged(client, { ...updated(five[4]!, { status: 'in_progress' }), at: announced });
    expect(statsOf(client, { priority: 'medium' })).toMatchObject({ open: 5, in_progress: 0 });
    expect(statsOf(client)).toMatchObject({ open: 4, in_progress: 1 });
  });

  it('reads counts again, not moving them, when their read ended after the commit was asked for', async () => {
    const client = new QueryClient();
    const committing = Date.parse('2026-01-02T10:00:00.000Z');
    const read = (filters: TicketFilters, began: number, ended: number) =>
      client.query({
        queryKey: ticketKeys.statsFor(filters),
        queryFn: timed(() => {
          const answer = { success: true as const, stats: countOf(five) };
          noteReadAt(answer, String(began), String(ended));
          return Promise.resolve(answer);
        }),
      });
    // One read ended while the change was committing: it may hold it. The other ended before.
    await read({}, committing - 30, committing + 10);
    await read({ priority: 'medium' }, committing - 30, committing - 1);
    // Announced (held back by a process cut off from the others) well after both reads landed.
    applyTicketChanged(client, { ...updated(five[4]!, { status: 'in_progress' }), at: committing + 900, committing });
    expect(statsOf(client)).toMatchObject({ open: 5, in_progress: 0 });
    expect(client.getQueryState(ticketKeys.statsFor({}))?.isInvalidated).toBe(true);
    expect(statsOf(client, { priority: 'medium' })).toMatchObject({ open: 4, in_progress: 1 });
  });

  it('adds to a read on its way what was announced after the server began it', async () => {
    const client = new QueryClient();
    const began = Date.parse('2026-01-02T10:00:00.000Z');
    const answers: Array<(answer: object) => void> = [];
    const slowRead = <T extends TicketListResponse | TicketResponse>(key: readonly unknown[]) =>
      client.query({
        queryKey: key,
        queryFn: timed(
          () =>
            new Promise<T>((resolve) =>
              answers.push((answer) => {
                noteReadAt(answer, String(began));
                resolve(answer as T);
              }),
            ),
          withRecentChanges,
        ),
      });
    const detail = slowRead<TicketResponse>(ticketKeys.detail(5));
    const list = slowRead<TicketListResponse>(ticketKeys.list(PAGE_ONE));
    // While both are on their way (a re-read after a reconnect), a change and a reply are announced.
    const change = updated(five[4]!, { status: 'in_progress' }, [entry(2, 5)]);
    applyTicketChanged(client, { ...change, at: began + 5 });
    applyCommentAdded(client, {
      ticketId: 5,
      comment: { ...comment(9, 5), createdAt: '2026-01-02T10:00:00.005Z' },
      history: entry(3, 5, { type: 'comment', from: null, to: '9', createdAt: '2026-01-02T10:00:00.005Z' }),
      commentCount: 1,
      at: began + 6,
    });
    // An older reply, announced before the reads began: they hold it already.
    applyCommentAdded(client, { ticketId: 5, comment: comment(8, 5), history: entry(1, 5), commentCount: 1, at: began - 50 });
    answers[0]!({ success: true, ticket: { ...five[4]!, comments: [], attachments: [], history: [] } });
    answers[1]!(serverPage(five, PAGE_ONE));
    const [held, rows] = await Promise.all([detail, list]);
    expect(held.ticket).toMatchObject({ status: 'in_progress', version: 2, commentCount: 1 });
    expect(held.ticket.comments.map((c) => c.id)).toEqual([9]);
    expect(held.ticket.history.map((h) => h.id)).toEqual([2, 3]);
    expect(rows.data[0]).toMatchObject({ id: 5, status: 'in_progress', commentCount: 1, lastActivityAt: '2026-01-02T10:00:00.005Z' });
  });

  it("keeps a row's comment count and last activity from going back for a late comment", () => {
    const row = ticket(5, { commentCount: 3, lastActivityAt: '2026-01-03T00:00:00.000Z' });
    const client = cacheWith([...five.slice(0, 4), row]);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...row, comments: [], attachments: [], history: [] },
    });
    // The second comment, written yesterday, replayed after the third was already counted.
    applyCommentAdded(client, {
      ticketId: 5,
      comment: { ...comment(9, 5), createdAt: '2026-01-02T00:00:00.000Z' },
      history: entry(3, 5, { type: 'comment', from: null, to: '9' }),
      commentCount: 2,
    });
    expect(listOf(client, PAGE_ONE)?.data[0]).toMatchObject({ commentCount: 3, lastActivityAt: '2026-01-03T00:00:00.000Z' });
    expect(client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket.commentCount).toBe(3);
    // A newer version of the ticket, presented before the comments counted here, keeps the higher count.
    applyTicketChanged(client, updated({ ...row, commentCount: 1 }, { status: 'in_progress' }));
    expect(listOf(client, PAGE_ONE)?.data[0]).toMatchObject({ status: 'in_progress', commentCount: 3 });
  });
});

describe('ticket cache: this tab\u2019s own answers', () => {
  const five = [1, 2, 3, 4, 5].map((id) => ticket(id));

  it('with a live socket, the answer writes the row and the echo moves the counts, each once', () => {
    const client = cacheWith(five);
    setLiveEchoes(client, true);
    const echo = updated(five[4]!, { status: 'in_progress' });
    void ticketSaved(client, echo.ticket);
    expect(listOf(client, PAGE_ONE)?.data[0]?.status).toBe('in_progress');
    expect(statsOf(client)).toMatchObject({ open: 5, in_progress: 0 });
    applyTicketChanged(client, echo);
    expect(statsOf(client)).toMatchObject({ open: 4, in_progress: 1 });
    // The answer arriving after its echo changes nothing either.
    void ticketSaved(client, echo.ticket);
    expect(statsOf(client)).toMatchObject({ open: 4, in_progress: 1 });
    for (const key of [ticketKeys.list(PAGE_ONE), ticketKeys.statsFor({})]) expect(refetching(client, key)).toBe(false);
  });

  it('never puts back an older copy over a newer one', () => {
    const client = cacheWith(five);
    setLiveEchoes(client, true);
    const second = updated(five[4]!, { status: 'in_progress' });
    const third = updated(second.ticket, { status: 'resolved' });
    void ticketSaved(client, third.ticket);
    void ticketSaved(client, second.ticket);
    expect(listOf(client, PAGE_ONE)?.data[0]).toMatchObject({ status: 'resolved', version: 3 });
  });

  it('without a live socket, the answer re-reads what its echo would have brought', () => {
    const client = cacheWith(five);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...five[4]!, comments: [], attachments: [], history: [] },
    });
    void ticketSaved(client, updated(five[4]!, { status: 'in_progress' }).ticket);
    expect(client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket.status).toBe('in_progress');
    for (const key of [ticketKeys.list(PAGE_ONE), ticketKeys.statsFor({}), ticketKeys.detail(5)])
      expect(refetching(client, key)).toBe(true);
  });

  it('a saved comment shows at once; its echo adds the timeline entry and the row count without a second copy', () => {
    const client = cacheWith(five);
    setLiveEchoes(client, true);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...five[4]!, comments: [], attachments: [], history: [] },
    });
    void commentSaved(client, 5, comment(9, 5));
    expect(client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket.comments.map((c) => c.id)).toEqual([9]);
    applyCommentAdded(client, {
      ticketId: 5,
      comment: comment(9, 5),
      history: entry(3, 5, { type: 'comment', from: null, to: '9' }),
      commentCount: 1,
    });
    const detail = client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket;
    expect(detail?.comments).toHaveLength(1);
    expect(detail?.history).toHaveLength(1);
    expect(listOf(client, PAGE_ONE)?.data[0]?.commentCount).toBe(1);
    expect(refetching(client, ticketKeys.detail(5))).toBe(false);
  });
});

describe('ticket cache: sla-changed', () => {
  const sla = (state: NonNullable<Ticket['sla']>['state']): NonNullable<Ticket['sla']> => ({
    policyId: 1,
    firstResponseDueAt: '2026-01-02T09:30:00.000Z',
    resolutionDueAt: '2026-01-03T09:30:00.000Z',
    firstRespondedAt: null,
    state,
  });
  const five = [1, 2, 3, 4, 5].map((id) => ticket(id, { sla: sla('ok') }));
  const slaEntry = entry(7, 5, { type: 'sla', from: 'first_response', to: 'warning' });

  it('changes the row and the open ticket, adds the timeline entry, and applies once', () => {
    const client = cacheWith(five);
    client.setQueryData<TicketResponse>(ticketKeys.detail(5), {
      success: true,
      ticket: { ...five[4]!, comments: [], attachments: [], history: [] },
    });
    const event = { ticketId: 5, sla: sla('warning'), version: 1, history: [slaEntry] };
    applySlaChanged(client, event);
    applySlaChanged(client, event);
    expect(listOf(client, PAGE_ONE)?.data[0]?.sla?.state).toBe('warning');
    const detail = client.getQueryData<TicketResponse>(ticketKeys.detail(5))?.ticket;
    expect(detail?.sla?.state).toBe('warning');
    expect(detail?.history.map((h) => h.id)).toEqual([7]);
  });

  it('leaves a newer copy alone: a later write carried its own sla', () => {
    const client = cacheWith([...five.slice(0, 4), ticket(5, { version: 3, sla: sla('paused') })]);
    applySlaChanged(client, { ticketId: 5, sla: sla('breached'), version: 2 });
    expect(listOf(client, PAGE_ONE)?.data[0]?.sla?.state).toBe('paused');
  });

  it('moves the ticket into a page filtered by its new state and out of the old one, counts included, without asking', () => {
    const atRisk = listQuery({ limit: 3, sla: 'warning' });
    const client = cacheWith(five, PAGE_ONE, { sla: 'warning' });
    client.setQueryData(ticketKeys.list(atRisk), serverPage([], atRisk));
    applySlaChanged(client, { ticketId: 4, sla: sla('warning'), version: 1 });
    expect(ids(listOf(client, atRisk))).toEqual([4]);
    expect(statsOf(client, { sla: 'warning' })?.total).toBe(1);
    applySlaChanged(client, { ticketId: 4, sla: sla('breached'), version: 1 });
    expect(ids(listOf(client, atRisk))).toEqual([]);
    expect(statsOf(client, { sla: 'warning' })?.total).toBe(0);
    expect(refetching(client, ticketKeys.list(atRisk))).toBe(false);
  });

  it('re-reads a page filtered by the new state when it holds no copy of the ticket', () => {
    const atRisk = listQuery({ limit: 3, sla: 'warning' });
    const client = new QueryClient();
    client.setQueryData(ticketKeys.list(atRisk), serverPage([], atRisk));
    const overdue = listQuery({ limit: 3, sla: 'breached' });
    client.setQueryData(ticketKeys.list(overdue), serverPage([], overdue));
    applySlaChanged(client, { ticketId: 40, sla: sla('warning'), version: 1 });
    expect(refetching(client, ticketKeys.list(atRisk))).toBe(true);
    expect(refetching(client, ticketKeys.list(overdue))).toBe(false);
  });

  it('reorders a page sorted by deadline when a policy moved one', () => {
    const byDeadline = listQuery({ limit: 3, sort: { field: 'slaDueAt', descending: false } });
    const due = (id: number, at: string) => ticket(id, { sla: { ...sla('ok'), firstResponseDueAt: at } });
    const client = new QueryClient();
    const rows = [due(1, '2026-01-02T01:00:00.000Z'), due(2, '2026-01-02T02:00:00.000Z'), due(3, '2026-01-02T03:00:00.000Z')];
    client.setQueryData(ticketKeys.list(byDeadline), firstPageOf(rows));
    client.setQueryData(ticketKeys.list(PAGE_ONE), firstPageOf(rows));
    applySlaChanged(client, { ticketId: 1, sla: { ...sla('ok'), firstResponseDueAt: '2026-01-02T04:00:00.000Z' }, version: 1 });
    expect(ids(listOf(client, byDeadline))).toEqual([2, 3, 1]);
    expect(refetching(client, ticketKeys.list(byDeadline))).toBe(false);
    // A ticket held nowhere whose deadline a policy moved may now come first: only the server knows.
    applySlaChanged(client, { ticketId: 40, sla: { ...sla('ok'), firstResponseDueAt: '2026-01-01T00:00:00.000Z' }, version: 1 });
    expect(refetching(client, ticketKeys.list(byDeadline))).toBe(true);
    expect(refetching(client, ticketKeys.list(PAGE_ONE))).toBe(false);
  });
});
