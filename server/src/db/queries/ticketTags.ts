import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TicketQuery } from '@helpdesk/protocol';
import { tickets, ticketTags } from '../schema/index.js';
import { asksBeyondCopies, tagSpreadOf } from './ticketFilters.js';
import { sortsOffMatches, type ConditionFilters, type TicketScope } from './tickets.js';

/**
 * In creation order a tag's rows are walked when it is on at most this many times the tickets the
 * list's other filters hold: a walk of either kind passes its entries at the rate it meets the tag's
 * tickets, and the tags' entries are narrower (at a million tickets, `vip` on 10,000: unassigned
 * 0.2 ms against 18 ms off the tickets' indexes, open 0.15 against 1.3; `vpn` on 50,000 by an agent's
 * 6,500 tickets 1.1 against 0.35, pending and unassigned 7.8 against 0.17).
 */
export const TAG_ROWS_SHARE = 3;

/**
 * In another order they carry, a filtered list's tag on at most this many tickets has its rows read
 * whole and sorted (about 0.3 µs a row): walking the order's index met the tag and the filter
 * together too seldom (`vip` open by priority 10.7 ms against 2.7, urgent by status 20 against 2.6,
 * unassigned by id 22 against 2.8). Unfiltered, the walk meets the tag soon enough (1.6 against 3.2).
 */
export const SORTED_TAG_ROWS = 20_000;

/**
 * A staff list's tag as its rows of ticket_tags (migration 0031), for findTicketPageOfRows to sort, or
 * undefined when the tickets' own indexes read the page cheaper (docs/decisions.md#a-tag-walked-in-its-own-rows).
 * Only in the orders the rows carry (creation, id, status, priority), and never under a named agent
 * (their tickets are few and have their own index):
 * - a rare tag (RARE_TAG_TICKETS): always, where its tickets were read off the tag's GIN index, each
 *   fetched from the table;
 * - another in creation order when the list's other filters hold at least a TAG_ROWS_SHARE-th of
 *   its tickets (read `untagged`, the maintained counters, only then);
 * - in another order, on at most SORTED_TAG_ROWS tickets under a status, priority or the unassigned.
 * Lists the rows cannot answer (an owner's, a search, a requester, an SLA state, a category, unread marks) are
 * left to the tickets.
 */
export async function taggedRowsOf(
  scope: TicketScope,
  filters: ConditionFilters,
  sort: TicketQuery['sort'],
  untagged: () => Promise<number>,
): Promise<SQL | undefined> {
  const answerable = rowsAnswer(scope, filters);
  if (!answerable || !sortsOffMatches(sort)) return undefined;
  const { tag, tagged } = answerable;
  const rows = tagRows(tag, scope, filters);
  if (tagSpreadOf(tagged) === 'rare') return rows;
  if (typeof scope.assignedAgentId === 'number') return undefined;
  if (sort.field !== 'createdAt') return narrowedByCopies(scope, filters) && tagged <= SORTED_TAG_ROWS ? rows : undefined;
  return tagged <= TAG_ROWS_SHARE * (await untagged()) ? rows : undefined;
}

/**
 * A staff list's tag and how many tickets carry it, where the tag's rows hold all the list asks: not
 * an owner's list, no search, no filter the rows do not copy. Undefined otherwise.
 */
function rowsAnswer(scope: TicketScope, filters: ConditionFilters): { tag: string; tagged: number } | undefined {
  const { tag, tagged } = filters;
  if (tag === undefined || tagged === undefined || scope.ownerId !== undefined) return undefined;
  if (filters.search !== undefined || asksBeyondCopies(filters)) return undefined;
  return { tag, tagged };
}

/** Whether the list narrows its tag by what the rows copy: a status, a priority or the unassigned. */
const narrowedByCopies = (scope: TicketScope, filters: ConditionFilters): boolean =>
  filters.status !== undefined || filters.priority !== undefined || scope.assignedAgentId === null;

/**
 * In an order a tag's rows do not carry (update time, last activity, deadline), a staff list's tag
 * under a status, priority or the unassigned held by at most this many tickets has them read by id
 * off its rows, then filtered and sorted (findTicketPage's `few`): the order's index met them too
 * seldom. At a million tickets, `vip` resolved and urgent (216 tickets) by update time took 3.5 ms
 * against 14–17 ms walking (30–61 ms under load), closed and high (1,188) 10 against 14–17; past a
 * few thousand the walk wins (`vip` and low, 2,974: 19 against 5.6).
 */
export const FEW_TAGGED = 1_000;

/**
 * A tag on more tickets than this has its rows scanned too long to find a few (index-only, about
 * 0.15 µs a row: `vpn` on 50,000 took 7 ms, where the walk took 10–13; `billing` on 200,000 would take 30).
 */
const FEW_TAGGED_SCANNED = 60_000;

/**
 * The exact count of a staff list under a tag and its status, priority or the unassigned, read first
 * (`counted`, the maintained counters) where the list's order is one the tag's rows do not carry, and
 * with it, when they are few (FEW_TAGGED), those tickets as a condition for findTicketPage's `few`.
 * Undefined where the list is read as before: another order (taggedRowsOf), a rare tag (its own
 * index), a named agent's (their own index), or filters the rows do not copy.
 */
export async function fewTaggedOf(
  scope: TicketScope,
  filters: ConditionFilters,
  sort: TicketQuery['sort'],
  counted: () => Promise<number>,
): Promise<{ total: number; few?: SQL } | undefined> {
  const answerable = rowsAnswer(scope, filters);
  if (!answerable || sortsOffMatches(sort) || typeof scope.assignedAgentId === 'number') return undefined;
  const { tag, tagged } = answerable;
  if (tagSpreadOf(tagged) === 'rare' || tagged > FEW_TAGGED_SCANNED || !narrowedByCopies(scope, filters)) return undefined;
  const total = await counted();
  if (total > FEW_TAGGED) return { total };
  return { total, few: sql`${tickets.id} in (select r.ticket_id from ${tagRows(tag, scope, filters)} as r)` };
}

/** A tag's rows of ticket_tags under a list's status, priority and assignee, as a subquery. */
export function tagRows(tag: string, scope: TicketScope, filters: Pick<ConditionFilters, 'status' | 'priority'>): SQL {
  const where = and(
    eq(ticketTags.tag, tag),
    filters.status !== undefined ? eq(ticketTags.status, filters.status) : undefined,
    filters.priority !== undefined ? eq(ticketTags.priority, filters.priority) : undefined,
    // 0 is the unassigned, as the triggers keep them.
    scope.assignedAgentId !== undefined ? eq(ticketTags.agentId, scope.assignedAgentId ?? 0) : undefined,
  );
  return sql`(select ${ticketTags.ticketId}, ${ticketTags.status}, ${ticketTags.priority}, ${ticketTags.createdAt} from ${ticketTags} where ${where})`;
}
