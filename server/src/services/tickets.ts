import { eq, inArray } from 'drizzle-orm';
import {
  assigneeOf,
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
  type BulkChanges,
  type BulkFailure,
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
import type { Emit } from '../db/unitOfWork.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { returnedRow } from '../db/rows.js';
import { ticketComments, tickets } from '../db/schema/index.js';
import { actorRef, type ActorRef } from '../events/bus.js';
import { AppError, ConflictError, ForbiddenError, NotFoundError, ValidationError, VersionConflictError } from '../lib/errors.js';
import {
  presentComment,
  presentHistoryEntry,
  presentTicket,
  presentTicketDetail,
  previousOf,
  type TicketRow,
} from '../presenters/tickets.js';
import type { Actor } from './actor.js';
import type { ServiceContext } from './context.js';
import { excerptOf, writeNotifications } from './notifications.js';
import { createReadMemo } from './readMemo.js';
import type { SearchCounts } from './searchCounts.js';
import {
  countedStats,
  countTickets,
  findActiveStaffIds,
  findComments,
  findHistory,
  findTicketRow,
  findTicketRows,
  findUserRef,
  insertHistory,
  insertTicketRow,
  lockTicketRows,
  markTicketRead,
  ticketConditions,
  ticketStats,
  touchTicketActivity,
  updateTicketRows,
  type TicketScope,
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

/** What one update does to one ticket, decided before anything is written. */
interface Plan {
  set: Partial<typeof tickets.$inferInsert>;
  changes: Change[];
  statusChange?: { from: TicketStatus; to: TicketStatus };
}

/** A ticket as it was and as it is after its write, with what changed: what history and events are made of. */
interface Written {
  before: Ticket;
  after: Ticket;
  ownerId: number;
  plan: Plan;
}

/**
 * The rules of one update (single or bulk): who may change which field, and which changes are real.
 * `assignee` is the already resolved staff member (undefined: not asked).
 */
function planUpdate(actor: Actor, locked: TicketRow, input: UpdateTicketBody, assignee: UserRef | null | undefined): Plan {
  const current = locked.ticket;
  const provided = (Object.keys(input) as (keyof UpdateTicketBody)[]).filter(
    (k): k is Exclude<keyof UpdateTicketBody, 'expectedVersion'> => input[k] !== undefined && k !== 'expectedVersion',
  );
  const allowed = editableTicketFields(actor, current);
  const forbidden = provided.filter((field) => !allowed.has(field));
  if (forbidden.length > 0) throw new ForbiddenError(MESSAGES.tickets.fieldForbidden(forbidden.join(', ')));
  if (input.status && !canSetTicketStatus(actor, input.status)) throw new ForbiddenError(MESSAGES.tickets.closeForbidden);
  if (input.title !== undefined && !isTitleEditAllowed(current.title, input.title)) {
    throw new ValidationError(MESSAGES.validation.titleTooLongEdit, { title: MESSAGES.validation.titleTooLongEdit });
  }
  // Starting work on an unassigned ticket takes it, as agents expect from a queue.
  if (assignee === undefined && isStaff(actor) && input.status === 'in_progress' && current.assignedAgentId === null) {
    assignee = { id: actor.id, name: actor.name };
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
  let statusChange: Plan['statusChange'];
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
    set.assignedAgentId = assignee?.id ?? null;
    changes.push({ type: 'assigned', from: locked.agentName ?? null, to: assignee?.name ?? null });
  }
  return { set, changes, ...(statusChange && { statusChange }) };
}

/**
 * Writes the timeline entries of written tickets in one insert and announces each as if changed alone.
 * Single and bulk updates both end here, so whatever a change triggers happens for both.
 */
async function recordUpdates(tx: Db, emit: Emit, actor: ActorRef, written: Written[]): Promise<void> {
  const history = await insertHistory(
    tx,
    actor,
    written.flatMap(({ after, plan }) => plan.changes.map((c) => ({ ticketId: after.id, ...c }))),
  );
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

type TicketListAnswer = { tickets: Ticket[]; total: number; totalCapped: boolean };
type TicketStatsAnswer = { stats: TicketStats; totalCapped: boolean };

/**
 * Answers kept per caller and question, least recently asked dropped first. Sized for memory at the
 * worst: a 100-row list page is ~100 kB with its JSON text, a detail with 50 comments of 5,000
 * characters ~500 kB, so details keep fewer.
 */
const KEPT = { lists: 1_000, stats: 1_000, details: 200, readMarks: 10_000 };

export function createTicketService(context: ServiceContext, cappedSearchStats: SearchCounts) {
  const { db, withTransaction } = context;
  // Until this process's next write every caller asking the same question gets the same answer
  // (services/readMemo.ts). Keys start with the caller: scope, unread marks and `me` are theirs.
  const keptLists = createReadMemo<TicketListAnswer>(context, KEPT.lists);
  const keptStats = createReadMemo<TicketStatsAnswer>(context, KEPT.stats);
  const keptDetails = createReadMemo<TicketDetail>(context, KEPT.details);
  // A read mark made since the last write is still current: opening the ticket again writes nothing.
  const keptReadMarks = createReadMemo<true>(context, KEPT.readMarks);
  const callerKey = (actor: Actor, question: unknown) => JSON.stringify([actor.id, actor.role, question]);

  /** What the actor may see, narrowed to one assignee when staff ask for it (`me`, `none` or an id). */
  const scopeFor = (actor: Actor, filters: TicketFilters): TicketScope => {
    const assignee = assigneeOf(filters);
    if (!isStaff(actor) || assignee === undefined) return visibleTicketScope(actor);
    return { ...visibleTicketScope(actor), assignedAgentId: assignee === 'me' ? actor.id : assignee === 'none' ? null : assignee };
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

  /** Staff without a search read the maintained counters; a user's own tickets an index; a search counts up to the cap. */
  const count = async (actor: Actor, query: TicketFilters): Promise<{ total: number; capped: boolean }> => {
    const scope = scopeFor(actor, query);
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
   * One ticket write inside the caller's unit of work: PUT /tickets/:id, and the status a reply sets.
   * It runs the rules bulk updates share (planUpdate, recordUpdates) and, for a single ticket, the
   * version check and the reply that becomes the resolution note.
   */
  const applyUpdate = async (
    tx: Db,
    emit: Emit,
    actor: Actor,
    id: number,
    input: UpdateTicketBody,
    options: { replyAsResolution?: string } = {},
  ): Promise<Ticket> => {
    const locked = await findTicketRow(tx, id, true);
    if (!locked || !canViewTicket(actor, locked.ticket)) throw new NotFoundError(MESSAGES.tickets.notFound);
    const current = locked.ticket;
    const before = presentTicket(locked);
    // The policy speaks first: a caller who may not assign learns that, not whether the assignee exists.
    planUpdate(actor, locked, input, undefined);
    // Checked on the locked row, so no other write can slip in between the check and this one.
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
      throw new VersionConflictError(MESSAGES.tickets.versionConflict, before);
    }
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
    const rows = await updateTicketRows(tx, eq(tickets.id, id), {
      ...plan.set,
      updatedById: actor.id,
      updatedAt: now,
      lastActivityAt: now,
      lastActivityById: actor.id,
    });
    const ticket = presentTicket(returnedRow(rows, 'the ticket update'));
    await recordUpdates(tx, emit, actorRef(actor), [{ before, after: ticket, ownerId: current.userId, plan }]);
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

  /** Past the last page answers at once from the count; deeper than LIMITS.ticketList.depth rows is refused. */
  const readList = async (actor: Actor, query: TicketQuery): Promise<TicketListAnswer> => {
    const { total, capped } = await count(actor, query);
    const offset = (query.page - 1) * query.limit;
    if (!capped && offset >= total) return { tickets: [], total, totalCapped: false };
    if (offset >= LIMITS.ticketList.depth)
      throw new ValidationError(MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth), {
        page: MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth),
      });
    const rows = await findTicketRows(db, ticketConditions(scopeFor(actor, query), query), query, isStaff(actor) ? actor.id : undefined);
    return { tickets: rows.map(presentTicket), total, totalCapped: capped };
  };

  const readStats = async (actor: Actor, filters: TicketFilters): Promise<TicketStatsAnswer> => {
    const scope = scopeFor(actor, filters);
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
  };

  const readDetail = async (actor: Actor, id: number): Promise<TicketDetail> => {
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
  };

  return {
    list(actor: Actor, query: TicketQuery): Promise<TicketListAnswer> {
      return keptLists(callerKey(actor, query), () => readList(actor, query));
    },

    stats(actor: Actor, filters: TicketFilters): Promise<TicketStatsAnswer> {
      return keptStats(callerKey(actor, filters), () => readStats(actor, filters));
    },

    /** Whether the ticket exists and the actor may read it (presence asks before announcing anyone on it). */
    async canRead(actor: Actor, id: number): Promise<boolean> {
      const row = await findTicketRow(db, id);
      return Boolean(row && canViewTicket(actor, row.ticket));
    },

    async get(actor: Actor, id: number): Promise<TicketDetail> {
      const [detail] = await Promise.all([
        keptDetails(callerKey(actor, id), () => readDetail(actor, id)),
        // Opening a ticket is what clears its unread mark for this staff member (a write only when
        // there was something unread, so re-opening keeps every kept answer).
        isStaff(actor) ? keptReadMarks(`${actor.id}:${id}`, () => markTicketRead(db, actor.id, id).then(() => true as const)) : undefined,
      ]);
      return detail;
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
          await insertTicketRow(tx, {
            title: input.title,
            description: input.description,
            priority: input.priority,
            userId: actor.id,
            lastActivityById: actor.id,
          }),
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

    /**
     * The same change to many tickets, each under the rules of `update`. Per chunk: one locking read,
     * one update per distinct change (at most two: Start also takes unassigned tickets), one history insert.
     */
    async bulkUpdate(actor: Actor, ids: number[], changes: BulkChanges): Promise<{ updated: Ticket[]; failed: BulkFailure[] }> {
      if (!isStaff(actor)) throw new ForbiddenError(MESSAGES.http.staffOnly);
      const updated: Ticket[] = [];
      const failed: BulkFailure[] = [];
      let assignee: UserRef | null | undefined;
      try {
        assignee = changes.assignedAgentId !== undefined ? await resolveAssignee(db, changes.assignedAgentId) : undefined;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return { updated, failed: ids.map((id) => ({ id, message: error.message })) };
      }
      const outcome = new Map<number, Ticket | BulkFailure>();
      for (let i = 0; i < ids.length; i += LIMITS.bulk.chunk) {
        const chunk = ids.slice(i, i + LIMITS.bulk.chunk);
        await withTransaction(async (tx, emit) => {
          const locked = new Map((await lockTicketRows(tx, inArray(tickets.id, chunk))).map((row) => [row.ticket.id, row]));
          const groups = new Map<string, { set: Plan['set']; items: { row: TicketRow; plan: Plan }[] }>();
          for (const id of chunk) {
            const row = locked.get(id);
            if (!row) {
              outcome.set(id, { id, message: MESSAGES.tickets.notFound });
              continue;
            }
            if (row.ticket.status === 'closed') {
              outcome.set(id, { id, message: MESSAGES.tickets.closedInBulk });
              continue;
            }
            let plan: Plan;
            try {
              plan = planUpdate(actor, row, changes, assignee);
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              outcome.set(id, { id, message: error.message });
              continue;
            }
            if (plan.changes.length === 0) {
              outcome.set(id, presentTicket(row));
              continue;
            }
            // Every ticket of a group gets the same SET; a field already at its value is rewritten to itself.
            const set: Plan['set'] = {
              ...(changes.status !== undefined && { status: changes.status }),
              ...(changes.priority !== undefined && { priority: changes.priority }),
              ...(assignee !== undefined && { assignedAgentId: assignee?.id ?? null }),
              ...('assignedAgentId' in plan.set && { assignedAgentId: plan.set.assignedAgentId }),
            };
            const key = JSON.stringify(set);
            const group = groups.get(key) ?? { set, items: [] };
            group.items.push({ row, plan });
            groups.set(key, group);
          }
          const now = new Date();
          const written: Written[] = [];
          for (const { set, items } of groups.values()) {
            const rows = await updateTicketRows(
              tx,
              inArray(
                tickets.id,
                items.map(({ row }) => row.ticket.id),
              ),
              { ...set, updatedById: actor.id, updatedAt: now, lastActivityAt: now, lastActivityById: actor.id },
            );
            const after = new Map(rows.map((row) => [row.ticket.id, presentTicket(row)]));
            for (const { row, plan } of items) {
              const ticket = after.get(row.ticket.id);
              if (!ticket) throw new Error(`bulk update lost ticket ${row.ticket.id}`);
              written.push({ before: presentTicket(row), after: ticket, ownerId: row.ticket.userId, plan });
              outcome.set(row.ticket.id, ticket);
            }
          }
          written.sort((a, b) => a.after.id - b.after.id);
          await recordUpdates(tx, emit, actorRef(actor), written);
        });
      }
      for (const id of ids) {
        const result = outcome.get(id);
        if (!result) continue;
        if ('message' in result) failed.push(result);
        else updated.push(result);
      }
      return { updated, failed };
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
     * one request, one history. A reply is activity (last activity moves) but not a change: the version
     * stays. A note is neither, since the owner sees last activity. The owner's reply on a resolved
     * ticket reopens it, as a customer's follow-up does in any helpdesk; a closed ticket takes no reply
     * from its owner, who is asked to open a new ticket. Mentions and the assignee's "reply" notify.
     */
    async addComment(actor: Actor, id: number, input: NewComment): Promise<{ comment: Comment; ticket?: Ticket }> {
      const { content, internal = false, mentions = [], status } = input;
      const row = await loadVisible(actor, id);
      if (!canCommentOnTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
      if (internal && !canWriteInternalNote(actor)) throw new ForbiddenError(MESSAGES.tickets.internalNoteForbidden);
      if (mentions.length > 0 && !isStaff(actor)) throw new ForbiddenError(MESSAGES.tickets.mentionsStaffOnly);
      const byOwner = row.ticket.userId === actor.id;
      if (byOwner && !isStaff(actor) && row.ticket.status === 'closed') throw new ConflictError(MESSAGES.tickets.closedFollowUp);
      return withTransaction(async (tx, emit) => {
        await checkMentions(tx, mentions);
        const inserted = await tx.insert(ticketComments).values({ ticketId: id, authorId: actor.id, content, internal }).returning();
        const commentRow = returnedRow(inserted, 'the comment insert');
        const comment = presentComment({ comment: commentRow, author: { id: actor.id, name: actor.name, role: actor.role } });
        const history = returnedRow(
          await insertHistory(tx, actor, [{ ticketId: id, type: 'comment', to: String(comment.id), internal }]),
          'the comment history insert',
        );
        const locked = byOwner && !internal ? await findTicketRow(tx, id, true) : undefined;
        if (locked?.ticket.status === 'resolved') {
          const plan: Plan = {
            set: { status: 'open' },
            changes: [{ type: 'status', from: 'resolved', to: 'open' }],
            statusChange: { from: 'resolved', to: 'open' },
          };
          const rows = await updateTicketRows(tx, eq(tickets.id, id), {
            ...plan.set,
            updatedById: actor.id,
            updatedAt: commentRow.createdAt,
            lastActivityAt: commentRow.createdAt,
            lastActivityById: actor.id,
          });
          const after = presentTicket(returnedRow(rows, 'the follow-up reopen'));
          await recordUpdates(tx, emit, actorRef(actor), [{ before: presentTicket(locked), after, ownerId: locked.ticket.userId, plan }]);
        } else if (!internal) {
          await touchTicketActivity(tx, id, actor.id, commentRow.createdAt);
        }
        emit('comment.added', {
          ticketId: id,
          ownerId: row.ticket.userId,
          commentId: comment.id,
          actor: actorRef(actor),
          comment,
          history,
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
        return { comment, ...(ticket && { ticket }) };
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw new NotFoundError(MESSAGES.tickets.notFound);
        throw error;
      });
    },
  };
}
