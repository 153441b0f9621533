import { TICKET_SORT_FIELDS, type Category, type Priority, type TicketSortField, type TicketStatus } from '../enums.js';
import { LIMITS } from '../limits.js';
import type { SlaFilter } from './sla.js';

// The shape of a ticket list's query and its URL form, free of zod: the client's first load (the
// query cache, the socket) needs these, while the schemas that parse them load with the forms.

/**
 * Which tickets a list shows, for GET /tickets and /tickets/stats; an absent field does not filter.
 * A new filter is one field here and one each in `ticketFiltersQuery`, `paramsOf` and `hasTicketFilters`.
 */
export interface TicketFilters {
  status?: TicketStatus;
  priority?: Priority;
  category?: Category;
  search?: string;
  /** Staff: whose tickets; `me` is the caller, `none` the unassigned ones, a number that staff member. */
  assignee?: TicketAssignee;
  /** The older spelling of `assignee: 'me'` (`mine=1`), still accepted from existing clients. */
  mine?: boolean;
  /** Staff: tickets carrying this tag (lower-cased, TAG_PATTERN). */
  tag?: string;
  /** Staff: the requester's email (matched whole) or name (matched whole or by its start), case ignored. */
  requester?: string;
  /** Staff: tickets whose service level is in this state (docs/api.md#service-levels). */
  sla?: SlaFilter;
}
export type TicketAssignee = 'me' | 'none' | number;

/** `assignee`, with `mine=1` read as `me` when no assignee is given. */
export const assigneeOf = ({ assignee, mine }: TicketFilters): TicketAssignee | undefined => assignee ?? (mine ? 'me' : undefined);

export interface TicketSort {
  field: TicketSortField;
  descending: boolean;
}
/**
 * One page of a ticket list. Screens hold it, the API layer sends it, the cache keys its pages by it
 * and the server parses it back to the same shape, so a cached page's key says which rows it holds.
 */
export interface TicketQuery extends TicketFilters {
  sort: TicketSort;
  page: number;
  limit: number;
}

export const DEFAULT_TICKET_SORT: TicketSort = { field: 'createdAt', descending: true };
export const DEFAULT_TICKET_QUERY: TicketQuery = { sort: DEFAULT_TICKET_SORT, page: 1, limit: LIMITS.ticketPage.default };

/** The `sort` parameter: `-createdAt` is newest first. */
export const formatTicketSort = ({ field, descending }: TicketSort): string => (descending ? `-${field}` : field);

/** A `sort` parameter read back; absent or unknown is the default order. */
export function parseTicketSort(value: string | undefined): TicketSort {
  const field = value?.replace(/^-/, '');
  if (!value || !(TICKET_SORT_FIELDS as readonly string[]).includes(field ?? '')) return { ...DEFAULT_TICKET_SORT };
  return { field: field as TicketSortField, descending: value.startsWith('-') };
}

/** The fields that are set, as query parameters in one fixed order. */
function paramsOf(query: TicketFilters & Partial<TicketQuery>): [string, string][] {
  const params: [string, string | undefined][] = [
    ['search', query.search],
    ['status', query.status],
    ['priority', query.priority],
    ['category', query.category],
    ['assignee', assigneeOf(query)?.toString()],
    ['tag', query.tag],
    ['requester', query.requester],
    ['sla', query.sla],
    ['sort', query.sort && formatTicketSort(query.sort)],
    ['page', query.page?.toString()],
    ['limit', query.limit?.toString()],
  ];
  return params.filter((param): param is [string, string] => Boolean(param[1]));
}

/** The query of GET /tickets, or of /tickets/stats given filters alone. */
export const ticketQueryParams = (query: TicketFilters | TicketQuery): Record<string, string> => Object.fromEntries(paramsOf(query));

/** A list page's query string: only what differs from DEFAULT_TICKET_QUERY, so an unfiltered list keeps a plain address. */
export function ticketQueryToUrl(query: TicketQuery): string {
  const defaults = ticketQueryParams(DEFAULT_TICKET_QUERY);
  return new URLSearchParams(paramsOf(query).filter(([key, value]) => defaults[key] !== value)).toString();
}

/** Any change but to the page itself starts again from page 1: an old page number means nothing under new filters, sort or size. */
export const changeTicketQuery = (query: TicketQuery, change: Partial<TicketQuery>): TicketQuery => ({
  ...query,
  ...change,
  page: change.page ?? 1,
});

export const hasTicketFilters = (filters: TicketFilters): boolean =>
  Boolean(
    filters.status ||
    filters.priority ||
    filters.category ||
    filters.search ||
    filters.tag ||
    filters.requester ||
    filters.sla ||
    assigneeOf(filters) !== undefined,
  );
