import type { TicketFilters, TicketQuery } from '@helpdesk/protocol';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { timed } from './readTimes';
import { ticketKeys, ticketOpened, withRecentChanges } from './ticketCache';
import { ticketsApi } from './tickets';

/** The count cards count every ticket the caller may see, whatever a table's filters. */
export const ALL_TICKETS: TicketFilters = {};

/**
 * The ticket reads as query options: the pages' hooks and the first visit's early reads
 * (routing/routes.tsx) use the same ones, so an early answer is the one the page asks for. Each
 * remembers when the server began its answer (readTimes.ts): an event announced before that is not
 * applied to it again, and one that came while it was on its way is added to it.
 */
export const ticketQueries = {
  stats: (filters: TicketFilters) =>
    queryOptions({ queryKey: ticketKeys.statsFor(filters), queryFn: timed(({ signal }) => ticketsApi.stats(filters, signal)) }),
  list: (query: TicketQuery) =>
    queryOptions({ queryKey: ticketKeys.list(query), queryFn: timed(({ signal }) => ticketsApi.list(query, signal), withRecentChanges) }),
  detail: (client: QueryClient, id: number) =>
    queryOptions({
      queryKey: ticketKeys.detail(id),
      queryFn: timed(async ({ signal }) => {
        const answer = await ticketsApi.get(id, signal);
        // Reading a ticket marks it read for staff on the server; the list rows follow.
        ticketOpened(client, id);
        return answer;
      }, withRecentChanges),
    }),
};
