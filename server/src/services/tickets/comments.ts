import {
  canCommentOnTicket,
  canWriteInternalNote,
  isStaff,
  MESSAGES,
  type Attachment,
  type Comment,
  type CommentBody,
  type Ticket,
} from '@helpdesk/protocol';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { findActiveStaffIds } from '../../db/queries/staff.js';
import { findTicketRow, ticketWithId, touchTicketActivity, updateTicketRows } from '../../db/queries/tickets.js';
import { countConversation, insertComment, insertHistory } from '../../db/queries/ticketThread.js';
import { returnedRow } from '../../db/rows.js';
import type { Emit } from '../../db/unitOfWork.js';
import { actorRef } from '../../events/bus.js';
import type { Actor } from '../../lib/actor.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { presentComment, presentHistoryEntry, presentTicket, ticketFor } from '../../presenters/tickets.js';
import { tooManyFiles } from '../attachments.js';
import type { ServiceContext } from '../context.js';
import { excerptOf, writeNotifications } from '../notifications.js';
import { loadVisible } from './access.js';
import type { Plan } from './plan.js';
import { applyUpdate, lockForUpdate, recordUpdates, slaWriteOf } from './updates.js';
import { slaColumnsAfter } from '../sla/ticketClock.js';
import { presentSla } from '../../sla/ticketSla.js';
import { writeSlaColumns } from '../../db/queries/slaTickets.js';
import type { TicketRow } from '../../db/queries/tickets.js';

/**
 * A staff member's public reply on a ticket whose first response is still owed: the clock records it
 * (its columns only, so the version stays) and staff hear the new `sla` (sla-changed).
 */
async function recordFirstResponse(tx: Db, emit: Emit, ticket: TicketRow['ticket'], at: Date): Promise<void> {
  const columns = (await slaColumnsAfter(tx, [slaWriteOf(ticket, {}, { respond: true })], at)).get(ticket.id);
  if (!columns) return;
  await writeSlaColumns(tx, [{ id: ticket.id, columns }]);
  const sla = presentSla(columns);
  if (sla !== null) emit('sla.changed', { ticketId: ticket.id, ownerId: ticket.userId, sla, version: ticket.version });
}

/**
 * A comment as the service takes it: the content, and what the request body may add to it. The mail
 * intake adds the message it files (never a request body: commentBody has no such field), which
 * staff's copy of the event names.
 */
type NewComment = Pick<CommentBody, 'content'> & Partial<Omit<CommentBody, 'content'>> & { inboundMessageId?: number };

/**
 * More writes of the caller in the comment's transaction, before its event: the mail intake stores
 * the message's files and records it, and answers the files it linked so the event carries them.
 */
export type WithinComment = (tx: Db, emit: Emit, written: { comment: Comment }) => Promise<Attachment[]>;

/** Mentions name active staff, every one of them; anything else is refused as a whole. */
async function checkMentions(tx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await findActiveStaffIds(tx, ids);
  if (found.length !== ids.length) {
    throw new ValidationError(MESSAGES.tickets.mentionsStaffOnly, { mentions: MESSAGES.tickets.mentionsStaffOnly });
  }
}

/**
 * A reply or (staff) internal note, optionally setting the ticket's status in the same transaction:
 * one request, one history. A reply is activity (last activity moves) but not a change: the version
 * stays. A note is neither, since the owner sees last activity. The owner's reply on a resolved
 * ticket reopens it, as a customer's follow-up does in any helpdesk; a closed ticket takes no reply
 * from its owner, who is asked to open a new ticket. Mentions and the assignee's "reply" notify.
 */
export function createAddComment({ db, withTransaction, attachments, settings }: ServiceContext) {
  return async function addComment(
    actor: Actor,
    id: number,
    input: NewComment,
    within?: WithinComment,
  ): Promise<{ comment: Comment; ticket?: Ticket }> {
    const { content, internal = false, mentions = [], status, expectedVersion, attachmentIds = [], inboundMessageId } = input;
    if (attachmentIds.length > settings.attachments.maxCount) throw tooManyFiles(settings.attachments.maxCount);
    const row = await loadVisible(db, actor, id);
    if (!canCommentOnTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
    if (internal && !canWriteInternalNote(actor)) throw new ForbiddenError(MESSAGES.tickets.internalNoteForbidden);
    if (mentions.length > 0 && !isStaff(actor)) throw new ForbiddenError(MESSAGES.tickets.mentionsStaffOnly);
    const byOwner = row.ticket.userId === actor.id;
    if (byOwner && !isStaff(actor) && row.ticket.status === 'closed') throw new ConflictError(MESSAGES.tickets.closedFollowUp);
    return withTransaction(async (tx, emit) => {
      // Like PUT: a reply sent on a version someone has since changed writes nothing, status or comment.
      if (expectedVersion !== undefined) await lockForUpdate(tx, actor, id, { ...(status && { status }), expectedVersion });
      await checkMentions(tx, mentions);
      // A reply holds the ticket row before writing: replies then reopen and count in commit order,
      // and none waits on the key lock another's insert takes (two at once used to deadlock).
      const locked = internal ? undefined : await findTicketRow(tx, id, true);
      const commentRow = await insertComment(tx, actor, { ticketId: id, content, internal });
      const files = await attachments.link(tx, attachmentIds, { ticketId: id, commentId: commentRow.comment.id }, actor.id);
      const written = { ...presentComment({ ...commentRow, inboundMessageId }), attachments: files };
      const comment = within ? { ...written, attachments: [...files, ...(await within(tx, emit, { comment: written }))] } : written;
      const createdAt = commentRow.comment.createdAt;
      const history = presentHistoryEntry(
        returnedRow(
          await insertHistory(tx, actor, [{ ticketId: id, type: 'comment', to: String(comment.id), internal }]),
          'the comment history insert',
        ),
      );
      // The customer's answer puts a ticket that waited on them (or was resolved) back in the queue.
      const reopened = locked?.ticket.status === 'resolved' || locked?.ticket.status === 'pending' ? locked.ticket.status : undefined;
      // The first public reply by staff (not the owner's own words) meets the first-response target.
      const responds = !internal && !byOwner && isStaff(actor);
      if (byOwner && locked && reopened) {
        const plan: Plan = {
          set: { status: 'open' },
          changes: [{ type: 'status', from: reopened, to: 'open' }],
          statusChange: { from: reopened, to: 'open' },
        };
        const sla = (await slaColumnsAfter(tx, [slaWriteOf(locked.ticket, plan.set)], createdAt)).get(id);
        const rows = await updateTicketRows(tx, ticketWithId(id), {
          ...plan.set,
          ...sla,
          updatedById: actor.id,
          updatedAt: createdAt,
          lastActivityAt: createdAt,
          lastActivityById: actor.id,
        });
        const after = presentTicket(returnedRow(rows, 'the follow-up reopen'));
        await recordUpdates(tx, emit, actorRef(actor), [{ before: presentTicket(locked), after, ownerId: locked.ticket.userId, plan }]);
      } else if (!internal) {
        await touchTicketActivity(tx, id, actor.id, createdAt);
        if (responds && locked) await recordFirstResponse(tx, emit, locked.ticket, createdAt);
      }
      emit('comment.added', {
        ticketId: id,
        ownerId: row.ticket.userId,
        commentId: comment.id,
        actor: actorRef(actor),
        comment,
        history,
        // Counted with the ticket row held (above), so the highest count is the newest; a note adds
        // nothing to it and locks nothing.
        commentCount: await countConversation(tx, id),
      });
      const excerpt = excerptOf(content);
      const assigneeId = row.ticket.assignedAgentId;
      await writeNotifications(tx, emit, actorRef(actor), [
        ...mentions.map((userId) => ({ userId, type: 'mention' as const, ticketId: id, excerpt })),
        ...(byOwner && assigneeId !== null ? [{ userId: assigneeId, type: 'reply' as const, ticketId: id, excerpt }] : []),
      ]);
      const ticket =
        status === undefined
          ? undefined
          : await applyUpdate(tx, emit, actor, id, { status }, internal ? {} : { replyAsResolution: content });
      return { comment, ...(ticket && { ticket: ticketFor(isStaff(actor), ticket) }) };
    }).catch((error: unknown) => {
      if (isForeignKeyViolation(error)) throw new NotFoundError(MESSAGES.tickets.notFound);
      throw error;
    });
  };
}
