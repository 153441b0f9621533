import {
  LIMITS,
  type Notification,
  type NotificationEvent,
  type NotificationListResponse,
  type NotificationsReadEvent,
} from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { mayHold, readAgain, readAtOf, readEndOf } from './readTimes';

/**
 * The bell's data (the latest notifications and the unread count) and the only code that writes it,
 * free of HTTP (ticketCache.ts, which the fan-out benchmark runs in Node, writes here too).
 * Every change is a fact about ids (this notification exists, this ticket's are gone), applied so that
 * applying it twice changes nothing. Each is also kept for a while: a read sent before a change
 * happened (the re-read after a reconnect, still on its way) may not hold it, and gets it applied
 * when it lands instead of losing it. A late notification older than a full page, which a read
 * ended while it was committing may have counted without showing it, has the list read again.
 */

/** The bell's query key (queryKeys.ts lists it with the others). */
export const notificationsKey = ['notifications'] as const;

/**
 * What a change makes of a list; `readMayHold` says the list's read ended after the change's commit
 * was asked for. `undefined`: the list cannot tell whether its read holds the change (only a new read can).
 */
type Change = (list: NotificationListResponse, readMayHold: boolean) => NotificationListResponse | undefined;

interface Recent {
  /** When the server announced the change (Infinity: true of any read, a deletion). */
  at: number;
  /** When the server asked for its commit, if the event said. */
  committing: number | undefined;
  arrived: number;
  change: Change;
}

interface BellState {
  recent: Recent[];
  /** Tickets deleted: their notifications are gone on the server, and a late one must not come back. */
  deletedTickets: Set<number>;
}

/** Longer than any read may take (the HTTP timeout is 30 s). */
const KEEP_MS = 60_000;

const states = new WeakMap<QueryClient, BellState>();
const stateOf = (client: QueryClient): BellState => {
  let state = states.get(client);
  if (!state) states.set(client, (state = { recent: [], deletedTickets: new Set() }));
  return state;
};

const bellQuery = (client: QueryClient) => client.getQueryCache().find({ queryKey: notificationsKey, exact: true });

/** A read of the list landed: what was announced since the server began it may be missing from it. */
export function withChangesSince(client: QueryClient, list: NotificationListResponse): NotificationListResponse {
  const readAt = readAtOf(list) ?? Number.NEGATIVE_INFINITY;
  const readEnd = readEndOf(list) ?? Number.NEGATIVE_INFINITY;
  let held = list;
  let unsure = false;
  for (const r of stateOf(client).recent) {
    if (r.at < readAt) continue;
    const changed = r.change(held, r.committing !== undefined && readEnd >= r.committing);
    if (changed === undefined) unsure = true;
    else held = changed;
  }
  // This read is still the query's read in flight: the next one begins after the change was announced.
  const query = bellQuery(client);
  if (unsure && query) readAgain(client, query);
  return held;
}

function record(client: QueryClient, { at, committing }: { at: number; committing: number | undefined }, change: Change): void {
  const state = stateOf(client);
  const now = Date.now();
  state.recent = [...state.recent.filter((r) => r.arrived > now - KEEP_MS), { at, committing, arrived: now, change }];
  const query = bellQuery(client);
  const list = query?.state.data as NotificationListResponse | undefined;
  if (!query || !list) return;
  const changed = change(list, mayHold(query, committing));
  if (changed === undefined) readAgain(client, query);
  else if (changed !== list) client.setQueryData(notificationsKey, changed);
}

const isUnread = (n: Notification) => n.readAt === null;
const newestFirst = (a: Notification, b: Notification) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id);

/** The `notification` socket event: on top of the list, counted unread, once. */
export function applyNotification(client: QueryClient, { notification, at, committing }: NotificationEvent): void {
  if (notification.ticketId !== null && stateOf(client).deletedTickets.has(notification.ticketId)) return;
  // Without a time, it may be newer than any read.
  record(client, { at: at ?? Number.POSITIVE_INFINITY, committing }, (list, readMayHold) => {
    if (list.notifications.some((n) => n.id === notification.id)) return list;
    const page = list.notifications;
    const oldest = page.at(-1);
    // Older than a full page: a read that may hold it counted it without showing it.
    if (readMayHold && oldest && page.length >= LIMITS.notificationPage && newestFirst(notification, oldest) > 0) return undefined;
    // The panel holds the latest page, as a fresh read would.
    const notifications = [notification, ...page].sort(newestFirst).slice(0, LIMITS.notificationPage);
    return { ...list, notifications, unread: list.unread + (isUnread(notification) ? 1 : 0) };
  });
}

/**
 * A ticket was deleted: its notifications went with it, and so did their part of the unread count.
 * True of every read that may still come, whenever it began. A full page it shortens is read again.
 */
export function notificationsOfDeletedTicket(client: QueryClient, ticketId: number): void {
  stateOf(client).deletedTickets.add(ticketId);
  record(client, { at: Number.POSITIVE_INFINITY, committing: undefined }, (list) => {
    const gone = list.notifications.filter((n) => n.ticketId === ticketId);
    if (gone.length === 0) return list;
    // A full page loses rows the server has older ones to fill with: shown short now, read again.
    const query = bellQuery(client);
    if (query && list.notifications.length >= LIMITS.notificationPage) readAgain(client, query);
    return {
      ...list,
      notifications: list.notifications.filter((n) => n.ticketId !== ticketId),
      unread: Math.max(0, list.unread - gone.filter(isUnread).length),
    };
  });
}

/**
 * The `notifications-read` socket event: this person marked notifications read, maybe in another tab.
 * The ones shown are marked at once; when the count then differs from the one the server left (its
 * unread ones past the page, or a notification between), the list is read again for it.
 */
export function applyNotificationsRead(client: QueryClient, { ids, ticketId, unread, at, committing }: NotificationsReadEvent): void {
  const marks = (n: Notification) => isUnread(n) && (ids ? ids.includes(n.id) : ticketId !== undefined ? n.ticketId === ticketId : true);
  record(client, { at: at ?? Number.POSITIVE_INFINITY, committing }, (list) => {
    const marked = list.notifications.filter(marks).length;
    const left = Math.max(0, list.unread - marked);
    const query = bellQuery(client);
    if (query && left !== unread) readAgain(client, query);
    if (marked === 0) return list;
    const readAt = new Date(at ?? Date.now()).toISOString();
    return { ...list, unread: left, notifications: list.notifications.map((n) => (marks(n) ? { ...n, readAt } : n)) };
  });
}

/** POST /notifications/read answered (all of them when `ids` is absent) with the count still unread. */
export function notificationsMarkedRead(client: QueryClient, ids: number[] | undefined, unread: number): void {
  const readAt = new Date().toISOString();
  client.setQueryData<NotificationListResponse>(notificationsKey, (list) =>
    list
      ? {
          ...list,
          unread,
          notifications: list.notifications.map((n) => ((!ids || ids.includes(n.id)) && isUnread(n) ? { ...n, readAt } : n)),
        }
      : list,
  );
}
