import {
  markNotificationsReadBody,
  notificationListQuery,
  type NotificationListResponse,
  type NotificationReadResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { actorOf, createRouter } from './router.js';

/** A signed-in person's own in-app notifications; nobody reads or marks anyone else's. */
export function notificationRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();

  router.get('/notifications', auth.required, async (ctx) => {
    const { unread } = parseInput(notificationListQuery, ctx.query);
    const result = await services.notifications.list(actorOf(ctx), unread);
    ctx.body = { success: true, ...result } satisfies NotificationListResponse;
  });

  router.post('/notifications/read', auth.required, jsonBody, async (ctx) => {
    const { ids, ticketId } = parseBody(markNotificationsReadBody, ctx.request.body ?? {});
    const unread = await services.notifications.markRead(actorOf(ctx), { ids, ticketId });
    ctx.body = { success: true, unread } satisfies NotificationReadResponse;
  });

  return router;
}
