import type { BulkChanges, CreateViewBody, UpdateViewBody } from '@helpdesk/protocol';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { queueApi } from '../../api/queue';
import { staffDirectoryQuery } from '../../api/users';
import { tagsChanged } from '../../api/tagSuggestions';
import { bulkSaved } from '../../api/ticketCache';
import { timed } from '../../api/readTimes';
import { notifyError, notifySuccess } from '../../lib/notify';

export const viewsQuery = queryOptions({ queryKey: queryKeys.queue.views, queryFn: ({ signal }) => queueApi.views(signal) });
/**
 * Every view's count in one request, on load and after a reconnect (which invalidates it); events keep
 * it (api/viewCountCache.ts), so it never goes stale by age, on a remount or a refocused window.
 * Timed, so an event announced before the read began (a late one) is known to be in it already.
 */
export const viewCountsQuery = queryOptions({
  queryKey: queryKeys.queue.viewCounts,
  queryFn: timed(({ signal }) => queueApi.viewCounts(signal)),
  staleTime: Number.POSITIVE_INFINITY,
  refetchOnWindowFocus: false,
});

export { staffDirectoryQuery };
export const useAssignableStaff = () => useQuery(staffDirectoryQuery);
export const useViews = () => useQuery(viewsQuery);
export const useViewCounts = () => useQuery(viewCountsQuery);

export const VIEW_SAVE_FAILED = 'Failed to save the view';

/** Views and their counts are read again after any change to the list of views. */
export function useViewMutations() {
  const client = useQueryClient();
  const settled = () => client.invalidateQueries({ queryKey: queryKeys.queue.views });
  const create = useMutation({
    mutationFn: (body: Partial<CreateViewBody> & { name: string }) => queueApi.createView(body),
    onSuccess: ({ view }) => notifySuccess(`View "${view.name}" saved`),
    onError: () => notifyError(VIEW_SAVE_FAILED),
    onSettled: settled,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateViewBody }) => queueApi.updateView(id, body),
    onError: () => notifyError(VIEW_SAVE_FAILED),
    onSettled: settled,
  });
  const remove = useMutation({
    mutationFn: (id: number) => queueApi.removeView(id),
    onSuccess: ({ message }) => notifySuccess(message),
    onError: () => notifyError('Failed to delete the view'),
    onSettled: settled,
  });
  return { create, update, remove };
}

/** The bulk bar's call: changed rows are written through the ticket cache; the rest follows the socket's echoes. */
export function useBulkUpdate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, changes }: { ids: number[]; changes: BulkChanges }) => queueApi.bulk(ids, changes),
    onSuccess: ({ updated }, { changes }) => {
      void bulkSaved(client, updated);
      if (changes.addTags || changes.removeTags) void tagsChanged(client);
    },
  });
}
