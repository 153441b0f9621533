import { LIMITS } from '@helpdesk/protocol';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { knowledgeApi, type ArticleListParams } from '../../api/knowledge';
import { readEarly } from '../../api/queryClient';
import { queryKeys } from '../../api/queryKeys';
import { parseFilters, type KnowledgeFilters } from './useKnowledgeFilters';

export const ARTICLE_PAGE_SIZE = LIMITS.articlePage.default;

/** One page of the article list for the filters in the address. */
export function articleListQuery({ search, category, page }: KnowledgeFilters) {
  const params: ArticleListParams = { search: search || undefined, category: category || undefined, page, limit: ARTICLE_PAGE_SIZE };
  return queryOptions({ queryKey: queryKeys.knowledge.list(params), queryFn: ({ signal }) => knowledgeApi.list(params, signal) });
}

/** What the knowledge base reads first: the article page its address asks for. */
export function readKnowledgeList({ client, search }: { client: QueryClient; search: string }): void {
  readEarly(client, articleListQuery(parseFilters(search)));
}
