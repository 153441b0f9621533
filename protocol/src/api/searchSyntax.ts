import { CATEGORIES, PRIORITIES, TICKET_STATUSES, normalizeStatus, type Category, type Priority, type TicketStatus } from '../enums.js';
import { assigneeOf, type TicketAssignee, type TicketFilters } from './ticketQuery.js';
import type { SlaFilter } from './sla.js';

/**
 * The queue's search box: `status:`, `priority:`, `assignee:me|none|<email>`, `requester:<email or
 * name>`, `tag:`, `category:`, `is:unread` and free words (docs/api.md#search-syntax). The client
 * turns the parsed filters into chips and the server reads `search=` with the same parser, so a
 * query means one thing on both sides. Nothing is dropped silently: a term the parser cannot use
 * as a filter (an unknown key, a value it does not know, a key given twice) is searched as text,
 * and says why so the chip can show it.
 */
export const SEARCH_KEYS = ['status', 'priority', 'assignee', 'requester', 'tag', 'category', 'is'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];

/** A tag: 1–40 letters, digits, `-` or `_`, compared lower-cased. */
export const TAG_PATTERN = /^[\p{L}\p{N}_-]{1,40}$/u;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

export interface SearchFilters {
  status?: TicketStatus;
  priority?: Priority;
  /** `me`, `none`, or a staff member's email. */
  assignee?: string;
  /** An email (matched whole) or a name (matched whole or by its start), case ignored. */
  requester?: string;
  tag?: string;
  category?: Category;
  unread?: true;
}

export type SearchTerm =
  | { kind: 'filter'; key: SearchKey; value: string; raw: string }
  | { kind: 'text'; value: string; raw: string; reason?: 'unknown-key' | 'unknown-value' | 'repeated' };

export interface ParsedSearch {
  terms: SearchTerm[];
  filters: SearchFilters;
  /** The free words (and terms searched as text), joined by single spaces. */
  text: string;
}

/** Splits on white space; double quotes group words, in a value (`requester:"Ann Lee"`) or alone. */
function tokens(input: string): string[] {
  return input.match(/(?:[^\s"]+|"[^"]*"?)+/g) ?? [];
}
const unquote = (text: string): string => text.replace(/"/g, '').trim();

/** The filter value a key's raw value stands for, or undefined when the key cannot take it. */
function valueOf(key: SearchKey, raw: string): string | undefined {
  const value = raw.toLowerCase();
  switch (key) {
    case 'status': {
      const status = normalizeStatus(value);
      return (TICKET_STATUSES as readonly unknown[]).includes(status) ? (status as string) : undefined;
    }
    case 'priority':
      return (PRIORITIES as readonly string[]).includes(value) ? value : undefined;
    case 'category':
      return (CATEGORIES as readonly string[]).includes(value) ? value : undefined;
    case 'assignee':
      return value === 'me' || value === 'none' || EMAIL_SHAPE.test(value) ? value : undefined;
    case 'requester':
      return value || undefined;
    case 'tag':
      return TAG_PATTERN.test(value) ? value : undefined;
    case 'is':
      return value === 'unread' ? value : undefined;
  }
}

function termOf(token: string, used: ReadonlySet<SearchKey>): SearchTerm {
  const match = /^([a-z]+):(.+)$/i.exec(token);
  if (!match) return { kind: 'text', value: unquote(token), raw: token };
  const [, name = '', rawValue = ''] = match;
  const key = name.toLowerCase();
  if (!(SEARCH_KEYS as readonly string[]).includes(key)) return { kind: 'text', value: unquote(token), raw: token, reason: 'unknown-key' };
  const value = valueOf(key as SearchKey, unquote(rawValue));
  if (value === undefined) return { kind: 'text', value: unquote(token), raw: token, reason: 'unknown-value' };
  if (used.has(key as SearchKey)) return { kind: 'text', value: unquote(token), raw: token, reason: 'repeated' };
  return { kind: 'filter', key: key as SearchKey, value, raw: token };
}

function filtersOf(terms: readonly SearchTerm[]): SearchFilters {
  const filters: SearchFilters = {};
  for (const term of terms) {
    if (term.kind !== 'filter') continue;
    if (term.key === 'is') filters.unread = true;
    else if (term.key === 'status') filters.status = term.value as TicketStatus;
    else if (term.key === 'priority') filters.priority = term.value as Priority;
    else if (term.key === 'category') filters.category = term.value as Category;
    else filters[term.key] = term.value;
  }
  return filters;
}

export function parseSearch(input: string): ParsedSearch {
  const used = new Set<SearchKey>();
  const read = tokens(input).map((token) => {
    const term = termOf(token, used);
    if (term.kind === 'filter') used.add(term.key);
    return term;
  });
  const terms = read.filter((term) => term.value !== '');
  const words = terms
    .filter((term) => term.kind === 'text')
    .map((term) => term.value)
    .join(' ');
  // Empty quotes still ask for text: a search with no word in it, which matches no ticket.
  const text =
    words ||
    read
      .filter((term) => term.kind === 'text')
      .map((term) => term.raw)
      .join(' ');
  return { terms, filters: filtersOf(terms), text };
}

/** The box's text without the term at `index`: removing a chip. */
export const searchWithout = (parsed: ParsedSearch, index: number): string =>
  parsed.terms
    .filter((_, i) => i !== index)
    .map((term) => term.raw)
    .join(' ');

/**
 * What a list's filters mean once `search` is read with the syntax above: the explicit query
 * parameters win over the same key written in the text, and only the remaining words are searched
 * as text (docs/api.md#search-syntax). The server's SQL and the shared predicate both start here.
 */
export interface EffectiveFilters {
  status?: TicketStatus;
  priority?: Priority;
  category?: Category;
  /** `me`, `none` or a staff member's id. */
  assignee?: TicketAssignee;
  /** `assignee:<email>` of the text, for the server to resolve to a staff member. */
  assigneeEmail?: string;
  tag?: string;
  requester?: string;
  unread?: true;
  /** Staff's SLA state filter (`sla=`); the search box has no term for it. */
  sla?: SlaFilter;
  /** The words searched in title and description; undefined when there are none. */
  text?: string;
}

export function effectiveFilters(filters: TicketFilters): EffectiveFilters {
  const parsed = filters.search ? parseSearch(filters.search) : undefined;
  const typed = parsed?.filters ?? {};
  const explicitAssignee = assigneeOf(filters);
  const typedAssignee = typed.assignee === 'me' || typed.assignee === 'none' ? typed.assignee : undefined;
  const effective: EffectiveFilters = {
    status: filters.status ?? typed.status,
    priority: filters.priority ?? typed.priority,
    category: filters.category ?? typed.category,
    assignee: explicitAssignee ?? typedAssignee,
    assigneeEmail: explicitAssignee === undefined && typedAssignee === undefined ? typed.assignee : undefined,
    tag: filters.tag ?? typed.tag,
    requester: filters.requester ?? typed.requester,
    unread: typed.unread,
    sla: filters.sla,
    text: parsed?.text || undefined,
  };
  return Object.fromEntries(Object.entries(effective).filter(([, v]) => v !== undefined));
}
