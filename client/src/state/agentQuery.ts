import { DEFAULT_TICKET_QUERY, type TicketQuery } from '@helpdesk/protocol';
import { sessionScopedAtom } from './sessionScopedAtom';

// An atom rather than component state, so the agent finds the table as they left it after opening a
// ticket and coming back; scoped to the session, so the next account starts from a clean table.
// The dashboard (features/queue/filters.ts) changes it; the ticket page's j/k shortcuts and the
// route's early read follow it.
export const agentQueryAtom = sessionScopedAtom<TicketQuery>(DEFAULT_TICKET_QUERY);
