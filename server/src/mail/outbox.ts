import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { Emit } from '../db/unitOfWork.js';
import { emailMessages, emailOutbox, ticketComments, type EMAIL_KINDS, type OutboxMessage } from '../db/schema/index.js';
import { returnedRow } from '../db/rows.js';

export interface QueuedMail {
  kind: (typeof EMAIL_KINDS)[number];
  message: OutboxMessage;
  /** Without angle brackets; made here when not given. */
  messageId: string;
  ticketId?: number;
  commentId?: number;
  /** Recorded as a message of the ticket's thread (email_messages), so a reply to it threads. */
  threaded?: boolean;
}

/** `<uuid>@<domain of the support address>`, without angle brackets. */
export const newMessageId = (supportAddress: string) => `${randomUUID()}@${supportAddress.slice(supportAddress.lastIndexOf('@') + 1)}`;

/**
 * A reset link's secret replaced, and a survey link's (`/rate/<token>`): for logs, and for the outbox
 * once a reset mail has gone.
 */
export const redactTokens = (text: string) => text.replace(/([?&]token=|\/rate\/)[^\s&#"<?]+/g, '$1[redacted]');

export const bracketed = (messageId: string) => `<${messageId}>`;

/**
 * Writes a mail to the outbox inside the caller's transaction: it exists exactly when the change that
 * causes it does, and the sender takes it once that commits (docs/api.md#email).
 */
export async function queueMail(tx: Db, emit: Emit, mail: QueuedMail): Promise<number> {
  const inserted = await tx
    .insert(emailOutbox)
    .values({
      kind: mail.kind,
      messageId: mail.messageId,
      recipient: mail.message.to,
      message: mail.message,
      ticketId: mail.ticketId ?? null,
      commentId: mail.commentId ?? null,
    })
    .returning({ id: emailOutbox.id });
  if (mail.threaded && mail.ticketId !== undefined) {
    await tx.insert(emailMessages).values({
      messageId: mail.messageId,
      ticketId: mail.ticketId,
      commentId: mail.commentId ?? null,
      direction: 'out',
      // The clock rather than now(): one transaction's messages keep their order.
      createdAt: new Date(),
    });
  }
  const { id } = returnedRow(inserted, 'the outbox insert');
  emit('mail.queued', { outboxId: id });
  return id;
}

/** How many of the latest messages a reply's References names, after the thread's first. */
const REFERENCES_LATEST = 10;

/**
 * The headers that put a new mail in a ticket's thread: In-Reply-To the latest message sent or
 * received, References the first and the latest ten (oldest first), all in angle brackets. Only the
 * owner's side of the thread counts: a mail filed as an internal note (a stranger's) is never named,
 * or its Message-ID would reach the owner.
 */
export async function threadHeaders(tx: Db, ticketId: number): Promise<{ inReplyTo?: string; references?: string[] }> {
  const thread = () =>
    tx
      .select({ id: emailMessages.messageId })
      .from(emailMessages)
      .leftJoin(ticketComments, eq(ticketComments.id, emailMessages.commentId))
      // A message without a comment is the ticket itself or a notice to the owner.
      .where(and(eq(emailMessages.ticketId, ticketId), or(isNull(ticketComments.id), eq(ticketComments.internal, false))));
  const latest = await thread().orderBy(desc(emailMessages.createdAt), desc(emailMessages.messageId)).limit(REFERENCES_LATEST);
  const [newest] = latest;
  if (!newest) return {};
  const [first = newest] = await thread().orderBy(asc(emailMessages.createdAt), asc(emailMessages.messageId)).limit(1);
  const ids = [...new Set([first.id, ...latest.map((m) => m.id).reverse()])];
  return { inReplyTo: bracketed(newest.id), references: ids.map(bracketed) };
}

/**
 * Which of these Message-IDs (without angle brackets) are mails we sent, any kind, in the order
 * given: a delivery report is matched against the whole outbox, not only the threads' mail.
 */
export async function findOurMessageIds(db: Db, messageIds: string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows = await db.select({ messageId: emailOutbox.messageId }).from(emailOutbox).where(inArray(emailOutbox.messageId, messageIds));
  const ours = new Set(rows.map((row) => row.messageId));
  return messageIds.filter((id) => ours.has(id));
}

/**
 * A delivery report named one of our mails (the intake matches it by Message-ID, with or without
 * angle brackets): the mail becomes `bounced`, and staff hear of it when it was a reply. Returns the
 * mail's recipient and ticket, or undefined when the Message-ID is not one of our outgoing mails.
 */
export async function markBounced(tx: Db, emit: Emit, messageId: string, reason?: string) {
  const [row] = await tx
    .update(emailOutbox)
    .set({ status: 'bounced', claimedUntil: null, ...(reason !== undefined && { lastError: reason }) })
    .where(eq(emailOutbox.messageId, messageId.trim().replace(/^<(.*)>$/, '$1')))
    .returning({ recipient: emailOutbox.recipient, ticketId: emailOutbox.ticketId, commentId: emailOutbox.commentId });
  if (row?.ticketId != null && row.commentId != null) {
    emit('email.status', { ticketId: row.ticketId, commentId: row.commentId, status: 'bounced' });
  }
  return row;
}
