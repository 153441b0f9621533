import { QueryClient, type QueryExecuteOptions, type QueryKey } from '@tanstack/react-query';
import { statusOf } from './ApiError';

/** Retries only what may pass on a second try: no answer, or a server error. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failures, error) => {
          const status = statusOf(error);
          return failures < 2 && (status === undefined || status >= 500);
        },
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Starts a read a page is about to make, unless the cache has it already (as usePrefetchQuery does):
 * the page's own query, under the same key, takes over the answer or the failure.
 */
export function readEarly<T, K extends QueryKey>(client: QueryClient, options: QueryExecuteOptions<T, Error, T, T, K>): void {
  if (!client.getQueryState(options.queryKey)) client.query(options).catch(() => undefined);
}
