import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { NOTIFICATION_TYPES } from '@helpdesk/protocol';
import { tickets } from './tickets.js';
import { users } from './users.js';

export const notificationTypeEnum = pgEnum('notification_type', NOTIFICATION_TYPES);

/**
 * In-app notifications (mention, assigned, reply, SLA marks, a webhook turned off): one row per
 * recipient, or one row for every admin (user_id null, an admins' notice), whose reads each admin
 * keeps below (docs/decisions.md#notices-to-every-admin).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    type: notificationTypeEnum('type').notNull(),
    // Null for news about no ticket (a webhook turned off).
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'cascade' }),
    // Who acted, as in ticket_history.actor_id: a user's id, not enforced by a foreign key. Users are
    // never deleted (deactivated instead), and each check locked the user's row FOR KEY SHARE: a third
    // of a scanner batch's inserts, and a multixact on rows two workers both named
    // (docs/decisions.md#no-key-checks-on-who-acted).
    byId: integer('by_id').notNull(),
    excerpt: text('excerpt').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    // One recipient's. The admins' notices (no recipient) are not in these two: each SLA mark on an
    // unassigned ticket writes one, and they are read off the two indexes of their own below.
    index('notifications_user_created_idx')
      .on(t.userId, t.createdAt, t.id)
      .where(sql`${t.userId} is not null`),
    // The bell's count reads only the unread rows.
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.userId} is not null and ${t.readAt} is null`),
    // A deleted ticket's notifications go with it: without this, each deletion read every notification.
    // The recipient second, so "this ticket's, for me" stays one exact range, as it was off the first two.
    index('notifications_ticket_idx').on(t.ticketId, t.userId),
    // The admins' notices: counted and listed above an admin's read-through mark, and found by time for
    // where a new admin's begin.
    index('notifications_admins_idx')
      .on(t.id)
      .where(sql`${t.userId} is null`),
    index('notifications_admins_created_idx')
      .on(t.createdAt)
      .where(sql`${t.userId} is null`),
  ],
);

/**
 * Where an admin has read the admins' notices through (all up to this id, by "mark all read"). An
 * admin without one has read those from before their account was made.
 */
export const adminNoticeMarks = pgTable('admin_notice_marks', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  throughId: integer('through_id').notNull(),
  readAt: timestamp('read_at', { withTimezone: true }).defaultNow().notNull(),
});

/** The admins' notices an admin read one by one above their mark; dropped when the mark passes them. */
export const adminNoticeReads = pgTable(
  'admin_notice_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.notificationId] }), index('admin_notice_reads_notification_idx').on(t.notificationId)],
);
