import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { returnedRow } from '../rows.js';
import { slaCalendars, slaPolicies } from '../schema/index.js';

export type CalendarRecord = typeof slaCalendars.$inferSelect;
export type PolicyRecord = typeof slaPolicies.$inferSelect;
type CalendarValues = Pick<CalendarRecord, 'name' | 'timeZone' | 'hours' | 'holidays'>;
type PolicyValues = Pick<PolicyRecord, 'name' | 'calendarId' | 'requesterDomains' | 'targets' | 'warnBeforeMinutes' | 'active'>;

/**
 * Serialises the writes of SLA settings for the rest of the transaction, so two creates cannot both
 * pass a cap and two reorders cannot interleave positions (PostgreSQL and PGlite alike).
 */
const lockSettings = (tx: Db) => tx.execute(sql`select pg_advisory_xact_lock(hashtext('helpdesk.sla_settings'))`);

export const listCalendars = (db: Db) => db.select().from(slaCalendars).orderBy(asc(slaCalendars.id));
export const findCalendar = async (db: Db, id: number) => (await db.select().from(slaCalendars).where(eq(slaCalendars.id, id)))[0];

/** Undefined once there are `max` calendars. */
export function insertCalendar(db: Db, values: CalendarValues, max: number): Promise<CalendarRecord | undefined> {
  return db.transaction(async (tx) => {
    await lockSettings(tx);
    const [existing] = await tx.select({ n: count() }).from(slaCalendars);
    if ((existing?.n ?? 0) >= max) return undefined;
    return returnedRow(await tx.insert(slaCalendars).values(values).returning(), 'insert sla_calendars');
  });
}

export const updateCalendar = async (db: Db, id: number, values: CalendarValues) =>
  (
    await db
      .update(slaCalendars)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(slaCalendars.id, id))
      .returning()
  )[0];

/** The policies not deleted: the only ones read, listed, chosen (slaTickets.ts#loadPolicies) or counted. */
export const livePolicies = isNull(slaPolicies.deletedAt);

/**
 * 'in-use' when a policy names it (the foreign key restricts the delete); false when there is none.
 * Deleted policies let go of it: nothing runs a clock on them any more.
 */
export function deleteCalendar(db: Db, id: number): Promise<true | false | 'in-use'> {
  return db.transaction(async (tx) => {
    await lockSettings(tx);
    const [user] = await tx
      .select({ id: slaPolicies.id })
      .from(slaPolicies)
      .where(and(eq(slaPolicies.calendarId, id), livePolicies))
      .limit(1);
    if (user) return 'in-use';
    await tx
      .update(slaPolicies)
      .set({ calendarId: null })
      .where(and(eq(slaPolicies.calendarId, id), isNotNull(slaPolicies.deletedAt)));
    const deleted = await tx.delete(slaCalendars).where(eq(slaCalendars.id, id)).returning({ id: slaCalendars.id });
    return deleted.length > 0;
  });
}

export const listPolicies = (db: Db) =>
  db.select().from(slaPolicies).where(livePolicies).orderBy(asc(slaPolicies.position), asc(slaPolicies.id));
export const findPolicy = async (db: Db, id: number) =>
  (
    await db
      .select()
      .from(slaPolicies)
      .where(and(eq(slaPolicies.id, id), livePolicies))
  )[0];

/** A new policy goes last; undefined once there are `max` policies or its calendar is gone. */
export function insertPolicy(db: Db, values: PolicyValues, max: number): Promise<PolicyRecord | 'too-many' | 'no-calendar'> {
  return db.transaction(async (tx) => {
    await lockSettings(tx);
    if (values.calendarId !== null && !(await findCalendar(tx, values.calendarId))) return 'no-calendar';
    const [existing] = await tx
      .select({ n: count(), last: sql<number>`coalesce(max(${slaPolicies.position}), 0)::int` })
      .from(slaPolicies)
      .where(livePolicies);
    if ((existing?.n ?? 0) >= max) return 'too-many';
    const position = (existing?.last ?? 0) + 1;
    return returnedRow(
      await tx
        .insert(slaPolicies)
        .values({ ...values, position })
        .returning(),
      'insert sla_policies',
    );
  });
}

export function updatePolicy(db: Db, id: number, values: PolicyValues): Promise<PolicyRecord | undefined | 'no-calendar'> {
  return db.transaction(async (tx) => {
    await lockSettings(tx);
    if (values.calendarId !== null && !(await findCalendar(tx, values.calendarId))) return 'no-calendar';
    return (
      await tx
        .update(slaPolicies)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(slaPolicies.id, id), livePolicies))
        .returning()
    )[0];
  });
}

/**
 * Marks the policy deleted; its tickets keep its id. A real DELETE set that id to null on every ticket
 * ever timed by it in one statement (the foreign key's action): at a million tickets it ran past the
 * statement timeout, so a policy in use could not be deleted. The re-apply that follows moves the
 * tickets still being worked to the policy they now fall under; a done ticket under a deleted policy
 * is read as under none (loadPolicies) if it is ever reopened.
 */
export const deletePolicy = async (db: Db, id: number) =>
  (
    await db
      .update(slaPolicies)
      .set({ deletedAt: new Date(), active: false, updatedAt: new Date() })
      .where(and(eq(slaPolicies.id, id), livePolicies))
      .returning({ id: slaPolicies.id })
  ).length > 0;

/** Positions 1…n in the order given; false unless `ids` is exactly the set of policies. */
export function reorderPolicies(db: Db, ids: readonly number[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockSettings(tx);
    const current = await tx.select({ id: slaPolicies.id }).from(slaPolicies).where(livePolicies);
    const known = new Set(current.map((row) => row.id));
    if (ids.length !== known.size || ids.some((id) => !known.has(id))) return false;
    for (const [i, id] of ids.entries())
      await tx
        .update(slaPolicies)
        .set({ position: i + 1 })
        .where(eq(slaPolicies.id, id));
    return true;
  });
}
