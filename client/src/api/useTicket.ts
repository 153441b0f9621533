import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ticketQueries } from './ticketQueries';

/**
 * One ticket with its comments and history, read through the detail key that socket events patch,
 * so status, timeline and comments change live. `removed` turns true when the cached ticket is
 * dropped because it was deleted (a `ticket-changed` "deleted" event removes the query).
 */
export function useTicket(id: number) {
  const client = useQueryClient();
  const options = ticketQueries.detail(client, id);
  const query = useQuery(options);
  const removed = useRemovedFromCache(options.queryKey);
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
