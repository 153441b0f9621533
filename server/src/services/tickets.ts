import { eq } from 'drizzle-orm';
import {
  MESSAGES,
  type Comment,
  type CreateTicketBody,
  type HistoryType,
  type Ticket,
  type TicketDetail,
  type TicketFilters,
  type TicketListQuery,
  type TicketStats,
  type TicketStatus,
  type UpdateTicketBody,
  type UserRef,
} from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { ticketComments, ticketHistory, tickets } from '../db/schema/index.js';
import { actorRef } from '../events/bus.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';
import { isStaff, type Actor } from '../policies/actor.js';
import {
  canCommentOnTicket,
  canDeleteTicket,
  canSetTicketStatus,
  canViewTicket,
  editableTicketFields,
  visibleTicketScope,
} from '../policies/tickets.js';
import { presentComment, presentTicket, presentTicketDetail } from '../presenters/tickets.js';
import { isForeignKeyViolation, type ServiceContext } from './context.js';
import {
  countTickets,
  findComment,
  findComments,
  findHistory,
  findTicketRow,
  findTicketRows,
  findUserRef,
  ticketConditions,
  ticketStats,
} from './ticketQueries.js';

export type TicketService = ReturnType<typeof createTicketService>;

interface Change {
  type: HistoryType;
  from: string | null;
  to: string | null;
}

export function createTicketService({ db, bus }: ServiceContext) {
  const scopeFor = (actor: Actor, mine: boolean) => ({
    ...visibleTicketScope(actor),
    ...(mine && isStaff(actor) ? { assignedAgentId: actor.id } : {}),
  });

  const load = async (id: number): Promise<Ticket> => {
    const row = await findTicketRow(db, id);
    if (!row) throw new NotFoundError(MESSAGES.tickets.notFound);
    return presentTicket(row);
  };

  /** A ticket the actor may not see answers exactly like one that does not exist. */
  const loadVisible = async (actor: Actor, id: number) => {
    const row = await findTicketRow(db, id);
    if (!row || !canViewTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
    return row;
  };

  /** The assignee named by staff must be an active agent or admin. */
  const resolveAssignee = async (tx: Db, id: number | null): Promise<UserRef | null> => {
    if (id === null) return null;
    const user = await findUserRef(tx, id);
    if (!user || user.deletedAt || !isStaff(user)) {
      throw new ValidationError(MESSAGES.tickets.agentNotFound, { assignedAgentId: MESSAGES.tickets.agentNotFound });
    }
    return { id: user.id, name: user.name };
  };

  return {
    /** For realtime: the ticket as every reader sees it, without an actor check (rooms do that). */
    findForEvent: (id: number): Promise<Ticket | undefined> => findTicketRow(db, id).then((row) => row && presentTicket(row)),
    findCommentForEvent: (id: number): Promise<Comment | undefined> => findComment(db, id).then((row) => row && presentComment(row)),

    async list(actor: Actor, query: TicketListQuery): Promise<{ tickets: Ticket[]; total: number }> {
      const where = ticketConditions(scopeFor(actor, query.mine), query);
      const [rows, total] = await Promise.all([findTicketRows(db, where, query), countTickets(db, where)]);
      return { tickets: rows.map(presentTicket), total };
    },

    stats(actor: Actor, filters: TicketFilters): Promise<TicketStats> {
      return ticketStats(db, ticketConditions(scopeFor(actor, filters.mine), filters));
    },

    async get(actor: Actor, id: number): Promise<TicketDetail> {
      const row = await loadVisible(actor, id);
      const [comments, history] = await Promise.all([findComments(db, id), findHistory(db, id)]);
      return presentTicketDetail(row, comments, history);
    },

    async create(actor: Actor, input: CreateTicketBody): Promise<Ticket> {
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(tickets)
          .values({ title: input.title, description: input.description, priority: input.priority, userId: actor.id })
          .returning({ id: tickets.id, status: tickets.status });
        await tx.insert(ticketHistory).values({ ticketId: row!.id, type: 'created', toValue: row!.status, actorId: actor.id });
        return row!.id;
      });
      bus.publish('ticket.created', { ticketId: id, ownerId: actor.id, actor: actorRef(actor) });
      return load(id);
    },

    async update(actor: Actor, id: number, input: UpdateTicketBody): Promise<Ticket> {
      const provided = (Object.keys(input) as (keyof UpdateTicketBody)[]).filter((k) => input[k] !== undefined);
      if (provided.length === 0) throw new ValidationError(MESSAGES.validation.nothingToUpdate);

      const outcome = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(tickets).where(eq(tickets.id, id)).for('update');
        if (!current || !canViewTicket(actor, current)) throw new NotFoundError(MESSAGES.tickets.notFound);
        const allowed = editableTicketFields(actor, current);
        const forbidden = provided.filter((field) => !allowed.has(field));
        if (forbidden.length > 0) throw new ForbiddenError(MESSAGES.tickets.fieldForbidden(forbidden.join(', ')));
        if (input.status && !canSetTicketStatus(actor, input.status)) throw new ForbiddenError(MESSAGES.tickets.closeForbidden);

        let assignee = input.assignedAgentId !== undefined ? await resolveAssignee(tx, input.assignedAgentId) : undefined;
        // Starting work on an unassigned ticket takes it, as agents expect from a queue.
        if (assignee === undefined && isStaff(actor) && input.status === 'in_progress' && current.assignedAgentId === null) {
          assignee = { id: actor.id, name: actor.name };
        }

        const set: Partial<typeof tickets.$inferInsert> = {};
        const changes: Change[] = [];
        const edited = (['title', 'description'] as const).filter((f) => input[f] !== undefined && input[f] !== current[f]);
        if (edited.length > 0) {
          for (const f of edited) set[f] = input[f]!;
          changes.push({ type: 'edited', from: null, to: edited.join(',') });
        }
        if (input.priority !== undefined && input.priority !== current.priority) {
          set.priority = input.priority;
          changes.push({ type: 'priority', from: current.priority, to: input.priority });
        }
        let statusChange: { from: TicketStatus; to: TicketStatus } | undefined;
        if (input.status !== undefined && input.status !== current.status) {
          set.status = input.status;
          statusChange = { from: current.status, to: input.status };
          changes.push({ type: 'status', ...statusChange });
        }
        if (input.resolutionNotes !== undefined && input.resolutionNotes !== current.resolutionNotes) {
          set.resolutionNotes = input.resolutionNotes;
          changes.push({ type: 'resolution', from: current.resolutionNotes, to: input.resolutionNotes });
        }
        if (assignee !== undefined && (assignee?.id ?? null) !== current.assignedAgentId) {
          const previous = current.assignedAgentId === null ? undefined : await findUserRef(tx, current.assignedAgentId);
          set.assignedAgentId = assignee?.id ?? null;
          changes.push({ type: 'assigned', from: previous?.name ?? null, to: assignee?.name ?? null });
        }
        if (changes.length === 0) return undefined;

        await tx
          .update(tickets)
          .set({ ...set, updatedById: actor.id, updatedAt: new Date() })
          .where(eq(tickets.id, id));
        await tx
          .insert(ticketHistory)
          .values(changes.map((c) => ({ ticketId: id, type: c.type, fromValue: c.from, toValue: c.to, actorId: actor.id })));
        return { ownerId: current.userId, statusChange };
      });

      if (outcome) {
        bus.publish('ticket.updated', { ticketId: id, ownerId: outcome.ownerId, actor: actorRef(actor), ...(outcome.statusChange && { statusChange: outcome.statusChange }) });
      }
      return load(id);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      const row = await loadVisible(actor, id);
      if (!canDeleteTicket(actor, { userId: row.ticket.userId })) throw new ForbiddenError(MESSAGES.tickets.deleteForbidden);
      const deleted = await db.delete(tickets).where(eq(tickets.id, id)).returning({ id: tickets.id });
      if (deleted.length === 0) throw new NotFoundError(MESSAGES.tickets.notFound);
      bus.publish('ticket.deleted', { ticketId: id, ownerId: row.ticket.userId, actor: actorRef(actor) });
    },

    async addComment(actor: Actor, id: number, content: string): Promise<Comment> {
      const row = await loadVisible(actor, id);
      if (!canCommentOnTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
      const commentId = await db
        .transaction(async (tx) => {
          const [comment] = await tx.insert(ticketComments).values({ ticketId: id, authorId: actor.id, content }).returning({ id: ticketComments.id });
          await tx.insert(ticketHistory).values({ ticketId: id, type: 'comment', toValue: String(comment!.id), actorId: actor.id });
          return comment!.id;
        })
        .catch((error: unknown) => {
          if (isForeignKeyViolation(error)) throw new NotFoundError(MESSAGES.tickets.notFound);
          throw error;
        });
      bus.publish('comment.added', { ticketId: id, ownerId: row.ticket.userId, commentId, actor: actorRef(actor) });
      const comment = await findComment(db, commentId);
      if (!comment) throw new NotFoundError(MESSAGES.tickets.notFound);
      return presentComment(comment);
    },
  };
}
