import { eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import {
  canCommentOnTicket,
  canDeleteTicket,
  canSeeInternalNotes,
  canWriteInternalNote,
  canSetTicketStatus,
  canViewTicket,
  editableTicketFields,
  isStaff,
  isTitleEditAllowed,
  LIMITS,
  MESSAGES,
  visibleTicketScope,
  type Comment,
  type CommentBody,
  type CreateTicketBody,
  type HistoryEntry,
  type HistoryType,
  type Ticket,
  type TicketDetail,
  type TicketFilters,
  type TicketQuery,
  type TicketStats,
  type TicketStatus,
  type UpdateTicketBody,
  type UserRef,
} from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { returnedRow } from '../db/rows.js';
import { ticketComments, tickets } from '../db/schema/index.js';
import { actorRef } from '../events/bus.js';
import type { Emit } from '../db/unitOfWork.js';
import { ForbiddenError, NotFoundError, ValidationError, VersionConflictError } from '../lib/errors.js';
import { excerptOf, writeNotifications } from './notifications.js';
import { presentComment, presentHistoryEntry, presentTicket, presentTicketDetail, previousOf } from '../presenters/tickets.js';
import type { Actor } from './actor.js';
import type { ServiceContext } from './context.js';
import { createReadMemo } from './readMemo.js';
import {
  countedStats,
  countTickets,
  findComments,
  findHistory,
  findTicketRow,
  findTicketRows,
  findActiveStaffIds,
  findUserRef,
  insertHistory,
  insertTicketRow,
  ticketConditions,
  ticketStats,
  ticketStatsCapped,
  updateTicketRows,
} from '../db/queries/tickets.js';

const THREAD_PAGE = LIMITS.ticketThread.page;

/** Staff read internal notes and their timeline entries; an owner's reads never include them. */
const audienceOf = (actor: Actor) => ({ internal: canSeeInternalNotes(actor) });

export type TicketService = ReturnType<typeof createTicketService>;

/** A comment as the service takes it: the content, and what the request body may add to it. */
type NewComment = Pick<CommentBody, 'content'> & Partial<Omit<CommentBody, 'content'>>;

interface Change {
  type: HistoryType;
  from: string | null;
  to: string | null;
}

const dialect = new PgDialect();
/** Distinct recent searches kept; each entry is a handful of numbers. */
const SEARCH_MEMO_ENTRIES = 500;

export function createTicketService({ db, withTransaction, settings }: ServiceContext) {
  const scopeFor = (actor: Actor, mine = false) => ({
    ...visibleTicketScope(actor),
    ...(mine && isStaff(actor) ? { assignedAgentId: actor.id } : {}),
  });

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

  /**
   * A search's cards and its list's total come from one pass over at most the cap's worth of matches,
   * kept until this process's next write, keyed by the exact SQL of the conditions.
   */
  const searchMemo = createReadMemo<{ stats: TicketStats; capped: boolean }>(withTransaction.ended, {
    enabled: !settings.redisUrl,
    size: SEARCH_MEMO_ENTRIES,
  });
  const cappedSearchStats = (where: SQL | undefined) => {
    const { sql: text, params } = where ? dialect.sqlToQuery(where) : { sql: '', params: [] };
    return searchMemo(JSON.stringify([text, params]), () => ticketStatsCapped(db, where, LIMITS.ticketList.countCap));
  };

  /** Staff without a search read the maintained counters; a user's own tickets an index; a search counts up to the cap. */
  const count = async (actor: Actor, query: TicketFilters): Promise<{ total: number; capped: boolean }> => {
    const scope = scopeFor(actor, query.mine);
    if (query.search) {
      const { stats, capped } = await cappedSearchStats(ticketConditions(scope, query));
      return { total: stats.total, capped };
    }
    if (scope.ownerId === undefined) {
      const stats = await countedStats(db, { assignedAgentId: scope.assignedAgentId, status: query.status, priority: query.priority });
      return { total: stats.total, capped: false };
    }
    return { total: await countTickets(db, ticketConditions(scope, query)), capped: false };
  };

  /**
   * One ticket write inside the caller's unit of work: PUT /tickets/:id, and the status a comment sets.
   * Every path that changes a ticket's fields goes through here, so each gets the version check, the
   * history and the "assigned" notification alike.
   */
  const applyUpdate = async (
    tx: Db,
    emit: Emit,
    actor: Actor,
    id: number,
    input: UpdateTicketBody,
    options: { replyAsResolution?: string } = {},
  ): Promise<Ticket> => {
    const provided = (Object.keys(input) as (keyof UpdateTicketBody)[]).filter((k) => input[k] !== undefined && k !== 'expectedVersion');
    const locked = await findTicketRow(tx, id, true);
    if (!locked || !canViewTicket(actor, locked.ticket)) throw new NotFoundError(MESSAGES.tickets.notFound);
    const current = locked.ticket;
    const before = presentTicket(locked);
    const allowed = editableTicketFields(actor, current);
    const forbidden = provided.filter((field) => field !== 'expectedVersion' && !allowed.has(field));
    if (forbidden.length > 0) throw new ForbiddenError(MESSAGES.tickets.fieldForbidden(forbidden.join(', ')));
    if (input.status && !canSetTicketStatus(actor, input.status)) throw new ForbiddenError(MESSAGES.tickets.closeForbidden);
    // Checked on the locked row, so no other write can slip in between the check and this one.
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
      throw new VersionConflictError(MESSAGES.tickets.versionConflict, before);
    }
    if (input.title !== undefined && !isTitleEditAllowed(current.title, input.title)) {
      throw new ValidationError(MESSAGES.validation.titleTooLongEdit, { title: MESSAGES.validation.titleTooLongEdit });
    }

    let assignee = input.assignedAgentId !== undefined ? await resolveAssignee(tx, input.assignedAgentId) : undefined;
    // Starting work on an unassigned ticket takes it, as agents expect from a queue.
    if (assignee === undefined && isStaff(actor) && input.status === 'in_progress' && current.assignedAgentId === null) {
      assignee = { id: actor.id, name: actor.name };
    }
    // "Send and resolve": the reply explains the resolution when the ticket has no note yet.
    let resolutionNotes = input.resolutionNotes;
    if (
      resolutionNotes === undefined &&
      options.replyAsResolution !== undefined &&
      input.status === 'resolved' &&
      current.resolutionNotes === null &&
      allowed.has('resolutionNotes')
    ) {
      resolutionNotes = options.replyAsResolution.slice(0, LIMITS.resolutionNotes.max);
    }

    const set: Partial<typeof tickets.$inferInsert> = {};
    const changes: Change[] = [];
    const edited: Array<'title' | 'description'> = [];
    for (const f of ['title', 'description'] as const) {
      const value = input[f];
      if (value !== undefined && value !== current[f]) {
        set[f] = value;
        edited.push(f);
      }
    }
    if (edited.length > 0) changes.push({ type: 'edited', from: null, to: edited.join(',') });
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
    if (resolutionNotes !== undefined && resolutionNotes !== current.resolutionNotes) {
      set.resolutionNotes = resolutionNotes;
      changes.push({ type: 'resolution', from: current.resolutionNotes, to: resolutionNotes });
    }
    if (assignee !== undefined && (assignee?.id ?? null) !== current.assignedAgentId) {
      set.assignedAgentId = assignee?.id ?? null;
      changes.push({ type: 'assigned', from: before.assignedAgent?.name ?? null, to: assignee?.name ?? null });
    }
    // Nothing changes, so nothing is written or announced, and the version stays.
    if (changes.length === 0) return before;

    const rows = await updateTicketRows(tx, eq(tickets.id, id), { ...set, updatedById: actor.id, updatedAt: new Date() });
    const ticket = presentTicket(returnedRow(rows, 'the ticket update'));
    const history = await insertHistory(
      tx,
      actor,
      changes.map((c) => ({ ticketId: id, ...c })),
    );
    if (set.assignedAgentId) {
      // Someone else handing you a ticket is news; taking one yourself is not (writeNotifications skips the actor).
      await writeNotifications(tx, emit, actorRef(actor), [
        { userId: set.assignedAgentId, type: 'assigned', ticketId: id, excerpt: excerptOf(ticket.title) },
      ]);
    }
    emit('ticket.updated', {
      ticketId: id,
      ownerId: current.userId,
      actor: actorRef(actor),
      ...(statusChange && { statusChange }),
      ticket,
      previous: previousOf(before, ticket),
      history,
    });
    return ticket;
  };

  /** Mentions name active staff, every one of them; anything else is refused as a whole. */
  const checkMentions = async (tx: Db, ids: number[]) => {
    if (ids.length === 0) return;
    const found = await findActiveStaffIds(tx, ids);
    if (found.length !== ids.length) {
      throw new ValidationError(MESSAGES.tickets.mentionsStaffOnly, { mentions: MESSAGES.tickets.mentionsStaffOnly });
    }
  };

  return {
    /** Past the last page answers at once from the count; deeper than LIMITS.ticketList.depth rows is refused. */
    async list(actor: Actor, query: TicketQuery): Promise<{ tickets: Ticket[]; total: number; totalCapped: boolean }> {
      const { total, capped } = await count(actor, query);
      const offset = (query.page - 1) * query.limit;
      if (!capped && offset >= total) return { tickets: [], total, totalCapped: false };
      if (offset >= LIMITS.ticketList.depth)
        throw new ValidationError(MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth), {
          page: MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth),
        });
      const rows = await findTicketRows(db, ticketConditions(scopeFor(actor, query.mine), query), query);
      return { tickets: rows.map(presentTicket), total, totalCapped: capped };
    },

    async stats(actor: Actor, filters: TicketFilters): Promise<{ stats: TicketStats; totalCapped: boolean }> {
      const scope = scopeFor(actor, filters.mine);
      if (filters.search) {
        const { stats, capped } = await cappedSearchStats(ticketConditions(scope, filters));
        return { stats, totalCapped: capped };
      }
      if (scope.ownerId === undefined)
        return {
          stats: await countedStats(db, { assignedAgentId: scope.assignedAgentId, status: filters.status, priority: filters.priority }),
          totalCapped: false,
        };
      return { stats: await ticketStats(db, ticketConditions(scope, filters)), totalCapped: false };
    },

    /** Whether the ticket exists and the actor may read it (presence asks before announcing anyone on it). */
    async canRead(actor: Actor, id: number): Promise<boolean> {
      const row = await findTicketRow(db, id);
      return Boolean(row && canViewTicket(actor, row.ticket));
    },

    async get(actor: Actor, id: number): Promise<TicketDetail> {
      const row = await loadVisible(actor, id);
      const audience = audienceOf(actor);
      const [comments, history] = await Promise.all([
        findComments(db, id, THREAD_PAGE, audience),
        findHistory(db, id, THREAD_PAGE, audience),
      ]);
      return {
        ...presentTicketDetail(row, comments.rows, history.rows),
        hasOlderComments: comments.hasMore,
        hasOlderHistory: history.hasMore,
      };
    },

    /** Older comments of a ticket the actor may see, before the comment `before`. */
    async olderComments(actor: Actor, id: number, before: number): Promise<{ comments: Comment[]; hasMore: boolean }> {
      await loadVisible(actor, id);
      const { rows, hasMore } = await findComments(db, id, THREAD_PAGE, audienceOf(actor), before);
      return { comments: rows.map(presentComment), hasMore };
    },

    async olderHistory(actor: Actor, id: number, before: number): Promise<{ history: HistoryEntry[]; hasMore: boolean }> {
      await loadVisible(actor, id);
      const { rows, hasMore } = await findHistory(db, id, THREAD_PAGE, audienceOf(actor), before);
      return { history: rows.map(presentHistoryEntry), hasMore };
    },

    async create(actor: Actor, input: CreateTicketBody): Promise<Ticket> {
      return withTransaction(async (tx, emit) => {
        const ticket = presentTicket(
          await insertTicketRow(tx, { title: input.title, description: input.description, priority: input.priority, userId: actor.id }),
        );
        await insertHistory(tx, actor, [{ ticketId: ticket.id, type: 'created', to: ticket.status }]);
        emit('ticket.created', { ticketId: ticket.id, ownerId: actor.id, actor: actorRef(actor), ticket });
        return ticket;
      });
    },

    async update(actor: Actor, id: number, input: UpdateTicketBody): Promise<Ticket> {
      const provided = (Object.keys(input) as (keyof UpdateTicketBody)[]).filter((k) => input[k] !== undefined && k !== 'expectedVersion');
      if (provided.length === 0) throw new ValidationError(MESSAGES.validation.nothingToUpdate);
      return withTransaction((tx, emit) => applyUpdate(tx, emit, actor, id, input));
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await withTransaction(async (tx, emit) => {
        // Locked, so the ticket announced as deleted is the last version there was.
        const row = await findTicketRow(tx, id, true);
        if (!row || !canViewTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
        if (!canDeleteTicket(actor, { userId: row.ticket.userId })) throw new ForbiddenError(MESSAGES.tickets.deleteForbidden);
        await tx.delete(tickets).where(eq(tickets.id, id));
        emit('ticket.deleted', { ticketId: id, ownerId: row.ticket.userId, actor: actorRef(actor), previous: presentTicket(row) });
      });
    },

    /**
     * A reply or (staff) internal note, optionally setting the ticket's status in the same transaction:
     * one request, one consistent history. Mentions and the assignee's "reply" become notifications.
     */
    async addComment(actor: Actor, id: number, input: NewComment): Promise<{ comment: Comment; ticket?: Ticket }> {
      const { content, internal = false, mentions = [], status } = input;
      const row = await loadVisible(actor, id);
      if (!canCommentOnTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
      if (internal && !canWriteInternalNote(actor)) throw new ForbiddenError(MESSAGES.tickets.internalNoteForbidden);
      if (mentions.length > 0 && !isStaff(actor)) throw new ForbiddenError(MESSAGES.tickets.mentionsStaffOnly);
      // A comment is not a change of the ticket: its version stays, unless it also sets the status.
      return withTransaction(async (tx, emit) => {
        await checkMentions(tx, mentions);
        const inserted = await tx.insert(ticketComments).values({ ticketId: id, authorId: actor.id, content, internal }).returning();
        const comment = presentComment({
          comment: returnedRow(inserted, 'the comment insert'),
          author: { id: actor.id, name: actor.name, role: actor.role },
        });
        const history = returnedRow(
          await insertHistory(tx, actor, [{ ticketId: id, type: 'comment', to: String(comment.id), internal }]),
          'the comment history insert',
        );
        emit('comment.added', {
          ticketId: id,
          ownerId: row.ticket.userId,
          commentId: comment.id,
          actor: actorRef(actor),
          comment,
          history,
        });
        const by = actorRef(actor);
        const excerpt = excerptOf(content);
        const assigneeId = row.ticket.assignedAgentId;
        await writeNotifications(tx, emit, by, [
          ...mentions.map((userId) => ({ userId, type: 'mention' as const, ticketId: id, excerpt })),
          ...(actor.id === row.ticket.userId && assigneeId !== null
            ? [{ userId: assigneeId, type: 'reply' as const, ticketId: id, excerpt }]
            : []),
        ]);
        const ticket =
          status === undefined
            ? undefined
            : await applyUpdate(tx, emit, actor, id, { status }, internal ? {} : { replyAsResolution: content });
        return { comment, ...(ticket && { ticket }) };
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw new NotFoundError(MESSAGES.tickets.notFound);
        throw error;
      });
    },
  };
}
