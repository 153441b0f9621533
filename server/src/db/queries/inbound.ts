import { and, asc, desc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import { INBOUND_LIMITS, type InboundStatus } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { literalLimit } from '../plannedStatements.js';
import { returnedRow } from '../rows.js';
import { imapState, inboundMessages } from '../schema/index.js';

export type InboundRow = typeof inboundMessages.$inferSelect;
export type NewInbound = Pick<
  typeof inboundMessages.$inferInsert,
  'messageId' | 'envelopeFrom' | 'envelopeTo' | 'size' | 'sha256' | 'source' | 'dedupeKey'
>;

/** Back-off after a failed attempt, by the number of attempts made so far. */
const RETRY_DELAYS_SECONDS = [1, 5, 30, 120];

/**
 * A new message, queued; or, when its key is an original's (same Message-ID and recipients, or the
 * same bytes without a Message-ID), a row of its own that is `ignored` as a duplicate of it. The
 * partial unique index settles two copies arriving at once.
 */
export async function insertInbound(db: Db, values: NewInbound): Promise<InboundRow> {
  const [queued] = await db
    .insert(inboundMessages)
    .values(values)
    .onConflictDoNothing({ target: inboundMessages.dedupeKey, where: sql`${inboundMessages.duplicateOf} is null` })
    .returning();
  if (queued) return queued;
  const [original] = await db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.dedupeKey, values.dedupeKey), sql`${inboundMessages.duplicateOf} is null`));
  const rows = await db
    .insert(inboundMessages)
    .values({ ...values, status: 'ignored', reason: 'duplicate', duplicateOf: original?.id ?? null })
    .returning();
  return returnedRow(rows, 'the duplicate inbound insert');
}

/**
 * The oldest queued message that is due, claimed for one attempt: several workers (processes) never
 * take the same one (FOR UPDATE SKIP LOCKED), and its lease (`leaseMs`, INBOUND_CLAIM_MS) lets
 * another take it if this one dies.
 */
export async function claimInbound(db: Db, leaseMs: number): Promise<InboundRow | undefined> {
  const due = db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.status, 'queued'), lte(inboundMessages.nextAttemptAt, sql`now()`)))
    .orderBy(asc(inboundMessages.nextAttemptAt), asc(inboundMessages.id))
    .limit(1)
    .for('update', { skipLocked: true });
  // One statement claims and reads the row.
  const [row] = await db
    .update(inboundMessages)
    .set({
      attempts: sql`${inboundMessages.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
    })
    .where(inArray(inboundMessages.id, due))
    .returning();
  return row;
}

/** Locks a claimed row for its filing and answers it only while it is still this attempt's. */
export async function lockClaimed(tx: Db, claim: Pick<InboundRow, 'id' | 'attempts'>): Promise<InboundRow | undefined> {
  const [row] = await tx.select().from(inboundMessages).where(eq(inboundMessages.id, claim.id)).for('update');
  return row && row.status === 'queued' && row.attempts === claim.attempts ? row : undefined;
}

export interface InboundOutcome {
  status: Exclude<InboundStatus, 'queued'>;
  reason?: string | null;
  ticketId?: number | null;
  commentId?: number | null;
}

export async function finishInbound(
  db: Db,
  id: number,
  outcome: InboundOutcome & { fromAddress?: string | null; subject?: string | null },
) {
  await db
    .update(inboundMessages)
    .set({
      status: outcome.status,
      reason: outcome.reason ?? null,
      ticketId: outcome.ticketId ?? null,
      commentId: outcome.commentId ?? null,
      ...(outcome.fromAddress !== undefined && { fromAddress: outcome.fromAddress }),
      ...(outcome.subject !== undefined && { subject: outcome.subject }),
    })
    .where(eq(inboundMessages.id, id));
}

/** A failed attempt: tried again after a back-off, or `failed` once it has had its attempts. */
export async function failAttempt(db: Db, claim: Pick<InboundRow, 'id' | 'attempts'>, reason: string): Promise<InboundStatus> {
  const failed = claim.attempts >= INBOUND_LIMITS.maxAttempts;
  const delay = RETRY_DELAYS_SECONDS[Math.min(claim.attempts, RETRY_DELAYS_SECONDS.length) - 1] ?? 1;
  await db
    .update(inboundMessages)
    .set({
      reason,
      ...(failed ? { status: 'failed' as const } : { nextAttemptAt: sql`now() + make_interval(secs => ${delay})` }),
    })
    .where(and(eq(inboundMessages.id, claim.id), eq(inboundMessages.status, 'queued'), eq(inboundMessages.attempts, claim.attempts)));
  return failed ? 'failed' : 'queued';
}

/** Sets the sender and subject read by the parser, so the admin page shows them whatever filing makes of it. */
export async function describeInbound(db: Db, id: number, values: { fromAddress: string | null; subject: string | null }) {
  await db.update(inboundMessages).set(values).where(eq(inboundMessages.id, id));
}

/** An admin's retry of a failed message: queued again with fresh attempts. */
export async function requeueFailed(db: Db, id: number): Promise<InboundRow | undefined> {
  const [row] = await db
    .update(inboundMessages)
    .set({ status: 'queued', attempts: 0, reason: null, nextAttemptAt: sql`now()` })
    .where(and(eq(inboundMessages.id, id), eq(inboundMessages.status, 'failed')))
    .returning();
  return row;
}

export async function findInbound(db: Db, id: number): Promise<InboundRow | undefined> {
  const [row] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
  return row;
}

/**
 * The message a ticket was made from (its description is that mail's text), off
 * inbound_messages_ticket_idx; a ticket written on the web has none.
 */
export async function findTicketSource(db: Db, ticketId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.ticketId, ticketId), eq(inboundMessages.status, 'ticket')))
    .orderBy(asc(inboundMessages.id))
    // Read with the detail on the planned-once pool, which wants its LIMIT in the text.
    .limit(literalLimit(1));
  return row?.id;
}

/** Newest first, `limit` of them older than `before`; one more is read to tell whether more remain. */
export async function listInbound(db: Db, limit: number, before?: number): Promise<{ rows: InboundRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(inboundMessages)
    .where(before === undefined ? undefined : lt(inboundMessages.id, before))
    .orderBy(desc(inboundMessages.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** Tickets, comments and notes one sender's mail made in the last hour: the per-sender cap's count. */
export async function countFiledFromSender(db: Db, fromAddress: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(inboundMessages)
    .where(
      and(
        eq(inboundMessages.fromAddress, fromAddress),
        gt(inboundMessages.receivedAt, sql`now() - interval '1 hour'`),
        inArray(inboundMessages.status, ['ticket', 'comment', 'note']),
      ),
    );
  return row?.n ?? 0;
}

export async function readImapState(db: Db, mailbox: string) {
  const [row] = await db.select().from(imapState).where(eq(imapState.mailbox, mailbox));
  return row;
}

export async function saveImapState(db: Db, mailbox: string, uidValidity: number, lastUid: number) {
  await db
    .insert(imapState)
    .values({ mailbox, uidValidity, lastUid })
    .onConflictDoUpdate({ target: imapState.mailbox, set: { uidValidity, lastUid, updatedAt: sql`now()` } });
}
