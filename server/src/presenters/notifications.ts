import type { Notification, UserRef } from '@helpdesk/protocol';
import type { notifications } from '../db/schema/index.js';

export interface NotificationRow {
  notification: typeof notifications.$inferSelect;
  by: UserRef;
}

export const presentNotification = ({ notification, by }: NotificationRow): Notification => ({
  id: notification.id,
  type: notification.type,
  ticketId: notification.ticketId,
  by: { id: by.id, name: by.name },
  excerpt: notification.excerpt,
  createdAt: notification.createdAt.toISOString(),
  readAt: notification.readAt?.toISOString() ?? null,
});
