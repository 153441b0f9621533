import type {
  ArticleListResponse,
  ArticleResponse,
  CreateArticleBody,
  HelpfulResponse,
  MessageResponse,
  UpdateArticleBody,
} from '@helpdesk/protocol';
import { http } from './http';
import type { ArticleListParams } from './queryKeys';

// Defined with the query keys, which must not pull in the HTTP layer (the fan-out bench loads them in Node).
export type { ArticleListParams };

export const knowledgeApi = {
  list: (params: ArticleListParams, signal?: AbortSignal) => http.get<ArticleListResponse>('/knowledge', { query: { ...params }, signal }),
  get: (id: number, signal?: AbortSignal) => http.get<ArticleResponse>(`/knowledge/${id}`, { signal }),
  markHelpful: (id: number) => http.post<HelpfulResponse>(`/knowledge/${id}/helpful`),
  create: (body: CreateArticleBody) => http.post<ArticleResponse>('/knowledge', body),
  update: (id: number, body: UpdateArticleBody) => http.put<ArticleResponse>(`/knowledge/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/knowledge/${id}`),
};
