import type { Ticket, TicketChangedEvent, View, ViewCountsResponse, ViewsResponse } from '@helpdesk/protocol';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { aTicket } from '../test-utils/ticketFixtures';
import { queryKeys } from './queryKeys';
import { noteReadAt, timed } from './readTimes';
import { applyPushedViewCounts, moveSlaViewCounts, moveViewCounts } from './viewCountCache';

const ME = 2;
const view = (id: number, filters: View['filters']): View => ({ id, name: `View ${id}`, filters, shared: true, owner: null });
const VIEWS = [
  view(-1, { status: 'open', assignee: 'me' }),
  view(-2, { assignee: 'none' }),
  view(-3, { priority: 'urgent' }),
  view(4, { status: 'in_progress' }),
  view(5, { search: 'printer' }),
];
const ticket = aTicket;
const by = { id: 3, name: 'Bea' };
const created = (t: Ticket): TicketChangedEvent => ({ action: 'created', ticket: t, by });
const updated = (t: Ticket, previous: Partial<Ticket>): TicketChangedEvent => ({ action: 'updated', ticket: t, by, previous, history: [] });
const deleted = (t: Ticket): TicketChangedEvent => ({ action: 'deleted', ticket: { id: t.id }, by, previous: t });

function cacheWith(counts: Record<string, number> = { '-1': 1, '-2': 5, '-3': 0, '4': 2, '5': 3 }) {
  const client = new QueryClient();
  client.setQueryData<ViewsResponse>(queryKeys.queue.views, { success: true, views: VIEWS });
  client.setQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts, { success: true, counts });
  // Observed as the dashboard observes it: invalidating the counts reads them again.
  let reads = 0;
  const observer = new QueryObserver(client, {
    queryKey: queryKeys.queue.viewCounts,
    staleTime: Infinity,
    queryFn: () => {
      reads++;
      return Promise.resolve<ViewCountsResponse>({ success: true, counts: { '-1': 10, '-2': 10, '-3': 10, '4': 10, '5': 10 } });
    },
  });
  observer.subscribe(() => undefined);
  const observed = { fetch: () => observer.refetch() };
  return {
    client,
    counts: () => client.getQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts)?.counts,
    reads: () => reads,
    observed,
  };
}

describe('view counts from ticket events', () => {
  it('moves each filter-only view by the ticket before and after, never a searched one', () => {
    const { client, counts, reads } = cacheWith();
    moveViewCounts(client, created(ticket({ id: 7, priority: 'urgent' })), ME);
    expect(counts()).toEqual({ '-1': 1, '-2': 6, '-3': 1, '4': 2, '5': 3 });
    // Assigned to me and started: out of Unassigned, into In progress; not open, so not My open.
    moveViewCounts(
      client,
      updated(ticket({ id: 7, priority: 'urgent', status: 'in_progress', assignedAgent: { id: ME, name: 'Me' }, version: 2 }), {
        status: 'open',
        assignedAgent: null,
      }),
      ME,
    );
    expect(counts()).toEqual({ '-1': 1, '-2': 5, '-3': 1, '4': 3, '5': 3 });
    moveViewCounts(
      client,
      deleted(ticket({ id: 7, priority: 'urgent', status: 'in_progress', assignedAgent: { id: ME, name: 'Me' }, version: 2 })),
      ME,
    );
    expect(counts()).toEqual({ '-1': 1, '-2': 5, '-3': 0, '4': 2, '5': 3 });
    expect(reads()).toBe(0);
  });

  it('applies each ticket version once, in whatever order versions arrive: late ones add up to the same counts', () => {
    const { client, counts } = cacheWith();
    const v1 = ticket({ version: 1 });
    // v2 takes the ticket (out of Unassigned), v3 starts it (into In progress): v3 arrives first.
    const v2 = updated({ ...v1, version: 2, assignedAgent: { id: 9, name: 'Nia' } }, { assignedAgent: null });
    const v3 = updated({ ...v1, version: 3, assignedAgent: { id: 9, name: 'Nia' }, status: 'in_progress' }, { status: 'open' });
    moveViewCounts(client, v3, ME);
    moveViewCounts(client, v2, ME);
    expect(counts()).toMatchObject({ '-2': 4, '4': 3 });
    moveViewCounts(client, v3, ME);
    moveViewCounts(client, v2, ME);
    expect(counts()).toMatchObject({ '-2': 4, '4': 3 });
    // The deletion takes the ticket as it was last: out of In progress, once.
    const gone = deleted({ ...v1, version: 3, assignedAgent: { id: 9, name: 'Nia' }, status: 'in_progress' });
    moveViewCounts(client, gone, ME);
    moveViewCounts(client, gone, ME);
    expect(counts()).toMatchObject({ '-2': 4, '4': 2 });
  });

  it('reads the counts again once a read in flight settles, since it may not hold the change', async () => {
    const { client, counts, reads, observed } = cacheWith();
    const first = observed.fetch();
    moveViewCounts(client, created(ticket({ id: 8 })), ME);
    moveViewCounts(client, created(ticket({ id: 9 })), ME);
    await first;
    await expect.poll(reads).toBe(2);
    await expect.poll(() => client.isFetching()).toBe(0);
    expect(counts()?.['-2']).toBe(10);
  });
});

describe('late events', () => {
  /** The counts as the server began reading them at `readAt` (its X-Read-At), through a timed query like the dashboard's. */
  async function readAt(readAt: number, readEnd?: number) {
    const client = new QueryClient();
    client.setQueryData<ViewsResponse>(queryKeys.queue.views, { success: true, views: VIEWS });
    await client.query({
      queryKey: queryKeys.queue.viewCounts,
      queryFn: timed(() => {
        const answer: ViewCountsResponse = { success: true, counts: { '-2': 4, '-3': 0, '4': 2 } };
        noteReadAt(answer, String(readAt), readEnd === undefined ? null : String(readEnd));
        return Promise.resolve(answer);
      }),
    });
    return { client, counts: () => client.getQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts)?.counts };
  }

  it('move nothing when the read began after they were announced: it holds them (a process back from a Redis cut replays)', async () => {
    const { client, counts } = await readAt(1_000);
    moveViewCounts(client, { ...created(ticket({ id: 8 })), at: 900 }, ME);
    moveViewCounts(client, { ...deleted(ticket({ id: 2, priority: 'urgent', version: 3 })), at: 950 }, ME);
    expect(counts()).toEqual({ '-2': 4, '-3': 0, '4': 2 });
    // Still applied once: the same change again later moves nothing either.
    moveViewCounts(client, { ...created(ticket({ id: 8 })), at: 1_100 }, ME);
    expect(counts()).toEqual({ '-2': 4, '-3': 0, '4': 2 });
  });

  it('move the counts when announced after the read began', async () => {
    const { client, counts } = await readAt(1_000);
    moveViewCounts(client, { ...created(ticket({ id: 9, priority: 'urgent' })), at: 1_000 }, ME);
    expect(counts()).toEqual({ '-2': 5, '-3': 1, '4': 2 });
  });

  it('read the counts again when the read ended after the commit was asked for: it may hold them already', async () => {
    // Began at 1,000 and ended at 1,040; the change committed in between, announced (held back) at 1,500.
    const { client, counts } = await readAt(1_000, 1_040);
    moveViewCounts(client, { ...created(ticket({ id: 9, priority: 'urgent' })), at: 1_500, committing: 1_020 }, ME);
    expect(counts()).toEqual({ '-2': 4, '-3': 0, '4': 2 });
    expect(client.getQueryState(queryKeys.queue.viewCounts)?.isInvalidated).toBe(true);
  });

  it('move the counts when the read ended before the commit was asked for', async () => {
    const { client, counts } = await readAt(1_000, 1_040);
    moveViewCounts(client, { ...created(ticket({ id: 9, priority: 'urgent' })), at: 1_500, committing: 1_041 }, ME);
    expect(counts()).toEqual({ '-2': 5, '-3': 1, '4': 2 });
    expect(client.getQueryState(queryKeys.queue.viewCounts)?.isInvalidated).toBe(false);
  });

  it('of an SLA change move nothing when the read holds them', async () => {
    const { client, counts } = await readAt(1_000);
    client.setQueryData<ViewsResponse>(queryKeys.queue.views, { success: true, views: [...VIEWS, view(-4, { sla: 'warning' })] });
    const held = ticket({
      id: 7,
      sla: { policyId: 1, firstResponseDueAt: null, resolutionDueAt: null, firstRespondedAt: null, state: 'ok' },
    });
    const warned = { ticketId: 7, sla: { ...held.sla!, state: 'warning' as const }, version: held.version };
    moveSlaViewCounts(client, { ...warned, at: 900 }, ME, held);
    expect(counts()?.['-4']).toBeUndefined();
    client.setQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts, (data) => data && { ...data, counts: { ...data.counts, '-4': 1 } });
    moveSlaViewCounts(client, { ...warned, at: 900 }, ME, held);
    expect(counts()?.['-4']).toBe(1);
    moveSlaViewCounts(client, { ...warned, at: 1_200 }, ME, held);
    expect(counts()?.['-4']).toBe(2);
  });
});

describe('pushed view counts', () => {
  it('replace the counts they carry and leave the others', () => {
    const { client, counts, reads } = cacheWith();
    applyPushedViewCounts(client, { counts: { '5': 9 } });
    expect(counts()).toEqual({ '-1': 1, '-2': 5, '-3': 0, '4': 2, '5': 9 });
    expect(reads()).toBe(0);
  });

  it('pushed while a read is out go on top of its answer, the latest last', async () => {
    const { client, counts, reads, observed } = cacheWith();
    const read = observed.fetch();
    applyPushedViewCounts(client, { counts: { '5': 11 } });
    applyPushedViewCounts(client, { counts: { '5': 12 } });
    await read;
    await expect.poll(() => counts()?.['5']).toBe(12);
    expect(counts()?.['4']).toBe(10);
    expect(reads()).toBe(1);
  });

  it('do nothing when the counts are not held', () => {
    const client = new QueryClient();
    applyPushedViewCounts(client, { counts: { '5': 1 } });
    moveViewCounts(client, created(ticket()), ME);
    expect(client.getQueryData(queryKeys.queue.viewCounts)).toBeUndefined();
  });
});

describe('view counts from sla-changed', () => {
  const sla = (state: NonNullable<Ticket['sla']>['state']): NonNullable<Ticket['sla']> => ({
    policyId: 1,
    firstResponseDueAt: '2026-01-02T09:30:00.000Z',
    resolutionDueAt: null,
    firstRespondedAt: null,
    state,
  });
  const AT_RISK = view(-4, { sla: 'warning' });
  const OVERDUE_MINE = view(6, { sla: 'breached', assignee: 'me' });
  function slaCache() {
    const client = new QueryClient();
    client.setQueryData<ViewsResponse>(queryKeys.queue.views, { success: true, views: [...VIEWS, AT_RISK, OVERDUE_MINE] });
    client.setQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts, { success: true, counts: { '-4': 2, '6': 0, '4': 2 } });
    return { client, counts: () => client.getQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts)?.counts };
  }

  it('moves the SLA views by the copy held before the event, once', () => {
    const { client, counts } = slaCache();
    const held = ticket({ id: 7, assignedAgent: { id: ME, name: 'Me' }, sla: sla('ok') });
    const warned = { ticketId: 7, sla: sla('warning'), version: held.version };
    moveSlaViewCounts(client, warned, ME, held);
    expect(counts()).toEqual({ '-4': 3, '6': 0, '4': 2 });
    // The same event again finds the copy already changed.
    moveSlaViewCounts(client, warned, ME, { ...held, sla: sla('warning') });
    expect(counts()).toEqual({ '-4': 3, '6': 0, '4': 2 });
    moveSlaViewCounts(client, { ticketId: 7, sla: sla('breached'), version: held.version }, ME, { ...held, sla: sla('warning') });
    expect(counts()).toEqual({ '-4': 2, '6': 1, '4': 2 });
  });

  it('leaves the counts to a newer copy, and reads them again when no copy is held', () => {
    const { client, counts } = slaCache();
    moveSlaViewCounts(client, { ticketId: 7, sla: sla('warning'), version: 1 }, ME, ticket({ id: 7, version: 2, sla: sla('paused') }));
    expect(counts()).toEqual({ '-4': 2, '6': 0, '4': 2 });
    moveSlaViewCounts(client, { ticketId: 8, sla: sla('warning'), version: 1 }, ME, undefined);
    expect(client.getQueryState(queryKeys.queue.viewCounts)?.isInvalidated).toBe(true);
  });
});
