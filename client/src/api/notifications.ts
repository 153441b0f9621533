import type { NotificationListResponse, NotificationReadResponse } from '@helpdesk/protocol';
import { http } from './http';

export const notificationsApi = {
  list: (signal?: AbortSignal) => http.get<NotificationListResponse>('/notifications', { signal }),
  /** All of them when `ids` is absent. */
  markRead: (ids?: number[]) => http.post<NotificationReadResponse>('/notifications/read', ids ? { ids } : {}),
};
