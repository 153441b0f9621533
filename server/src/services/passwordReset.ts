import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { LIMITS, MESSAGES } from '@helpdesk/protocol';
import { passwordResets, users } from '../db/schema/index.js';
import { ValidationError } from '../lib/errors.js';
import { hashPassword } from '../lib/passwords.js';
import { randomToken, sha256 } from '../lib/tokens.js';
import { passwordResetMail } from '../mail/templates.js';
import type { AccountService } from './accounts.js';
import type { ServiceContext } from './context.js';

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

/** Reset links: random, stored hashed, single use, valid for an hour (CONTRACT §4). */
export function createPasswordResetService({ db, bus, mailer, settings }: ServiceContext, accounts: AccountService) {
  return {
    /** Always succeeds from the caller's point of view, so it can't be used to probe for accounts. */
    async request(email: string): Promise<void> {
      const user = await accounts.findByEmail(email);
      if (!user) return;
      const token = randomToken();
      await db.insert(passwordResets).values({
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + LIMITS.passwordResetTtlMs),
      });
      const link = `${settings.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      mailer.send(passwordResetMail({ to: user.email, name: user.name, link }));
    },

    async reset(token: string, newPassword: string): Promise<void> {
      const passwordHash = await hashPassword(newPassword);
      const userId = await db.transaction(async (tx) => {
        // Claiming the token and changing the password commit together, so a link works exactly once.
        const [claimed] = await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResets.tokenHash, sha256(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
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
        return user.id;
      });
      if (userId === undefined) throw new ValidationError(MESSAGES.auth.resetInvalid, { token: MESSAGES.auth.resetInvalid });
      bus.publish('user.revoked', { userId });
    },
  };
}
