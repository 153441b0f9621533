import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TicketQuery } from '@helpdesk/protocol';
import { ticketSlaStates } from '../schema/index.js';
import { slaStateLiteral, type ConditionFilters, type OrderColumns, type TicketScope } from './tickets.js';

/** Where the orders an SLA state's rows carry are read (findTicketPageOfRows). */
export const SLA_ROW_COLUMNS: OrderColumns = {
  createdAt: sql`m.created_at`,
  id: sql`m.ticket_id`,
  slaDueAt: sql`m.due_at`,
};

/**
 * A staff list's SLA state as its rows of ticket_sla_states (migration 0040), for findTicketPageOfRows,
 * or undefined where the list is read off the tickets. Only where the rows hold all the list asks (the
 * state, and a status, priority or assignee beside it: not an owner's list, a search, a tag, a
 * category, a requester or unread marks) and in an order their indexes keep (creation time, the
 * deadline): such a page is the next entries of one range of an index, whatever the state holds
 * (docs/decisions.md#sla-states-in-rows-of-their-own).
 */
export function slaRowsOf(scope: TicketScope, filters: ConditionFilters, sort: TicketQuery['sort']): SQL | undefined {
  const { sla } = filters;
  if (sla === undefined || scope.ownerId !== undefined) return undefined;
  if (sort.field !== 'createdAt' && sort.field !== 'slaDueAt') return undefined;
  const others = [filters.search, filters.tag, filters.category, filters.requester, filters.unreadFor];
  if (others.some((filter) => filter !== undefined)) return undefined;
  const where = and(
    // Written into the text, as the tickets' condition is (tickets.ts#inSlaState): the partial
    // deadline indexes are then provably the state's.
    sql`${ticketSlaStates.state} = ${slaStateLiteral(sla)}`,
    filters.status !== undefined ? eq(ticketSlaStates.status, filters.status) : undefined,
    filters.priority !== undefined ? eq(ticketSlaStates.priority, filters.priority) : undefined,
    // 0 is the unassigned, as the triggers keep them.
    scope.assignedAgentId !== undefined ? eq(ticketSlaStates.agentId, scope.assignedAgentId ?? 0) : undefined,
  );
  return sql`(select ${ticketSlaStates.ticketId}, ${ticketSlaStates.createdAt}, ${ticketSlaStates.dueAt} from ${ticketSlaStates} where ${where})`;
}
