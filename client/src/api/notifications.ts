import type { NotificationListResponse, NotificationReadResponse } from '@helpdesk/protocol';
import { queryOptions } from '@tanstack/react-query';
import { http } from './http';
import { withChangesSince } from './notificationCache';
import { queryKeys } from './queryKeys';
import { timed } from './readTimes';

export const notificationsApi = {
  list: (signal?: AbortSignal) => http.get<NotificationListResponse>('/notifications', { signal }),
  /** All of them when `ids` is absent. */
  markRead: (ids?: number[]) => http.post<NotificationReadResponse>('/notifications/read', ids ? { ids } : {}),
};

/** The bell's read: what changed while it was on its way is applied to its answer (notificationCache.ts). */
export const notificationQuery = () =>
  queryOptions({
    queryKey: queryKeys.notifications,
    queryFn: timed(({ signal }) => notificationsApi.list(signal), withChangesSince),
  });
