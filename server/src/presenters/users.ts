import type { User, UserRef } from '@helpdesk/protocol';
import type { users } from '../db/schema/index.js';

type UserRow = typeof users.$inferSelect;

/** The only way a user leaves the server: never a hash, a token version or a deletion mark. */
export const presentUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  email_notifications: row.emailNotifications,
  createdAt: row.createdAt.toISOString(),
});

export const presentUserRef = (row: { id: number; name: string }): UserRef => ({ id: row.id, name: row.name });
