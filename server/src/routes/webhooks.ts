import {
  MESSAGES,
  canManageUsers,
  createWebhookBody,
  idParam,
  updateWebhookBody,
  webhookDeliveriesQuery,
  type MessageResponse,
  type WebhookDeliveriesResponse,
  type WebhookDeliveryResponse,
  type WebhookResponse,
  type WebhookSecretResponse,
  type WebhooksResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { createRouter } from './router.js';

/** docs/api.md#webhooks: admins' outgoing webhooks and their delivery logs. */
export function webhookRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  const admin = auth.allow(canManageUsers, MESSAGES.http.adminOnly);
  const { webhooks } = services;
  const idOf = (raw: string | undefined) => parseInput(idParam, raw);

  router.get('/webhooks', admin, async (ctx) => {
    ctx.body = { success: true, webhooks: await webhooks.list() } satisfies WebhooksResponse;
  });

  router.post('/webhooks', admin, jsonBody, async (ctx) => {
    const created = await webhooks.create(parseBody(createWebhookBody, ctx.request.body));
    ctx.status = 201;
    ctx.body = { success: true, ...created } satisfies WebhookSecretResponse;
  });

  router.put('/webhooks/:id', admin, jsonBody, async (ctx) => {
    const id = idOf(ctx.params.id);
    const webhook = await webhooks.update(id, parseBody(updateWebhookBody, ctx.request.body));
    ctx.body = { success: true, webhook } satisfies WebhookResponse;
  });

  router.delete('/webhooks/:id', admin, async (ctx) => {
    await webhooks.remove(idOf(ctx.params.id));
    ctx.body = { success: true, message: MESSAGES.webhooks.deleted } satisfies MessageResponse;
  });

  router.post('/webhooks/:id/rotate-secret', admin, async (ctx) => {
    ctx.body = { success: true, ...(await webhooks.rotateSecret(idOf(ctx.params.id))) } satisfies WebhookSecretResponse;
  });

  router.post('/webhooks/:id/test', admin, async (ctx) => {
    const delivery = await webhooks.test(idOf(ctx.params.id));
    ctx.body = { success: true, delivery, message: MESSAGES.webhooks.testQueued } satisfies WebhookDeliveryResponse;
  });

  router.get('/webhooks/:id/deliveries', admin, async (ctx) => {
    const id = idOf(ctx.params.id);
    const page = parseInput(webhookDeliveriesQuery, ctx.query);
    ctx.body = { success: true, ...(await webhooks.deliveries(id, page)) } satisfies WebhookDeliveriesResponse;
  });

  router.post('/webhooks/deliveries/:id/retry', admin, async (ctx) => {
    const delivery = await webhooks.retry(idOf(ctx.params.id));
    ctx.body = { success: true, delivery, message: MESSAGES.webhooks.retried } satisfies WebhookDeliveryResponse;
  });

  return router;
}
