import {
  canSeeTags,
  canViewTicket,
  DEFAULT_TICKET_SORT,
  isStaff,
  LIMITS,
  MESSAGES,
  type TagCount,
  type Comment,
  type RequesterAccount,
  type HistoryEntry,
  type Ticket,
  type TicketDetail,
  type TicketFilters,
  type TicketQuery,
  type TicketStats,
} from '@helpdesk/protocol';
import { sql, type SQL } from 'drizzle-orm';
import { isForeignKeyViolation } from '../../db/errors.js';
import { findTicketAttachments } from '../../db/queries/attachments.js';
import { findNewestSurvey } from '../../db/queries/csat.js';
import { findTicketSource } from '../../db/queries/inbound.js';
import {
  cappedTicketTotal,
  countedStats,
  countedTotal,
  findTicketPage,
  findTicketPageOfMatches,
  findTicketRow,
  findTicketRows,
  findTicketPageOfRows,
  listSort,
  readTotal,
  markTicketRead,
  sortsOffMatches,
  ticketConditions,
  ticketStats,
  ticketTotal,
  type TicketRow,
  type TicketScope,
} from '../../db/queries/tickets.js';
import { findRequesterAccount } from '../../db/queries/staff.js';
import { findTagCounts, tagSpreadIn, taggedWith } from '../../db/queries/ticketFilters.js';
import { SLA_ROW_COLUMNS, slaRowsOf } from '../../db/queries/ticketSlaStates.js';
import { fewTaggedOf, taggedRowsOf } from '../../db/queries/ticketTags.js';
import { amongMatches, cappedWordTotal, FEW_WORD_MATCHES, wordMatchesOf } from '../../db/queries/ticketWords.js';
import { findComments, findHistory } from '../../db/queries/ticketThread.js';
import type { Actor } from '../../lib/actor.js';
import { presentTicketCsat } from '../../presenters/csat.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { presentComment, presentHistoryEntry, presentTicket, presentTicketDetail, ticketFor } from '../../presenters/tickets.js';
import type { ServiceContext } from '../context.js';
import { createReadMemo } from '../readMemo.js';
import type { SearchCounts } from '../searchCounts.js';
import { audienceOf, listFilters, loadVisible, untaggedCount, type ListFilters } from './access.js';

const THREAD_PAGE = LIMITS.ticketThread.page;
/** A list's conditions with its search taken out (its matches are read apart). */
const WITHOUT_SEARCH = { search: undefined, searchRequesters: undefined, searchAmong: undefined } as const;

type TicketListAnswer = { tickets: Ticket[]; next: Ticket[]; total: number; totalCapped: boolean };
type TicketStatsAnswer = { stats: TicketStats; totalCapped: boolean };

/**
 * Answers kept per caller and question, least recently asked dropped first. Sized for memory at the
 * worst: a 100-row list page is ~100 kB with its JSON text, a detail with 50 comments of 5,000
 * characters ~500 kB, so details keep fewer.
 */
const KEPT = { lists: 1_000, stats: 1_000, details: 200, readMarks: 10_000 };
/** The list pages planned once per connection (plannable below): the first few, as agents page. */
const PLANNED_PAGES = 5;

/**
 * Whether a staff list is an SLA state alone in deadline order (the "SLA at risk" view's): the state is
 * written into the statement (ticketSlaStates.ts#slaRowsOf), so its one plan is the plan for that
 * state, off its rows' partial deadline index (checked with generic plans at 1M). Planned apart, its
 * statement cost 2.3 ms to plan against 1.0 ms to run.
 */
function stateInDeadlineOrder(scope: TicketScope, c: ListFilters['conditions'], sort: TicketQuery['sort']): boolean {
  return c.sla !== undefined && sort.field === 'slaDueAt' && filtersNamed(scope, c) === 0 && scope.ownerId === undefined;
}

/** How many of a list's assignee, status, priority and category it names. */
const filtersNamed = (scope: TicketScope, c: ListFilters['conditions']): number =>
  [scope.assignedAgentId !== undefined, c.status !== undefined, c.priority !== undefined, c.category !== undefined].filter(Boolean).length;

/**
 * Whether a list's filters are none (any order), or for staff, in creation order, exactly those an
 * index leads with before the creation time: (status, created_at), (priority, created_at),
 * (assigned_agent_id, created_at), (assigned_agent_id, status, created_at), (category, created_at),
 * (assigned_agent_id, category, created_at), and an SLA state's rows' (state, created_at).
 */
function filtersIndexedInCreatedOrder(scope: TicketScope, c: ListFilters['conditions'], sort: TicketQuery['sort']): boolean {
  const others = filtersNamed(scope, c);
  if (c.sla === undefined && others === 0) return true;
  if (sort.field !== 'createdAt' || scope.ownerId !== undefined) return false;
  if (c.sla !== undefined) return others === 0;
  // A category has its index alone and after an assignee; with a status or a priority it is planned for its values.
  if (c.category !== undefined) return c.status === undefined && c.priority === undefined;
  // An assignee and a status have their index; a priority goes alone.
  return c.priority === undefined || others === 1;
}

/** Lists, count cards, a ticket with its latest thread, and older pages of that thread. */
export function createTicketReads(context: ServiceContext, searchCounts: SearchCounts) {
  const { db, plannedDb } = context;
  // Until a write to a table the answer read, every caller asking the same question gets the same
  // answer (services/readMemo.ts). Keys start with the caller: scope, unread marks and `me` are theirs.
  const keptLists = createReadMemo<TicketListAnswer>(context, KEPT.lists);
  const keptStats = createReadMemo<TicketStatsAnswer>(context, KEPT.stats);
  const keptDetails = createReadMemo<TicketDetail>(context, KEPT.details);
  // A read mark made since the last write to what it read (the ticket's activity, the marks) is
  // still current: opening the ticket again writes nothing.
  const keptReadMarks = createReadMemo<true>(context, KEPT.readMarks);
  const callerKey = (actor: Actor, question: unknown) => JSON.stringify([actor.id, actor.role, question]);

  /**
   * A list's total as SQL that can ride in its page's statement (findTicketPage): staff with plain
   * filters (a tag or an SLA state included) read the maintained counters, an owner's own tickets an
   * index, named requesters are counted up to the cap. A search (its count may be estimated far past
   * the cap, and is shared with its cards and views), a tag with an SLA state and unread marks are
   * counted apart by searchCounts: undefined.
   */
  const totalOf = ({ scope, conditions, plain }: ListFilters, where: SQL | undefined) => {
    const exact = (n: number) => ({ total: n, capped: false });
    // Exact, and cheap enough to read twice (a few dozen counter rows, a tag's included since
    // migration 0026): the page then reads nothing when they say so.
    if (plain && scope.ownerId === undefined)
      return { sql: countedTotal({ assignedAgentId: scope.assignedAgentId, ...conditions }), read: exact, gate: true };
    if (plain) return { sql: ticketTotal(where), read: exact };
    if (conditions.search || conditions.sla !== undefined || conditions.unreadFor !== undefined) return undefined;
    const cap = LIMITS.ticketList.countCap;
    return { sql: cappedTicketTotal(where, cap), read: (n: number) => ({ total: Math.min(n, cap), capped: n > cap }) };
  };

  /**
   * Which lists are planned once per connection (plannedDb): the first few pages of a list with no
   * filter, which read their order's index whoever asks. The page's LIMIT and OFFSET are written into
   * the text, so each (order, page) is a statement of its own: a filter would multiply them past what a
   * connection keeps, and its value's frequency picks the plan (a rare status, a busy agent, a tag on
   * a fifth of the tickets), so a filtered list is planned for its values. Except three kinds. Staff's
   * newest-first (or oldest-first) list under a status, a priority, an assignee, an assignee and a
   * status, or an SLA state: an index leads with exactly those and then the creation time, so every
   * value's plan is a walk of it (checked with generic plans at 1M); and an SLA state alone in
   * deadline order (stateInDeadlineOrder). A tag, rare (its page reads its tickets off the tag's
   * index, then filters and sorts them) or on a list planned once without it.
   * And a requester: the accounts named (an email, or a name's start as a range of its index) are
   * read into an array when the statement runs, so no plan ever knows how many tickets they hold, and
   * those few tickets come off (user_id, ...) whatever else is asked.
   */
  const plannable = ({ scope, conditions: c }: ListFilters, page: number, sort: TicketQuery['sort']) => {
    if (page > PLANNED_PAGES || c.search !== undefined || c.unreadFor !== undefined) return false;
    if (c.requester !== undefined) return c.tag === undefined && c.sla === undefined;
    if (c.tag === undefined) return filtersIndexedInCreatedOrder(scope, c, sort) || stateInDeadlineOrder(scope, c, sort);
    if (c.sla !== undefined) return false;
    // A rare tag's page reads its few tickets off the tag's index whatever else is asked (`few`). A
    // common one filters the entries of the index the same list without it walks (each carries the
    // tags), where no other index leads with the list's filters: under an assignee alone the
    // (assignee, status, created) index does too, and a generic plan priced the tag as rare there and
    // read the agent's every ticket off it (generic plans checked at 1M).
    if (tagSpreadIn(c) === 'rare') return true;
    return filtersIndexedInCreatedOrder(scope, c, sort) && !(scope.assignedAgentId !== undefined && c.status === undefined);
  };

  /** Past the last page answers at once from the count; deeper than LIMITS.ticketList.depth rows is refused. */
  const readList = async (actor: Actor, query: TicketQuery): Promise<TicketListAnswer> => {
    // An order by SLA deadline would tell an owner what only staff read.
    if (query.sort.field === 'slaDueAt' && !isStaff(actor)) throw new ForbiddenError(MESSAGES.http.staffOnly);
    const filters = await listFilters(db, actor, query);
    const where = ticketConditions(filters.scope, filters.conditions);
    // A rare tag's page in an order its rows of ticket_tags do not carry (taggedRowsOf below): its few
    // tickets off the tag's index, then filtered and sorted (findTicketPage's `few`), the tag a plain
    // condition; re-reading by id the ids the counts' form collects cost more.
    const { tag } = filters.conditions;
    const few = tag !== undefined && tagSpreadIn(filters.conditions) === 'rare' ? taggedWith(tag) : undefined;
    const pageWhere = few ? ticketConditions(filters.scope, { ...filters.conditions, tag: undefined }) : where;
    const offset = (query.page - 1) * query.limit;
    const page = { ...query, sort: listSort(query.sort, filters.conditions), spare: LIMITS.ticketList.spare };
    const reader = isStaff(actor) ? actor.id : undefined;
    const reads = plannable(filters, query.page, page.sort) ? plannedDb : db;
    const answer = (rows: TicketRow[], { total, capped }: { total: number; capped: boolean }): TicketListAnswer => {
      const presented = rows.map((row) => ticketFor(isStaff(actor), presentTicket(row)));
      return { tickets: presented.slice(0, query.limit), next: presented.slice(query.limit), total, totalCapped: capped };
    };

    const total = totalOf(filters, where);
    const cap = LIMITS.ticketList.countCap;
    // A search counted exactly (not far past the cap): off its word's rows when ticket_words holds what
    // it asks, else its matches read once for its count and page.
    const searched = !total && filters.conditions.search !== undefined;
    // Far past the cap by the statistics: counted as the cap, no row read (searchCounts.total would plan it again).
    let overCap = searched && (await searchCounts.farPastCap(where));
    if (searched && !overCap && offset < LIMITS.ticketList.depth) {
      const matches = await wordMatchesOf(plannedDb, filters.scope, filters.conditions);
      if (matches) {
        // Counted first, index-only: few matches are then read by id and sorted, where walking the
        // order's index for them read tens of thousands of rows (a page of 512 matches took 96 ms).
        // ticket_words holds exactly what the search asks: neither statement has a plan to choose
        // but its index's, so both are planned once per connection.
        const n = await readTotal(plannedDb, cappedWordTotal(matches, cap));
        const counted = { total: Math.min(n, cap), capped: n > cap };
        if (offset >= n) return answer([], counted);
        // Up to the cap in an order they carry, the matches sort themselves, index-only; more are
        // dense enough that the order's index reaches a page of them soon.
        if (n <= cap && sortsOffMatches(page.sort))
          return answer((await findTicketPageOfRows(plannedDb, matches, page, reader)).rows, counted);
        if (n > FEW_WORD_MATCHES) return answer(await findTicketRows(db, where, page, reader), counted);
        // The matches are the search's exactly (kept by the writing transaction, read in the page's
        // snapshot): its words are not checked again on each ticket, which read every match's text.
        const unsearched = ticketConditions(filters.scope, { ...filters.conditions, ...WITHOUT_SEARCH });
        return answer(await findTicketRows(plannedDb, unsearched, page, reader, { few: amongMatches(matches) }), counted);
      } else {
        const { rows, total: n } = await findTicketPageOfMatches(db, where, page, reader, cap);
        if (n !== undefined && n <= cap) return answer(rows, { total: n, capped: false });
        overCap = n !== undefined;
      }
    }
    if (total && offset < LIMITS.ticketList.depth) {
      // A tag under filters in an order its rows do not carry: counted first, and when the counters
      // say few tickets hold both, those read by id off the tag's rows (ticketTags.ts#fewTaggedOf).
      const fewTagged = await fewTaggedOf(filters.scope, filters.conditions, page.sort, () => readTotal(db, total.sql));
      if (fewTagged) {
        const counted = total.read(fewTagged.total);
        if (offset >= counted.total) return answer([], counted);
        if (fewTagged.few) return answer(await findTicketRows(db, where, page, reader, { few: fewTagged.few }), counted);
      }
      // Counted already: the page's statement carries the figure rather than reading the counters again.
      const pageTotal = fewTagged ? sql<number>`${fewTagged.total}::int` : total.sql;
      // A tag's page off its own rows where they read it cheaper. In creation order that is a walk of
      // the tag's range of ticket_tags' index, one plan whatever the tag, so it is planned once; sorted,
      // a generic plan priced a tag as the average one (65,000 rows at a million tickets) and sorted a
      // rare tag's 500 in parallel workers (10 ms against 0.7).
      const tagged = await taggedRowsOf(filters.scope, filters.conditions, page.sort, () =>
        untaggedCount(db, filters.scope, filters.conditions),
      );
      // An SLA state's page off its own rows, in creation or deadline order: no index of tickets holds
      // the state (ticketSlaStates.ts#slaRowsOf).
      const stated = slaRowsOf(filters.scope, filters.conditions, page.sort);
      const { rows, total: n } = tagged
        ? await findTicketPageOfRows(page.sort.field === 'createdAt' ? plannedDb : db, tagged, page, reader, total.sql)
        : stated
          ? await findTicketPageOfRows(reads, stated, page, reader, total.sql, SLA_ROW_COLUMNS)
          : await findTicketPage(reads, pageWhere, page, reader, pageTotal, { gateByTotal: total.gate, few });
      // An empty page past the first carries no count: it is counted alone below.
      if (n !== undefined) return answer(rows, total.read(n));
    }
    const counted = total
      ? total.read(await readTotal(db, total.sql))
      : overCap
        ? { total: cap, capped: true }
        : await searchCounts.total(filters);
    if (!counted.capped && offset >= counted.total) return answer([], counted);
    if (offset >= LIMITS.ticketList.depth)
      throw new ValidationError(MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth), {
        page: MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth),
      });
    // The page was read above and was empty.
    if (total) return answer([], counted);
    return answer(await findTicketRows(reads, pageWhere, page, reader, { few }), counted);
  };

  const readStats = async (actor: Actor, filters: TicketFilters): Promise<TicketStatsAnswer> => {
    const { scope, conditions, plain } = await listFilters(db, actor, filters);
    if (!plain) {
      const { stats, capped } = await searchCounts.stats({ scope, conditions });
      return { stats, totalCapped: capped };
    }
    if (scope.ownerId === undefined)
      return {
        stats: await countedStats(db, { assignedAgentId: scope.assignedAgentId, ...conditions }),
        totalCapped: false,
      };
    return { stats: await ticketStats(db, ticketConditions(scope, conditions)), totalCapped: false };
  };

  /**
   * A ticket deleted meanwhile has nothing left to mark: the mark runs beside the read, so its foreign
   * key may be refused first, and the answer must stay the read's 404, never that refusal.
   */
  const markRead = (userId: number, id: number) =>
    context
      .announceWrite(async (writer, emit) => {
        // The person's other tabs and devices take the mark off too, when there was one to take off.
        if (await markTicketRead(writer, userId, id)) emit('ticket.read', { userId, ticketId: id });
      })
      .then(
        () => true as const,
        (error: unknown) => {
          if (isForeignKeyViolation(error)) return true as const;
          throw error;
        },
      );

  const readDetail = async (actor: Actor, id: number): Promise<TicketDetail> => {
    const row = await loadVisible(plannedDb, actor, id);
    const audience = audienceOf(actor);
    const staff = isStaff(actor);
    const [comments, history, files, survey, source] = await Promise.all([
      findComments(plannedDb, id, THREAD_PAGE, audience, { countNotes: audience.internal }),
      findHistory(plannedDb, id, THREAD_PAGE, audience),
      findTicketAttachments(plannedDb, id),
      // The rating is staff's: the owner's answer reaches them through their own survey, not the ticket.
      staff ? findNewestSurvey(plannedDb, id) : undefined,
      // The mail a ticket was made from is staff's to download, like its comments' (findComments).
      staff ? findTicketSource(plannedDb, id) : undefined,
    ]);
    const noteCount = audience.internal ? comments.noteCount : undefined;
    return ticketFor(staff, {
      ...presentTicketDetail(row, comments.rows, history.rows, files),
      hasOlderComments: comments.hasMore,
      hasOlderHistory: history.hasMore,
      ...(noteCount !== undefined && { noteCount }),
      ...(staff && { csat: presentTicketCsat(survey) }),
      ...(source !== undefined && { inboundMessageId: source }),
    });
  };

  return {
    list(actor: Actor, query: TicketQuery): Promise<TicketListAnswer> {
      return keptLists(callerKey(actor, query), () => readList(actor, query));
    },

    stats(actor: Actor, filters: TicketFilters): Promise<TicketStatsAnswer> {
      return keptStats(callerKey(actor, filters), () => readStats(actor, filters));
    },

    /**
     * The requester panel (staff): who the person is (one row by primary key) and their newest
     * tickets by creation, off (user_id, created_at).
     */
    async ofRequester(actor: Actor, userId: number, limit: number): Promise<{ requester: RequesterAccount; tickets: Ticket[] }> {
      if (!isStaff(actor)) throw new ForbiddenError(MESSAGES.http.staffOnly);
      const account = await findRequesterAccount(plannedDb, userId);
      if (!account) throw new NotFoundError(MESSAGES.users.userNotFound);
      const rows = await findTicketRows(
        plannedDb,
        ticketConditions({ ownerId: userId }, {}),
        { page: 1, limit, sort: DEFAULT_TICKET_SORT },
        undefined,
        { oneStatement: true },
      );
      return { requester: { ...account, createdAt: account.createdAt.toISOString() }, tickets: rows.map(presentTicket) };
    },

    /** The tags in use with how many tickets carry each, for suggestions (staff). */
    async tags(actor: Actor): Promise<TagCount[]> {
      if (!canSeeTags(actor)) throw new ForbiddenError(MESSAGES.http.staffOnly);
      return findTagCounts(db, LIMITS.tags.suggestions);
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
        isStaff(actor) ? keptReadMarks(`${actor.id}:${id}`, () => markRead(actor.id, id)) : undefined,
      ]);
      return detail;
    },

    /** Older comments of a ticket the actor may see, before the comment `before`. */
    async olderComments(actor: Actor, id: number, before: number): Promise<{ comments: Comment[]; hasMore: boolean }> {
      await loadVisible(db, actor, id);
      const { rows, hasMore } = await findComments(db, id, THREAD_PAGE, audienceOf(actor), { before });
      return { comments: rows.map(presentComment), hasMore };
    },

    async olderHistory(actor: Actor, id: number, before: number): Promise<{ history: HistoryEntry[]; hasMore: boolean }> {
      await loadVisible(db, actor, id);
      const { rows, hasMore } = await findHistory(db, id, THREAD_PAGE, audienceOf(actor), before);
      return { history: rows.map(presentHistoryEntry), hasMore };
    },
  };
}
