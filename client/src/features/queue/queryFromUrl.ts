import { LIMITS, ticketQueryFromUrl, type TicketQuery } from '@helpdesk/protocol';

/** The agent table's query from an address (loaded on demand by queries.ts, with zod). */
export const agentQueryFromUrl = (search: string): TicketQuery => ticketQueryFromUrl(search, LIMITS.ticketPage.agentOptions);
