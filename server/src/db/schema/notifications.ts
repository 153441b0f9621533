import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { NOTIFICATION_TYPES } from '@helpdesk/protocol';
import { tickets } from './tickets.js';
import { users } from './users.js';

export const notificationTypeEnum = pgEnum('notification_type', NOTIFICATION_TYPES);

/** In-app notifications (mention, assigned, reply, SLA marks, a webhook turned off); one row per recipient. */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: notificationTypeEnum('type').notNull(),
    // Null for news about no ticket (a webhook turned off).
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'cascade' }),
    byId: integer('by_id')
      .notNull()
      .references(() => users.id),
    excerpt: text('excerpt').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The bell's count reads only the unread rows.
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    // A deleted ticket's notifications go with it: without this, each deletion read every notification.
    // The recipient second, so "this ticket's, for me" stays one exact range, as it was off the first two.
    index('notifications_ticket_idx').on(t.ticketId, t.userId),
  ],
);
