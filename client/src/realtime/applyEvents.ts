import type { Article, ArticleListResponse, ArticleResponse, HelpfulCountEvent } from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/queryKeys';

/** Ticket events are written by api/ticketCache.ts and api/viewCountCache.ts; this is the knowledge base's one live count. */
export function applyHelpfulCount(client: QueryClient, { articleId, helpfulCount }: HelpfulCountEvent): void {
  const update = (article: Article) => (article.id === articleId ? { ...article, helpfulCount } : article);
  client.setQueriesData<ArticleListResponse>(
    { queryKey: queryKeys.knowledge.lists },
    (list) => list && { ...list, data: { ...list.data, articles: list.data.articles.map(update) } },
  );
  client.setQueryData<ArticleResponse>(
    queryKeys.knowledge.detail(articleId),
    (detail) => detail && { ...detail, article: update(detail.article) },
  );
}
