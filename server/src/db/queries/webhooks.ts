import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { users, webhookDeliveries, webhooks } from '../schema/index.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;

export const findWebhooks = (db: Db) => db.select().from(webhooks).orderBy(asc(webhooks.id));

export async function findWebhook(db: Db, id: number): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

/** Active endpoints with what they subscribe to: what a change's events are matched against. */
export const findSubscribers = (db: Db) =>
  db
    .select({ id: webhooks.id, events: webhooks.events, includeInternal: webhooks.includeInternal })
    .from(webhooks)
    .where(eq(webhooks.active, true));

/**
 * Inserts an endpoint unless there are `max`, in one transaction that holds the table against other
 * inserts (it has at most a few dozen rows), so two at once cannot both pass the count. Undefined at the limit.
 */
export function insertWebhook(db: Db, values: typeof webhooks.$inferInsert, max: number): Promise<WebhookRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${webhooks} in share row exclusive mode`);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(webhooks);
    if (n >= max) return undefined;
    const [row] = await tx.insert(webhooks).values(values).returning();
    return row;
  });
}

export async function updateWebhook(db: Db, id: number, set: Partial<typeof webhooks.$inferInsert>): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(webhooks.id, id))
    .returning();
  return row;
}

export async function deleteWebhook(db: Db, id: number): Promise<boolean> {
  const deleted = await db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
  return deleted.length > 0;
}

/** Turns an active endpoint off with a reason; undefined when it was off already (another process did it). */
export async function disableWebhook(db: Db, id: number, reason: string): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ active: false, disabledReason: reason, updatedAt: sql`now()` })
    .where(and(eq(webhooks.id, id), eq(webhooks.active, true)))
    .returning();
  return row;
}

/** A success ends a run of failures; written only when one was running, so most successes write nothing here. */
export const endFailingRun = (db: Db, id: number) =>
  db
    .update(webhooks)
    .set({ failingSince: null })
    .where(and(eq(webhooks.id, id), isNotNull(webhooks.failingSince)));

/** A failure starts a run of failures unless one is running: when the run started. */
export async function failingSinceAfter(db: Db, id: number, at: Date): Promise<Date> {
  await db
    .update(webhooks)
    .set({ failingSince: at })
    .where(and(eq(webhooks.id, id), isNull(webhooks.failingSince)));
  const [row] = await db.select({ failingSince: webhooks.failingSince }).from(webhooks).where(eq(webhooks.id, id));
  return row?.failingSince ?? at;
}

export const insertDeliveries = (db: Db, rows: NewDelivery[]) =>
  rows.length === 0 ? Promise.resolve([]) : db.insert(webhookDeliveries).values(rows).returning({ id: webhookDeliveries.id });

/** An endpoint turned off: what it still had to send will not be sent. */
export const failPendingDeliveries = (db: Db, webhookId: number, error: string) =>
  db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: error, claimedUntil: null })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')));

/** A page of an endpoint's log, newest first, and whether older deliveries follow. */
export async function findDeliveries(db: Db, webhookId: number, limit: number, before?: number) {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhookId), before === undefined ? undefined : lt(webhookDeliveries.id, before)))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function findDelivery(db: Db, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

/** A failed delivery made pending again, due now, with a fresh run of attempts. */
export async function requeueDelivery(db: Db, id: number, at: Date): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: at, claimedUntil: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'failed')))
    .returning();
  return row;
}

/**
 * Takes due deliveries for this sender until `claimUntil`, counting the attempt: up to `limit` due
 * rows are looked at in due order, and of those at most `perEndpoint` for each endpoint are taken.
 * Endpoints in `skipEndpoints` (this sender still has attempts in flight to them) are passed over, so
 * their rows neither pile up behind a slow one nor keep others from being looked at. FOR UPDATE SKIP
 * LOCKED hands rows another process is claiming to that one, and the claim keeps them from every
 * other pass until it runs out (a crashed sender's rows come back then).
 */
export async function claimDueDeliveries(
  db: Db,
  at: Date,
  claimUntil: Date,
  { limit, perEndpoint, skipEndpoints = [] }: { limit: number; perEndpoint: number; skipEndpoints?: number[] },
): Promise<DeliveryRow[]> {
  const due = db
    .select({ id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId, nextAttemptAt: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lt(webhookDeliveries.nextAttemptAt, new Date(at.getTime() + 1)),
        or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, at)),
        skipEndpoints.length > 0 ? notInArray(webhookDeliveries.webhookId, skipEndpoints) : undefined,
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(limit)
    .for('update', { skipLocked: true })
    .as('due');
  // A locking select cannot number its rows itself (no window functions with FOR UPDATE): one level up.
  const ranked = db
    .select({
      id: due.id,
      place: sql<number>`row_number() over (partition by ${due.webhookId} order by ${due.nextAttemptAt}, ${due.id})`.as('place'),
    })
    .from(due)
    .as('ranked');
  const taken = db.select({ id: ranked.id }).from(ranked).where(lte(ranked.place, perEndpoint));
  const rows = await db
    .update(webhookDeliveries)
    .set({ claimedUntil: claimUntil, attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(inArray(webhookDeliveries.id, taken))
    .returning();
  return rows.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id);
}

/** When the next pending delivery not due at `at` falls due (a retry, mostly): a sender wakes then. */
export async function nextDueAfter(db: Db, at: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), gte(webhookDeliveries.nextAttemptAt, new Date(at.getTime() + 1))))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(1);
  return row?.at;
}

/** A claimed delivery's attempt recorded; nothing when it is no longer pending (turned off meanwhile). */
export const recordAttempt = (db: Db, id: number, set: Partial<NewDelivery>) =>
  db
    .update(webhookDeliveries)
    .set({ ...set, claimedUntil: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));

/** Finished deliveries older than `before`, at most `limit` of them (a pass prunes a bounded amount). */
export async function pruneDeliveries(db: Db, before: Date, limit: number): Promise<number> {
  const old = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(ne(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.createdAt, before)))
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(limit);
  const deleted = await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, old)).returning({ id: webhookDeliveries.id });
  return deleted.length;
}

/** Deliveries waiting to be sent, due or not, off the partial index of pending rows. */
export async function pendingDeliveryCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'));
  return row?.n ?? 0;
}

/** The admins told when an endpoint is turned off. */
export const activeAdmins = (db: Db) =>
  db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
