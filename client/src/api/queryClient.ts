import { QueryClient } from '@tanstack/react-query';
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
