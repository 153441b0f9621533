import { LIMITS, type Notification, type NotificationType } from '@helpdesk/protocol';
import { textStart } from '../lib/textStart.js';
import type { Db } from '../db/client.js';
import {
  countUnread,
  findNotifications,
  findRecentUnread,
  insertNotifications,
  markRead,
  noticeBounds,
  type NotificationKey,
  type NotificationReader,
} from '../db/queries/notifications.js';
import { warnOnShrink } from '../db/shrinkingBatch.js';
import type { Emit } from '../db/unitOfWork.js';
import type { ActorRef } from '../events/bus.js';
import { presentNotification } from '../presenters/notifications.js';
import type { Actor } from '../lib/actor.js';
import type { ServiceContext } from './context.js';

export type NotificationService = ReturnType<typeof createNotificationService>;

export interface NotificationRequest {
  userId: number;
  type: NotificationType;
  ticketId: number;
  excerpt: string;
}

/** The start of a text, on one line, as a notification shows it. */
export function excerptOf(text: string): string {
  const max = LIMITS.notificationExcerpt;
  // A long text's first few hundred characters hold its excerpt: only those are collapsed, unless
  // they shrink to less than an excerpt (runs of whitespace), when the whole text is.
  const start = oneLine(text.slice(0, max * 8));
  const line = start.length > max ? start : oneLine(text);
  return line.length <= max ? line : `${textStart(line, max - 1)}…`;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

const keyOf = ({ userId, type, ticketId }: NotificationKey) => `${userId}:${type}:${ticketId}`;

/**
 * Writes notifications inside the caller's unit of work, so they exist exactly when the change that
 * caused them does, and announces each (and so mails it) after the commit. Nobody is notified of their
 * own action, and news the recipient has not read yet is not repeated: the same type on the same
 * ticket, while an unread one from the last LIMITS.notificationCoalesceMs is there, is dropped, so
 * assign/unassign churn costs one notification and one mail (docs/api.md#notifications).
 */
export async function writeNotifications(tx: Db, emit: Emit, by: ActorRef, requests: NotificationRequest[]): Promise<void> {
  const candidates = new Map(requests.filter((r) => r.userId !== by.id).map((r) => [keyOf(r), r]));
  const unread = new Set((await findRecentUnread(tx, [...candidates.values()], LIMITS.notificationCoalesceMs)).map(keyOf));
  const rows = await insertNotifications(
    tx,
    [...candidates.values()].filter((r) => !unread.has(keyOf(r))).map((r) => ({ ...r, byId: by.id })),
  );
  for (const row of rows) {
    emit('notification.created', {
      userIds: [row.userId],
      notification: presentNotification({ notification: row, by: { id: by.id, name: by.name } }),
    });
  }
}

/** An admin reads the admins' notices beside their own. */
const readerOf = (actor: Actor): NotificationReader => ({ id: actor.id, admin: actor.role === 'admin' });

export function createNotificationService({ db, logger, announceWrite }: ServiceContext) {
  return {
    /**
     * The list and the unread count from one snapshot: read apart, a notification written between the
     * two reads would be in one and not the other, and the bell would keep that difference.
     */
    async list(actor: Actor, unread: boolean): Promise<{ notifications: Notification[]; unread: number }> {
      return db.transaction(
        async (tx) => {
          const reader = readerOf(actor);
          const bounds = reader.admin ? await noticeBounds(tx, reader.id) : undefined;
          const rows = await findNotifications(tx, reader, { unread, limit: LIMITS.notificationPage }, bounds);
          return { notifications: rows.map(presentNotification), unread: await countUnread(tx, reader, bounds) };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },

    async markRead(actor: Actor, which: { ids?: number[]; ticketId?: number } = {}): Promise<number> {
      const reader = readerOf(actor);
      // The person's other tabs and devices mark the same, told once the marks are in.
      return announceWrite(async (writer, emit) => {
        await markRead(writer, reader, which, warnOnShrink(logger, 'marking all notifications read'));
        const unread = await countUnread(writer, reader);
        emit('notifications.read', { userId: actor.id, ...which, unread });
        return unread;
      });
    },
  };
}
