import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useAtom, useAtomValue } from 'jotai';
import { ticketKeys } from '../../api/ticketCache';
import { ticketsApi, type TicketListParams } from '../../api/tickets';
import { SEARCH_DEBOUNCE_MS, useLastPageWhenShrunk } from '../../lib/paging';
import { agentFiltersAtom, agentPageAtom, agentPageSizeAtom } from './filters';

/** The count cards show every ticket the agent may see, whatever the table's filters. */
const ALL_TICKETS = {};

export function useAgentStats() {
  return useQuery({
    queryKey: ticketKeys.statsFor(ALL_TICKETS),
    queryFn: ({ signal }) => ticketsApi.stats(ALL_TICKETS, signal),
  });
}

/**
 * One page of the agent table, filtered and paged by the server. The previous page stays on screen
 * while the next loads, so the table does not flash empty between pages or keystrokes.
 */
export function useAgentTicketPage() {
  const filters = useAtomValue(agentFiltersAtom);
  const [page, setPage] = useAtom(agentPageAtom);
  const limit = useAtomValue(agentPageSizeAtom);
  const [search] = useDebouncedValue(filters.search.trim(), SEARCH_DEBOUNCE_MS);
  const params: TicketListParams = { status: filters.status, priority: filters.priority, search, page, limit };
  const query = useQuery({
    queryKey: ticketKeys.list(params),
    queryFn: ({ signal }) => ticketsApi.list(params, signal),
    placeholderData: keepPreviousData,
  });

  useLastPageWhenShrunk(query.isPlaceholderData ? undefined : query.data?.total, page, limit, setPage);

  return { query, page, limit, filtered: Boolean(search || filters.status || filters.priority) };
}
