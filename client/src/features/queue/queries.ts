import { hasTicketFilters, ticketQueryToUrl } from '@helpdesk/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ALL_TICKETS, ticketQueries } from '../../api/ticketQueries';
import { useLastPageWhenShrunk } from '../../lib/paging';
import { agentQueryAtom } from '../../state/agentQuery';
import { agentPageAtom } from './filters';

export const useAgentStats = () => useQuery(ticketQueries.stats(ALL_TICKETS));

/**
 * One page of the agent table, filtered and paged by the server. The previous page stays on screen
 * while the next loads, so the table does not flash empty between pages or keystrokes.
 */
export function useAgentTicketPage() {
  const ticketQuery = useAtomValue(agentQueryAtom);
  const setPage = useSetAtom(agentPageAtom);
  useQueryInUrl();
  const query = useQuery({ ...ticketQueries.list(ticketQuery), placeholderData: keepPreviousData });

  useLastPageWhenShrunk(query.isPlaceholderData ? undefined : query.data?.total, ticketQuery.page, ticketQuery.limit, setPage);

  return { query, ticketQuery, filtered: hasTicketFilters(ticketQuery) };
}

/**
 * The table's query also lives in the address, so a link or Back shows the same filters and sort. The
 * atom keeps it while the agent is away (a plain /agent-dashboard link restores it); the address wins
 * when it changed by itself (a link, Back, Forward), the atom when the screen changed it. An address
 * this hook wrote is never read back: when the screen changes the query twice before the first write
 * shows in the address (a search settling as a filter is picked), that first address is older than
 * the atom, and reading it back dropped the second change.
 */
export function useQueryInUrl() {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const [stored, setStored] = useAtom(agentQueryAtom);
  const seen = useRef<string | null>(null);
  const written = useRef(new Set<string>());
  useEffect(() => {
    const text = ticketQueryToUrl(stored);
    const previous = seen.current;
    seen.current = search;
    if (search === text) {
      written.current.clear();
      return;
    }
    const addressMoved = previous === null ? search !== '' : previous !== search && !written.current.has(search);
    if (!addressMoved) {
      written.current.add(text);
      navigate(text ? `${path}?${text}` : path, { replace: true });
      return;
    }
    written.current.clear();
    // The address is read with the protocol's zod schemas, loaded only when there is one to read:
    // the dashboard's first paint does without them. An address that moved on meanwhile is read next.
    void import('./queryFromUrl').then(({ agentQueryFromUrl }) => {
      if (seen.current === search) setStored(agentQueryFromUrl(search));
    });
  }, [search, stored, path, navigate, setStored]);
}
