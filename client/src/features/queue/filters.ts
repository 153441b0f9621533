import { LIMITS, type Priority, type TicketStatus } from '@helpdesk/protocol';
import { atom } from 'jotai';
import { sessionScopedAtom } from '../../state/sessionScopedAtom';

export interface AgentFilters {
  /** As typed; the table asks the server with a debounced copy. */
  search: string;
  status: TicketStatus | '';
  priority: Priority | '';
}

export const EMPTY_AGENT_FILTERS: AgentFilters = { search: '', status: '', priority: '' };

// Atoms rather than component state, so the agent finds the table as they left it after opening a
// ticket and coming back; scoped to the session, so the next account starts from a clean table.
export const agentFiltersAtom = sessionScopedAtom<AgentFilters>(EMPTY_AGENT_FILTERS);
export const agentPageAtom = sessionScopedAtom(1);
export const agentPageSizeAtom = sessionScopedAtom<number>(LIMITS.ticketPage.default);

/** SPEC §2: any filter change goes back to the first page. */
export const changeAgentFilterAtom = atom(null, (get, set, change: Partial<AgentFilters>) => {
  set(agentFiltersAtom, { ...get(agentFiltersAtom), ...change });
  set(agentPageAtom, 1);
});

export const clearAgentFiltersAtom = atom(null, (_get, set) => {
  set(agentFiltersAtom, EMPTY_AGENT_FILTERS);
  set(agentPageAtom, 1);
});

/** A new page size re-cuts the pages, so the old page number means nothing any more. */
export const changeAgentPageSizeAtom = atom(null, (_get, set, size: number) => {
  set(agentPageSizeAtom, size);
  set(agentPageAtom, 1);
});

export const hasAgentFilters = (filters: AgentFilters): boolean => Boolean(filters.search.trim() || filters.status || filters.priority);
