import type { TicketFilters, TicketQuery } from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { readEarly } from '../../api/queryClient';
import { ticketQueries } from '../../api/ticketQueries';
import { staffDirectoryQuery, viewCountsQuery, viewsQuery } from './queueData';

// Apart from queries.ts, which parses the address with the protocol's zod schemas: this module
// loads with the boot code (routing/routes.tsx), and zod stays off the first visit.

/** The count cards show every ticket the agent may see, whatever the table's filters. */
export const ALL_TICKETS: TicketFilters = {};

/** What the agent dashboard reads first, for the table's query as it will first render. */
export function readAgentDashboard(client: QueryClient, ticketQuery: TicketQuery): void {
  readEarly(client, ticketQueries.stats(ALL_TICKETS));
  readEarly(client, ticketQueries.list(ticketQuery));
  readEarly(client, staffDirectoryQuery);
  readEarly(client, viewsQuery);
  readEarly(client, viewCountsQuery);
}
