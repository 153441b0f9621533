import type { Notification, NotificationListResponse, PresenceEvent, PresenceViewer } from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { atom } from 'jotai';
import { queryKeys } from '../api/queryKeys';
import type { HelpdeskSocket } from './socket';

/** The session's socket while one is open, so pages can say where their user is (presence). */
export const socketAtom = atom<HelpdeskSocket | null>(null);

/** Who is on each ticket, as the server last said (staff only receive it). */
export const presenceAtom = atom<ReadonlyMap<number, PresenceViewer[]>>(new Map());

export const withPresence = (
  current: ReadonlyMap<number, PresenceViewer[]>,
  { ticketId, viewers }: PresenceEvent,
): ReadonlyMap<number, PresenceViewer[]> => {
  const next = new Map(current);
  if (viewers.length === 0) next.delete(ticketId);
  else next.set(ticketId, viewers);
  return next;
};

/** A live notification goes on top of the cached list, once, and counts as unread. */
export function applyNotification(client: QueryClient, notification: Notification): void {
  client.setQueryData<NotificationListResponse>(queryKeys.notifications, (list) =>
    list && !list.notifications.some((n) => n.id === notification.id)
      ? { ...list, notifications: [notification, ...list.notifications], unread: list.unread + (notification.readAt ? 0 : 1) }
      : list,
  );
}
