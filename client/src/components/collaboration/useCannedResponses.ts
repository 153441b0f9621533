import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { queueApi } from '../../api/queue';

/** The canned responses the signed-in staff member sees: the picker's and the management page's list. */
export function useCannedResponses() {
  return useQuery({ queryKey: queryKeys.queue.canned, queryFn: ({ signal }) => queueApi.cannedResponses(signal) });
}
