import { useQuery } from '@tanstack/react-query';
import { knowledgeApi } from '../../api/knowledge';
import { queryKeys } from '../../api/queryKeys';

/** One article through its detail key, so live helpful counts reach it (realtime/applyEvents). */
export const useArticle = (id: number) =>
  useQuery({ queryKey: queryKeys.knowledge.detail(id), queryFn: ({ signal }) => knowledgeApi.get(id, signal) });
