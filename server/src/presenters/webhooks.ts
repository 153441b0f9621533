import { randomUUID } from 'node:crypto';
import type { Webhook, WebhookDelivery, WebhookEventType, WebhookPayload } from '@helpdesk/protocol';
import type { webhookDeliveries, webhooks } from '../db/schema/index.js';

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** An endpoint as the API answers it: never its secret. */
export const presentWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  includeInternal: row.includeInternal,
  active: row.active,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const presentDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhookId,
  messageId: row.messageId,
  event: row.event,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  durationMs: row.durationMs,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
});

/**
 * A delivery to queue: its message id (`msg_` + a UUID, the webhook-id header of every attempt) and
 * the body every attempt sends, `{type, timestamp, data}`, written once so each is signed alike.
 */
export function newDelivery(webhookId: number, type: WebhookEventType, data: unknown, at: Date) {
  const payload: WebhookPayload = { type, timestamp: at.toISOString(), data };
  return { webhookId, messageId: `msg_${randomUUID()}`, event: type, body: JSON.stringify(payload), nextAttemptAt: at };
}
