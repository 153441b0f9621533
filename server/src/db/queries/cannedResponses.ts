import { asc, eq, or } from 'drizzle-orm';
import type { Db } from '../client.js';
import { returnedRow } from '../rows.js';
import { insertUnderCap } from './ownedItems.js';
import { cannedResponses, users } from '../schema/index.js';

export type CannedResponseRecord = typeof cannedResponses.$inferSelect;
export type CannedResponseRow = CannedResponseRecord & { ownerName: string };

const select = (db: Db) =>
  db.select({ item: cannedResponses, ownerName: users.name }).from(cannedResponses).innerJoin(users, eq(users.id, cannedResponses.ownerId));

const toRow = ({ item, ownerName }: { item: CannedResponseRecord; ownerName: string }): CannedResponseRow => ({ ...item, ownerName });

/** Canned responses, in the shape services/sharedItems.ts reads and writes every shared item with. */
export const cannedResponseQueries = {
  async find(db: Db, id: number): Promise<CannedResponseRow | undefined> {
    const [row] = await select(db).where(eq(cannedResponses.id, id));
    return row && toRow(row);
  },

  /** The staff member's own and the shared ones, by title. */
  async findVisible(db: Db, userId: number): Promise<CannedResponseRow[]> {
    const rows = await select(db)
      .where(or(eq(cannedResponses.ownerId, userId), eq(cannedResponses.shared, true)))
      .orderBy(asc(cannedResponses.title), asc(cannedResponses.id));
    return rows.map(toRow);
  },

  /** Undefined once the owner already has `max`. */
  insert(db: Db, values: typeof cannedResponses.$inferInsert, max: number): Promise<CannedResponseRecord | undefined> {
    return insertUnderCap(db, cannedResponses, values.ownerId, max, async (tx) =>
      returnedRow(await tx.insert(cannedResponses).values(values).returning(), 'the canned response insert'),
    );
  },

  async update(db: Db, id: number, set: Partial<typeof cannedResponses.$inferInsert>): Promise<CannedResponseRecord> {
    return returnedRow(
      await db.update(cannedResponses).set(set).where(eq(cannedResponses.id, id)).returning(),
      'the canned response update',
    );
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.delete(cannedResponses).where(eq(cannedResponses.id, id));
  },
};
