import { LIMITS, READ_AT_HEADER, READ_END_HEADER, type Notification, type NotificationListResponse, type Ticket } from '@helpdesk/protocol';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyNotification, applyNotificationsRead } from './notificationCache';
import { notificationQuery } from './notifications';
import { queryKeys } from './queryKeys';
import { applyTicketChanged } from './ticketCache';

const notification = (id: number, ticketId: number, overrides: Partial<Notification> = {}): Notification => ({
  id,
  type: 'mention',
  ticketId,
  by: { id: 2, name: 'Agent' },
  excerpt: 'Can you take this?',
  createdAt: `2026-01-01T00:${String(id).padStart(2, '0')}:00.000Z`,
  readAt: null,
  ...overrides,
});
const ticket = (id: number): Ticket => ({
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
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastActivityAt: '2026-01-01T00:00:00.000Z',
});
const listOf = (notifications: Notification[]): NotificationListResponse => ({
  success: true,
  notifications,
  unread: notifications.filter((n) => n.readAt === null).length,
});
const bell = (client: QueryClient) => client.getQueryData<NotificationListResponse>(queryKeys.notifications);
const deleted = (t: Ticket) => ({ action: 'deleted' as const, ticket: { id: t.id }, by: { id: 1, name: 'Admin' }, previous: t });

/** GET /notifications answered only when the test says so, like a read still on its way; begun when asked, ended when answered. */
function slowServer() {
  const waiting: Array<(body: NotificationListResponse) => void> = [];
  let lastEnded = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(() => {
      const began = String(Date.now() - 1);
      return new Promise<Response>((resolve) =>
        waiting.push((body) => {
          lastEnded = Date.now();
          const headers = { 'Content-Type': 'application/json', [READ_AT_HEADER]: began, [READ_END_HEADER]: String(lastEnded) };
          resolve(new Response(JSON.stringify(body), { headers }));
        }),
      );
    }),
  );
  return {
    reads: () => waiting.length,
    answer: (body: NotificationListResponse) => waiting.shift()?.(body),
    /** When the server had read the last answer it gave. */
    ended: () => lastEnded,
  };
}

/** The bell as a page watches it, its first read sent to a slowServer and not yet answered. */
async function watchedBell() {
  const server = slowServer();
  const client = new QueryClient();
  const observer = new QueryObserver(client, { ...notificationQuery(), staleTime: Infinity });
  const stop = observer.subscribe(() => undefined);
  await vi.waitFor(() => expect(server.reads()).toBe(1));
  return { server, client, observer, stop };
}

describe('the bell cache', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('adds a live notification on top once, counted unread once', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.notifications, listOf([notification(1, 10, { readAt: '2026-01-01T01:00:00.000Z' })]));
    applyNotification(client, { notification: notification(2, 11) });
    applyNotification(client, { notification: notification(2, 11) });
    expect(bell(client)?.notifications.map((n) => n.id)).toEqual([2, 1]);
    expect(bell(client)?.unread).toBe(1);
  });

  it('keeps the latest page, as a fresh read would', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.notifications, listOf(Array.from({ length: 50 }, (_, i) => notification(50 - i, 10))));
    applyNotification(client, { notification: notification(51, 10) });
    expect(bell(client)?.notifications).toHaveLength(50);
    expect(bell(client)?.notifications[0]?.id).toBe(51);
    expect(bell(client)?.notifications.at(-1)?.id).toBe(2);
    expect(bell(client)?.unread).toBe(51);
  });

  it("drops a deleted ticket's notifications and their unread count; a late one for it stays out", () => {
    const client = new QueryClient();
    const read = notification(1, 10, { readAt: '2026-01-01T01:00:00.000Z' });
    client.setQueryData(queryKeys.notifications, listOf([notification(3, 11), notification(2, 10), read]));
    expect(bell(client)?.unread).toBe(2);
    applyTicketChanged(client, deleted(ticket(10)));
    expect(bell(client)?.notifications.map((n) => n.id)).toEqual([3]);
    expect(bell(client)?.unread).toBe(1);
    // One written before the deletion, arriving after it (replayed by a process that was cut off).
    applyNotification(client, { notification: notification(4, 10), at: Date.now() - 5_000 });
    expect(bell(client)?.unread).toBe(1);
  });

  it('reads a full page again when a deleted ticket takes rows from it, so it fills up to a page', async () => {
    const { server, client, observer, stop } = await watchedBell();
    const page = Array.from({ length: LIMITS.notificationPage }, (_, i) => notification(60 - i, i < 3 ? 10 : 11));
    server.answer(listOf(page));
    await vi.waitFor(() => expect(bell(client)?.notifications).toHaveLength(LIMITS.notificationPage));

    applyTicketChanged(client, deleted(ticket(10)));
    expect(bell(client)?.notifications).toHaveLength(LIMITS.notificationPage - 3);
    await vi.waitFor(() => expect(server.reads()).toBe(1));
    // The server's page now reaches three older ones.
    const refilled = [...page.slice(3), ...[10, 9, 8].map((id) => notification(id, 11))];
    server.answer(listOf(refilled));
    await vi.waitFor(() => expect(bell(client)?.notifications).toHaveLength(LIMITS.notificationPage));
    expect(bell(client)?.notifications.at(-1)?.id).toBe(8);

    // A short list losing rows has nothing older to show: no read.
    void observer.refetch();
    await vi.waitFor(() => expect(server.reads()).toBe(1));
    server.answer(listOf([notification(5, 12), notification(4, 11)]));
    await vi.waitFor(() => expect(bell(client)?.notifications).toHaveLength(2));
    applyTicketChanged(client, deleted(ticket(12)));
    expect(bell(client)?.notifications.map((n) => n.id)).toEqual([4]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.reads()).toBe(0);
    stop();
  });

  it('marks what was read in another tab, and reads the list again only when the count still differs', async () => {
    const { server, client, stop } = await watchedBell();
    server.answer(listOf([notification(4, 11), notification(3, 10), notification(2, 10), notification(1, 12)]));
    await vi.waitFor(() => expect(bell(client)?.unread).toBe(4));
    // Marks announced before the re-reads below began, as the server's clock would have them.
    const earlier = () => Date.now() - 1_000;

    applyNotificationsRead(client, { ids: [4], unread: 3, at: earlier() });
    expect(
      bell(client)
        ?.notifications.filter((n) => n.readAt === null)
        .map((n) => n.id),
    ).toEqual([3, 2, 1]);
    expect(bell(client)?.unread).toBe(3);
    applyNotificationsRead(client, { ticketId: 10, unread: 1, at: earlier() });
    expect(
      bell(client)
        ?.notifications.filter((n) => n.readAt === null)
        .map((n) => n.id),
    ).toEqual([1]);
    // The echo of this tab's own mark, or one applied twice, changes nothing and asks nothing.
    applyNotificationsRead(client, { ticketId: 10, unread: 1, at: earlier() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.reads()).toBe(0);

    // All read, but the server had unread ones past this page: the count is read again.
    applyNotificationsRead(client, { unread: 0, at: earlier() });
    expect(bell(client)?.unread).toBe(0);
    expect(server.reads()).toBe(0);
    applyNotificationsRead(client, { ids: [99], unread: 2, at: earlier() });
    await vi.waitFor(() => expect(server.reads()).toBe(1));
    server.answer({ ...listOf([notification(5, 13), ...(bell(client)?.notifications ?? [])]), unread: 2 });
    await vi.waitFor(() => expect(bell(client)?.unread).toBe(2));
    stop();
  });

  it('keeps a notification that arrives while the list is read again, and does not count it twice', async () => {
    const { server, client, observer, stop } = await watchedBell();
    server.answer(listOf([notification(1, 10)]));
    await vi.waitFor(() => expect(bell(client)?.unread).toBe(1));

    // The re-read after a reconnect is sent, then a notification arrives before its answer.
    void observer.refetch();
    await vi.waitFor(() => expect(server.reads()).toBe(1));
    applyNotification(client, { notification: notification(2, 11), at: Date.now() });
    expect(bell(client)?.unread).toBe(2);
    server.answer(listOf([notification(1, 10)])); // read before the notification was written
    await vi.waitFor(() => expect(client.getQueryState(queryKeys.notifications)?.fetchStatus).toBe('idle'));
    expect(bell(client)?.notifications.map((n) => n.id)).toEqual([2, 1]);
    expect(bell(client)?.unread).toBe(2);

    // The same again, with a read that already holds it: nothing doubles.
    void observer.refetch();
    await vi.waitFor(() => expect(server.reads()).toBe(1));
    applyNotification(client, { notification: notification(3, 11), at: Date.now() });
    server.answer(listOf([notification(3, 11), notification(2, 11), notification(1, 10)]));
    await vi.waitFor(() => expect(client.getQueryState(queryKeys.notifications)?.fetchStatus).toBe('idle'));
    expect(bell(client)?.notifications.map((n) => n.id)).toEqual([3, 2, 1]);
    expect(bell(client)?.unread).toBe(3);
    stop();
  });

  it('reads again rather than count twice a late notification older than a full page its read may hold', async () => {
    const { server, client, stop } = await watchedBell();
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 1, 0, second)).toISOString();
    const page = Array.from({ length: LIMITS.notificationPage }, (_, i) => notification(100 - i, 10, { createdAt: at(59 - i) }));
    const late = notification(1, 11, { createdAt: '2026-01-01T00:00:00.000Z' });
    // The server counted the late one among the unread, but it falls below the page it sent.
    server.answer({ ...listOf(page), unread: page.length + 1 });
    await vi.waitFor(() => expect(bell(client)?.unread).toBe(page.length + 1));
    const ended = server.ended();
    await new Promise((resolve) => setTimeout(resolve, 5));

    // Its commit was asked for before that read ended, and its event comes now: the read may hold it.
    applyNotification(client, { notification: late, committing: ended - 5, at: Date.now() - 2 });
    expect(bell(client)?.unread).toBe(page.length + 1);
    await vi.waitFor(() => expect(server.reads()).toBe(1));
    server.answer({ ...listOf(page), unread: page.length + 1 });
    await vi.waitFor(() => expect(client.getQueryState(queryKeys.notifications)?.fetchStatus).toBe('idle'));
    expect(bell(client)?.unread).toBe(page.length + 1);

    // One whose commit was asked for after the read ended is not in it: counted.
    const later = notification(2, 12, { createdAt: '2026-01-01T00:00:01.000Z' });
    applyNotification(client, { notification: later, committing: server.ended() + 1, at: server.ended() + 2 });
    expect(bell(client)?.unread).toBe(page.length + 2);
    expect(server.reads()).toBe(0);
    expect(bell(client)?.notifications.map((n) => n.id)).toEqual(page.map((n) => n.id));
    stop();
  });
});
