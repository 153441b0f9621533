import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { emailOutbox } from '../db/schema/index.js';
import type { UnitOfWork } from '../db/unitOfWork.js';
import { failureLevel, type Logger } from '../lib/logger.js';
import { createPassLoop } from '../lib/passLoop.js';
import { NO_METRICS, type MetricsRecorder } from '../metrics/metrics.js';
import { redactTokens } from './outbox.js';
import type { MailTransport } from './transport.js';

/** After a failed attempt, the next one comes this much later; after the last, the mail is `failed`. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

type OutboxRow = typeof emailOutbox.$inferSelect;

export interface OutboxSenderOptions {
  db: Db;
  withTransaction: UnitOfWork;
  transport: MailTransport;
  logger: Logger;
  /** How long a claimed mail belongs to this sender; a crashed sender's mail is taken again after it. */
  claimMs: number;
  /** How often due mail is looked for without a nudge (retries, other processes' leftovers). */
  pollMs: number;
  /** The clock retries are scheduled by (tests move it). */
  now?: () => Date;
  batchSize?: number;
  /** Mails sent at once over the transport's pooled connections (OUTBOX_CONCURRENCY). */
  concurrency?: number;
  metrics?: Pick<MetricsRecorder, 'mailOut'>;
}

export interface OutboxSender {
  /** Look for due mail now (after a commit that queued some), without waiting for the next poll. */
  nudge(): void;
  /** Work that queues mail after the answer was sent (the reset lookup); idle() waits for it too. */
  later(work: () => Promise<unknown>): void;
  /** Resolves once no background work, pass or nudge is left: every due mail was tried. */
  idle(): Promise<void>;
  start(): void;
  /** Stops polling, lets the mail in hand finish, and gives back the rest of the batch. */
  stop(): Promise<void>;
}

/**
 * Sends the outbox (docs/api.md#email): claims a batch of due rows with FOR UPDATE SKIP LOCKED, so
 * several processes never take the same row, and sends `concurrency` of them at a time, recording
 * each as soon as the server accepted it: a crash can send again only the mails in flight at that
 * moment, once their claim runs out; every other mail is sent exactly once.
 */
export function createOutboxSender(options: OutboxSenderOptions): OutboxSender {
  const { db, withTransaction, transport, claimMs, pollMs, now = () => new Date(), batchSize = 20, concurrency = 1 } = options;
  const { metrics = NO_METRICS } = options;
  const log = options.logger.child({ component: 'mail' });
  const background = new Set<Promise<unknown>>();
  const loop = createPassLoop(
    () => pass(),
    (error) => log[failureLevel(error)]({ err: error }, 'outbox pass failed'),
  );
  const { stopping } = loop;

  const claim = async (): Promise<OutboxRow[]> => {
    const at = now();
    // The database stamps queued mail in microseconds, this clock reads whole milliseconds: a mail
    // queued within the current millisecond is due too, or it would wait a whole poll.
    const endOfThisMs = new Date(at.getTime() + 1);
    const due = db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.status, 'queued'),
          lt(emailOutbox.nextAttemptAt, endOfThisMs),
          or(isNull(emailOutbox.claimedUntil), lt(emailOutbox.claimedUntil, at)),
        ),
      )
      .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const rows = await db
      .update(emailOutbox)
      .set({ claimedUntil: new Date(at.getTime() + claimMs), attempts: sql`${emailOutbox.attempts} + 1` })
      .where(inArray(emailOutbox.id, due))
      .returning();
    return rows.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id);
  };

  /** A reset link is a password for an hour: once its mail is done with, the outbox keeps it no longer. */
  const scrubbed = (row: OutboxRow, set: Partial<typeof emailOutbox.$inferInsert>) =>
    row.kind === 'password-reset' && set.status
      ? { ...set, message: { ...row.message, text: redactTokens(row.message.text), html: redactTokens(row.message.html) } }
      : set;

  /** The row's new state, and for a reply, its email-status event to staff. */
  const record = (row: OutboxRow, set: Partial<typeof emailOutbox.$inferInsert>) =>
    withTransaction(async (tx, emit) => {
      const [updated] = await tx
        .update(emailOutbox)
        .set({ ...scrubbed(row, set), claimedUntil: null })
        .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, 'queued')))
        .returning({ status: emailOutbox.status });
      if (updated && updated.status !== 'queued' && row.ticketId !== null && row.commentId !== null) {
        emit('email.status', { ticketId: row.ticketId, commentId: row.commentId, status: updated.status });
      }
    });

  const sendOne = async (row: OutboxRow) => {
    try {
      await transport.deliver(row);
    } catch (error) {
      // Every refusal is retried, 5xx too: a misconfigured server (535 bad password, 554 relay denied)
      // refuses every mail alike, and must not fail them all for good before anyone can fix it.
      const retry = row.attempts <= RETRY_DELAYS_MS.length;
      const delay = RETRY_DELAYS_MS[row.attempts - 1] ?? 0;
      log.warn({ err: error, outboxId: row.id, to: row.recipient, attempt: row.attempts, retry }, 'mail delivery failed');
      const lastError = error instanceof Error ? error.message.slice(0, 500) : String(error);
      await record(row, retry ? { nextAttemptAt: new Date(now().getTime() + delay), lastError } : { status: 'failed', lastError });
      metrics.mailOut(retry ? 'retry' : 'failed');
      return;
    }
    await record(row, { status: 'sent', sentAt: now(), lastError: null });
    metrics.mailOut('sent');
    log.debug({ outboxId: row.id, to: row.recipient }, 'mail sent');
  };

  /** Gives claimed rows back at once (a clean stop), instead of after the claim runs out. */
  const release = async (rows: OutboxRow[]) => {
    if (rows.length === 0) return;
    await db
      .update(emailOutbox)
      .set({ claimedUntil: null, attempts: sql`${emailOutbox.attempts} - 1` })
      .where(
        and(
          inArray(
            emailOutbox.id,
            rows.map((r) => r.id),
          ),
          eq(emailOutbox.status, 'queued'),
        ),
      );
  };

  /** Sends a claimed batch, oldest first, `concurrency` at a time; on stop, gives back what was not started. */
  const sendBatch = async (rows: OutboxRow[]) => {
    let next = 0;
    const lane = async () => {
      for (let row = rows[next]; row && !stopping(); row = rows[next]) {
        next += 1;
        await sendOne(row);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, lane));
    await release(rows.slice(next));
  };

  const pass = async () => {
    while (!stopping()) {
      const rows = await claim();
      if (rows.length === 0) return;
      await sendBatch(rows);
    }
  };

  return {
    nudge: loop.nudge,
    later(work) {
      const job = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch((error: unknown) => log.error({ err: error }, 'mail could not be queued'));
      background.add(job);
      void job.finally(() => background.delete(job));
    },
    async idle() {
      for (;;) {
        const running = loop.current();
        if (background.size > 0) await Promise.all([...background]);
        else if (running) await running;
        else {
          // A commit's nudge reaches the sender through the bus, a tick after the commit.
          await new Promise((resolve) => setImmediate(resolve));
          if (background.size === 0 && !loop.current()) return;
        }
      }
    },
    start: () => loop.start(pollMs),
    async stop() {
      loop.halt();
      await Promise.all([...background]);
      await loop.current();
    },
  };
}
