import { MESSAGES, WEBHOOK_FAILING_DAYS, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_TIMEOUT_MS } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { insertNotifications } from '../db/queries/notifications.js';
import {
  activeAdmins,
  claimDueDeliveries,
  disableWebhook,
  endFailingRun,
  failingSinceAfter,
  failPendingDeliveries,
  findWebhook,
  pruneDeliveries,
  recordAttempt,
  type DeliveryRow,
  type WebhookRow,
} from '../db/queries/webhooks.js';
import type { UnitOfWork } from '../db/unitOfWork.js';
import { bareHost } from '../lib/publicAddress.js';
import { failureLevel, type Logger } from '../lib/logger.js';
import { createPassLoop } from '../lib/passLoop.js';
import { NO_METRICS, type MetricsRecorder } from '../metrics/metrics.js';
import { attemptDelivery, type AddressRules, type AttemptOutcome } from './post.js';
import { signedHeaders } from '../lib/webhookSigning.js';

const DAY_MS = 86_400_000;
/** Finished deliveries are kept this long for the log, then pruned (docs/decisions.md#webhooks). */
export const DELIVERY_KEEP_MS = 30 * DAY_MS;
/** How often a sender prunes, and how many rows at most each time. */
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 1_000;

export interface WebhookSenderOptions {
  db: Db;
  withTransaction: UnitOfWork;
  logger: Logger;
  rules: AddressRules;
  /** How often due deliveries are looked for without a nudge (retries, other processes' leftovers). */
  pollMs: number;
  /** The clock retries are scheduled by (tests move it). */
  now?: () => Date;
  timeoutMs?: number;
  batchSize?: number;
  /** Deliveries sent at once. */
  concurrency?: number;
  metrics?: Pick<MetricsRecorder, 'webhookDelivery'>;
}

export interface WebhookSender {
  /** One pass now: prunes when due, then sends every due delivery; how many were attempted. */
  passOnce(now?: Date): Promise<number>;
  /** A pass soon (after a commit that queued deliveries), without waiting for the next poll. */
  nudge(): void;
  /** Resolves once no pass is running or asked for. */
  idle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Sends queued webhook deliveries (docs/api.md#webhooks): claims due rows with FOR UPDATE SKIP
 * LOCKED, so several processes never take the same one, signs and posts each, and records the
 * outcome: delivered, tried again later (WEBHOOK_RETRY_DELAYS_MS), or failed for good. A 410, or
 * failures for WEBHOOK_FAILING_DAYS without a success, turn the endpoint off and tell every admin.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { db, withTransaction, rules, pollMs, now = () => new Date(), timeoutMs = WEBHOOK_TIMEOUT_MS } = options;
  const { batchSize = 20, concurrency = 4, metrics = NO_METRICS } = options;
  const log = options.logger.child({ component: 'webhooks' });
  // A claimed batch is this sender's for as long as sending all of it can take, its lanes each timing
  // out in turn, and one timeout more for recording: no other pass takes a row it is still to send.
  const claimMs = (Math.ceil(batchSize / concurrency) + 1) * timeoutMs;
  let lastPruned = Number.NEGATIVE_INFINITY;
  const loop = createPassLoop(
    () => passOnce(),
    (error) => log[failureLevel(error)]({ err: error }, 'webhook pass failed'),
  );
  const { stopping } = loop;

  /** Turns the endpoint off, fails what it still had to send and tells every admin, once. */
  const disable = (webhook: WebhookRow, reason: string) =>
    withTransaction(async (tx, emit) => {
      const disabled = await disableWebhook(tx, webhook.id, reason);
      if (!disabled) return;
      await failPendingDeliveries(tx, webhook.id, MESSAGES.webhooks.turnedOff);
      const admins = await activeAdmins(tx);
      const rows = await insertNotifications(
        tx,
        admins.map(({ id }) => ({ userId: id, type: 'webhook_disabled' as const, ticketId: null, byId: id, excerpt: reason })),
      );
      for (const row of rows) {
        emit('notification.created', {
          userIds: [row.userId],
          notification: {
            id: row.id,
            type: row.type,
            ticketId: null,
            // Nobody turned it off: the notice is "by" its recipient (protocol NOTIFICATION_TYPES).
            by: admins.find((admin) => admin.id === row.userId) ?? { id: row.userId, name: '' },
            excerpt: row.excerpt,
            createdAt: row.createdAt.toISOString(),
            readAt: null,
          },
        });
      }
      log.warn({ webhookId: webhook.id, reason }, 'webhook turned off');
    });

  /** What an attempt's outcome does to its delivery, and to its endpoint's run of failures. */
  const record = async (delivery: DeliveryRow, webhook: WebhookRow, outcome: AttemptOutcome, at: Date) => {
    const attempt = { lastAttemptAt: at, durationMs: outcome.durationMs };
    if (outcome.kind === 'delivered') {
      await recordAttempt(db, delivery.id, { ...attempt, status: 'delivered', lastStatusCode: outcome.statusCode, lastError: null });
      await endFailingRun(db, webhook.id);
      metrics.webhookDelivery('delivered');
      return;
    }
    const statusCode = outcome.kind === 'refused' ? null : outcome.statusCode;
    const retry = outcome.kind === 'failed' && delivery.attempts <= WEBHOOK_RETRY_DELAYS_MS.length;
    const delay = WEBHOOK_RETRY_DELAYS_MS[delivery.attempts - 1] ?? 0;
    await recordAttempt(db, delivery.id, {
      ...attempt,
      lastStatusCode: statusCode,
      lastError: outcome.error,
      ...(retry ? { nextAttemptAt: new Date(at.getTime() + delay) } : { status: 'failed' }),
    });
    metrics.webhookDelivery(outcome.kind === 'refused' ? 'refused' : retry ? 'retry' : 'failed');
    log.info({ webhookId: webhook.id, deliveryId: delivery.id, attempt: delivery.attempts, statusCode, retry }, 'webhook delivery failed');
    const host = bareHost(new URL(webhook.url));
    if (outcome.kind === 'gone') return disable(webhook, MESSAGES.webhooks.disabledGone(host));
    const failingSince = await failingSinceAfter(db, webhook.id, at);
    if (at.getTime() - failingSince.getTime() >= WEBHOOK_FAILING_DAYS * DAY_MS) {
      await disable(webhook, MESSAGES.webhooks.disabledFailing(host, WEBHOOK_FAILING_DAYS));
    }
  };

  const sendOne = async (delivery: DeliveryRow) => {
    const webhook = await findWebhook(db, delivery.webhookId);
    if (!webhook) return;
    if (!webhook.active) {
      await recordAttempt(db, delivery.id, { status: 'failed', lastError: MESSAGES.webhooks.turnedOff });
      return;
    }
    // The attempt's own time, not the pass's: a receiver refuses a signature much older than now.
    const at = now();
    const headers = signedHeaders(webhook.secret, delivery.messageId, delivery.body, at);
    const outcome = await attemptDelivery(new URL(webhook.url), headers, delivery.body, { rules, timeoutMs });
    await record(delivery, webhook, outcome, at);
  };

  const prune = async (at: Date) => {
    if (at.getTime() - lastPruned < PRUNE_EVERY_MS) return;
    lastPruned = at.getTime();
    const pruned = await pruneDeliveries(db, new Date(at.getTime() - DELIVERY_KEEP_MS), PRUNE_BATCH);
    if (pruned > 0) log.debug({ pruned }, 'old webhook deliveries pruned');
  };

  const passOnce = async (at: Date = now()): Promise<number> => {
    await prune(at);
    let attempted = 0;
    while (!stopping()) {
      const claimed = await claimDueDeliveries(db, at, new Date(at.getTime() + claimMs), batchSize);
      if (claimed.length === 0) break;
      let next = 0;
      const lane = async () => {
        // On stop, what was not started stays claimed until the claim runs out, then any process sends it.
        for (let delivery = claimed[next]; delivery && !stopping(); delivery = claimed[next]) {
          next += 1;
          await sendOne(delivery);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, lane));
      attempted += claimed.length;
    }
    return attempted;
  };

  return {
    passOnce,
    nudge: loop.nudge,
    async idle() {
      // A commit's nudge reaches the sender through the bus, a tick after the commit.
      await new Promise((resolve) => setImmediate(resolve));
      for (let running = loop.current(); running; running = loop.current()) await running;
    },
    start: () => loop.start(pollMs),
    async stop() {
      loop.halt();
      await loop.current();
    },
  };
}
