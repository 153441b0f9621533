import { DEFAULT_TICKET_QUERY, LIMITS, type TicketQuery } from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { readEarly } from '../../api/queryClient';
import { ALL_TICKETS, ticketQueries } from '../../api/ticketQueries';

export const RECENT_TICKETS: TicketQuery = { ...DEFAULT_TICKET_QUERY, limit: LIMITS.recentTickets };

/** What the user dashboard reads first: its counts and the newest tickets. */
export function readUserDashboard({ client }: { client: QueryClient }): void {
  readEarly(client, ticketQueries.stats(ALL_TICKETS));
  readEarly(client, ticketQueries.list(RECENT_TICKETS));
}
