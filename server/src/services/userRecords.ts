import { and, eq, isNull } from 'drizzle-orm';
import { MESSAGES, type Role } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { ConflictError } from '../lib/errors.js';
import { hashPassword } from '../lib/passwords.js';
import { isUniqueViolation } from '../db/errors.js';
import { returnedRow } from '../db/rows.js';

export type UserRecord = typeof users.$inferSelect;

export const findActiveUserById = (db: Db, id: number): Promise<UserRecord | undefined> =>
  db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .then((rows) => rows[0]);

export const findActiveUserByEmail = (db: Db, email: string): Promise<UserRecord | undefined> =>
  db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .then((rows) => rows[0]);

/** The one way an account is created: the email must be free, the password is hashed with argon2id. */
export async function createUserRecord(db: Db, input: { name: string; email: string; password: string; role: Role }): Promise<UserRecord> {
  // Checked first so a duplicate costs no hashing; the unique index settles races.
  if (await findActiveUserByEmail(db, input.email)) throw new ConflictError(MESSAGES.auth.duplicateEmail);
  const passwordHash = await hashPassword(input.password);
  try {
    const rows = await db.insert(users).values({ name: input.name, email: input.email, passwordHash, role: input.role }).returning();
    return returnedRow(rows, 'the user insert');
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(MESSAGES.auth.duplicateEmail);
    throw error;
  }
}

/**
 * A `user` account for someone who first wrote by mail: no password (an empty hash, which no password
 * verifies), so it signs in only after the reset flow gives it one. A race with another message or a
 * sign-up for the same address answers the account that won.
 */
export async function findOrCreatePasswordlessUser(db: Db, input: { name: string; email: string }): Promise<UserRecord> {
  const existing = await findActiveUserByEmail(db, input.email);
  if (existing) return existing;
  const rows = await db
    .insert(users)
    .values({ name: input.name, email: input.email, passwordHash: '', role: 'user' })
    .onConflictDoNothing()
    .returning();
  return (
    rows[0] ??
    returnedRow(
      [await findActiveUserByEmail(db, input.email)].filter((r) => r !== undefined),
      'the mail sender account',
    )
  );
}
