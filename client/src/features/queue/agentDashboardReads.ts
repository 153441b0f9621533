import type { TicketQuery } from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { readEarly } from '../../api/queryClient';
import { ALL_TICKETS, ticketQueries } from '../../api/ticketQueries';
import { staffDirectoryQuery, viewCountsQuery, viewsQuery } from './queueData';

// Apart from the page's hooks (queries.ts): this module loads with the boot code (routing/routes.tsx)
// and must stay free of zod and Mantine.

/** What the agent dashboard reads first, for the table's query as it will first render. */
export function readAgentDashboard(client: QueryClient, ticketQuery: TicketQuery): void {
  readEarly(client, ticketQueries.stats(ALL_TICKETS));
  readEarly(client, ticketQueries.list(ticketQuery));
  readEarly(client, staffDirectoryQuery);
  readEarly(client, viewsQuery);
  readEarly(client, viewCountsQuery);
}
