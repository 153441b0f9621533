import type {
  Article,
  ArticleChangedEvent,
  ArticleListResponse,
  ArticleResponse,
  HelpfulCountEvent,
  ItemsChangedEvent,
  Stamped,
  StaffChangedEvent,
} from '@helpdesk/protocol';
import type { Query, QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/queryKeys';
import { readAgain, readBeganAt } from '../api/readTimes';

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

/**
 * An article was written, changed or deleted (by staff, maybe elsewhere): the lists it may enter or
 * leave and its own page read again, unless the server began their answer after the change.
 */
export function applyArticleChanged(client: QueryClient, { articleId, at }: ArticleChangedEvent): void {
  const cache = client.getQueryCache();
  readAgainUnlessHeld(client, { at }, [
    ...cache.findAll({ queryKey: queryKeys.knowledge.lists }),
    ...cache.findAll({ queryKey: queryKeys.knowledge.detail(articleId), exact: true }),
  ]);
}

/** Saved views (their counts with them) or canned responses changed, here or elsewhere: their lists read again. */
export function applyItemsChanged(client: QueryClient, { kind, at }: ItemsChangedEvent): void {
  const queryKey = kind === 'views' ? queryKeys.queue.views : queryKeys.queue.canned;
  readAgainUnlessHeld(client, { at }, client.getQueryCache().findAll({ queryKey }));
}

/** Staff were added, renamed, re-roled or removed: Support Management, assignee and mention choices read again. */
export function applyStaffChanged(client: QueryClient, event: StaffChangedEvent): void {
  const cache = client.getQueryCache();
  readAgainUnlessHeld(client, event, [
    ...cache.findAll({ queryKey: queryKeys.users.staff }),
    ...cache.findAll({ queryKey: queryKeys.users.staffDirectory }),
  ]);
}

/** Each query read again, but one whose answer the server began after the change (`at`) holds it. */
function readAgainUnlessHeld(client: QueryClient, { at }: Stamped, queries: Query[]): void {
  const holdsIt = (query: Query) => at !== undefined && (readBeganAt(query) ?? Number.NEGATIVE_INFINITY) > at;
  for (const query of queries) if (!holdsIt(query)) readAgain(client, query);
}
