import { changeTicketQuery, type TicketFilters, type TicketQuery } from '@helpdesk/protocol';
import { atom } from 'jotai';
import { agentQueryAtom } from '../../state/agentQuery';

/** Any change but to the page itself goes back to page 1. */
export const changeAgentQueryAtom = atom(null, (get, set, change: Partial<TicketQuery>) => {
  set(agentQueryAtom, changeTicketQuery(get(agentQueryAtom), change));
});

/** One part of the query, set as given: no return to page 1. */
const partOf = <T>(read: (query: TicketQuery) => T, write: (query: TicketQuery, value: T) => TicketQuery) =>
  atom(
    (get) => read(get(agentQueryAtom)),
    (get, set, value: T) => {
      set(agentQueryAtom, write(get(agentQueryAtom), value));
    },
  );

export const EMPTY_AGENT_FILTERS: TicketFilters = {};
export const agentFiltersAtom = partOf<TicketFilters>(
  ({ status, priority, category, search, assignee, tag, requester, sla }) => ({
    status,
    priority,
    category,
    search,
    assignee,
    tag,
    requester,
    sla,
  }),
  ({ sort, page, limit }, filters) => ({ ...filters, sort, page, limit }),
);
export const agentPageAtom = partOf(
  (query) => query.page,
  (query, page) => ({ ...query, page }),
);
export const agentPageSizeAtom = partOf(
  (query) => query.limit,
  (query, limit) => ({ ...query, limit }),
);
