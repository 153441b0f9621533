import { and, eq, inArray, isNull, type SQLWrapper } from 'drizzle-orm';
import { STAFF_ROLES } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { users } from '../schema/index.js';

/** The condition "this role column is a staff role", also for a column of a raw subselect. */
export const isStaffRole = (role: SQLWrapper) => inArray(role, [...STAFF_ROLES]);

/** Who a ticket may be assigned to or mention: looked up by id, deleted accounts included. */
export const findUserRef = (db: Db, id: number) =>
  db
    .select({ id: users.id, name: users.name, role: users.role, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, id))
    .then((rows) => rows[0]);

/** The requester panel's account line: name, email and since when (deleted accounts too, their tickets stay). */
export const findRequesterAccount = (db: Db, id: number) =>
  db
    .select({ id: users.id, name: users.name, email: users.email, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, id))
    .then((rows) => rows[0]);

/** Which of `ids` are staff accounts that still exist. */
export const findActiveStaffIds = (db: Db, ids: number[]) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.deletedAt), isStaffRole(users.role)))
    .then((rows) => rows.map((r) => r.id));
