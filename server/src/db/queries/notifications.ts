import { and, desc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { NotificationType } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { notifications, users } from '../schema/index.js';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  ticketId: number;
  byId: number;
  excerpt: string;
}

export const insertNotifications = (db: Db, rows: NewNotification[]) =>
  rows.length === 0 ? Promise.resolve([]) : db.insert(notifications).values(rows).returning();

/** What makes two notifications the same news: who gets it, of what, on which ticket. */
export type NotificationKey = Pick<NewNotification, 'userId' | 'type' | 'ticketId'>;

/** Which of `keys` have an unread notification created within the last `withinMs` (by the database's clock). */
export async function findRecentUnread(db: Db, keys: NotificationKey[], withinMs: number): Promise<NotificationKey[]> {
  if (keys.length === 0) return [];
  return db
    .select({ userId: notifications.userId, type: notifications.type, ticketId: notifications.ticketId })
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

/** Marks the user's own notifications read (these ids, those about this ticket); ids of someone else's match nothing. */
export const markRead = (db: Db, userId: number, which: { ids?: number[]; ticketId?: number } = {}) =>
  db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        which.ids ? inArray(notifications.id, which.ids) : undefined,
        which.ticketId !== undefined ? eq(notifications.ticketId, which.ticketId) : undefined,
      ),
    );
