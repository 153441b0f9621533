import { normalizeStatus } from '../enums.js';
import { LIMITS } from '../limits.js';
import type { Ticket } from '../entities.js';
import type { TicketPrevious } from '../events.js';
import { effectiveFilters } from './searchSyntax.js';
import type { TicketFilters } from './ticketQuery.js';

/** What a filter looks at in a ticket. */
export type FilterableTicket = Pick<
  Ticket,
  'title' | 'description' | 'status' | 'priority' | 'category' | 'assignedAgent' | 'tags' | 'sla'
>;

/**
 * PostgreSQL's lower(), which folds one character at a time: JavaScript's full mapping would turn
 * `İ` into two characters and a word-final `Σ` into `ς`, so those two take their one-to-one form first.
 */
export const foldCase = (text: string): string =>
  text
    .replace(/\u0130/g, 'i')
    .replace(/\u03a3/g, '\u03c3')
    .toLowerCase();

/**
 * What separates words, as code point ranges both sides spell the same way (migration 0010's
 * `ticket_search_words`): every ASCII character but letters and digits, Latin-1 punctuation and
 * symbols, × and ÷, the General Punctuation block (spaces, dashes, quotes) and CJK punctuation.
 * Every other character is part of a word, whatever the locale says.
 */
const SEPARATORS =
  '\\u0001-\\u002f\\u003a-\\u0040\\u005b-\\u0060\\u007b-\\u007f\\u00a0-\\u00bf\\u00d7\\u00f7\\u2000-\\u206f\\u3000-\\u303f';
/** A word is a run of other characters; one longer than `LIMITS.search.wordChunk` is cut into pieces that long. */
const WORD = new RegExp(`[^${SEPARATORS}]{1,${LIMITS.search.wordChunk}}`, 'gu');

/** The words of a text as the search index holds them: case folded, split, long ones cut (docs/api.md#ticket-search). */
export const searchWordsOf = (text: string): string[] => foldCase(text).match(WORD) ?? [];

/**
 * Does a ticket match a search: every word of the search starts a word of the title or the
 * description, case ignored, in any order. A search without a word matches nothing.
 */
export function ticketMatchesSearch(ticket: Pick<FilterableTicket, 'title' | 'description'>, search: string): boolean {
  const wanted = searchWordsOf(search);
  if (wanted.length === 0) return false;
  const words = searchWordsOf(`${ticket.title} ${ticket.description}`);
  return wanted.every((prefix) => words.some((word) => word.startsWith(prefix)));
}

/**
 * Does a `requester=` text name this requester, judged on their name: true or false for a name (whole
 * or its start, case ignored, as the server reads it), undefined for an email, which a ticket does
 * not carry (the server's call). No text: true.
 */
export function requesterNameMatches(requester: string | undefined, name: string): boolean | undefined {
  if (!requester) return true;
  if (requester.includes('@')) return undefined;
  return foldCase(name).startsWith(foldCase(requester));
}

/**
 * Does this ticket match these list filters, as the server's query would answer: the same status
 * (the `in-progress` spelling included), priority, category, assignee (`me` is `viewerId`, `none` unassigned),
 * tag, SLA state, and for the search's free words every word starting a word of the title or description, the
 * search's `key:value` terms read as the server reads them (effectiveFilters). Server and client
 * both ask it, so a saved view's count moves on the client exactly as the server would count it; a
 * server test checks it against the SQL (server/src/routes/ticketMatch.test.ts).
 *
 * What a ticket does not carry is not judged here: `requester:`, `assignee:<email>`, `is:unread`,
 * and, for staff, free words that match the requester's name or email instead of the text (the
 * server reads that off the users table, and only while the words name a few accounts;
 * docs/api.md#ticket-search). A view with any of those has a search, and searched views are counted
 * by the server; `requesterMatches` says the words matched the requester, for countMayMove.
 */
export function ticketMatchesFilters(
  ticket: FilterableTicket,
  filters: TicketFilters,
  viewerId: number | null,
  requesterMatches = false,
): boolean {
  const wanted = effectiveFilters(filters);
  const status = normalizeStatus(wanted.status);
  if (status && ticket.status !== status) return false;
  if (wanted.priority && ticket.priority !== wanted.priority) return false;
  if (wanted.category && ticket.category !== wanted.category) return false;
  if (wanted.tag && !(ticket.tags ?? []).includes(wanted.tag)) return false;
  // A ticket without a policy (or an owner's copy, which has none) is in no SLA state.
  if (wanted.sla && ticket.sla?.state !== wanted.sla) return false;
  const assignee = wanted.assignee;
  if (assignee !== undefined) {
    const agentId = ticket.assignedAgent?.id ?? null;
    if (assignee === 'none' ? agentId !== null : agentId === null || agentId !== (assignee === 'me' ? viewerId : assignee)) return false;
  }
  return !wanted.text || requesterMatches || ticketMatchesSearch(ticket, wanted.text);
}

/**
 * How a change moves the count of tickets matching the filters: −1, 0 or +1. `before` is absent for
 * a new ticket, `after` for a deleted one. Judged on the ticket's text alone (see ticketMatchesFilters).
 */
export function countMove(
  filters: TicketFilters,
  viewerId: number | null,
  before: FilterableTicket | undefined,
  after: FilterableTicket | undefined,
  requesterMatches = false,
): -1 | 0 | 1 {
  const was = before !== undefined && ticketMatchesFilters(before, filters, viewerId, requesterMatches);
  const is = after !== undefined && ticketMatchesFilters(after, filters, viewerId, requesterMatches);
  return was === is ? 0 : is ? 1 : -1;
}

/**
 * Whether a change may have moved a staff view's count, free words matching the requester included.
 * A ticket keeps its requester, so the count moved as the text says, or, when the words may name the
 * requester, as if they matched: their name starts with the words (the server's reading), or the
 * words hold an `@` and may be their email, which a ticket does not carry. The server counts such a
 * view again; a maybe costs one capped count.
 */
export function countMayMove(
  filters: TicketFilters,
  viewerId: number | null,
  before: (FilterableTicket & Partial<Pick<Ticket, 'user'>>) | undefined,
  after: (FilterableTicket & Partial<Pick<Ticket, 'user'>>) | undefined,
): boolean {
  if (countMove(filters, viewerId, before, after) !== 0) return true;
  const words = effectiveFilters(filters).text;
  const name = (after ?? before)?.user?.name;
  const mayNameRequester = words !== undefined && (words.includes('@') || name === undefined || foldCase(name).startsWith(foldCase(words)));
  return mayNameRequester && countMove(filters, viewerId, before, after, true) !== 0;
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
