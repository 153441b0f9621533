import { and, asc, desc, eq, getTableColumns, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  searchWordsOf,
  SLA_FILTERS,
  type Category,
  type Priority,
  type SlaFilter,
  type TicketQuery,
  type TicketStatus,
} from '@helpdesk/protocol';
import { phaseOf } from '../../sla/ticketSla.js';
import type { Db } from '../client.js';
import { executedRows, returnedRow } from '../rows.js';
import { isStaffRole } from './staff.js';
import { requestedBy, requestedByAccounts, tagSpreadIn, taggedWith } from './ticketFilters.js';
import { staffEntryExists } from './ticketThread.js';
import { amongTicketsWith } from './ticketWords.js';
import { ticketCategoryCounts, ticketCounts, ticketReads, tickets, ticketSlaStates, ticketTagCounts, users } from '../schema/index.js';
import { literalLimit, plannedPartnerOf } from '../plannedStatements.js';
import { renderedStatements, renderSelection } from '../renderedSelection.js';

/** A ticket as every read and write here returns it: the row, and the names and count shown with it. */
export interface TicketRow {
  ticket: Omit<typeof tickets.$inferSelect, 'searchWords' | 'commentCount'>;
  ownerName: string | null;
  agentName: string | null;
  editorName: string | null;
  commentCount: number;
  answered: boolean;
  /** Present on staff list pages only. */
  unread?: boolean;
}

/**
 * Read side of tickets. Names come from scalar subselects rather than three joins on users: the
 * plan is simpler, which on a page of ten rows is most of the query's cost (see bench:api).
 */
// Drizzle leaves columns unqualified in a single-table select, so the outer row is named explicitly.
const outer = (column: string) => sql.raw(`"tickets"."${column}"`);
const nameOf = (column: string) => sql<string | null>`(select u.name from ${users} u where u.id = ${outer(column)})`;

const staffEditor = sql`exists (select 1 from ${users} e where e.id = ${outer('updated_by_id')} and ${isStaffRole(sql`e.role`)})`;

const derived = {
  ownerName: nameOf('user_id'),
  agentName: nameOf('assigned_agent_id'),
  editorName: nameOf('updated_by_id'),
  // The conversation with the owner: internal notes are never counted, for anyone, so one Ticket
  // shape can go to the owner's room and to staff alike (docs/decisions.md#working-a-ticket-together).
  // A counter kept by triggers on ticket_comments (migration 0010), not a count of the thread.
  commentCount: sql<number>`${outer('comment_count')}`,
  // Support replied or changed it, notes left out for the same reason. The editor is asked too: a
  // staff write's RETURNING runs before its history entries are written.
  answered: sql<boolean>`(${staffEditor} or ${staffEntryExists(outer('id'), { internal: false })})`,
};
// search_words is the index's copy of title and description; no reader needs it back.
// comment_count is read as one of the derived values above, so a row's shape stays what it was.
const { searchWords, commentCount: _commentCount, ...ticketColumns } = getTableColumns(tickets);
const ticketSelection = { ticket: ticketColumns, ...derived };

const selectTickets = (db: Db) => db.select(ticketSelection).from(tickets);
/** The same selection as text, for the reads that run most (a list's page, a ticket by id). */
const TICKET_ROW = renderSelection<TicketRow>(ticketSelection);

/** The same row as a RETURNING list (flat: RETURNING takes no nested objects), so a write needs no read after it. */
const returnedTicket = { ...ticketColumns, ...derived };
const asTicketRow = ({
  ownerName,
  agentName,
  editorName,
  commentCount,
  answered,
  ...ticket
}: TicketRow['ticket'] & Omit<TicketRow, 'ticket'>): TicketRow => ({
  ticket,
  ownerName,
  agentName,
  editorName,
  commentCount,
  answered,
});

export interface TicketScope {
  ownerId?: number;
  /** A staff member's id, or null for the unassigned tickets. */
  assignedAgentId?: number | null;
}

const assignedTo = (agentId: number | null | undefined): SQL | undefined => {
  if (agentId === undefined) return undefined;
  return agentId === null ? isNull(tickets.assignedAgentId) : eq(tickets.assignedAgentId, agentId);
};

/**
 * Every word of the search starts a word of the ticket (docs/decisions.md#search-by-word-prefix). The
 * query is built in SQL, so search and text are folded by the same lower(); a search without a word
 * matches nothing (an empty tsquery would match nothing too, with a notice).
 */
const searchMatches = (search: string): SQL =>
  searchWordsOf(search).length === 0 ? sql`false` : sql`${searchWords} @@ ticket_search_query(${search})`;

/**
 * The free words: the ticket's text, among the tickets holding their rarest word when that is known
 * (ticketWords.ts#rarestWordOf), or the requesters they name (ticketFilters.ts#findAccountsNamedBy).
 */
const wordsMatch = ({ search, searchAmong, searchRequesters = [] }: ConditionFilters & { search: string }): SQL | undefined => {
  const text = searchAmong ? and(searchMatches(search), amongTicketsWith(searchAmong)) : searchMatches(search);
  return searchRequesters.length > 0 ? or(text, requestedByAccounts(searchRequesters)) : text;
};

/**
 * A list's filters as the SQL reads them (services/tickets/access.ts#listFilters builds them): `search`
 * holds the free words only, once the search syntax is read; `unreadFor` is a staff reader's id.
 */
export interface ConditionFilters {
  status?: TicketStatus;
  priority?: Priority;
  category?: Category;
  search?: string;
  /** Staff lists: the accounts the search's free words name (findAccountsNamedBy); their tickets match too. */
  searchRequesters?: number[];
  /** A search of several words: its rarest word's exact words (ticketWords.ts#rarestWordOf), which its text must hold. */
  searchAmong?: string[];
  tag?: string;
  /**
   * How many tickets carry the tag (tag_counts), which chooses how it is read: off its own rows
   * (ticketTags.ts#taggedRowsOf) or, by its spread (ticketFilters.ts#tagSpreadIn), how the tickets are
   * asked for it (taggedWith).
   */
  tagged?: number;
  requester?: string;
  unreadFor?: number;
  /** Staff: the service-level state (its rows of ticket_sla_states). */
  sla?: SlaFilter;
}

/**
 * `sla=<state>`: the ticket has that state's row in ticket_sla_states (migration 0040; no index of
 * tickets holds the state). The state is written into the statement's text (one of SLA_FILTERS, never
 * the caller's text): a plan made once for it (plannable in services/tickets/reads.ts) then knows how
 * many rows it holds and which partial index has them, where a value sent apart would leave both unknown.
 */
const inSlaState = (state: SlaFilter): SQL =>
  sql`exists (select 1 from ${ticketSlaStates} s where s.ticket_id = ${outer('id')} and s.state = ${slaStateLiteral(state)})`;

/** An SLA state as a literal of the statement's text (inSlaState above); refuses anything but SLA_FILTERS. */
export function slaStateLiteral(state: SlaFilter): SQL {
  if (!SLA_FILTERS.includes(state)) throw new RangeError(`Not an SLA state: ${state}`);
  return sql.raw(`'${state}'`);
}

export function ticketConditions(scope: TicketScope, filters: ConditionFilters): SQL | undefined {
  return and(
    scope.ownerId !== undefined ? eq(tickets.userId, scope.ownerId) : undefined,
    assignedTo(scope.assignedAgentId),
    filters.status ? eq(tickets.status, filters.status) : undefined,
    filters.priority ? eq(tickets.priority, filters.priority) : undefined,
    filters.category ? eq(tickets.category, filters.category) : undefined,
    filters.search ? wordsMatch({ ...filters, search: filters.search }) : undefined,
    filters.tag ? taggedWith(filters.tag, tagSpreadIn(filters)) : undefined,
    filters.requester ? requestedBy(filters.requester) : undefined,
    filters.sla ? inSlaState(filters.sla) : undefined,
    filters.unreadFor !== undefined ? unreadFor(filters.unreadFor) : undefined,
  );
}

const SORT_COLUMNS = {
  createdAt: tickets.createdAt,
  updatedAt: tickets.updatedAt,
  priority: tickets.priority,
  id: tickets.id,
  status: tickets.status,
  lastActivityAt: tickets.lastActivityAt,
  slaDueAt: tickets.slaDueAt,
} as const;

/**
 * The order a list is read in. A ticket has an open deadline only while its clock runs (open or in
 * progress), so under a filter that leaves none running, `slaDueAt` (tickets without one last, then
 * by id) is plain id order: the primary key serves it, where the deadline index would first be walked
 * past every running ticket, each row fetched to be filtered out.
 */
export function listSort(sort: TicketQuery['sort'], filters: Pick<ConditionFilters, 'status' | 'sla'>): TicketQuery['sort'] {
  if (sort.field !== 'slaDueAt') return sort;
  const noneRunning = (filters.status !== undefined && phaseOf(filters.status) !== 'running') || filters.sla === 'paused';
  return noneRunning ? { field: 'id', descending: sort.descending } : sort;
}

/** Where an order's columns are read from: the tickets, or a word's matches (MATCH_COLUMNS). */
export type OrderColumns = Record<'createdAt' | 'id', SQLWrapper> & Partial<Record<TicketQuery['sort']['field'], SQLWrapper>>;

/** Priority and status sort by their enum's rank; each order is served by an index ending in id. */
function orderOf(sort: TicketQuery['sort'], columns: OrderColumns = SORT_COLUMNS): SQL[] {
  const direction = sort.descending ? desc : asc;
  const column = columns[sort.field];
  if (column === undefined) throw new RangeError(`No column to sort by ${sort.field} here`);
  if (sort.field === 'id') return [direction(column)];
  // The earliest open deadline; tickets without one last either way (migration 0016's two indexes).
  if (sort.field === 'slaDueAt')
    return sort.descending ? [sql`${column} desc nulls last`, desc(columns.id)] : [sql`${column} asc nulls last`, asc(columns.id)];
  const order = [direction(column)];
  if (sort.field === 'priority') order.push(desc(columns.createdAt));
  if (sort.field === 'status') order.push(direction(columns.createdAt));
  order.push(direction(columns.id));
  return order;
}

/** The columns a word's matches carry (ticketWords.ts#WordMatches), by the orders they serve. */
const MATCH_COLUMNS: OrderColumns = {
  createdAt: sql`m.created_at`,
  id: sql`m.ticket_id`,
  priority: sql`m.priority`,
  status: sql`m.status`,
};

/** Whether a word's matches or a tag's rows sort themselves in this order (findTicketPageOfRows). */
export const sortsOffMatches = (sort: TicketQuery['sort']): boolean => MATCH_COLUMNS[sort.field] !== undefined;

/**
 * For a staff reader: changed or commented by someone else since the reader last opened the ticket
 * (never opened counts as unread). Looked up for the page's rows only.
 */
const unreadFor = (readerId: number) =>
  sql<boolean>`(${outer('last_activity_by_id')} is distinct from ${readerId} and not exists (select 1 from ${ticketReads} r where r.user_id = ${readerId} and r.ticket_id = ${outer('id')} and r.read_at >= ${outer('last_activity_at')}))`;

/** A page row's unread mark for a staff reader (none without one), as an extra column. */
const unreadColumn = (readerId: number | undefined): SQL => (readerId !== undefined ? sql`, ${unreadFor(readerId)} as "unread"` : sql``);

/**
 * The page's ids come first, from an index in the list's order; names and comment counts are then
 * looked up for those rows only, so a deep page costs no more subselects than the first.
 */
export async function findTicketRows(
  db: Db,
  where: SQL | undefined,
  page: Pick<TicketQuery, 'page' | 'limit' | 'sort'> & { spare?: number },
  unreadReaderId?: number,
  options: { few?: SQL; oneStatement?: boolean } = {},
): Promise<TicketRow[]> {
  return (await findTicketPage(db, where, page, unreadReaderId, undefined, options)).rows;
}

/**
 * A page of tickets and, when `total` is given, that count read in the same statement (an
 * uncorrelated subquery, run once): one round trip where a count then a page took two, and on this
 * kind of deployment each round trip costs more than either query (docs/decisions.md#round-trips-cost-more-than-the-queries).
 * An empty page carries no row to read the count from: the first is empty only when nothing
 * matches, so its `total` is 0; a later one's is undefined (past the end, counted apart). `few`: a
 * condition on few tickets whatever the planner's statistics say (a rare tag), beside `where`: those
 * are read, filtered and sorted rather than found walking the order's index (see pageIds).
 */
export async function findTicketPage(
  db: Db,
  where: SQL | undefined,
  { page, limit, sort, spare = 0 }: Pick<TicketQuery, 'page' | 'limit' | 'sort'> & { spare?: number },
  unreadReaderId?: number,
  total?: SQL<number>,
  { gateByTotal = false, few, oneStatement = false }: { gateByTotal?: boolean; few?: SQL; oneStatement?: boolean } = {},
): Promise<{ rows: TicketRow[]; total: number | undefined }> {
  const order = sql.join(orderOf(sort), sql`, `);
  // Without a filter there is nothing for the planner to misjudge: the count would only be read twice.
  const window = windowOf({ page, limit, spare });
  const ids = pageIds(where, order, window, gateByTotal && where ? total : undefined, few);
  return readPage(db, { ids, order, sort, unreadReaderId, total, first: window.offset === 0, oneStatement });
}

/** What a list's order reads (orderOf), and no more: the matches a page is sorted out of. */
const ORDER_COLUMNS = sql.join(
  Object.values(SORT_COLUMNS).map((column) => sql`${column}`),
  sql`, `,
);

/**
 * A page and the count of its matches up to `cap`, from one read of them (a search's: its count
 * visits each match's row, and its page visited them again; docs/decisions.md#counting-a-search).
 * The first cap + 1 matches are read once and counted, and the page is sorted out of them, so
 * `total` over `cap` means the page came from some of the matches only and must be read again. An
 * empty page carries its count only on the first page (0), as findTicketPage's.
 */
export async function findTicketPageOfMatches(
  db: Db,
  where: SQL | undefined,
  { page, limit, sort, spare = 0 }: Pick<TicketQuery, 'page' | 'limit' | 'sort'> & { spare?: number },
  unreadReaderId: number | undefined,
  cap: number,
): Promise<{ rows: TicketRow[]; total: number | undefined }> {
  const order = sql.join(orderOf(sort), sql`, `);
  const window = windowOf({ page, limit, spare });
  return readPage(db, {
    sort,
    matches: sql`with matches as materialized (select ${ORDER_COLUMNS} from ${tickets} where ${where ?? sql`true`} limit ${literalLimit(cap + 1)})`,
    ids: sql`select ${tickets.id} from matches as ${tickets} order by ${order} limit ${literalLimit(window.limit)} offset ${literalLimit(window.offset)}`,
    order,
    unreadReaderId,
    total: sql<number>`(select count(*)::int from matches)`,
    first: window.offset === 0,
  });
}

/**
 * A page of rows that carry their ticket's order (a word's matches, ticketWords.ts#wordMatchesOf; a
 * tag's rows, ticketTags.ts#taggedRowsOf; an SLA state's, ticketSlaStates.ts#slaRowsOf with its
 * `columns`), sorted off those rows in an order they carry (sortsOffMatches): index-only, about 0.2 µs
 * a row, where reading each by id descended the tickets' btree (~3.5 µs) and walking the order's index
 * passed every ticket between two of them. Only the page's rows are then read from tickets, with
 * `total` riding in the statement as findTicketPage's.
 */
export async function findTicketPageOfRows(
  db: Db,
  matches: SQL,
  { page, limit, sort, spare = 0 }: Pick<TicketQuery, 'page' | 'limit' | 'sort'> & { spare?: number },
  unreadReaderId?: number,
  total?: SQL<number>,
  columns: OrderColumns = MATCH_COLUMNS,
): Promise<{ rows: TicketRow[]; total: number | undefined }> {
  const window = windowOf({ page, limit, spare });
  const ids = sql`select m.ticket_id from ${matches} as m order by ${sql.join(orderOf(sort, columns), sql`, `)} limit ${literalLimit(window.limit)} offset ${literalLimit(window.offset)}`;
  const order = sql.join(orderOf(sort), sql`, `);
  return readPage(db, { ids, order, sort, unreadReaderId, total, first: window.offset === 0 });
}

/**
 * The rows of a page whose ids `ids` selects, in `order`, with `total` (read off the first row; 0 when
 * the `first` page is empty, since then nothing matches) and `matches` a WITH clause the ids and total
 * may read. Beside a planned-once pool a page is two statements: the ids and the total, planned as
 * the list's statement was, then the rows around them (names, `answered`, unread marks: eight
 * subplans, most of planning the whole) by one text per order, planned once per connection. One
 * statement planned them all again for every list planned for its values and for every new page,
 * filter and order of one planned once (docs/decisions.md#a-page-decorated-by-one-text).
 * `oneStatement` keeps a read of one text (a person's newest tickets) in one statement: planned once
 * already, a second one would be a round trip for nothing. Both run inside the answer's read window,
 * so a change between them is one the client already treats as maybe held.
 */
async function readPage(
  db: Db,
  {
    matches,
    ids,
    order,
    sort,
    unreadReaderId,
    total,
    first,
    oneStatement = false,
  }: {
    matches?: SQL;
    ids: SQL;
    order: SQL;
    sort: TicketQuery['sort'];
    unreadReaderId?: number;
    total?: SQL<number>;
    first: boolean;
    oneStatement?: boolean;
  },
): Promise<{ rows: TicketRow[]; total: number | undefined }> {
  const count = total ? sql`, ${total} as "pageTotal"` : sql``;
  const totalOf = (row: Record<string, unknown> | undefined) => (row?.pageTotal as number | undefined) ?? (total && first ? 0 : undefined);
  const rowsOf = (found: Record<string, unknown>[]) =>
    found.map((raw): TicketRow => {
      const row = TICKET_ROW.rowOf(raw);
      return unreadReaderId !== undefined ? { ...row, unread: raw.unread === true } : row;
    });
  const planned = oneStatement ? undefined : plannedPartnerOf(db);
  if (!planned) {
    const found = await executedRows(
      db,
      sql`${matches ?? sql``}
    select ${sql.raw(TICKET_ROW.text)}${unreadColumn(unreadReaderId)}${count} from ${tickets}
    where ${tickets.id} in (${ids})
    order by ${order}`,
    );
    return { rows: rowsOf(found), total: totalOf(found[0]) };
  }
  const page = await executedRows(db, sql`${matches ?? sql``} select p.id${count} from (${ids}) as p(id)`);
  if (page.length === 0) return { rows: [], total: totalOf(undefined) };
  // One array parameter, so a page of any size is the same text.
  const pageIds = `{${page.map((row) => Number(row.id)).join(',')}}`;
  const rowsKey: PageRowsKey = `${sort.field} ${sort.descending ? 'desc' : 'asc'}${unreadReaderId !== undefined ? ' unread' : ''}`;
  const found = await executedRows(planned, pageRowsStatement(rowsKey, { ids: pageIds, reader: unreadReaderId }));
  return { rows: rowsOf(found), total: totalOf(page[0]) };
}

/** A page's rows statement is one text per order and unread mark (readPage), rendered once each. */
type PageRowsKey = `${TicketQuery['sort']['field']} ${'asc' | 'desc'}${'' | ' unread'}`;
const pageRowsStatement = renderedStatements<PageRowsKey, { ids: string; reader: number | undefined }>((key, placeholder) => {
  const [field, direction, unread] = key.split(' ') as [TicketQuery['sort']['field'], 'asc' | 'desc', string | undefined];
  const reader = unread ? (placeholder('reader') as unknown as number) : undefined;
  const order = sql.join(orderOf({ field, descending: direction === 'desc' }), sql`, `);
  return sql`select ${sql.raw(TICKET_ROW.text)}${unreadColumn(reader)} from ${tickets} where ${tickets.id} = any(${placeholder('ids')}::int[]) order by ${order}`;
});

/** The rows a page reads: its size and the next page's first (`spare`), from where the earlier pages end. */
const windowOf = ({ page, limit, spare }: { page: number; limit: number; spare: number }): PageWindow => ({
  limit: limit + spare,
  offset: (page - 1) * limit,
});

interface PageWindow {
  limit: number;
  offset: number;
}

/**
 * The page's ids, walked off the index of its order. With the matches' exact count (the maintained
 * counters) the walk runs only when that count reaches past the page's offset (a one-time filter): the
 * planner costs a walk as if matches were spread evenly, so a filter it misjudges walked the whole
 * index to find nothing (unassigned tickets in progress: none, thought 500; 80 ms at 1M tickets, up to
 * 560 ms under load). docs/decisions.md#a-count-that-reads-nothing
 */
const pageIds = (where: SQL | undefined, order: SQL, { limit, offset }: PageWindow, exactTotal?: SQL<number>, few?: SQL): SQL => {
  const reaching = exactTotal ? sql` and ${exactTotal} > ${literalLimit(offset)}` : sql``;
  // `few` alone, planned apart (OFFSET 0 keeps the other filters, the order and the limit out of its
  // plan): its tickets come off its own index, then are filtered and sorted, however the planner
  // prices a walk of the order's index or another filter's index beside it.
  const from = few ? sql`(select * from ${tickets} where ${few} offset 0) as ${tickets}` : sql`${tickets}`;
  return sql`select ${tickets.id} from ${from} where (${where ?? sql`true`})${reaching} order by ${order} limit ${literalLimit(limit)} offset ${literalLimit(offset)}`;
};

/** How many tickets match, as a scalar subquery for findTicketPage. */
export const ticketTotal = (where: SQL | undefined): SQL<number> =>
  sql<number>`(select count(*)::int from ${tickets} where ${where ?? sql`true`})`;

/** How many match up to cap + 1 (more than cap means "over the cap"), for findTicketPage. */
export const cappedTicketTotal = (where: SQL | undefined, cap: number): SQL<number> =>
  sql<number>`(select count(*)::int from (select 1 from ${tickets} where ${where ?? sql`true`} limit ${literalLimit(cap + 1)}) matched)`;

/**
 * The staff member has now seen the ticket as it is; true when that cleared an unread mark. Opening it again with nothing new inserts no
 * row, so none is locked: an upsert alone locks the row it conflicts with even when its WHERE leaves
 * it as it is, which takes a transaction id and a WAL flush at commit for every ticket opened again.
 */
export async function markTicketRead(db: Db, userId: number, ticketId: number): Promise<boolean> {
  const activity = sql`(select ${tickets.lastActivityAt} from ${tickets} where ${tickets.id} = ${ticketId})`;
  // Re-reading a ticket with nothing new changes no row, so it is not a write (db/writeCounter.ts).
  const marked = await executedRows(
    db,
    sql`
    insert into ${ticketReads} (user_id, ticket_id, read_at)
    select ${userId}, ${ticketId}, now()
    where not exists (select 1 from ${ticketReads} r where r.user_id = ${userId} and r.ticket_id = ${ticketId} and r.read_at >= ${activity})
    on conflict (user_id, ticket_id) do update set read_at = now() where ${ticketReads.readAt} < ${activity}
    returning 1`,
  );
  return marked.length > 0;
}

/** A comment is activity on the ticket but not a change of it: the version stays. */
export async function touchTicketActivity(db: Db, ticketId: number, actorId: number, at: Date): Promise<void> {
  // Never back in time: a comment's time is its transaction's start, and a later one may commit first.
  const later = sql`${tickets.lastActivityAt} <= ${at}`;
  await db
    .update(tickets)
    .set({
      lastActivityAt: sql`greatest(${tickets.lastActivityAt}, ${at})`,
      lastActivityById: sql`case when ${later} then ${actorId} else ${tickets.lastActivityById} end`,
    })
    .where(eq(tickets.id, ticketId));
}

/** A count built for findTicketPage, read on its own (the page it would ride on was empty or not read). */
export async function readTotal(db: Db, total: SQL<number>): Promise<number> {
  const [row] = await db.select({ n: total }).from(sql`(select 1) as one`);
  return row?.n ?? 0;
}

const statColumns = (count: (condition?: SQL) => SQL<number>) => ({
  total: count(),
  open: count(eq(tickets.status, 'open')),
  in_progress: count(eq(tickets.status, 'in_progress')),
  pending: count(eq(tickets.status, 'pending')),
  resolved: count(eq(tickets.status, 'resolved')),
  closed: count(eq(tickets.status, 'closed')),
  urgent: count(eq(tickets.priority, 'urgent')),
});

/** The count cards in one pass over the visible tickets (a user's own: an index-only scan). */
export async function ticketStats(db: Db, where: SQL | undefined) {
  const count = (condition?: SQL) => (condition ? sql<number>`count(*) filter (where ${condition})::int` : sql<number>`count(*)::int`);
  const rows = await db.select(statColumns(count)).from(tickets).where(where);
  return returnedRow(rows, 'the ticket stats aggregate');
}

/** The same cards over at most `cap` + 1 matches of a search. */
export async function ticketStatsCapped(db: Db, where: SQL | undefined, cap: number) {
  const matches = db
    .select({ status: tickets.status, priority: tickets.priority })
    .from(tickets)
    .where(where)
    .limit(cap + 1)
    .as('matches');
  const count = (condition?: SQL) => sql<number>`least(count(*) ${condition ? sql`filter (where ${condition})` : sql``}, ${cap})::int`;
  const rows = await db
    .select({
      total: count(),
      open: count(sql`${matches.status} = 'open'`),
      in_progress: count(sql`${matches.status} = 'in_progress'`),
      pending: count(sql`${matches.status} = 'pending'`),
      resolved: count(sql`${matches.status} = 'resolved'`),
      closed: count(sql`${matches.status} = 'closed'`),
      urgent: count(sql`${matches.priority} = 'urgent'`),
      n: sql<number>`count(*)::int`,
    })
    .from(matches);
  const { n, ...stats } = returnedRow(rows, 'the capped ticket stats aggregate');
  return { stats, capped: n > cap };
}

/**
 * The planner's estimate of how many tickets match, from the statistics ANALYZE keeps (for a search,
 * each word's share of the tickets): one planning, no row read.
 */
export async function estimateTicketRows(db: Db, where: SQL | undefined): Promise<number> {
  const query = db
    .select({ one: sql`1` })
    .from(tickets)
    .where(where);
  const rows = await executedRows(db, sql`explain (format json) ${query}`);
  // node-postgres and PGlite both parse the json column; a driver that did not would hand a string.
  const cell = Object.values(rows[0] ?? {})[0];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as [{ Plan: { 'Plan Rows': number } }];
  return plan[0].Plan['Plan Rows'];
}

/** Which ticket_counts rows hold an assignee filter: -1 every ticket, 0 the unassigned ones, else that staff member's. */
export const countsAgentId = (assignedAgentId: number | null | undefined): number =>
  assignedAgentId === undefined ? -1 : (assignedAgentId ?? 0);

/**
 * The counter rows that hold a list's filters (see countedStats); the tag counters know no SLA state
 * and no category.
 */
type CountedFilters = {
  assignedAgentId?: number | null;
  status?: string;
  priority?: string;
  category?: string;
  tag?: string;
  sla?: string;
};

/** The counters a question reads: a tag's, a category's (migration 0036), else ticket_counts. */
export const countersFor = ({ tag, category }: Pick<CountedFilters, 'tag' | 'category'>) =>
  tag !== undefined ? ticketTagCounts : category !== undefined ? ticketCategoryCounts : ticketCounts;

function countedRows(filters: CountedFilters) {
  // listFilters counts such a list off the index instead (not `plain`); a sum here would drop the state or category.
  if (filters.tag !== undefined && (filters.sla !== undefined || filters.category !== undefined))
    throw new Error('The tag counters know no SLA state and no category');
  const c = countersFor(filters);
  const where = and(
    filters.tag === undefined ? undefined : sql`${ticketTagCounts.tag} = ${filters.tag}`,
    eq(c.agentId, countsAgentId(filters.assignedAgentId)),
    ...counterConditions(c, filters),
  );
  return { c, where };
}

/**
 * The status, priority, category and SLA state of counter rows (a tag's rows have neither of the last
 * two), for any assignee's.
 */
export const counterConditions = (
  c: ReturnType<typeof countersFor>,
  filters: { status?: string; priority?: string; category?: string; sla?: string },
): (SQL | undefined)[] => [
  filters.category && 'category' in c ? sql`${c.category} = ${filters.category}` : undefined,
  filters.status ? sql`${c.status} = ${filters.status}` : undefined,
  filters.priority ? sql`${c.priority} = ${filters.priority}` : undefined,
  // A tag's rows have neither: countedRows refuses such a question before it gets here.
  filters.sla && 'slaState' in c ? sql`${c.slaState} = ${filters.sla}` : undefined,
];

/**
 * The maintained counters for staff lists without a search, never the tickets: ticket_counts
 * (migrations 0004, 0010, 0021; a few dozen rows at most), or under a tag that tag's rows of
 * ticket_tag_counts (migrations 0014, 0026; at most 20), by the same assignee rule.
 */
export async function countedStats(db: Db, filters: CountedFilters) {
  const { c, where } = countedRows(filters);
  const sum = (condition?: SQL) => sql<number>`coalesce(sum(${c.n}) ${condition ? sql`filter (where ${condition})` : sql``}, 0)::int`;
  const rows = await db
    .select({
      total: sum(),
      open: sum(eq(c.status, 'open')),
      in_progress: sum(eq(c.status, 'in_progress')),
      pending: sum(eq(c.status, 'pending')),
      resolved: sum(eq(c.status, 'resolved')),
      closed: sum(eq(c.status, 'closed')),
      urgent: sum(eq(c.priority, 'urgent')),
    })
    .from(c)
    .where(where);
  return returnedRow(rows, 'the maintained ticket counts');
}

/** countedStats' total as a scalar subquery, for findTicketPage. */
export function countedTotal(filters: CountedFilters): SQL<number> {
  const { c, where } = countedRows(filters);
  return sql<number>`(select coalesce(sum(${c.n}), 0)::int from ${c} where ${where})`;
}

/** `lock` holds the row (FOR UPDATE) until the transaction ends, so what was read is what gets changed. */
export async function findTicketRow(db: Db, id: number, lock = false): Promise<TicketRow | undefined> {
  if (lock) {
    const [row] = await selectTickets(db).where(eq(tickets.id, id)).for('update', { of: tickets });
    return row;
  }
  const [raw] = await executedRows(db, sql`select ${sql.raw(TICKET_ROW.text)} from ${tickets} where ${tickets.id} = ${id}`);
  return raw && TICKET_ROW.rowOf(raw);
}

/** The ticket with this id, or the tickets with these ids, as the `where` of the writes below. */
export const ticketWithId = (id: number): SQL => eq(tickets.id, id);
export const ticketsWithIds = (ids: number[]): SQL => inArray(tickets.id, ids);

/** In id order; with `limit`, the first that many. */
export const lockTicketRows = (db: Db, where: SQL, limit?: number): Promise<TicketRow[]> => {
  const ordered = selectTickets(db).where(where).orderBy(asc(tickets.id));
  return (limit === undefined ? ordered : ordered.limit(limit)).for('update', { of: tickets });
};

export async function insertTicketRow(db: Db, values: typeof tickets.$inferInsert): Promise<TicketRow> {
  const rows = await db.insert(tickets).values(values).returning(returnedTicket);
  return asTicketRow(returnedRow(rows, 'the ticket insert'));
}

/** The columns a ticket write sets. */
export type TicketSet = Partial<typeof tickets.$inferInsert>;

/** Every write that changes a ticket goes through here: it counts as one more version, whatever it changed. */
export async function updateTicketRows(db: Db, where: SQL, set: TicketSet): Promise<TicketRow[]> {
  const rows = await db
    .update(tickets)
    .set({ ...set, version: sql`${tickets.version} + 1` })
    .where(where)
    .returning(returnedTicket);
  return rows.map(asTicketRow);
}

export async function deleteTicketRow(db: Db, id: number): Promise<void> {
  await db.delete(tickets).where(eq(tickets.id, id));
}
