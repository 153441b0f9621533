import { and, asc, desc, eq, getTableColumns, ilike, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { HistoryEntry, TicketFilters, TicketQuery, UserRef } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { returnedRow } from '../rows.js';
import { containsPattern } from '../search.js';
import { ticketComments, ticketHistory, tickets, users } from '../schema/index.js';
import { presentHistoryEntry, type CommentRow, type HistoryRow, type TicketRow } from '../../presenters/tickets.js';

/**
 * Read side of tickets. Names come from scalar subselects rather than three joins on users: the
 * plan is simpler, which on a page of ten rows is most of the query's cost (see bench:api).
 */
// Drizzle leaves columns unqualified in a single-table select, so the outer row is named explicitly.
const outer = (column: string) => sql.raw(`"tickets"."${column}"`);
const nameOf = (column: string) => sql<string | null>`(select u.name from ${users} u where u.id = ${outer(column)})`;

const derived = {
  ownerName: nameOf('user_id'),
  agentName: nameOf('assigned_agent_id'),
  editorName: nameOf('updated_by_id'),
  commentCount: sql<number>`(select count(*)::int from ${ticketComments} c where c.ticket_id = ${outer('id')})`,
};
const ticketSelection = { ticket: tickets, ...derived };

const selectTickets = (db: Db) => db.select(ticketSelection).from(tickets);

/** The same row as a RETURNING list (flat: RETURNING takes no nested objects), so a write needs no read after it. */
const returnedTicket = { ...getTableColumns(tickets), ...derived };
const asTicketRow = ({
  ownerName,
  agentName,
  editorName,
  commentCount,
  ...ticket
}: TicketRow['ticket'] & Omit<TicketRow, 'ticket'>): TicketRow => ({
  ticket,
  ownerName,
  agentName,
  editorName,
  commentCount,
});

/** Mirrors the expression of tickets_search_trgm_idx so the index serves it. */
const searchable = sql`(${tickets.title} || ' ' || ${tickets.description})`;

export interface TicketScope {
  ownerId?: number;
  assignedAgentId?: number;
}

export function ticketConditions(scope: TicketScope, filters: Omit<TicketFilters, 'mine'>): SQL | undefined {
  return and(
    scope.ownerId !== undefined ? eq(tickets.userId, scope.ownerId) : undefined,
    scope.assignedAgentId !== undefined ? eq(tickets.assignedAgentId, scope.assignedAgentId) : undefined,
    filters.status ? eq(tickets.status, filters.status) : undefined,
    filters.priority ? eq(tickets.priority, filters.priority) : undefined,
    filters.search ? ilike(searchable, containsPattern(filters.search)) : undefined,
  );
}

const SORT_COLUMNS = { createdAt: tickets.createdAt, updatedAt: tickets.updatedAt, priority: tickets.priority } as const;

export async function findTicketRows(
  db: Db,
  where: SQL | undefined,
  { page, limit, sort }: Pick<TicketQuery, 'page' | 'limit' | 'sort'>,
): Promise<TicketRow[]> {
  const direction = sort.descending ? desc : asc;
  const order = [direction(SORT_COLUMNS[sort.field])];
  if (sort.field === 'priority') order.push(desc(tickets.createdAt));
  order.push(direction(tickets.id));
  return selectTickets(db)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset((page - 1) * limit);
}

export async function countTickets(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(tickets)
    .where(where);
  return row?.n ?? 0;
}

/** The count cards in one pass over the visible tickets. */
export async function ticketStats(db: Db, where: SQL | undefined) {
  const count = (condition: SQL) => sql<number>`count(*) filter (where ${condition})::int`;
  const rows = await db
    .select({
      total: sql<number>`count(*)::int`,
      open: count(eq(tickets.status, 'open')),
      in_progress: count(eq(tickets.status, 'in_progress')),
      resolved: count(eq(tickets.status, 'resolved')),
      closed: count(eq(tickets.status, 'closed')),
      urgent: count(eq(tickets.priority, 'urgent')),
    })
    .from(tickets)
    .where(where);
  return returnedRow(rows, 'the ticket stats aggregate');
}

/** `lock` holds the row (FOR UPDATE) until the transaction ends, so what was read is what gets changed. */
export async function findTicketRow(db: Db, id: number, lock = false): Promise<TicketRow | undefined> {
  const query = selectTickets(db).where(eq(tickets.id, id));
  const [row] = await (lock ? query.for('update', { of: tickets }) : query);
  return row;
}

export const lockTicketRows = (db: Db, where: SQL): Promise<TicketRow[]> =>
  selectTickets(db).where(where).orderBy(asc(tickets.id)).for('update', { of: tickets });

export async function insertTicketRow(db: Db, values: typeof tickets.$inferInsert): Promise<TicketRow> {
  const rows = await db.insert(tickets).values(values).returning(returnedTicket);
  return asTicketRow(returnedRow(rows, 'the ticket insert'));
}

/** Every write that changes a ticket goes through here: it counts as one more version, whatever it changed. */
export async function updateTicketRows(db: Db, where: SQL, set: Partial<typeof tickets.$inferInsert>): Promise<TicketRow[]> {
  const rows = await db
    .update(tickets)
    .set({ ...set, version: sql`${tickets.version} + 1` })
    .where(where)
    .returning(returnedTicket);
  return rows.map(asTicketRow);
}

export interface NewHistoryEntry {
  ticketId: number;
  type: (typeof ticketHistory.$inferInsert)['type'];
  from?: string | null;
  to?: string | null;
}

/** Writes timeline entries by one actor and presents them as the ticket's history does. */
export async function insertHistory(db: Db, actor: UserRef, entries: NewHistoryEntry[]): Promise<HistoryEntry[]> {
  if (entries.length === 0) return [];
  const rows = await db
    .insert(ticketHistory)
    .values(
      entries.map((e) => ({ ticketId: e.ticketId, type: e.type, fromValue: e.from ?? null, toValue: e.to ?? null, actorId: actor.id })),
    )
    .returning();
  return rows.map((entry) => presentHistoryEntry({ entry, actor: { id: actor.id, name: actor.name } }));
}

const author = alias(users, 'author');

const selectComments = (db: Db) =>
  db
    .select({ comment: ticketComments, author: { id: author.id, name: author.name, role: author.role } })
    .from(ticketComments)
    .innerJoin(author, eq(author.id, ticketComments.authorId));

export const findComments = (db: Db, ticketId: number): Promise<CommentRow[]> =>
  selectComments(db).where(eq(ticketComments.ticketId, ticketId)).orderBy(asc(ticketComments.createdAt), asc(ticketComments.id));

export const findComment = (db: Db, commentId: number): Promise<CommentRow | undefined> =>
  selectComments(db)
    .where(eq(ticketComments.id, commentId))
    .then((rows) => rows[0]);

const historyActor = alias(users, 'actor');

export const findHistory = (db: Db, ticketId: number): Promise<HistoryRow[]> =>
  db
    .select({ entry: ticketHistory, actor: { id: historyActor.id, name: historyActor.name } })
    .from(ticketHistory)
    .innerJoin(historyActor, eq(historyActor.id, ticketHistory.actorId))
    .where(eq(ticketHistory.ticketId, ticketId))
    .orderBy(asc(ticketHistory.createdAt), asc(ticketHistory.id));

export const findUserRef = (db: Db, id: number) =>
  db
    .select({ id: users.id, name: users.name, role: users.role, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, id))
    .then((rows) => rows[0]);
