import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { MESSAGES, type CreateStaffBody, type Role, type UpdateStaffBody, type User } from '@helpdesk/protocol';
import { ticketHistory, tickets, users } from '../db/schema/index.js';
import { actorRef } from '../events/bus.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';
import { hashPassword } from '../lib/passwords.js';
import type { Actor } from '../policies/actor.js';
import { canManageUsers } from '../policies/accounts.js';
import { presentUser } from '../presenters/users.js';
import type { ServiceContext } from './context.js';
import { createUserRecord, findActiveUserById } from './userRecords.js';

export type UserService = ReturnType<typeof createUserService>;

/** Support-agent management (SPEC §2, CONTRACT §4 Users): admins only. */
export function createUserService({ db, bus }: ServiceContext) {
  const assertAdmin = (actor: Actor) => {
    if (!canManageUsers(actor)) throw new ForbiddenError(MESSAGES.http.adminOnly);
  };

  const findActive = async (id: number) => {
    const row = await findActiveUserById(db, id);
    if (!row) throw new NotFoundError(MESSAGES.users.userNotFound);
    return row;
  };

  return {
    async list(actor: Actor, role?: Role): Promise<User[]> {
      assertAdmin(actor);
      const rows = await db
        .select()
        .from(users)
        .where(and(isNull(users.deletedAt), role ? eq(users.role, role) : undefined))
        .orderBy(asc(users.name), asc(users.id));
      return rows.map(presentUser);
    },

    async create(actor: Actor, input: CreateStaffBody): Promise<User> {
      assertAdmin(actor);
      return presentUser(await createUserRecord(db, input));
    },

    async update(actor: Actor, id: number, input: UpdateStaffBody): Promise<User> {
      assertAdmin(actor);
      const current = await findActive(id);
      if (input.email !== undefined && input.email !== current.email) throw new ValidationError(MESSAGES.users.emailLocked, { email: MESSAGES.users.emailLocked });
      if (input.role !== undefined && input.role !== current.role && id === actor.id) {
        throw new ValidationError(MESSAGES.users.cannotChangeOwnRole, { role: MESSAGES.users.cannotChangeOwnRole });
      }
      const roleChanged = input.role !== undefined && input.role !== current.role;
      const revoke = input.password !== undefined || roleChanged;
      const [row] = await db
        .update(users)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.role !== undefined && { role: input.role }),
          ...(input.password !== undefined && { passwordHash: await hashPassword(input.password) }),
          ...(revoke && { tokenVersion: sql`${users.tokenVersion} + 1` }),
          updatedAt: new Date(),
        })
        .where(and(eq(users.id, id), isNull(users.deletedAt)))
        .returning();
      if (!row) throw new NotFoundError(MESSAGES.users.userNotFound);
      // A new password or role ends the sessions (and socket rooms) built on the old one.
      if (revoke) bus.publish('user.revoked', { userId: id });
      return presentUser(row);
    },

    /** Soft delete: the row stays so their tickets and comments keep an author; assignments are released. */
    async remove(actor: Actor, id: number): Promise<void> {
      assertAdmin(actor);
      if (id === actor.id) throw new ValidationError(MESSAGES.users.cannotDeleteSelf);
      const target = await findActive(id);
      const released = await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ deletedAt: new Date(), tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
          .where(eq(users.id, id));
        const rows = await tx
          .update(tickets)
          .set({ assignedAgentId: null, updatedById: actor.id, updatedAt: new Date() })
          .where(eq(tickets.assignedAgentId, id))
          .returning({ ticketId: tickets.id, ownerId: tickets.userId });
        if (rows.length > 0) {
          await tx
            .insert(ticketHistory)
            .values(rows.map(({ ticketId }) => ({ ticketId, type: 'assigned' as const, fromValue: target.name, toValue: null, actorId: actor.id })));
        }
        return rows;
      });
      bus.publish('user.revoked', { userId: id });
      for (const { ticketId, ownerId } of released) bus.publish('ticket.updated', { ticketId, ownerId, actor: actorRef(actor) });
    },
  };
}
