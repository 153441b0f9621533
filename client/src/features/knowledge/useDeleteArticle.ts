import type { ArticleListResponse } from '@helpdesk/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { screenMessage } from '../../api/ApiError';
import { knowledgeApi } from '../../api/knowledge';
import { queryKeys } from '../../api/queryKeys';
import { notifyError, notifySuccess } from '../../lib/notify';
import { KNOWLEDGE_TEXT } from './texts';

/** Removes an article, returns to the list and says so with the server's words. */
export function useDeleteArticle(id: number) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => knowledgeApi.remove(id),
    onSuccess: ({ message }) => {
      navigate('/knowledge');
      // Cached lists drop the card at once; everything else is fetched afresh when next shown.
      client.setQueriesData<ArticleListResponse>(
        { queryKey: queryKeys.knowledge.lists },
        (list) =>
          list && { ...list, data: { articles: list.data.articles.filter((a) => a.id !== id), total: Math.max(0, list.data.total - 1) } },
      );
      void client.invalidateQueries({ queryKey: queryKeys.knowledge.all, refetchType: 'none' });
      notifySuccess(message);
    },
    onError: (error) => notifyError(screenMessage(error, KNOWLEDGE_TEXT.deleteFailed)),
  });
}
