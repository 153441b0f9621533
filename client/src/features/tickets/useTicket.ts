import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ticketKeys, ticketOpened } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';

/**
 * One ticket with its comments and history, read through the detail key that socket events patch,
 * so status, timeline and comments change live. `removed` turns true when the cached ticket is
 * dropped because it was deleted (a `ticket-changed` "deleted" event removes the query).
 */
export function useTicket(id: number) {
  const queryKey = ticketKeys.detail(id);
  const client = useQueryClient();
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const answer = await ticketsApi.get(id, signal);
      // Reading a ticket marks it read for staff on the server; the list rows follow.
      ticketOpened(client, id);
      return answer;
    },
  });
  const removed = useRemovedFromCache(queryKey);
  return { ...query, ticket: query.data?.ticket, removed };
}

function useRemovedFromCache(queryKey: readonly unknown[]): boolean {
  const client = useQueryClient();
  const hash = hashKey(queryKey);
  // Remember which key was removed, so opening another ticket starts afresh.
  const [removedHash, setRemovedHash] = useState<string | null>(null);
  useEffect(
    () =>
      client.getQueryCache().subscribe((event) => {
        if (event.type === 'removed' && event.query.queryHash === hash) setRemovedHash(hash);
      }),
    [client, hash],
  );
  return removedHash === hash;
}
