import {
  canDeleteTicket,
  canViewTicket,
  editableTicketFields,
  isStaff,
  LIMITS,
  MESSAGES,
  type Category,
  type CreateTicketBody,
  type Ticket,
  type UpdateTicketBody,
} from '@helpdesk/protocol';
import type { Db } from '../../db/client.js';
import {
  deleteTicketRow,
  findTicketRow,
  insertTicketRow,
  ticketWithId,
  updateTicketRows,
  type TicketRow,
} from '../../db/queries/tickets.js';
import { ticketContentHashes } from '../../db/queries/attachments.js';
import { hasStaffEntries, insertHistory } from '../../db/queries/ticketThread.js';
import { returnedRow } from '../../db/rows.js';
import type { Emit } from '../../db/unitOfWork.js';
import { actorRef, type ActorRef } from '../../events/bus.js';
import type { Actor } from '../../lib/actor.js';
import { ForbiddenError, NotFoundError, ValidationError, VersionConflictError } from '../../lib/errors.js';
import { presentHistoryEntry, presentTicket, previousOf, ticketFor } from '../../presenters/tickets.js';
import { tooManyFiles } from '../attachments.js';
import type { ServiceContext } from '../context.js';
import { excerptOf, writeNotifications } from '../notifications.js';
import { resolveAssignee } from './access.js';
import { planUpdate, requestedFields, type Plan } from './plan.js';
import { slaColumnsAfter, slaColumnsOfNewTicket, type SlaWrite } from '../sla/ticketClock.js';

/** A planned change as the SLA clock reads it: the ticket as locked, and the status and priority it ends with. */
export const slaWriteOf = (ticket: TicketRow['ticket'], set: Plan['set'], happening?: SlaWrite['happening']): SlaWrite => ({
  ticket,
  after: { status: set.status ?? ticket.status, priority: set.priority ?? ticket.priority },
  ...(happening && { happening }),
});

/**
 * A new ticket as the service takes it: files and category are optional (seeded and mailed-in tickets
 * may have none; the column's default is `general`).
 */
export type NewTicket = Omit<CreateTicketBody, 'attachmentIds' | 'category'> & { attachmentIds?: number[]; category?: Category };

/** A ticket as it was and as it is after its write, with what changed: what history and events are made of. */
export interface Written {
  before: Ticket;
  after: Ticket;
  ownerId: number;
  plan: Plan;
}

/**
 * Writes the timeline entries of written tickets in one insert and announces each as if changed alone.
 * Single and bulk updates both end here, so whatever a change triggers happens for both.
 */
export async function recordUpdates(tx: Db, emit: Emit, actor: ActorRef, written: Written[]): Promise<void> {
  const history = (
    await insertHistory(
      tx,
      actor,
      written.flatMap(({ after, plan }) => plan.changes.map((c) => ({ ticketId: after.id, ...c }))),
    )
  ).map(presentHistoryEntry);
  // Someone else handing you a ticket is news; taking one yourself is not (writeNotifications skips the actor).
  await writeNotifications(
    tx,
    emit,
    actor,
    written.flatMap(({ after, plan }) =>
      plan.set.assignedAgentId
        ? [{ userId: plan.set.assignedAgentId, type: 'assigned' as const, ticketId: after.id, excerpt: excerptOf(after.title) }]
        : [],
    ),
  );
  for (const { before, after, ownerId, plan } of written) {
    emit('ticket.updated', {
      ticketId: after.id,
      ownerId,
      actor,
      ...(plan.statusChange && { statusChange: plan.statusChange }),
      ticket: after,
      previous: previousOf(before, after),
      history: history.filter((entry) => entry.ticketId === after.id),
    });
  }
}

/**
 * Locks the ticket and checks, in this order, that the actor may see it, may make this change, and
 * made it on the current version (else 409 with the ticket as it is). Checked on the locked row, so
 * no other write can slip in between the check and the caller's.
 */
export async function lockForUpdate(tx: Db, actor: Actor, id: number, input: UpdateTicketBody): Promise<TicketRow> {
  const locked = await findTicketRow(tx, id, true);
  if (!locked || !canViewTicket(actor, locked.ticket)) throw new NotFoundError(MESSAGES.tickets.notFound);
  // The policy speaks first: a caller who may not assign learns that, not whether the assignee exists.
  planUpdate(actor, locked, input, undefined);
  if (input.expectedVersion !== undefined && input.expectedVersion !== locked.ticket.version) {
    throw new VersionConflictError(MESSAGES.tickets.versionConflict, ticketFor(isStaff(actor), presentTicket(locked)));
  }
  return locked;
}

/**
 * One ticket write inside the caller's unit of work: PUT /tickets/:id, and the status a reply sets.
 * It runs the rules bulk updates share (planUpdate, recordUpdates) and, for a single ticket, the
 * version check and the reply that becomes the resolution note.
 */
export async function applyUpdate(
  tx: Db,
  emit: Emit,
  actor: Actor,
  id: number,
  input: UpdateTicketBody,
  options: { replyAsResolution?: string } = {},
): Promise<Ticket> {
  const locked = await lockForUpdate(tx, actor, id, input);
  const current = locked.ticket;
  const before = presentTicket(locked);
  // "Send and resolve": the reply explains the resolution when the ticket has no note yet.
  const resolvedByReply =
    input.resolutionNotes === undefined &&
    options.replyAsResolution !== undefined &&
    input.status === 'resolved' &&
    current.resolutionNotes === null &&
    editableTicketFields(actor, current).has('resolutionNotes');
  const change = resolvedByReply ? { ...input, resolutionNotes: options.replyAsResolution?.slice(0, LIMITS.resolutionNotes.max) } : input;
  const assignee = change.assignedAgentId !== undefined ? await resolveAssignee(tx, change.assignedAgentId) : undefined;
  const plan = planUpdate(actor, locked, change, assignee);
  // Nothing changes, so nothing is written or announced, and the version stays.
  if (plan.changes.length === 0) return before;

  const now = new Date();
  // A status or priority change moves the SLA clock and its deadlines in the same write.
  const sla = (await slaColumnsAfter(tx, [slaWriteOf(current, plan.set)], now)).get(id);
  const rows = await updateTicketRows(tx, ticketWithId(id), {
    ...plan.set,
    ...sla,
    updatedById: actor.id,
    updatedAt: now,
    lastActivityAt: now,
    lastActivityById: actor.id,
  });
  const ticket = presentTicket(returnedRow(rows, 'the ticket update'));
  await recordUpdates(tx, emit, actorRef(actor), [{ before, after: ticket, ownerId: current.userId, plan }]);
  return ticket;
}

/** Opening, changing and deleting one ticket. */
export function createTicketWrites({ db, withTransaction, attachments, settings }: ServiceContext) {
  return {
    /** `within`: more writes of the caller in the ticket's transaction (the mail intake's). */
    async create(actor: Actor, input: NewTicket, within?: (tx: Db, emit: Emit, ticket: Ticket) => Promise<void>): Promise<Ticket> {
      const attachmentIds = input.attachmentIds ?? [];
      if (attachmentIds.length > settings.attachments.maxCount) throw tooManyFiles(settings.attachments.maxCount);
      return withTransaction(async (tx, emit) => {
        // The clock starts with the ticket, under the policy its owner's address falls under.
        const sla = await slaColumnsOfNewTicket(tx, actor.email, { status: 'open', priority: input.priority }, new Date());
        const ticket = presentTicket(
          await insertTicketRow(tx, {
            title: input.title,
            description: input.description,
            priority: input.priority,
            category: input.category,
            userId: actor.id,
            lastActivityById: actor.id,
            ...sla,
          }),
        );
        await insertHistory(tx, actor, [{ ticketId: ticket.id, type: 'created', to: ticket.status }]);
        await attachments.link(tx, attachmentIds, { ticketId: ticket.id }, actor.id);
        emit('ticket.created', { ticketId: ticket.id, ownerId: actor.id, actor: actorRef(actor), ticket });
        await within?.(tx, emit, ticket);
        return ticketFor(isStaff(actor), ticket);
      });
    },

    async update(actor: Actor, id: number, input: UpdateTicketBody): Promise<Ticket> {
      if (requestedFields(input).length === 0) throw new ValidationError(MESSAGES.validation.nothingToUpdate);
      const ticket = await withTransaction((tx, emit) => applyUpdate(tx, emit, actor, id, input));
      return ticketFor(isStaff(actor), ticket);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      const hashes = await withTransaction(async (tx, emit) => {
        // Locked, so the ticket announced as deleted is the last version there was.
        const row = await findTicketRow(tx, id, true);
        if (!row || !canViewTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
        // Internal notes count here, though the owner's `answered` never shows them.
        const answered = await hasStaffEntries(tx, id);
        if (!canDeleteTicket(actor, { userId: row.ticket.userId, answered })) {
          throw new ForbiddenError(isStaff(actor) ? MESSAGES.tickets.deleteByAgent : MESSAGES.tickets.deleteAnswered);
        }
        // Its files' rows go with it (cascade); their bytes once nothing else names them, after the commit.
        const contentHashes = await ticketContentHashes(tx, id);
        await deleteTicketRow(tx, id);
        emit('ticket.deleted', { ticketId: id, ownerId: row.ticket.userId, actor: actorRef(actor), previous: presentTicket(row) });
        return contentHashes;
      });
      await attachments.release(db, hashes);
    },
  };
}
