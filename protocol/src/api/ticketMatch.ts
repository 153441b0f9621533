import { normalizeStatus } from '../enums.js';
import type { Ticket } from '../entities.js';
import type { TicketPrevious } from '../events.js';
import { effectiveFilters } from './searchSyntax.js';
import type { TicketFilters } from './ticketQuery.js';

/** What a filter looks at in a ticket. */
export type FilterableTicket = Pick<Ticket, 'title' | 'description' | 'status' | 'priority' | 'assignedAgent' | 'tags'>;

/**
 * PostgreSQL's lower(), which folds one character at a time: JavaScript's full mapping would turn
 * `İ` into two characters and a word-final `Σ` into `ς`, so those two take their one-to-one form first.
 */
export const foldCase = (text: string): string =>
  text
    .replace(/\u0130/g, 'i')
    .replace(/\u03a3/g, '\u03c3')
    .toLowerCase();

/** The server's search haystack: title and description joined by a space (migration 0009's `search_text`). */
const searchTextOf = (ticket: FilterableTicket): string => foldCase(`${ticket.title} ${ticket.description}`);

/**
 * Does this ticket match these list filters, as the server's query would answer: the same status
 * (the `in-progress` spelling included), priority, assignee (`me` is `viewerId`, `none` unassigned),
 * tag, and a case-insensitive substring of title + description for the search's free words, the
 * search's `key:value` terms read as the server reads them (effectiveFilters). Server and client
 * both ask it, so a saved view's count moves on the client exactly as the server would count it; a
 * server test checks it against the SQL (server/src/routes/ticketMatch.test.ts). What a ticket does
 * not carry (`requester:`, `assignee:<email>`, `is:unread`) is not judged here: a view with those
 * has a search, and searched views are counted by the server.
 */
export function ticketMatchesFilters(ticket: FilterableTicket, filters: TicketFilters, viewerId: number | null): boolean {
  const wanted = effectiveFilters(filters);
  const status = normalizeStatus(wanted.status);
  if (status && ticket.status !== status) return false;
  if (wanted.priority && ticket.priority !== wanted.priority) return false;
  if (wanted.tag && !(ticket.tags ?? []).includes(wanted.tag)) return false;
  const assignee = wanted.assignee;
  if (assignee !== undefined) {
    const agentId = ticket.assignedAgent?.id ?? null;
    if (assignee === 'none' ? agentId !== null : agentId === null || agentId !== (assignee === 'me' ? viewerId : assignee)) return false;
  }
  return !wanted.text || searchTextOf(ticket).includes(foldCase(wanted.text));
}

/**
 * How a change moves the count of tickets matching the filters: −1, 0 or +1. `before` is absent for
 * a new ticket, `after` for a deleted one.
 */
export function countMove(
  filters: TicketFilters,
  viewerId: number | null,
  before: FilterableTicket | undefined,
  after: FilterableTicket | undefined,
): -1 | 0 | 1 {
  const was = before !== undefined && ticketMatchesFilters(before, filters, viewerId);
  const is = after !== undefined && ticketMatchesFilters(after, filters, viewerId);
  return was === is ? 0 : is ? 1 : -1;
}

/** What a change event says about the ticket: a `ticket-changed` event, or the domain event behind it. */
export type TicketChange =
  | { action: 'created'; ticket: Ticket }
  | { action: 'updated'; ticket: Ticket; previous: TicketPrevious }
  | { action: 'deleted'; previous: Ticket };

/** The ticket before and after a change, as far as the event tells: `previous` holds the fields it changed. */
export function ticketStatesOf(change: TicketChange): { before?: Ticket; after?: Ticket } {
  if (change.action === 'created') return { after: change.ticket };
  if (change.action === 'deleted') return { before: change.previous };
  return { before: { ...change.ticket, ...change.previous }, after: change.ticket };
}
