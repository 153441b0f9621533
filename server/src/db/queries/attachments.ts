import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { returnedRow } from '../rows.js';
import { attachments, ticketComments, tickets } from '../schema/index.js';

export type AttachmentRow = typeof attachments.$inferSelect;

/** Advisory locks of one content hash live under this first key; the other key is taken from the hash. */
const CONTENT_LOCK_SPACE = 727_012;

/**
 * Held until the transaction ends: writing a file and its row, and removing the file when no row names
 * it any more, take turns per hash, so a file is never removed under a row just written.
 */
export async function lockContent(db: Db, sha256: string): Promise<void> {
  const key = Number.parseInt(sha256.slice(0, 8), 16) | 0;
  await db.execute(sql`select pg_advisory_xact_lock(${CONTENT_LOCK_SPACE}, ${key})`);
}

export async function contentInUse(db: Db, sha256: string): Promise<boolean> {
  const rows = await db.select({ id: attachments.id }).from(attachments).where(eq(attachments.sha256, sha256)).limit(1);
  return rows.length > 0;
}

export async function insertAttachment(
  db: Db,
  values: Pick<typeof attachments.$inferInsert, 'uploaderId' | 'filename' | 'size' | 'contentType' | 'sha256'>,
): Promise<AttachmentRow> {
  return returnedRow(await db.insert(attachments).values(values).returning(), 'the attachment insert');
}

/**
 * Gives a ticket (and comment) the uploads among `ids` that are `uploaderId`'s, unused and made after
 * `since`; returns the ids it took. The row lock of the UPDATE makes two requests naming one upload
 * take turns, and the second then finds it used.
 */
export async function claimUploads(
  db: Db,
  ids: number[],
  uploaderId: number,
  since: Date,
  target: { ticketId: number; commentId?: number | null },
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(attachments)
    .set({ ticketId: target.ticketId, commentId: target.commentId ?? null })
    .where(
      and(
        inArray(attachments.id, ids),
        eq(attachments.uploaderId, uploaderId),
        isNull(attachments.ticketId),
        gt(attachments.createdAt, since),
      ),
    )
    .returning({ id: attachments.id });
  return rows.map((r) => r.id);
}

/** A ticket's own files (sent when it was created), oldest first. */
export const findTicketAttachments = (db: Db, ticketId: number): Promise<AttachmentRow[]> =>
  db
    .select()
    .from(attachments)
    .where(and(eq(attachments.ticketId, ticketId), isNull(attachments.commentId)))
    .orderBy(asc(attachments.id));

/** The files of these comments, oldest first. */
export const findCommentAttachments = (db: Db, commentIds: number[]): Promise<AttachmentRow[]> =>
  commentIds.length === 0
    ? Promise.resolve([])
    : db.select().from(attachments).where(inArray(attachments.commentId, commentIds)).orderBy(asc(attachments.id));

/** One file with what decides who may read it: its ticket's owner and whether its comment is a note. */
export async function findAttachmentWithScope(
  db: Db,
  id: number,
): Promise<{ attachment: AttachmentRow; ticketOwnerId: number | null; internal: boolean } | undefined> {
  const [row] = await db
    .select({ attachment: attachments, ticketOwnerId: tickets.userId, internal: ticketComments.internal })
    .from(attachments)
    .leftJoin(tickets, eq(tickets.id, attachments.ticketId))
    .leftJoin(ticketComments, eq(ticketComments.id, attachments.commentId))
    .where(eq(attachments.id, id));
  return row && { attachment: row.attachment, ticketOwnerId: row.ticketOwnerId, internal: row.internal ?? false };
}

/** The content hashes a ticket's rows name, read before the ticket (and so they) are deleted. */
export const ticketContentHashes = (db: Db, ticketId: number): Promise<string[]> =>
  db
    .selectDistinct({ sha256: attachments.sha256 })
    .from(attachments)
    .where(eq(attachments.ticketId, ticketId))
    .then((rows) => rows.map((r) => r.sha256));

/** Deletes uploads nobody attached before `cutoff`; returns the hashes they named. */
export const deleteUnusedBefore = (db: Db, cutoff: Date): Promise<string[]> =>
  db
    .delete(attachments)
    .where(and(isNull(attachments.ticketId), lt(attachments.createdAt, cutoff)))
    .returning({ sha256: attachments.sha256 })
    .then((rows) => [...new Set(rows.map((r) => r.sha256))]);
