import { formatBytes, isStaff, LIMITS, MESSAGES, type Attachment, type Ticket } from '@helpdesk/protocol';
import { sanitizeFilename } from '../../attachments/filename.js';
import type { Db } from '../../db/client.js';
import {
  countFiledFromSender,
  describeInbound,
  finishInbound,
  lockClaimed,
  type InboundOutcome,
  type InboundRow,
} from '../../db/queries/inbound.js';
import { findCommentAuthor, findThreadMessages, recordIncoming } from '../../db/queries/inboundThreads.js';
import { findTicketRow, touchTicketActivity, type TicketRow } from '../../db/queries/tickets.js';
import { countConversation, insertComment, insertHistory } from '../../db/queries/ticketThread.js';
import { returnedRow } from '../../db/rows.js';
import type { Emit } from '../../db/unitOfWork.js';
import { actorRef } from '../../events/bus.js';
import type { Actor } from '../../lib/actor.js';
import { ConflictError } from '../../lib/errors.js';
import { parseThreadAddress } from '../../mail/threadAddress.js';
import { findOurMessageIds, markBounced } from '../../mail/outbox.js';
import { presentComment, presentHistoryEntry } from '../../presenters/tickets.js';
import type { ServiceContext } from '../context.js';
import type { TicketService } from '../tickets/index.js';
import { findActiveUserByEmail, findOrCreatePasswordlessUser, type UserRecord } from '../userRecords.js';
import { parseMail, type InboundMail, type MailAttachment } from './parse.js';
import type { RawStore } from './rawStore.js';
import { cutTo, replyText, storable, withoutControls } from './replyText.js';
import { deliveryReport, loopReason, type DeliveryReport } from './rules.js';

export interface FilingSettings {
  supportAddress: string;
  createUsers: boolean;
  maxPerSenderPerHour: number;
}

/** A report bigger than this is not scanned for the returned message's Message-ID. */
const REPORT_SCAN_BYTES = 1024 * 1024;

const actorOf = (row: UserRecord): Actor => ({ id: row.id, name: row.name, email: row.email, role: row.role });

/** The claim was taken over (its lease ran out and another worker filed it): this attempt writes nothing. */
class ClaimLost extends Error {}

/** The reason a delivery report of one of our mails is filed with (its mail is marked bounced). */
export const BOUNCE_REASON = 'bounce';

/**
 * Files one claimed message (docs/api.md#email-intake): reads it, recognises delivery reports and
 * loops, threads it, decides by who sent it, and writes the comment, note or ticket through the
 * ticket services in one transaction with the message's own row and its thread record, so a crash
 * or a retry never files a message twice.
 */
export function createInboundFiling(context: ServiceContext, tickets: TicketService, raw: RawStore, settings: FilingSettings) {
  const { db, withTransaction, threadKeys, attachments } = context;
  /** ATTACHMENT_MAX_COUNT: the files a ticket or comment may carry, from a mail as from an upload. */
  const maxFiles = context.settings.attachments.maxCount;

  /** Ends the claimed row without any other write. */
  const finishAlone = (claim: InboundRow, outcome: InboundOutcome) =>
    withTransaction(async (tx) => {
      if (!(await lockClaimed(tx, claim))) throw new ClaimLost();
      await finishInbound(tx, claim.id, outcome);
    });

  /** The mail's files, but for `cid:` images and those over ATTACHMENT_MAX_BYTES: the ones the count applies to. */
  const keepable = (mail: InboundMail): MailAttachment[] => mail.attachments.filter((a) => !a.related && a.size <= attachments.maxBytes);

  /** The mail's files that are kept, the first ATTACHMENT_MAX_COUNT (the others are said in the text, filesNotKept). */
  const keptFiles = (mail: InboundMail): MailAttachment[] => keepable(mail).slice(0, maxFiles);

  /**
   * What the ticket service runs inside its transaction: the claim still ours, the mail's files
   * stored and given to the comment (or the ticket), the message recorded. Answers the files, which
   * a comment's event carries: it runs before that event.
   */
  const recordWithin =
    (claim: InboundRow, mail: InboundMail, status: 'ticket' | 'comment' | 'note', reason?: string) =>
    async (tx: Db, ticketId: number, commentId: number | null, uploaderId: number): Promise<Attachment[]> => {
      if (!(await lockClaimed(tx, claim))) throw new ClaimLost();
      const ids: number[] = [];
      for (const file of keptFiles(mail)) {
        const stored = await attachments.store(tx, {
          uploaderId,
          filename: file.filename,
          declaredType: file.contentType,
          bytes: file.content,
        });
        ids.push(stored.id);
      }
      const files = ids.length > 0 ? await attachments.link(tx, ids, { ticketId, commentId }, uploaderId) : [];
      if (mail.messageId) await recordIncoming(tx, { messageId: mail.messageId, ticketId, commentId });
      await finishInbound(tx, claim.id, { status, ticketId, commentId, reason: reason ?? null });
      return files;
    };

  /**
   * `Attachment <name> (<size>) was not kept: …` for each file over ATTACHMENT_MAX_BYTES, then one
   * line for the files past ATTACHMENT_MAX_COUNT.
   */
  const filesNotKept = (mail: InboundMail): string[] => {
    const tooLarge = mail.attachments
      .filter((a) => !a.related && a.size > attachments.maxBytes)
      .map((a) =>
        MESSAGES.attachments.notKept(
          sanitizeFilename(a.filename),
          formatBytes(a.size, attachments.maxBytes),
          formatBytes(attachments.maxBytes),
        ),
      );
    const overCount = keepable(mail).length - maxFiles;
    return overCount > 0 ? [...tooLarge, MESSAGES.attachments.notKeptCount(overCount, maxFiles)] : tooLarge;
  };

  /** The text with the notes of files not kept after it. */
  const withNotes = (text: string, mail: InboundMail): string => [text, ...filesNotKept(mail)].filter(Boolean).join('\n\n');

  /** The ticket this message continues, in the order of docs/api.md#threading. */
  async function findThread(mail: InboundMail, envelopeTo: string[], sender: UserRecord | undefined): Promise<TicketRow | undefined> {
    const ids = [mail.inReplyTo, ...[...mail.references].reverse()].filter((id): id is string => id !== undefined);
    for (const row of await findThreadMessages(db, [...new Set(ids)])) {
      const ticket = await findTicketRow(db, row.ticketId);
      if (ticket) return ticket;
    }
    for (const address of new Set([...envelopeTo, ...mail.recipients])) {
      const ticketId = parseThreadAddress(address, threadKeys);
      const ticket = ticketId === null ? undefined : await findTicketRow(db, ticketId);
      if (ticket) return ticket;
    }
    // The last tag: ours is appended, so a title that quotes another ticket's ("Re: … [#7]", a
    // follow-up made from a reply) leaves its tag before it.
    const tagged = [...mail.subject.matchAll(/\[#([1-9]\d{0,9})\]/g)].at(-1);
    if (tagged && sender) {
      const ticket = await findTicketRow(db, Number(tagged[1]));
      // Anyone can type "[#12]": it threads only the ticket's owner's mail.
      if (ticket && ticket.ticket.userId === sender.id) return ticket;
    }
    return undefined;
  }

  async function bounce(claim: InboundRow, report: DeliveryReport) {
    if (report.action !== 'failed')
      return finishAlone(claim, { status: 'ignored', reason: `delivery report (${report.action ?? 'no action'})` });
    // Any mail of ours (the outbox), a reset, a mention or an assignment too; the thread's record
    // says whether it was mail of a ticket's thread, which alone the ticket hears of.
    const threadMails = await findThreadMessages(db, report.originalIds, 'out');
    const outboxMails = new Set(await findOurMessageIds(db, report.originalIds));
    const messageId = report.originalIds.find((id) => outboxMails.has(id) || threadMails.some((m) => m.messageId === id));
    if (messageId === undefined) return finishAlone(claim, { status: 'ignored', reason: 'bounce of a mail that is not ours' });
    const sent = threadMails.find((m) => m.messageId === messageId);
    const ticket = sent && (await findTicketRow(db, sent.ticketId));
    const address = report.recipient ?? 'unknown address';
    const status = report.status ?? 'unknown status';
    return withTransaction(async (tx, emit) => {
      if (!(await lockClaimed(tx, claim))) throw new ClaimLost();
      // The reply's badge turns to bounced for staff watching the ticket (email-status).
      await markBounced(tx, emit, messageId, MESSAGES.inbound.bounced(address, status));
      if (sent && ticket) {
        // The entry needs an actor: the author of the reply that bounced, else the ticket's owner.
        const author = sent.commentId === null ? undefined : await findCommentAuthor(tx, sent.commentId);
        const actor = author ?? { id: ticket.ticket.userId, name: ticket.ownerName ?? '' };
        await insertHistory(tx, actor, [{ ticketId: ticket.ticket.id, type: 'email_bounced', from: address, to: status, internal: true }]);
      }
      // A mail outside the threads (a reset, a notice to staff) names no ticket here either.
      await finishInbound(tx, claim.id, {
        status: 'ignored',
        reason: BOUNCE_REASON,
        ticketId: sent?.ticketId ?? null,
        commentId: sent?.commentId ?? null,
      });
    });
  }

  /**
   * A comment written for the mail channel itself, from the claimed message: a stranger's note, or a
   * long first message. `record` stores the mail's files on it before its event, which carries them.
   */
  async function writeMailComment(
    tx: Db,
    emit: Emit,
    claim: InboundRow,
    author: Actor,
    ticket: { id: number; userId: number },
    content: string,
    internal: boolean,
    record: (commentId: number) => Promise<Attachment[]>,
  ) {
    const row = await insertComment(tx, author, { ticketId: ticket.id, content, internal });
    const comment = { ...presentComment({ ...row, inboundMessageId: claim.id }), attachments: await record(row.comment.id) };
    const history = presentHistoryEntry(
      returnedRow(
        await insertHistory(tx, author, [{ ticketId: ticket.id, type: 'comment', to: String(comment.id), internal }]),
        'the mail comment history',
      ),
    );
    if (!internal) await touchTicketActivity(tx, ticket.id, author.id, row.comment.createdAt);
    emit('comment.added', {
      ticketId: ticket.id,
      ownerId: ticket.userId,
      commentId: comment.id,
      actor: actorRef(author),
      comment,
      history,
      commentCount: await countConversation(tx, ticket.id),
    });
    return comment;
  }

  /** A new ticket from a message: the subject as its title, the text as its description (docs/api.md#threading). */
  async function newTicket(claim: InboundRow, mail: InboundMail, owner: Actor, followUpOf?: number) {
    const text = withNotes(storable(followUpOf === undefined ? mail.text : replyText(mail.text)).trim(), mail);
    const record = recordWithin(claim, mail, 'ticket', followUpOf === undefined ? undefined : `follow-up of closed ticket #${followUpOf}`);
    const description = text === '' ? MESSAGES.inbound.noText : cutTo(text, LIMITS.ticketDescription.max, '…');
    const long = text.length > LIMITS.ticketDescription.max;
    const ticket = await tickets.create(
      owner,
      { title: titleOf(mail.subject), description, priority: LIMITS.defaultPriority },
      async (tx: Db, emit: Emit, created: Ticket) => {
        if (followUpOf !== undefined)
          await insertHistory(tx, owner, [{ ticketId: created.id, type: 'follow_up', from: String(followUpOf) }]);
        // The description holds 2,000 characters: the whole text follows as the first comment.
        // The files go with the ticket itself; with the first comment when the text went there.
        if (long) {
          await writeMailComment(tx, emit, claim, owner, { id: created.id, userId: owner.id }, commentText(text), false, (commentId) =>
            record(tx, created.id, commentId, owner.id),
          );
        } else await record(tx, created.id, null, owner.id);
      },
    );
    return ticket;
  }

  async function fileClaimed(claim: InboundRow): Promise<void> {
    const mail = await parseMail(raw.open(claim.sha256));
    const from = mail.from?.address ?? null;
    await describeInbound(db, claim.id, { fromAddress: from, subject: storable(mail.subject).slice(0, 998) || null });

    const report = deliveryReport(mail, claim.size <= REPORT_SCAN_BYTES ? (await raw.read(claim.sha256)).toString('latin1') : '');
    if (report) return bounce(claim, report);
    const loop = loopReason(mail, claim.envelopeFrom, settings.supportAddress);
    if (loop) return finishAlone(claim, { status: 'ignored', reason: loop });
    if (!mail.from) return finishAlone(claim, { status: 'rejected', reason: 'no sender address' });
    const sender = await findActiveUserByEmail(db, mail.from.address);
    const envelopeTo = claim.envelopeTo.split(', ').filter(Boolean);
    const thread = await findThread(mail, envelopeTo, sender);

    if (!thread && !sender && !settings.createUsers) return finishAlone(claim, { status: 'rejected', reason: 'unknown sender' });
    if ((await countFiledFromSender(db, mail.from.address)) >= settings.maxPerSenderPerHour) {
      return finishAlone(claim, { status: 'ignored', reason: 'rate' });
    }

    if (!thread) {
      const owner = sender ?? (await findOrCreatePasswordlessUser(db, { name: nameOf(mail.from), email: mail.from.address }));
      await newTicket(claim, mail, actorOf(owner));
      return;
    }
    const ticket = thread.ticket;
    const content = commentText(withNotes(replyText(mail.text), mail));
    if (sender && sender.id === ticket.userId) {
      if (ticket.status === 'closed') {
        await newTicket(claim, mail, actorOf(sender), ticket.id);
        return;
      }
      const record = recordWithin(claim, mail, 'comment');
      await tickets.addComment(actorOf(sender), ticket.id, { content, inboundMessageId: claim.id }, (tx, _emit, { comment }) =>
        record(tx, ticket.id, comment.id, sender.id),
      );
      return;
    }
    if (sender && isStaff(sender)) {
      const record = recordWithin(claim, mail, 'comment');
      await tickets.addComment(actorOf(sender), ticket.id, { content, inboundMessageId: claim.id }, (tx, _emit, { comment }) =>
        record(tx, ticket.id, comment.id, sender.id),
      );
      return;
    }
    // Someone else on a known thread: staff read it as a note, the owner never sees it.
    const author =
      sender ??
      (settings.createUsers ? await findOrCreatePasswordlessUser(db, { name: nameOf(mail.from), email: mail.from.address }) : undefined);
    if (!author) return finishAlone(claim, { status: 'rejected', reason: 'unknown sender' });
    const note = commentText(withNotes(`${MESSAGES.inbound.strangerNote(mail.from.address)}\n\n${replyText(mail.text)}`, mail));
    const record = recordWithin(claim, mail, 'note');
    await withTransaction(async (tx, emit) => {
      await writeMailComment(tx, emit, claim, actorOf(author), { id: ticket.id, userId: ticket.userId }, note, true, (commentId) =>
        record(tx, ticket.id, commentId, author.id),
      );
    });
  }

  return {
    /**
     * Files a claimed message; a lost claim writes nothing (false: another process had it), a closed
     * ticket met mid-way is filed again.
     */
    async file(claim: InboundRow): Promise<boolean> {
      try {
        await fileClaimed(claim);
      } catch (error) {
        if (error instanceof ClaimLost) return false;
        // Closed between the read and the reply: filed again, now as a follow-up ticket.
        if (error instanceof ConflictError) await fileClaimed(claim);
        else throw error;
      }
      return true;
    },
  };
}

/** The subject, cut to 200, `(no subject)` when empty, padded to the title's minimum. */
export function titleOf(subject: string): string {
  const title = storable(subject).replace(/\s+/g, ' ').trim().slice(0, LIMITS.ticketTitle.create.max).trim() || MESSAGES.inbound.noSubject;
  return title.padEnd(LIMITS.ticketTitle.create.min, '.');
}

/** A comment's text: at most the comment limit, never empty. */
function commentText(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' ? MESSAGES.inbound.noText : cutTo(trimmed, LIMITS.comment.max, MESSAGES.inbound.cut(LIMITS.comment.max));
}

/** A new account's name: the sender's display name, else their address's local part. */
function nameOf(from: { address: string; name: string }): string {
  const name = withoutControls(storable(from.name)).trim();
  return (name || from.address.split('@')[0] || from.address).slice(0, LIMITS.name.max);
}
