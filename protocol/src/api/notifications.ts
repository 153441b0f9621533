import { z } from '../zod.js';
import { MESSAGES } from '../messages.js';
import { rowIdField } from '../fields.js';
import { flagQuery } from './common.js';

const V = MESSAGES.validation;

/** GET /notifications?unread=1: only the unread ones. */
export const notificationListQuery = z.object({ unread: flagQuery });

/**
 * POST /notifications/read: the given ids, the ones about one ticket (`ticketId`: opening a ticket
 * marks its notifications read), both narrowing together, or every notification when neither is given.
 */
export const markNotificationsReadBody = z.object({
  ids: z.array(rowIdField(V.notificationIdsInvalid), { error: V.notificationIdsInvalid }).max(500, V.notificationIdsInvalid).optional(),
  ticketId: rowIdField(V.notificationTicketInvalid).optional(),
});
export type MarkNotificationsReadBody = z.infer<typeof markNotificationsReadBody>;
