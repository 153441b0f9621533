import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { NOTIFICATION_PREFERENCES, ROLES } from '@helpdesk/protocol';

export const roleEnum = pgEnum('user_role', ROLES);
export const notificationPreferenceEnum = pgEnum('notification_preference', NOTIFICATION_PREFERENCES);

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
};
export { timestamps };

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: roleEnum('role').notNull().default('user'),
    emailNotifications: notificationPreferenceEnum('email_notifications').notNull().default('all'),
    // Bumped to revoke every token issued before (password reset, password change, deletion).
    tokenVersion: integer('token_version').notNull().default(0),
    // Deleted accounts stay as rows so their tickets and comments keep an author (docs/api.md#user-endpoints).
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_active_key')
      .on(t.email)
      .where(sql`${t.deletedAt} is null`),
    index('users_role_idx').on(t.role),
    // requester=<name or email> (docs/api.md#search-syntax): a name by its start, an email whole,
    // deleted accounts included (their tickets stay).
    index('users_name_prefix_idx').using('btree', sql`lower(${t.name}) text_pattern_ops`),
    index('users_email_idx').on(t.email),
  ],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Only a SHA-256 of the token is kept, so a database leak does not leak working links.
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);
