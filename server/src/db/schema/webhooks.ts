import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookEvent, type WebhookEventType } from '@helpdesk/protocol';

export const webhookDeliveryStatusEnum = pgEnum('webhook_delivery_status', WEBHOOK_DELIVERY_STATUSES);

/**
 * Admins' outgoing webhooks (docs/api.md#webhooks). The secret is kept as given out, since every
 * delivery is signed with it (docs/decisions.md#webhooks); it leaves the server only when made.
 */
export const webhooks = pgTable('webhooks', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  events: text('events').array().$type<WebhookEvent[]>().notNull(),
  includeInternal: boolean('include_internal').notNull().default(false),
  active: boolean('active').notNull().default(true),
  secret: text('secret').notNull(),
  // Set when the sender turned it off (410, or WEBHOOK_FAILING_DAYS of failures); cleared when turned on.
  disabledReason: text('disabled_reason'),
  // The first failure since the last success: what the days of failures are counted from.
  failingSince: timestamp('failing_since', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});

/**
 * One event's way to one endpoint, written in the transaction of the change that caused it and sent
 * after commit by a sender that claims due rows with FOR UPDATE SKIP LOCKED, like the mail outbox.
 * `body` is the JSON sent, fixed when queued, so every attempt sends and signs the same bytes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    // The webhook-id header, the same on every attempt.
    messageId: text('message_id').notNull().unique(),
    event: text('event').$type<WebhookEventType>().notNull(),
    body: text('body').notNull(),
    status: webhookDeliveryStatusEnum('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow().notNull(),
    // A sender owns a claimed row until then; a crashed sender's rows come back after it.
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    durationMs: integer('duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (t) => [
    // The sender reads only pending rows, oldest due first.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    // A webhook's log, newest first; also what a deleted webhook's rows are found by.
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id),
    // The sender's pruning of finished deliveries, oldest first.
    index('webhook_deliveries_done_idx')
      .on(t.createdAt)
      .where(sql`${t.status} <> 'pending'`),
  ],
);
