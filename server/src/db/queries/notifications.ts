import { and, desc, eq, gte, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { NotificationType } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { notifications, users } from '../schema/index.js';
import { shrinkingBatch } from '../shrinkingBatch.js';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  ticketId: number | null;
  byId: number;
  excerpt: string;
}

export const insertNotifications = (db: Db, rows: NewNotification[]) =>
  rows.length === 0 ? Promise.resolve([]) : db.insert(notifications).values(rows).returning();

/** What makes two notifications the same news: who gets it, of what, on which ticket. */
export type NotificationKey = Pick<NewNotification, 'userId' | 'type'> & { ticketId: number };

/** Which of `keys` have an unread notification created within the last `withinMs` (by the database's clock). */
export async function findRecentUnread(db: Db, keys: NotificationKey[], withinMs: number): Promise<NotificationKey[]> {
  if (keys.length === 0) return [];
  return (
    db
      // Matched on a ticket below, so never null here.
      .select({ userId: notifications.userId, type: notifications.type, ticketId: sql<number>`${notifications.ticketId}` })
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

export const findNotifications = (db: Db, userId: number, { unread, limit }: { unread: boolean; limit: number }) =>
  db
    .select({ notification: notifications, by: { id: by.id, name: by.name } })
    .from(notifications)
    .innerJoin(by, eq(by.id, notifications.byId))
    .where(and(eq(notifications.userId, userId), unread ? isNull(notifications.readAt) : undefined))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);

export async function countUnread(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
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
  userId: number,
  which: { ids?: number[]; ticketId?: number } = {},
  onShrink?: (size: number) => void,
): Promise<void> {
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
