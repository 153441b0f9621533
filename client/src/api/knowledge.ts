import type {
  ArticleListResponse,
  ArticleResponse,
  Category,
  CreateArticleBody,
  HelpfulResponse,
  MessageResponse,
  UpdateArticleBody,
} from '@helpdesk/protocol';
import { http } from './http';

export interface ArticleListParams {
  search?: string;
  category?: Category | '';
  page?: number;
  limit?: number;
}

export const knowledgeApi = {
  list: (params: ArticleListParams, signal?: AbortSignal) => http.get<ArticleListResponse>('/knowledge', { query: { ...params }, signal }),
  get: (id: number, signal?: AbortSignal) => http.get<ArticleResponse>(`/knowledge/${id}`, { signal }),
  markHelpful: (id: number) => http.post<HelpfulResponse>(`/knowledge/${id}/helpful`),
  create: (body: CreateArticleBody) => http.post<ArticleResponse>('/knowledge', body),
  update: (id: number, body: UpdateArticleBody) => http.put<ArticleResponse>(`/knowledge/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/knowledge/${id}`),
};
