import { LIMITS, PRIORITIES, TICKET_STATUSES, type Priority, type TicketStatus } from '@helpdesk/protocol';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TicketListParams } from '../../api/tickets';

/** Sort choices of the tickets page and the API's `sort` value for each (CONTRACT §4). */
export const SORT_OPTIONS = [
  { value: '-createdAt', label: 'Newest' },
  { value: 'createdAt', label: 'Oldest' },
  { value: '-updatedAt', label: 'Recently updated' },
  { value: '-priority', label: 'Priority' },
] as const;
export type SortValue = (typeof SORT_OPTIONS)[number]['value'];
const DEFAULT_SORT: SortValue = '-createdAt';

export const PAGE_SIZES: readonly number[] = LIMITS.ticketPage.genericOptions;
const DEFAULT_LIMIT: number = LIMITS.ticketPage.default;

export interface ListState {
  search: string;
  status: TicketStatus | '';
  priority: Priority | '';
  sort: SortValue;
  page: number;
  limit: number;
}
export const DEFAULT_LIST_STATE: ListState = { search: '', status: '', priority: '', sort: DEFAULT_SORT, page: 1, limit: DEFAULT_LIMIT };

const oneOf = <T extends string>(options: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (options as readonly string[]).includes(value) ? (value as T) : fallback;

/** Reads the list state from a query string; anything unknown falls back to the default. */
export function parseListState(query: string): ListState {
  const params = new URLSearchParams(query);
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  return {
    search: (params.get('search') ?? '').trim(),
    status: oneOf<TicketStatus | ''>(TICKET_STATUSES, params.get('status'), ''),
    priority: oneOf<Priority | ''>(PRIORITIES, params.get('priority'), ''),
    sort: oneOf(
      SORT_OPTIONS.map((o) => o.value),
      params.get('sort'),
      DEFAULT_SORT,
    ),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    limit: PAGE_SIZES.includes(limit) ? limit : DEFAULT_LIMIT,
  };
}

/** Writes only what differs from the defaults, so a plain list keeps a plain URL. */
export function formatListState(state: ListState): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(DEFAULT_LIST_STATE) as (keyof ListState)[]) {
    if (state[key] !== DEFAULT_LIST_STATE[key]) params.set(key, String(state[key]));
  }
  return params.toString();
}

export const hasFilters = (state: ListState): boolean => Boolean(state.search || state.status || state.priority);

/** What the API is asked for: the state minus empty filters. */
export function toListParams({ search, status, priority, sort, page, limit }: ListState): TicketListParams {
  return { ...(search && { search }), ...(status && { status }), ...(priority && { priority }), sort, page, limit };
}

/**
 * The tickets page's filters, sort and paging, kept in the query string so a reload or Back
 * returns to the same view. Any change other than the page itself returns to page 1 (SPEC §2).
 */
export function useListState(): [ListState, (change: Partial<ListState>) => void] {
  const query = useSearch();
  const [path, navigate] = useLocation();
  const state = useMemo(() => parseListState(query), [query]);
  const update = useCallback(
    (change: Partial<ListState>) => {
      const next = { ...state, ...change };
      if (change.page === undefined) next.page = 1;
      const text = formatListState(next);
      navigate(text ? `${path}?${text}` : path, { replace: true });
    },
    [state, path, navigate],
  );
  return [state, update];
}
