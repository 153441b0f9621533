import { z } from '../zod.js';
import type { Notification } from '../entities.js';
import { MESSAGES } from '../messages.js';
import { flagQuery } from './common.js';

const V = MESSAGES.validation;

/** GET /notifications?unread=1: only the unread ones. */
export const notificationListQuery = z.object({ unread: flagQuery });

/** POST /notifications/read: the given ids, or every notification when `ids` is absent. */
export const markNotificationsReadBody = z.object({
  ids: z
    .array(z.number().int().positive().max(2_147_483_647), { error: V.notificationIdsInvalid })
    .max(500, V.notificationIdsInvalid)
    .optional(),
});
export type MarkNotificationsReadBody = z.infer<typeof markNotificationsReadBody>;

export interface NotificationListResponse {
  success: true;
  notifications: Notification[];
  unread: number;
}
export interface NotificationReadResponse {
  success: true;
  unread: number;
}
