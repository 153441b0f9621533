import { useMutation, useQueryClient } from '@tanstack/react-query';
import { knowledgeApi } from '../../api/knowledge';
import { queryKeys } from '../../api/queryKeys';
import { applyHelpfulCount } from '../../realtime/applyEvents';

/**
 * Marks an article helpful (docs/product.md#article-page). On success the article is reloaded, so the returned count is
 * written into every cached copy at once and the copies are re-fetched. A failure is only
 * logged, never shown.
 */
export function useHelpfulVote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (articleId: number) => knowledgeApi.markHelpful(articleId),
    onSuccess: ({ helpfulCount }, articleId) => {
      applyHelpfulCount(client, { articleId, helpfulCount });
      void client.invalidateQueries({ queryKey: queryKeys.knowledge.detail(articleId) });
      void client.invalidateQueries({ queryKey: queryKeys.knowledge.lists });
    },
    onError: (error, articleId) => console.error(`Marking article ${articleId} helpful failed`, error),
  });
}
