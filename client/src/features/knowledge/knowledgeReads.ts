import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { knowledgeApi } from '../../api/knowledge';
import { readEarly } from '../../api/queryClient';
import { queryKeys } from '../../api/queryKeys';
import { articleListParams, parseFilters, type KnowledgeFilters } from './filters';

/** One page of the article list for the filters in the address. */
export function articleListQuery(filters: KnowledgeFilters) {
  const params = articleListParams(filters);
  return queryOptions({ queryKey: queryKeys.knowledge.list(params), queryFn: ({ signal }) => knowledgeApi.list(params, signal) });
}

/** What the knowledge base reads first: the article page its address asks for. */
export function readKnowledgeList({ client, search }: { client: QueryClient; search: string }): void {
  readEarly(client, articleListQuery(parseFilters(search)));
}
