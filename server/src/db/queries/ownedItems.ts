import { count, eq } from 'drizzle-orm';
import type { Db } from '../client.js';
import { cannedResponses, savedViews, users } from '../schema/index.js';

/**
 * Runs `insert` only while the owner has fewer than `max` rows in `table`, else answers undefined.
 * The owner's user row is locked for the count (FOR NO KEY UPDATE, which foreign-key checks do not
 * wait for), so one person's parallel creates are counted one after another and cannot pass the cap
 * together, on PostgreSQL as on PGlite.
 */
export function insertUnderCap<T>(
  db: Db,
  table: typeof savedViews | typeof cannedResponses,
  ownerId: number,
  max: number,
  insert: (tx: Db) => Promise<T>,
): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for('no key update');
    const [owned] = await tx.select({ n: count() }).from(table).where(eq(table.ownerId, ownerId));
    return (owned?.n ?? 0) < max ? insert(tx) : undefined;
  });
}
