import { eq } from 'drizzle-orm';
import { isStaff, wantsNotice, type Notification, type TicketNotice } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { findCommentAttachments } from '../db/queries/attachments.js';
import { tickets, users } from '../db/schema/index.js';
import type { BeforeCommit, Emit } from '../db/unitOfWork.js';
import type { DomainEvents } from '../events/bus.js';
import { newMessageId, queueMail, threadHeaders } from './outbox.js';
import { staffNoticeMail, staffReplyMail, statusChangedMail, type MailMessage } from './templates.js';
import { threadAddress, type ThreadKeys } from './threadAddress.js';

export interface TicketMailOptions {
  publicUrl: string;
  /** MAIL_FROM: the sender of automatic mail. */
  mailFrom: string;
  threadKeys: ThreadKeys;
}

/**
 * Headers of every mail we send. X-HelpDesk-Loop (our support address) lets our own intake drop a mail
 * of ours that comes back; Auto-Submitted marks automatic mail, which agents' replies are not, so
 * other systems neither answer it automatically nor take it for a person's.
 */
export const mailHeaders = (supportAddress: string, automatic: boolean): Record<string, string> => ({
  ...(automatic && { 'Auto-Submitted': 'auto-generated' }),
  'X-HelpDesk-Loop': supportAddress,
});

/**
 * What puts a mail to a ticket's owner in the ticket's thread (docs/api.md#headers-and-threading):
 * Reply-To the ticket's signed plus-address, In-Reply-To and References from the thread so far. The
 * mail is then queued `threaded`, so an answer to it threads too.
 */
export async function ownerThreadHeaders(tx: Db, ticketId: number, keys: ThreadKeys) {
  return { replyTo: threadAddress(ticketId, keys), ...(await threadHeaders(tx, ticketId)) };
}

/** A ticket with its owner, as mail to the owner needs them. */
export async function findTicketOwner(tx: Db, ticketId: number) {
  const [row] = await tx
    .select({
      id: tickets.id,
      title: tickets.title,
      name: users.name,
      email: users.email,
      role: users.role,
      preference: users.emailNotifications,
      deletedAt: users.deletedAt,
    })
    .from(tickets)
    .innerJoin(users, eq(users.id, tickets.userId))
    .where(eq(tickets.id, ticketId));
  return row;
}

/**
 * The mail a unit of work's events cause, written to the outbox in its transaction (a beforeCommit
 * hook of db/unitOfWork.ts), so a change and its mail commit or roll back together: the ticket's owner
 * by their email_notifications, staff about mentions and assignments (docs/api.md#email).
 */
export function ticketMail({ publicUrl, mailFrom, threadKeys }: TicketMailOptions): BeforeCommit {
  const { supportAddress } = threadKeys;
  const ticketUrl = (id: number) => `${publicUrl}/ticket/${id}`;

  const ownerOf = async (tx: Db, ticketId: number, notice: TicketNotice) => {
    const row = await findTicketOwner(tx, ticketId);
    return row && !row.deletedAt && wantsNotice(row.preference, notice) ? row : undefined;
  };

  /** A mail to a ticket's owner: in the ticket's thread, answered to its signed plus-address. */
  const toOwner = async (
    tx: Db,
    emit: Emit,
    ticketId: number,
    mail: MailMessage,
    reply?: { commentId: number; agentName: string },
  ): Promise<void> => {
    // A reply carries its comment's files, read here rather than from the event: a reply filed from a
    // staff member's mail gets its files later in the same transaction. (A note is never mailed.)
    const files = reply
      ? (await findCommentAttachments(tx, [reply.commentId])).map((f) => ({
          sha256: f.sha256,
          filename: f.filename,
          contentType: f.contentType,
        }))
      : [];
    const messageId = newMessageId(supportAddress);
    await queueMail(tx, emit, {
      kind: reply ? 'reply' : 'notification',
      messageId,
      ticketId,
      ...(reply && { commentId: reply.commentId }),
      threaded: true,
      message: {
        ...mail,
        from: reply ? { name: `${reply.agentName} via HelpDesk`, address: supportAddress } : mailFrom,
        ...(await ownerThreadHeaders(tx, ticketId, threadKeys)),
        headers: mailHeaders(supportAddress, !reply),
        ...(files.length > 0 && { attachments: files }),
      },
    });
    if (reply) emit('email.status', { ticketId, commentId: reply.commentId, status: 'queued' });
  };

  const statusChanged = async (tx: Db, emit: Emit, event: DomainEvents['ticket.updated']) => {
    const { ticketId, ownerId, actor, statusChange } = event;
    if (!statusChange || actor.id === ownerId) return;
    const owner = await ownerOf(tx, ticketId, { kind: 'status', to: statusChange.to });
    if (!owner) return;
    const mail = statusChangedMail({
      to: owner.email,
      name: owner.name,
      ticket: owner,
      ticketUrl: ticketUrl(ticketId),
      from: statusChange.from,
      status: statusChange.to,
      by: actor.name,
    });
    await toOwner(tx, emit, ticketId, mail);
  };

  const commentAdded = async (tx: Db, emit: Emit, event: DomainEvents['comment.added']) => {
    const { ticketId, ownerId, commentId, actor, comment } = event;
    // Internal notes never leave by mail; nobody is mailed their own words.
    if (comment.internal || !isStaff(actor) || actor.id === ownerId) return;
    const owner = await ownerOf(tx, ticketId, { kind: 'staff-comment' });
    if (!owner) return;
    const mail = staffReplyMail({
      to: owner.email,
      name: owner.name,
      ticket: owner,
      ticketUrl: ticketUrl(ticketId),
      by: actor.name,
      content: comment.content,
    });
    await toOwner(tx, emit, ticketId, mail, { commentId, agentName: actor.name });
  };

  // Mentions and assignments reach staff by email too, when their preference is `important` or `all`.
  // Not threaded: an answer by mail to a notice about a note would otherwise become a public reply.
  const staffNotice = async (tx: Db, emit: Emit, { userIds, notification }: DomainEvents['notification.created']) => {
    // SLA marks stay in the app: a scan that finds many missed deadlines must not flood mailboxes, nor
    // write a mail per notification inside its one transaction.
    // A webhook turned off is about no ticket, and stays in the app too.
    if (notification.type !== 'mention' && notification.type !== 'assigned') return;
    const { type: kind, ticketId } = notification;
    if (ticketId === null) return;
    for (const userId of userIds) await staffNoticeTo(tx, emit, userId, { kind, ticketId, notification });
  };

  const staffNoticeTo = async (
    tx: Db,
    emit: Emit,
    userId: number,
    { kind, ticketId, notification }: { kind: 'mention' | 'assigned'; ticketId: number; notification: Notification },
  ) => {
    const [row] = await tx
      .select({
        email: users.email,
        name: users.name,
        preference: users.emailNotifications,
        deletedAt: users.deletedAt,
        title: tickets.title,
      })
      .from(users)
      .innerJoin(tickets, eq(tickets.id, ticketId))
      .where(eq(users.id, userId));
    if (!row || row.deletedAt || !wantsNotice(row.preference, { kind })) return;
    const mail = staffNoticeMail({
      to: row.email,
      name: row.name,
      ticket: { id: ticketId, title: row.title },
      ticketUrl: ticketUrl(ticketId),
      kind,
      by: notification.by.name,
      excerpt: notification.excerpt,
    });
    await queueMail(tx, emit, {
      kind: 'notification',
      messageId: newMessageId(supportAddress),
      message: { ...mail, from: mailFrom, headers: mailHeaders(supportAddress, true) },
    });
  };

  return async (tx, events, emit) => {
    for (const event of events) {
      if (event.name === 'ticket.updated') await statusChanged(tx, emit, event.payload);
      else if (event.name === 'comment.added') await commentAdded(tx, emit, event.payload);
      else if (event.name === 'notification.created') await staffNotice(tx, emit, event.payload);
    }
  };
}
