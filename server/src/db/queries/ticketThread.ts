import { and, desc, eq, getTableColumns, getTableName, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { EmailStatus, Role, UserRef } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { executedRows, returnedRow } from '../rows.js';
import { renderSelection } from '../renderedSelection.js';
import { attachments, emailOutbox, inboundMessages, ticketComments, ticketHistory, tickets, users } from '../schema/index.js';
import type { AttachmentRow } from './attachments.js';
import { isStaffRole } from './staff.js';
import { literalLimit } from '../plannedStatements.js';

/** A ticket's conversation and timeline: comments and history entries, each with who wrote it. */
export interface CommentRow {
  comment: typeof ticketComments.$inferSelect;
  author: UserRef & { role: Role };
  /** Staff reads only: the state of the mail the reply sent, null when it sent none. */
  emailStatus?: EmailStatus | null;
  /** Staff reads only: the inbound message it was filed from, null when it came from no mail. */
  inboundMessageId?: number | null;
  /** Its files; none when left out (a comment just written takes its files after). */
  attachments?: AttachmentRow[];
}
export interface HistoryRow {
  entry: typeof ticketHistory.$inferSelect;
  actor: UserRef;
}

export interface NewHistoryEntry {
  ticketId: number;
  type: (typeof ticketHistory.$inferInsert)['type'];
  from?: string | null;
  to?: string | null;
  internal?: boolean;
}

/** Writes timeline entries by one actor, returned as the ticket's history reads them. */
export async function insertHistory(db: Db, actor: UserRef, entries: NewHistoryEntry[]): Promise<HistoryRow[]> {
  if (entries.length === 0) return [];
  const rows = await db
    .insert(ticketHistory)
    .values(
      entries.map((e) => ({
        ticketId: e.ticketId,
        type: e.type,
        fromValue: e.from ?? null,
        toValue: e.to ?? null,
        actorId: actor.id,
        internal: e.internal ?? false,
      })),
    )
    .returning();
  return rows.map((entry) => ({ entry, actor: { id: actor.id, name: actor.name } }));
}

/** Writes one comment by its author, returned as the ticket's comments read it. */
export async function insertComment(
  db: Db,
  author: CommentRow['author'],
  values: Pick<typeof ticketComments.$inferInsert, 'ticketId' | 'content' | 'internal'>,
): Promise<CommentRow> {
  const inserted = await db
    .insert(ticketComments)
    .values({ ...values, authorId: author.id })
    .returning();
  return { comment: returnedRow(inserted, 'the comment insert'), author: { id: author.id, name: author.name, role: author.role } };
}

/** The owner's conversation on a ticket: its public comments, as the triggers of migration 0010 keep the count. */
export async function countConversation(db: Db, ticketId: number): Promise<number> {
  const [row] = await db.select({ n: tickets.commentCount }).from(tickets).where(eq(tickets.id, ticketId));
  return row?.n ?? 0;
}

/**
 * Whether a staff member has written an entry on the ticket `ticketId` names (a reply, a note or a
 * change; its creation aside): what ends the owner's right to delete it. `internal: false` leaves out
 * notes and their entries, for answers the owner may see. `ticketId` may be an outer query's column.
 */
export const staffEntryExists = (ticketId: SQL | number, { internal }: ThreadAudience): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${ticketHistory} h join ${users} a on a.id = h.actor_id where h.ticket_id = ${ticketId} and h.type <> 'created' and ${isStaffRole(sql`a.role`)}${internal ? sql`` : sql` and not h.internal`})`;

/** The deletion rule's own read, notes included (docs/decisions.md#tickets). */
export async function hasStaffEntries(db: Db, ticketId: number): Promise<boolean> {
  const [row] = await db
    .select({ answered: staffEntryExists(ticketId, { internal: true }) })
    .from(tickets)
    .where(eq(tickets.id, ticketId));
  return row?.answered ?? false;
}

/** The users table under an alias's name, for a FROM written as text (drizzle writes an alias by its name alone). */
const usersAs = (aliased: ReturnType<typeof alias<typeof users, string>>) => sql`${users} ${sql.identifier(getTableName(aliased))}`;

const author = alias(users, 'author');
const withAuthor = sql`inner join ${usersAs(author)} on ${eq(author.id, ticketComments.authorId)}`;

/** The newest outbox row of a reply (a reply sends at most one mail). */
const emailStatusOf = sql<EmailStatus | null>`(select o.status from ${emailOutbox} o where o.comment_id = ${ticketComments.id} order by o.id desc limit 1)`;

/**
 * The message the intake filed as this comment (a reply, a note, a long first message), off
 * inbound_messages_comment_idx. A bounce also names a comment, the reply it returned: not its source.
 */
const inboundMessageOf = sql<
  number | null
>`(select i.id from ${inboundMessages} i where i.comment_id = ${ticketComments.id} and i.status in ('comment', 'note', 'ticket') order by i.id limit 1)`;

/**
 * A comment's files, oldest first, read in the comment's own row: the page and its files in one
 * round trip (docs/decisions.md#round-trips-cost-more-than-the-queries).
 */
const filesOf = sql<
  FileJson[]
>`(select coalesce(json_agg(json_build_object('id', a.id, 'uploaderId', a.uploader_id, 'ticketId', a.ticket_id, 'commentId', a.comment_id, 'filename', a.filename, 'size', a.size, 'contentType', a.content_type, 'sha256', a.sha256, 'createdAt', a.created_at) order by a.id), '[]'::json) from ${attachments} a where a.comment_id = ${ticketComments.id})`;
type FileJson = Omit<AttachmentRow, 'createdAt'> & { createdAt: string };
const fileRow = (file: FileJson): AttachmentRow => ({ ...file, createdAt: new Date(file.createdAt) });

/** The ticket's internal notes, counted in a comments statement (see findComments). */
const notesOf = (ticketId: number) =>
  sql<number>`(select count(*)::int from ${ticketComments} n where n.ticket_id = ${ticketId} and n.internal)`;

/**
 * A page of comments as text rendered once (db/renderedSelection.ts): the detail reads fifty comments
 * and fifty entries on every open, and the query builder typed each field of each row on every call.
 * Staff's adds how a reply's mail went and the mail a comment came from, which are not the owner's to see.
 */
const commentFields = {
  comment: getTableColumns(ticketComments),
  author: { id: author.id, name: author.name, role: author.role },
  files: filesOf,
};
type RenderedComment = Omit<CommentRow, 'attachments'> & { files: FileJson[] };
const COMMENTS = {
  owner: renderSelection<RenderedComment>(commentFields),
  staff: renderSelection<RenderedComment>({ ...commentFields, emailStatus: emailStatusOf, inboundMessageId: inboundMessageOf }),
};

/**
 * Rows before the cursor row in (created_at, id) order. The cursor must belong to the same ticket and
 * be a row this reader may see: an owner's note id pages like an unknown id (nothing), not from where
 * the note is.
 */
const beforeRow = (
  table: typeof ticketComments | typeof ticketHistory,
  ticketId: number,
  audience: ThreadAudience,
  before: number | undefined,
) => {
  if (before === undefined) return undefined;
  const visible = audience.internal ? sql`` : sql` and not internal`;
  const cursor = sql`(select created_at from ${table} where id = ${before} and ticket_id = ${ticketId}${visible})`;
  return or(lt(table.createdAt, cursor), and(eq(table.createdAt, cursor), lt(table.id, before)));
};

/**
 * The end of a statement reading a ticket's rows of a thread table this reader may see, before the
 * cursor if any, newest first: up to `limit` and one more, which tells whether older remain.
 */
const threadPage = (
  table: typeof ticketComments | typeof ticketHistory,
  ticketId: number,
  audience: ThreadAudience,
  before: number | undefined,
  limit: number,
) => {
  const where = and(
    eq(table.ticketId, ticketId),
    audience.internal ? undefined : eq(table.internal, false),
    beforeRow(table, ticketId, audience, before),
  );
  return sql`where ${where} order by ${desc(table.createdAt)}, ${desc(table.id)} limit ${literalLimit(limit + 1)}`;
};

/** Up to `limit` newest rows (read newest first off the index), returned oldest first with whether older remain. */
const newestPage = <T>(rows: T[], limit: number) => ({ rows: rows.slice(0, limit).reverse(), hasMore: rows.length > limit });

/** Whether a read includes staff-only rows: only staff's do; an owner's never. */
export interface ThreadAudience {
  internal: boolean;
}

/**
 * A page of comments with their files, read newest first off the index and returned oldest first.
 * `countNotes` (staff's first page) counts the ticket's internal notes in the same statement: a page
 * without rows is a ticket without comments, so without notes.
 */
export const findComments = async (
  db: Db,
  ticketId: number,
  limit: number,
  audience: ThreadAudience,
  { before, countNotes = false }: { before?: number; countNotes?: boolean } = {},
): Promise<{ rows: CommentRow[]; hasMore: boolean; noteCount: number }> => {
  const selection = audience.internal ? COMMENTS.staff : COMMENTS.owner;
  // The notes' count is one InitPlan on this ticket (a parameter), so it stays out of the rendered text.
  const noteCount = countNotes ? sql`, ${notesOf(ticketId)} as "noteCount"` : sql``;
  const found = await executedRows(
    db,
    sql`select ${sql.raw(selection.text)}${noteCount} from ${ticketComments} ${withAuthor} ${threadPage(ticketComments, ticketId, audience, before, limit)}`,
  );
  const rows = found.map((raw) => {
    const { files, ...row } = selection.rowOf(raw);
    return { ...row, attachments: files.map(fileRow) };
  });
  return { ...newestPage(rows, limit), noteCount: (found[0]?.noteCount as number | undefined) ?? 0 };
};

const historyActor = alias(users, 'actor');
const withActor = sql`inner join ${usersAs(historyActor)} on ${eq(historyActor.id, ticketHistory.actorId)}`;

const HISTORY = renderSelection<HistoryRow>({
  entry: getTableColumns(ticketHistory),
  actor: { id: historyActor.id, name: historyActor.name },
});

export const findHistory = async (db: Db, ticketId: number, limit: number, audience: ThreadAudience, before?: number) => {
  const found = await executedRows(
    db,
    sql`select ${sql.raw(HISTORY.text)} from ${ticketHistory} ${withActor} ${threadPage(ticketHistory, ticketId, audience, before, limit)}`,
  );
  return newestPage(
    found.map((raw) => HISTORY.rowOf(raw)),
    limit,
  );
};
