import { hasTicketFilters, type TicketFilters } from '@helpdesk/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { ticketKeys } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { useLastPageWhenShrunk } from '../../lib/paging';
import { agentPageAtom, agentQueryAtom } from './filters';

/** The count cards show every ticket the agent may see, whatever the table's filters. */
const ALL_TICKETS: TicketFilters = {};

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
  const ticketQuery = useAtomValue(agentQueryAtom);
  const setPage = useSetAtom(agentPageAtom);
  const query = useQuery({
    queryKey: ticketKeys.list(ticketQuery),
    queryFn: ({ signal }) => ticketsApi.list(ticketQuery, signal),
    placeholderData: keepPreviousData,
  });

  useLastPageWhenShrunk(query.isPlaceholderData ? undefined : query.data?.total, ticketQuery.page, ticketQuery.limit, setPage);

  return { query, ticketQuery, filtered: hasTicketFilters(ticketQuery) };
}
