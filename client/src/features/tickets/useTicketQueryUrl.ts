import { changeTicketQuery, ticketQueryFromUrl, ticketQueryToUrl, type TicketQuery } from '@helpdesk/protocol';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

/**
 * A list's query kept in the page's address, so a reload, a link or Back returns to the same view.
 * Any change but to the page itself goes back to page 1.
 */
export function useTicketQueryUrl(pageSizes: readonly number[]): [TicketQuery, (change: Partial<TicketQuery>) => void] {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const query = useMemo(() => ticketQueryFromUrl(search, pageSizes), [search, pageSizes]);
  const change = useCallback(
    (change: Partial<TicketQuery>) => {
      const text = ticketQueryToUrl(changeTicketQuery(query, change));
      navigate(text ? `${path}?${text}` : path, { replace: true });
    },
    [query, path, navigate],
  );
  return [query, change];
}
