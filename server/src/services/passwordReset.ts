import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { LIMITS, MESSAGES } from '@helpdesk/protocol';
import { passwordResets, users } from '../db/schema/index.js';
import { ValidationError } from '../lib/errors.js';
import { hashPassword } from '../lib/passwords.js';
import { randomToken, sha256 } from '../lib/tokens.js';
import { newMessageId, queueMail } from '../mail/outbox.js';
import { passwordResetMail } from '../mail/templates.js';
import { mailHeaders } from '../mail/ticketMail.js';
import type { AccountService } from './accounts.js';
import type { ServiceContext } from './context.js';

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

/** Reset links: random, stored hashed, single use, valid for an hour (docs/api.md#auth-endpoints). */
export function createPasswordResetService(
  { db, withTransaction, mailer, settings, threadKeys }: ServiceContext,
  accounts: AccountService,
) {
  const { supportAddress } = threadKeys;
  return {
    /**
     * Returns before looking the email up: the caller answers the same at once whether or not the
     * account exists, so neither the answer nor its timing tells them.
     */
    request(email: string): void {
      mailer.later(async () => {
        const user = await accounts.findByEmail(email);
        if (!user) return;
        const token = randomToken();
        const link = `${settings.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        // The link and its mail commit together: no link without its mail, no mail with a dead link.
        await withTransaction(async (tx, emit) => {
          await tx.insert(passwordResets).values({
            userId: user.id,
            tokenHash: sha256(token),
            expiresAt: new Date(Date.now() + LIMITS.passwordResetTtlMs),
          });
          const mail = passwordResetMail({ to: user.email, name: user.name, link });
          await queueMail(tx, emit, {
            kind: 'password-reset',
            messageId: newMessageId(supportAddress),
            message: { ...mail, from: settings.mailFrom, headers: mailHeaders(supportAddress, true) },
          });
        });
      });
    },

    async reset(token: string, newPassword: string): Promise<void> {
      const usable = () =>
        and(eq(passwordResets.tokenHash, sha256(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()));
      // A read first: hashing costs ~100 ms of CPU, which a bogus token must not be able to buy.
      const [pending] = await db.select({ id: passwordResets.id }).from(passwordResets).where(usable()).limit(1);
      if (!pending) throw new ValidationError(MESSAGES.auth.resetInvalid, { token: MESSAGES.auth.resetInvalid });
      const passwordHash = await hashPassword(newPassword);
      const userId = await withTransaction(async (tx, emit) => {
        // Claiming the token and changing the password commit together, so a link works exactly once.
        const [claimed] = await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(usable())
          .returning({ userId: passwordResets.userId });
        if (!claimed) return undefined;
        const [user] = await tx
          .update(users)
          .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
          .where(and(eq(users.id, claimed.userId), isNull(users.deletedAt)))
          .returning({ id: users.id });
        if (!user) return undefined;
        // Other outstanding links for this account die with the old password.
        await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
        // Every older session and socket of this account ends once the new password is committed.
        emit('user.revoked', { userId: user.id });
        return user.id;
      });
      if (userId === undefined) throw new ValidationError(MESSAGES.auth.resetInvalid, { token: MESSAGES.auth.resetInvalid });
    },
  };
}
