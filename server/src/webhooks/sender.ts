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
  nextDueAfter,
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
  /**
   * How often due deliveries are looked for without a nudge (other processes' leftovers); a retry
   * falling due sooner wakes the sender itself.
   */
  pollMs: number;
  /** The clock retries are scheduled by (tests move it). */
  now?: () => Date;
  timeoutMs?: number;
  /** Due rows a claim looks at, across endpoints. */
  batchSize?: number;
  /** Attempts in flight at once to one endpoint; every endpoint has its own. */
  concurrency?: number;
  metrics?: Pick<MetricsRecorder, 'webhookDelivery'>;
}

export interface WebhookSender {
  /**
   * Prunes when due, then sends every delivery due at `now` and waits for those attempts and any in
   * flight already; how many it claimed.
   */
  passOnce(now?: Date): Promise<number>;
  /** A pass soon (after a commit that queued deliveries), without waiting for the next poll. */
  nudge(): void;
  /** Resolves once no pass is running or asked for and no attempt is in flight. */
  idle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Sends queued webhook deliveries (docs/api.md#webhooks): claims due rows with FOR UPDATE SKIP
 * LOCKED, so several processes never take the same one, signs and posts each, and records the
 * outcome: delivered, tried again later (WEBHOOK_RETRY_DELAYS_MS), or failed for good. A 410, or
 * failures for WEBHOOK_FAILING_DAYS without a success, turn the endpoint off and tell every admin.
 *
 * Each endpoint is a lane of its own: a pass claims up to `concurrency` rows for every endpoint with
 * nothing in flight here, starts their attempts and ends, without waiting for them. A slow endpoint
 * holds up only its own deliveries; when its attempts end, a pass takes what fell due for it meanwhile.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { db, withTransaction, rules, pollMs, now = () => new Date(), timeoutMs = WEBHOOK_TIMEOUT_MS } = options;
  const { batchSize = 20, concurrency = 4, metrics = NO_METRICS } = options;
  const log = options.logger.child({ component: 'webhooks' });
  // A claimed row is attempted at once, so its claim lasts the attempt's timeout and one timeout more
  // for resolving the name and recording the outcome: no other pass takes a row it is still sending.
  const claimMs = 2 * timeoutMs;
  let lastPruned = Number.NEGATIVE_INFINITY;
  /** Each endpoint's attempts in flight here; `again`: rows may have fallen due for it meanwhile. */
  const lanes = new Map<number, { done: Promise<void>; again: boolean }>();
  /** The claim in progress: one at a time, so two never start lanes for one endpoint. */
  let claiming: Promise<unknown> = Promise.resolve();
  let started = false;
  /** The wake-up set for the next retry to fall due (its time by `now`), if any. */
  let wake: { at: number; timer: NodeJS.Timeout } | undefined;
  const loop = createPassLoop(
    () => pass(now()),
    (error) => log[failureLevel(error)]({ err: error }, 'webhook pass failed'),
  );
  const { stopping } = loop;
  const running = () => started && !stopping();

  /**
   * A pass when a delivery falls due at `due` (a retry), unless one is set for sooner. The poll
   * comes within pollMs anyway, so the timer is never longer; a pass then sets the next.
   */
  const wakeAt = (due: Date | undefined) => {
    if (!due || !running() || (wake && wake.at <= due.getTime())) return;
    clearTimeout(wake?.timer);
    const timer = setTimeout(
      () => {
        wake = undefined;
        loop.nudge();
      },
      Math.min(Math.max(due.getTime() - now().getTime(), 0), pollMs),
    );
    timer.unref();
    wake = { at: due.getTime(), timer };
  };

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

  /**
   * What an attempt's outcome does to its delivery, and to its endpoint's run of failures. `at`: when
   * the attempt began; `ended`: when it ended, which the next attempt's delay counts from.
   */
  const record = async (delivery: DeliveryRow, webhook: WebhookRow, outcome: AttemptOutcome, at: Date, ended: Date) => {
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
    // After the failure, not after the attempt began: a timeout would otherwise eat most of a 5 s delay.
    const nextAttemptAt = new Date(ended.getTime() + delay);
    await recordAttempt(db, delivery.id, {
      ...attempt,
      lastStatusCode: statusCode,
      lastError: outcome.error,
      ...(retry ? { nextAttemptAt } : { status: 'failed' }),
    });
    if (retry) wakeAt(nextAttemptAt);
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
    await record(delivery, webhook, outcome, at, now());
  };

  const prune = async (at: Date) => {
    if (at.getTime() - lastPruned < PRUNE_EVERY_MS) return;
    lastPruned = at.getTime();
    const pruned = await pruneDeliveries(db, new Date(at.getTime() - DELIVERY_KEEP_MS), PRUNE_BATCH);
    if (pruned > 0) log.debug({ pruned }, 'old webhook deliveries pruned');
  };

  /** Attempts one endpoint's claimed rows side by side; once they end, a pass if more may be due for it. */
  const startLane = (webhookId: number, rows: DeliveryRow[]) => {
    // As many as it may have at once were taken: there may be more.
    const lane = { done: Promise.resolve(), again: rows.length >= concurrency };
    const attempts = rows.map((delivery) =>
      sendOne(delivery).catch((error: unknown) =>
        log[failureLevel(error)]({ err: error, webhookId, deliveryId: delivery.id }, 'webhook attempt not completed'),
      ),
    );
    lane.done = Promise.all(attempts).then(() => {
      lanes.delete(webhookId);
      if (lane.again && running()) loop.nudge();
    });
    lanes.set(webhookId, lane);
  };

  /** Claims what is due at `at` for the endpoints with nothing in flight here and starts their lanes. */
  const claimAndStart = (at: Date): Promise<number> => {
    const claim = claiming.then(async () => {
      // The endpoints passed over now may have rows due: their lanes look again when they end.
      for (const lane of lanes.values()) lane.again = true;
      let count = 0;
      while (!stopping()) {
        const claimed = await claimDueDeliveries(db, at, new Date(at.getTime() + claimMs), {
          limit: batchSize,
          perEndpoint: concurrency,
          skipEndpoints: [...lanes.keys()],
        });
        if (claimed.length === 0) break;
        const byEndpoint = new Map<number, DeliveryRow[]>();
        for (const delivery of claimed) byEndpoint.set(delivery.webhookId, [...(byEndpoint.get(delivery.webhookId) ?? []), delivery]);
        for (const [webhookId, rows] of byEndpoint) startLane(webhookId, rows);
        count += claimed.length;
      }
      return count;
    });
    claiming = claim.catch(() => undefined);
    return claim;
  };

  const inFlight = () => [...lanes.values()].map((lane) => lane.done);

  const pass = async (at: Date): Promise<number> => {
    await prune(at);
    const claimed = await claimAndStart(at);
    // Retries this process did not schedule (another's, or its own before a restart) wake it too.
    wakeAt(await nextDueAfter(db, at));
    return claimed;
  };

  const passOnce = async (at: Date = now()): Promise<number> => {
    let claimed = await pass(at);
    // Until a claim finds nothing with no attempt in flight: those may have ended before it looked.
    for (let last = claimed; (last > 0 || lanes.size > 0) && !stopping(); claimed += last) {
      await Promise.all(inFlight());
      last = await claimAndStart(at);
    }
    return claimed;
  };

  return {
    passOnce,
    nudge: loop.nudge,
    async idle() {
      // A commit's nudge reaches the sender through the bus, a tick after the commit.
      await new Promise((resolve) => setImmediate(resolve));
      // An ending lane may ask for a pass, and a pass may start lanes: until neither is left.
      const busy = () => [loop.current(), ...inFlight()].filter((work) => work !== undefined);
      for (let work = busy(); work.length > 0; work = busy()) await Promise.all(work);
    },
    start() {
      started = true;
      loop.start(pollMs);
    },
    async stop() {
      loop.halt();
      clearTimeout(wake?.timer);
      wake = undefined;
      await loop.current();
      await claiming;
      // The attempts in flight end within their timeout and are recorded.
      await Promise.all(inFlight());
    },
  };
}
