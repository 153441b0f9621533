import { canMergeTickets, MESSAGES, type Ticket } from '@helpdesk/protocol';
import type { Db } from '../../db/client.js';
import { lockTicketRows, ticketsWithIds, ticketWithId, updateTicketRows } from '../../db/queries/tickets.js';
import { countConversation, insertComment, insertHistory } from '../../db/queries/ticketThread.js';
import { returnedRow } from '../../db/rows.js';
import type { Emit } from '../../db/unitOfWork.js';
import { actorRef } from '../../events/bus.js';
import type { Actor } from '../../lib/actor.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { presentComment, presentHistoryEntry, presentTicket } from '../../presenters/tickets.js';
import type { ServiceContext } from '../context.js';
import type { Plan } from './plan.js';
import { recordUpdates, slaWriteOf } from './updates.js';
import { slaColumnsAfter } from '../sla/ticketClock.js';

const refused = (message: string) => new ValidationError(message, { intoId: message });

/** A comment (reply or note) written by the merge, with its timeline entry, announced as any comment is. */
async function writeComment(tx: Db, emit: Emit, actor: Actor, ticketId: number, ownerId: number, content: string, internal: boolean) {
  const comment = presentComment(await insertComment(tx, actor, { ticketId, content, internal }));
  const history = presentHistoryEntry(
    returnedRow(
      await insertHistory(tx, actor, [{ ticketId, type: 'comment', to: String(comment.id), internal }]),
      'the merge comment entry',
    ),
  );
  emit('comment.added', {
    ticketId,
    ownerId,
    commentId: comment.id,
    actor: actorRef(actor),
    comment,
    history,
    commentCount: await countConversation(tx, ticketId),
  });
}

/**
 * POST /tickets/:id/merge (docs/api.md#merge): one requester's duplicate goes into another of their
 * tickets. In one transaction the source is closed with a public "Merged into #<id>" reply and a
 * `merged` entry, and the target gets an internal note with the source's title and description; a
 * failure anywhere leaves both as they were, and nothing is announced.
 */
export function createMerge({ withTransaction }: ServiceContext) {
  return async function merge(actor: Actor, id: number, intoId: number): Promise<Ticket> {
    if (!canMergeTickets(actor)) throw new ForbiddenError(MESSAGES.http.staffOnly);
    return withTransaction(async (tx, emit) => {
      // Both rows held in id order, so two merges of the same pair either way round cannot deadlock.
      const locked = await lockTicketRows(tx, ticketsWithIds([id, intoId]));
      const source = locked.find((row) => row.ticket.id === id);
      const target = locked.find((row) => row.ticket.id === intoId);
      if (!source || !target) throw new NotFoundError(MESSAGES.tickets.notFound);
      if (id === intoId) throw refused(MESSAGES.tickets.mergeRefused);
      if (source.ticket.userId !== target.ticket.userId) throw refused(MESSAGES.tickets.mergeOtherRequester);
      if (source.ticket.status === 'closed' || target.ticket.status === 'closed') throw refused(MESSAGES.tickets.mergeRefused);
      const ownerId = source.ticket.userId;

      await writeComment(tx, emit, actor, id, ownerId, MESSAGES.tickets.mergedInto(intoId), false);
      const plan: Plan = {
        set: { status: 'closed' },
        changes: [
          { type: 'status', from: source.ticket.status, to: 'closed' },
          { type: 'merged', from: null, to: String(intoId) },
        ],
        statusChange: { from: source.ticket.status, to: 'closed' },
      };
      const now = new Date();
      // Closed by the merge: its SLA clock stops like any close.
      const sla = (await slaColumnsAfter(tx, [slaWriteOf(source.ticket, plan.set)], now)).get(id);
      const closed = await updateTicketRows(tx, ticketWithId(id), {
        ...plan.set,
        ...sla,
        updatedById: actor.id,
        updatedAt: now,
        lastActivityAt: now,
        lastActivityById: actor.id,
      });
      const after = presentTicket(returnedRow(closed, 'the merged ticket'));
      await recordUpdates(tx, emit, actorRef(actor), [{ before: presentTicket(source), after, ownerId, plan }]);

      const { title, description } = source.ticket;
      await writeComment(tx, emit, actor, intoId, ownerId, MESSAGES.tickets.mergedFrom(id, title, description), true);
      return presentTicket(target);
    });
  };
}
