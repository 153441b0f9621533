import { and, eq, isNull, sql } from 'drizzle-orm';
import { createUserRecord } from '../services/userRecords.js';
import type { Logger } from '../lib/logger.js';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';

/**
 * ADMIN_EMAIL + ADMIN_PASSWORD (docs/api.md#server-settings): make sure that account exists and is an admin, the way
 * to get the first admin on a real deployment. An existing password is left alone.
 */
export async function ensureAdmin(db: Db, admin: { email: string; password: string }, logger: Logger): Promise<void> {
  const [existing] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.email, admin.email), isNull(users.deletedAt)));
  if (existing?.role === 'admin') return;
  if (existing) {
    await db
      .update(users)
      .set({ role: 'admin', tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, existing.id));
    logger.info({ email: admin.email }, 'existing account promoted to admin (ADMIN_EMAIL)');
    return;
  }
  await createUserRecord(db, { name: 'Administrator', email: admin.email, password: admin.password, role: 'admin' });
  logger.info({ email: admin.email }, 'admin account created (ADMIN_EMAIL)');
}
