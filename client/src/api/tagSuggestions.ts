import { TAG_PATTERN } from '@helpdesk/protocol';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { deskApi } from './desk';
import { queryKeys } from './queryKeys';

/** The tags in use, most used first, for every tag box of the desk (side panel, filters, bulk bar). */
export function useTagSuggestions(enabled = true): string[] {
  const read = useQuery({
    queryKey: queryKeys.desk.tags,
    queryFn: ({ signal }) => deskApi.tags(signal),
    enabled,
    staleTime: 60_000,
  });
  return read.data?.tags.map((t) => t.tag) ?? [];
}

/** Tags as typed, as the server stores them: trimmed, lower-cased, each once, only valid ones. */
export const normalTags = (tags: readonly string[]): string[] => [
  ...new Set(tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => TAG_PATTERN.test(tag))),
];

/** A write that set tags changes which are in use: the suggestions are read again when next shown. */
export const tagsChanged = (client: QueryClient): Promise<void> => client.invalidateQueries({ queryKey: queryKeys.desk.tags });
