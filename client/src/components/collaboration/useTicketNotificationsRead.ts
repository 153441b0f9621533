import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notificationQuery, notificationsApi } from '../../api/notifications';
import { notificationsMarkedRead } from '../../api/notificationCache';

/**
 * Opening a ticket reads the notifications about it (docs/product.md#ticket-page), and one that
 * arrives while the page is open: the bell's list says which are unread, and only those are sent.
 */
export function useTicketNotificationsRead(ticketId: number, enabled: boolean) {
  const client = useQueryClient();
  const list = useQuery({ ...notificationQuery(), enabled });
  const mark = useMutation({
    mutationFn: (ids: number[]) => notificationsApi.markRead(ids),
    onSuccess: ({ unread }, ids) => notificationsMarkedRead(client, ids, unread),
  });
  const ids = (list.data?.notifications ?? []).filter((n) => n.ticketId === ticketId && n.readAt === null).map((n) => n.id);
  const key = ids.join(',');
  const { mutate, isPending } = mark;
  useEffect(() => {
    if (enabled && key && !isPending) mutate(key.split(',').map(Number));
  }, [enabled, key, isPending, mutate]);
}
