import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  MESSAGES,
  ROLES,
  canChangeRoleOf,
  canDeleteAccount,
  STAFF_ROLES,
  type CreateStaffBody,
  type Role,
  type UpdateStaffBody,
  type User,
  type UserRef,
} from '@helpdesk/protocol';
import { tickets, users } from '../db/schema/index.js';
import { actorRef, type DomainEvents } from '../events/bus.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { hashPassword } from '../lib/passwords.js';
import { presentHistoryEntry, presentTicket, previousOf } from '../presenters/tickets.js';
import { presentUser } from '../presenters/users.js';
import type { Actor } from '../lib/actor.js';
import type { Db } from '../db/client.js';
import type { ServiceContext } from './context.js';
import { revokeTokensOf } from '../db/queries/apiTokens.js';
import { lockTicketRows, ticketsWithIds, updateTicketRows } from '../db/queries/tickets.js';
import { insertHistory } from '../db/queries/ticketThread.js';
import { shrinkingBatch, warnOnShrink } from '../db/shrinkingBatch.js';
import { createUserRecord, findActiveUserById } from './userRecords.js';

export type UserService = ReturnType<typeof createUserService>;

/** Tickets a removed agent's account releases per statement (each a few hundred ms at a million tickets). */
export const RELEASE_BATCH = 500;

/** A change to a lower role (ROLES runs from the least to the most a role may do). */
const lowers = (from: Role, to: Role) => ROLES.indexOf(to) < ROLES.indexOf(from);

/**
 * Support-agent management (docs/api.md#user-endpoints). Who may call it at all is the route's
 * `auth.allow(canManageUsers)`; here only the rules that depend on the account being changed.
 */
export function createUserService({ db, withTransaction, announceWrite, logger }: ServiceContext) {
  const findActive = async (id: number) => {
    const row = await findActiveUserById(db, id);
    if (!row) throw new NotFoundError(MESSAGES.users.userNotFound);
    return row;
  };

  /**
   * Up to `size` of the removed agent's tickets after id `after`, released: each a change like any
   * other (a new version, an `assigned` entry, an event), returned for the caller to emit. In id order
   * from where the last batch ended: the released rows' old entries stay in the indexes until
   * vacuumed, and a walk from the start would read them all again each time.
   */
  const releaseTickets = async (tx: Db, actor: Actor, agent: { id: number; name: string }, after: number, size: number) => {
    const locked = await lockTicketRows(tx, sql`${eq(tickets.assignedAgentId, agent.id)} and ${gt(tickets.id, after)}`, size);
    const before = new Map(locked.map((row) => [row.ticket.id, presentTicket(row)]));
    const rows =
      locked.length === 0
        ? []
        : await updateTicketRows(tx, ticketsWithIds([...before.keys()]), {
            assignedAgentId: null,
            updatedById: actor.id,
            updatedAt: new Date(),
          });
    const history = (
      await insertHistory(
        tx,
        actor,
        rows.map((row) => ({ ticketId: row.ticket.id, type: 'assigned' as const, from: agent.name, to: null })),
      )
    ).map(presentHistoryEntry);
    const events: DomainEvents['ticket.updated'][] = [];
    for (const row of rows) {
      const ticket = presentTicket(row);
      // Only the rows locked above were updated.
      const previous = before.get(ticket.id);
      if (!previous) continue;
      events.push({
        ticketId: ticket.id,
        ownerId: row.ticket.userId,
        actor: actorRef(actor),
        ticket,
        previous: previousOf(previous, ticket),
        history: history.filter((entry) => entry.ticketId === ticket.id),
      });
    }
    return { events, count: locked.length, last: locked.at(-1)?.ticket.id };
  };

  return {
    async list(role?: Role): Promise<User[]> {
      const rows = await db
        .select()
        .from(users)
        .where(and(isNull(users.deletedAt), role ? eq(users.role, role) : undefined))
        .orderBy(asc(users.name), asc(users.id));
      return rows.map(presentUser);
    },

    /** Active agents and admins by name, for mentions. */
    async staffDirectory(): Promise<UserRef[]> {
      return db
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(and(isNull(users.deletedAt), inArray(users.role, [...STAFF_ROLES])))
        .orderBy(asc(users.name), asc(users.id));
    },

    async create(input: CreateStaffBody): Promise<User> {
      const row = await announceWrite(async (writer, emit) => {
        const created = await createUserRecord(writer, input);
        emit('staff.changed', { userId: created.id });
        return created;
      });
      return presentUser(row);
    },

    async update(actor: Actor, id: number, input: UpdateStaffBody): Promise<User> {
      const current = await findActive(id);
      if (input.email !== undefined && input.email !== current.email)
        throw new ValidationError(MESSAGES.users.emailLocked, { email: MESSAGES.users.emailLocked });
      if (input.role !== undefined && input.role !== current.role && !canChangeRoleOf(actor, current)) {
        throw new ValidationError(MESSAGES.users.cannotChangeOwnRole, { role: MESSAGES.users.cannotChangeOwnRole });
      }
      const roleChanged = input.role !== undefined && input.role !== current.role;
      const revoke = input.password !== undefined || roleChanged;
      // Hashed before the transaction, which would otherwise hold a connection through it.
      const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
      const row = await withTransaction(async (tx, emit) => {
        // The role it has now, held until the commit: a change made meanwhile cannot hide a demotion.
        const [before] = await tx
          .select({ role: users.role })
          .from(users)
          .where(and(eq(users.id, id), isNull(users.deletedAt)))
          .for('update');
        const [updated] = await tx
          .update(users)
          .set({
            ...(input.name !== undefined && { name: input.name }),
            ...(input.role !== undefined && { role: input.role }),
            ...(passwordHash !== undefined && { passwordHash }),
            ...(revoke && { tokenVersion: sql`${users.tokenVersion} + 1` }),
            updatedAt: new Date(),
          })
          .where(and(eq(users.id, id), isNull(users.deletedAt)))
          .returning();
        // A new password or role ends the sessions (and socket rooms) built on the old one.
        if (updated && revoke) emit('user.revoked', { userId: id });
        if (updated && (input.name !== undefined || roleChanged)) emit('staff.changed', { userId: id });
        // Their API tokens were made for what the old role could do: a lower one ends them, as a
        // revocation would (docs/api.md#api-tokens); a higher one keeps them.
        if (updated && before && lowers(before.role, updated.role)) {
          const revoked = await revokeTokensOf(tx, id, new Date());
          if (revoked > 0) logger.info({ userId: id, tokens: revoked }, 'api tokens revoked: role lowered');
        }
        return updated;
      });
      if (!row) throw new NotFoundError(MESSAGES.users.userNotFound);
      return presentUser(row);
    },

    /** Soft delete: the row stays so their tickets and comments keep an author; assignments are released. */
    async remove(actor: Actor, id: number): Promise<void> {
      if (!canDeleteAccount(actor, { id })) throw new ValidationError(MESSAGES.users.cannotDeleteSelf);
      const target = await findActive(id);
      await withTransaction(async (tx, emit) => {
        await tx
          .update(users)
          .set({ deletedAt: new Date(), tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
          .where(eq(users.id, id));
        emit('user.revoked', { userId: id });
        emit('staff.changed', { userId: id });
        // A batch at a time, all in this transaction: one agent may hold thousands of tickets, and at a
        // million tickets a median agent's in one UPDATE ran past the statement timeout, so no agent
        // could be removed (docs/decisions.md#data-and-accounts). Each batch in a savepoint, so one the
        // timeout cancels is undone alone and asked again smaller, and its events are emitted only
        // once it stands.
        const batches = shrinkingBatch(RELEASE_BATCH, {
          onShrink: warnOnShrink(logger, 'releasing a removed agent’s tickets'),
        });
        for (let after = 0; ;) {
          const released = await batches.run((size) => tx.transaction((batch) => releaseTickets(batch, actor, target, after, size)));
          for (const event of released.events) emit('ticket.updated', event);
          if (released.last === undefined || released.count < batches.size) break;
          after = released.last;
        }
      });
    },
  };
}
