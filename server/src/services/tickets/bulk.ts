import { isStaff, LIMITS, MESSAGES, type BulkChanges, type BulkFailure, type Ticket, type UserRef } from '@helpdesk/protocol';
import { lockTicketRows, ticketsWithIds, updateTicketRows, type TicketRow } from '../../db/queries/tickets.js';
import { actorRef } from '../../events/bus.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, ForbiddenError } from '../../lib/errors.js';
import { presentTicket } from '../../presenters/tickets.js';
import type { ServiceContext } from '../context.js';
import { resolveAssignee } from './access.js';
import { planUpdate, sortedTags, type Plan } from './plan.js';

/** A ticket's tags after a bulk change: the added ones joined, the removed ones (which win) taken out. */
const tagsAfter = (current: readonly string[], add: readonly string[] = [], remove: readonly string[] = []): string[] =>
  sortedTags([...current, ...add].filter((tag) => !remove.includes(tag)));
import { recordUpdates, slaWriteOf, type Written } from './updates.js';
import { slaColumnsAfter } from '../sla/ticketClock.js';
import { writeSlaColumns } from '../../db/queries/slaTickets.js';

/**
 * The same change to many tickets, each under the rules of `update`. Per chunk: one locking read,
 * one update per distinct change (at most two: Start also takes unassigned tickets), one history insert.
 */
export function createBulkUpdate({ db, withTransaction }: ServiceContext) {
  return async function bulkUpdate(
    actor: Actor,
    ids: number[],
    changes: BulkChanges,
  ): Promise<{ updated: Ticket[]; failed: BulkFailure[] }> {
    if (!isStaff(actor)) throw new ForbiddenError(MESSAGES.http.staffOnly);
    const { addTags, removeTags, ...fields } = changes;
    const updated: Ticket[] = [];
    const failed: BulkFailure[] = [];
    let assignee: UserRef | null | undefined;
    try {
      assignee = changes.assignedAgentId !== undefined ? await resolveAssignee(db, changes.assignedAgentId) : undefined;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { updated, failed: ids.map((id) => ({ id, message: error.message })) };
    }
    const outcome = new Map<number, Ticket | BulkFailure>();
    for (let i = 0; i < ids.length; i += LIMITS.bulk.chunk) {
      const chunk = ids.slice(i, i + LIMITS.bulk.chunk);
      await withTransaction(async (tx, emit) => {
        const locked = new Map((await lockTicketRows(tx, ticketsWithIds(chunk))).map((row) => [row.ticket.id, row]));
        const groups = new Map<string, { set: Plan['set']; items: { row: TicketRow; plan: Plan }[] }>();
        for (const id of chunk) {
          const row = locked.get(id);
          if (!row) {
            outcome.set(id, { id, message: MESSAGES.tickets.notFound });
            continue;
          }
          if (row.ticket.status === 'closed') {
            outcome.set(id, { id, message: MESSAGES.tickets.closedInBulk });
            continue;
          }
          const tags = addTags || removeTags ? tagsAfter(row.ticket.tags, addTags, removeTags) : undefined;
          if (tags && tags.length > LIMITS.tags.max) {
            outcome.set(id, { id, message: MESSAGES.tickets.tooManyTags(LIMITS.tags.max) });
            continue;
          }
          let plan: Plan;
          try {
            plan = planUpdate(actor, row, { ...fields, ...(tags && { tags }) }, assignee);
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            outcome.set(id, { id, message: error.message });
            continue;
          }
          if (plan.changes.length === 0) {
            outcome.set(id, presentTicket(row));
            continue;
          }
          // Every ticket of a group gets the same SET; a field already at its value is rewritten to itself.
          const set: Plan['set'] = {
            ...(changes.status !== undefined && { status: changes.status }),
            ...(changes.priority !== undefined && { priority: changes.priority }),
            ...(changes.category !== undefined && { category: changes.category }),
            ...(assignee !== undefined && { assignedAgentId: assignee?.id ?? null }),
            ...('assignedAgentId' in plan.set && { assignedAgentId: plan.set.assignedAgentId }),
            // Each ticket's own tags plus and minus the change: tickets group by the set they end with.
            ...('tags' in plan.set && { tags: plan.set.tags }),
          };
          const key = JSON.stringify(set);
          const group = groups.get(key) ?? { set, items: [] };
          group.items.push({ row, plan });
          groups.set(key, group);
        }
        const now = new Date();
        const written: Written[] = [];
        // Each ticket's SLA clock follows its own status and priority: its columns differ from the
        // others', so they are written per ticket, in one statement, after the group's update.
        const items = [...groups.values()].flatMap((group) => group.items);
        const sla = await slaColumnsAfter(
          tx,
          items.map(({ row, plan }) => slaWriteOf(row.ticket, plan.set)),
          now,
        );
        for (const { set, items } of groups.values()) {
          const ids = items.map(({ row }) => row.ticket.id);
          let rows = await updateTicketRows(tx, ticketsWithIds(ids), {
            ...set,
            updatedById: actor.id,
            updatedAt: now,
            lastActivityAt: now,
            lastActivityById: actor.id,
          });
          const clocked = ids.flatMap((id) => {
            const columns = sla.get(id);
            return columns ? [{ id, columns }] : [];
          });
          if (clocked.length > 0) {
            await writeSlaColumns(tx, clocked);
            rows = await lockTicketRows(tx, ticketsWithIds(ids));
          }
          const after = new Map(rows.map((row) => [row.ticket.id, presentTicket(row)]));
          for (const { row, plan } of items) {
            const ticket = after.get(row.ticket.id);
            if (!ticket) throw new Error(`bulk update lost ticket ${row.ticket.id}`);
            written.push({ before: presentTicket(row), after: ticket, ownerId: row.ticket.userId, plan });
            outcome.set(row.ticket.id, ticket);
          }
        }
        written.sort((a, b) => a.after.id - b.after.id);
        await recordUpdates(tx, emit, actorRef(actor), written);
      });
    }
    for (const id of ids) {
      const result = outcome.get(id);
      if (!result) continue;
      if ('message' in result) failed.push(result);
      else updated.push(result);
    }
    return { updated, failed };
  };
}
