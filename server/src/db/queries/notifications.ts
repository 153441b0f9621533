import { and, desc, eq, gt, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { NotificationType } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { adminNoticeMarks, adminNoticeReads, notifications, users } from '../schema/index.js';
import { executedRows } from '../rows.js';
import { shrinkingBatch } from '../shrinkingBatch.js';

/** Whose notifications a read is about: an admin also has the admins' notices (user_id null). */
export interface NotificationReader {
  id: number;
  admin: boolean;
}

/** A notification to one person (the admins' notices are the SLA scanner's, slaTickets.ts). */
export interface NewNotification {
  userId: number;
  type: NotificationType;
  ticketId: number | null;
  byId: number;
  excerpt: string;
}

export async function insertNotifications(db: Db, rows: NewNotification[]) {
  if (rows.length === 0) return [];
  const inserted = await db.insert(notifications).values(rows).returning();
  // Each was written with its recipient.
  return inserted.flatMap(({ userId, ...row }) => (userId === null ? [] : [{ ...row, userId }]));
}

/** What makes two notifications the same news: who gets it, of what, on which ticket. */
export type NotificationKey = Pick<NewNotification, 'userId' | 'type'> & { ticketId: number };

/** Which of `keys` have an unread notification created within the last `withinMs` (by the database's clock). */
export async function findRecentUnread(db: Db, keys: NotificationKey[], withinMs: number): Promise<NotificationKey[]> {
  if (keys.length === 0) return [];
  return (
    db
      // Matched on a recipient and a ticket below, so neither is null here.
      .select({ userId: sql<number>`${notifications.userId}`, type: notifications.type, ticketId: sql<number>`${notifications.ticketId}` })
      .from(notifications)
      .where(
        and(
          isNull(notifications.readAt),
          gte(notifications.createdAt, sql`now() - ${withinMs} * interval '1 millisecond'`),
          or(
            ...keys.map((k) =>
              and(eq(notifications.userId, k.userId), eq(notifications.type, k.type), eq(notifications.ticketId, k.ticketId)),
            ),
          ),
        ),
      )
  );
}

const by = alias(users, 'by');

type ListedRow = { notification: typeof notifications.$inferSelect; by: { id: number; name: string } };

const ownNotifications = (db: Db, userId: number, { unread, limit }: { unread: boolean; limit: number }) =>
  db
    .select({ notification: notifications, by: { id: by.id, name: by.name } })
    .from(notifications)
    .innerJoin(by, eq(by.id, notifications.byId))
    .where(and(eq(notifications.userId, userId), unread ? isNull(notifications.readAt) : undefined))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);

/**
 * Which of the admins' notices one admin has: those after `sinceId` (the last one before their account
 * was made), read through `throughId` (their mark, never below `sinceId`), when they marked all read.
 */
export interface NoticeBounds {
  sinceId: number;
  throughId: number;
  throughReadAt: Date | null;
}

export async function noticeBounds(db: Db, userId: number): Promise<NoticeBounds> {
  const [row] = await db
    .select({
      markId: adminNoticeMarks.throughId,
      readAt: adminNoticeMarks.readAt,
      sinceId: sql<number>`coalesce((select n.id from ${notifications} n where n.user_id is null and n.created_at <= ${users.createdAt} order by n.created_at desc limit 1), 0)`,
    })
    .from(users)
    .leftJoin(adminNoticeMarks, eq(adminNoticeMarks.userId, users.id))
    .where(eq(users.id, userId));
  const sinceId = row?.sinceId ?? 0;
  const markId = row?.markId ?? null;
  return { sinceId, throughId: Math.max(sinceId, markId ?? 0), throughReadAt: markId === null ? null : (row?.readAt ?? null) };
}

const noticeRead = (userId: number) => and(eq(adminNoticeReads.userId, userId), eq(adminNoticeReads.notificationId, notifications.id));

async function adminNotices(
  db: Db,
  userId: number,
  bounds: NoticeBounds,
  { unread, limit }: { unread: boolean; limit: number },
): Promise<ListedRow[]> {
  const rows = await db
    .select({ notification: notifications, by: { id: by.id, name: by.name }, readAt: adminNoticeReads.readAt })
    .from(notifications)
    .innerJoin(by, eq(by.id, notifications.byId))
    .leftJoin(adminNoticeReads, noticeRead(userId))
    .where(
      and(
        isNull(notifications.userId),
        gt(notifications.id, unread ? bounds.throughId : bounds.sinceId),
        unread ? isNull(adminNoticeReads.userId) : undefined,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(limit);
  return rows.map(({ notification, by, readAt }) => ({
    notification: {
      ...notification,
      readAt: readAt ?? (notification.id <= bounds.throughId ? bounds.throughReadAt : null),
    },
    by,
  }));
}

const newestFirst = (a: ListedRow, b: ListedRow) =>
  b.notification.createdAt.getTime() - a.notification.createdAt.getTime() || b.notification.id - a.notification.id;

/** The reader's latest notifications, the admins' notices among an admin's. */
export async function findNotifications(
  db: Db,
  reader: NotificationReader,
  options: { unread: boolean; limit: number },
  bounds?: NoticeBounds,
): Promise<ListedRow[]> {
  const own = await ownNotifications(db, reader.id, options);
  if (!reader.admin) return own;
  const notices = await adminNotices(db, reader.id, bounds ?? (await noticeBounds(db, reader.id)), options);
  return [...own, ...notices].sort(newestFirst).slice(0, options.limit);
}

/** The admins' notices above an admin's mark, less those read one by one. */
async function unreadNotices(db: Db, userId: number, bounds: NoticeBounds): Promise<number> {
  const [row] = await executedRows(
    db,
    sql`select (select count(*) from ${notifications} n where n.user_id is null and n.id > ${bounds.throughId})
      - (select count(*) from ${adminNoticeReads} r where r.user_id = ${userId} and r.notification_id > ${bounds.throughId}) as n`,
  );
  return Number(row?.n ?? 0);
}

export async function countUnread(db: Db, reader: NotificationReader, bounds?: NoticeBounds): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, reader.id), isNull(notifications.readAt)));
  const own = row?.n ?? 0;
  if (!reader.admin) return own;
  return own + (await unreadNotices(db, reader.id, bounds ?? (await noticeBounds(db, reader.id))));
}

/**
 * Notifications marked read per statement when all of them are. An admin may hold tens of thousands
 * unread (a missed deadline on an unassigned ticket notifies every admin): at a million tickets one
 * UPDATE of 21,794 took 0.36 s, a few times that past the statement timeout.
 */
export const MARK_ALL_BATCH = 5_000;

/**
 * Marks the user's own notifications read (these ids, those about this ticket, or all); ids of someone
 * else's match nothing. All of them go a batch at a time, each its own statement: marking read again
 * changes nothing, so a batch that failed leaves the rest for the next try, and one the statement
 * timeout cancels is asked again smaller (shrinkingBatch).
 */
export async function markRead(
  db: Db,
  reader: NotificationReader,
  which: { ids?: number[]; ticketId?: number } = {},
  onShrink?: (size: number) => void,
): Promise<void> {
  if (reader.admin) await markNoticesRead(db, reader.id, which);
  const userId = reader.id;
  const unread = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  const mark = (where: SQL | undefined) => db.update(notifications).set({ readAt: new Date() }).where(where);
  if (which.ids || which.ticketId !== undefined) {
    await mark(
      and(
        unread,
        which.ids ? inArray(notifications.id, which.ids) : undefined,
        which.ticketId !== undefined ? eq(notifications.ticketId, which.ticketId) : undefined,
      ),
    );
    return;
  }
  const batches = shrinkingBatch(MARK_ALL_BATCH, { onShrink });
  for (;;) {
    const marked = await batches.run((size) =>
      mark(inArray(notifications.id, db.select({ id: notifications.id }).from(notifications).where(unread).limit(size))).returning({
        id: notifications.id,
      }),
    );
    if (marked.length < batches.size) return;
  }
}

/**
 * An admin's reads of the admins' notices: these (by id or ticket) as single reads above the mark, or
 * all of them by moving the mark to the newest and dropping the single reads it passes. A notice
 * committed after the newest one was read for the mark (made earlier, written later) counts as read.
 */
async function markNoticesRead(db: Db, userId: number, which: { ids?: number[]; ticketId?: number }): Promise<void> {
  if (which.ids || which.ticketId !== undefined) {
    const { throughId } = await noticeBounds(db, userId);
    const notices = and(
      isNull(notifications.userId),
      gt(notifications.id, throughId),
      which.ids ? inArray(notifications.id, which.ids) : undefined,
      which.ticketId !== undefined ? eq(notifications.ticketId, which.ticketId) : undefined,
    );
    await db.execute(
      sql`insert into ${adminNoticeReads} (user_id, notification_id) select ${userId}, ${notifications.id} from ${notifications} where ${notices} on conflict do nothing`,
    );
    return;
  }
  const [newest] = await db
    .select({ id: sql<number | null>`max(${notifications.id})` })
    .from(notifications)
    .where(isNull(notifications.userId));
  if (newest?.id === null || newest?.id === undefined) return;
  const throughId = newest.id;
  await db
    .insert(adminNoticeMarks)
    .values({ userId, throughId })
    .onConflictDoUpdate({
      target: adminNoticeMarks.userId,
      set: { throughId, readAt: sql`now()` },
      setWhere: sql`${adminNoticeMarks.throughId} < ${throughId}`,
    });
  await db.delete(adminNoticeReads).where(and(eq(adminNoticeReads.userId, userId), lte(adminNoticeReads.notificationId, throughId)));
}
