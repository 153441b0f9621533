import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
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

/** Marks the user's own notifications read; ids of someone else's match nothing. */
export const markRead = (db: Db, userId: number, ids?: number[]) =>
  db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids ? inArray(notifications.id, ids) : undefined));
