import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  isStaff,
  MESSAGES,
  registrationRefusal,
  type ChangePasswordBody,
  type LoginBody,
  type NotificationPreference,
  type RegisterBody,
  type User,
} from '@helpdesk/protocol';
import { users } from '../db/schema/index.js';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../lib/errors.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../lib/passwords.js';
import { presentUser } from '../presenters/users.js';
import type { Actor } from '../lib/actor.js';
import type { ServiceContext } from './context.js';
import { createReadMemo } from './readMemo.js';
import { createUserRecord, findActiveUserByEmail, findActiveUserById } from './userRecords.js';

export interface Session {
  token: string;
  user: User;
}

/** A signed-in caller, with when their token stops working (sockets disconnect then). */
export interface ResolvedSession {
  actor: Actor;
  expiresAt: number;
}

export type AccountService = ReturnType<typeof createAccountService>;

/** Signed-in accounts whose session row is kept between requests; each entry is a few short fields. */
const SESSION_MEMO_ENTRIES = 10_000;

export function createAccountService(context: ServiceContext) {
  const { db, withTransaction, announceWrite, tokens, settings } = context;
  const readSessionUser = (id: number) =>
    db
      .select({ id: users.id, name: users.name, email: users.email, role: users.role, tokenVersion: users.tokenVersion })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .then((rows) => rows[0]);
  /**
   * Runs on every authenticated request and handshake, so the row is kept until the next write to
   * the users table, on any process: every revocation (password, role, deletion) is such a write, so
   * it still takes effect on the very next request (services/readMemo.ts).
   */
  const sessionMemo = createReadMemo<Awaited<ReturnType<typeof readSessionUser>>>(
    { memoVersions: context.sessionVersions },
    SESSION_MEMO_ENTRIES,
  );
  const keptProfiles = createReadMemo<User>(context, SESSION_MEMO_ENTRIES);
  const sessionUser = (id: number) => sessionMemo(String(id), () => readSessionUser(id));

  const findByEmail = (email: string) => findActiveUserByEmail(db, email);

  const issue = async (row: typeof users.$inferSelect): Promise<Session> => ({
    token: await tokens.sign(row.id, row.tokenVersion),
    user: presentUser(row),
  });

  return {
    findByEmail,

    /** Token → caller, or undefined when it is invalid, expired, revoked or its user is gone. */
    async resolveSession(token: string): Promise<ResolvedSession | undefined> {
      const claims = await tokens.verify(token);
      if (!claims) return undefined;
      const row = await sessionUser(claims.userId);
      if (!row || row.tokenVersion !== claims.version) return undefined;
      return { actor: { id: row.id, name: row.name, email: row.email, role: row.role }, expiresAt: claims.expiresAt };
    },

    async register(actor: Actor | undefined, input: RegisterBody): Promise<Session> {
      const refusal = registrationRefusal(actor, input.role, settings.agentSignup);
      if (refusal) throw new ForbiddenError(refusal);
      const row = await announceWrite(async (writer, emit) => {
        const created = await createUserRecord(writer, input);
        // A new agent or admin joins staff's lists (assignees, mentions, Support Management).
        if (isStaff(created)) emit('staff.changed', { userId: created.id });
        return created;
      });
      return issue(row);
    },

    async login({ email, password }: LoginBody): Promise<Session> {
      const row = await findByEmail(email);
      const ok = row ? await verifyPassword(row.passwordHash, password) : await verifyAgainstDummy(password);
      if (!row || !ok) throw new UnauthorizedError(MESSAGES.auth.invalidCredentials);
      return issue(row);
    },

    /** Every page load asks (GET /auth/verify), so it is kept like the session row. */
    profile(actor: Actor): Promise<User> {
      return keptProfiles(String(actor.id), async () => {
        const row = await findActiveUserById(db, actor.id);
        if (!row) throw new UnauthorizedError(MESSAGES.auth.sessionInvalid);
        return presentUser(row);
      });
    },

    /**
     * Settings → Change password: the current password must match; every older session and socket of
     * the account ends (token version bump), and the caller gets a fresh token so this tab stays in.
     * A wrong current password is a 400 on the field, not a 401, which would read as "signed out".
     */
    async changePassword(actor: Actor, { currentPassword, newPassword }: ChangePasswordBody): Promise<Session> {
      const current = await findActiveUserById(db, actor.id);
      if (!current) throw new UnauthorizedError(MESSAGES.auth.sessionInvalid);
      if (!(await verifyPassword(current.passwordHash, currentPassword))) {
        throw new ValidationError(MESSAGES.users.currentPasswordWrong, { currentPassword: MESSAGES.users.currentPasswordWrong });
      }
      if (newPassword === currentPassword) {
        throw new ValidationError(MESSAGES.users.newPasswordSame, { newPassword: MESSAGES.users.newPasswordSame });
      }
      // Hashed before the transaction, which would otherwise hold a connection through it.
      const passwordHash = await hashPassword(newPassword);
      const row = await withTransaction(async (tx, emit) => {
        const [updated] = await tx
          .update(users)
          .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
          // Unchanged since the check above, so two racing changes cannot both win with one old password.
          .where(and(eq(users.id, actor.id), isNull(users.deletedAt), eq(users.passwordHash, current.passwordHash)))
          .returning();
        if (updated) emit('user.revoked', { userId: actor.id });
        return updated;
      });
      if (!row) throw new ValidationError(MESSAGES.users.currentPasswordWrong, { currentPassword: MESSAGES.users.currentPasswordWrong });
      return issue(row);
    },

    async updatePreferences(actor: Actor, preference: NotificationPreference): Promise<User> {
      const [row] = await db
        .update(users)
        .set({ emailNotifications: preference, updatedAt: new Date() })
        .where(and(eq(users.id, actor.id), isNull(users.deletedAt)))
        .returning();
      if (!row) throw new UnauthorizedError(MESSAGES.auth.sessionInvalid);
      return presentUser(row);
    },
  };
}
