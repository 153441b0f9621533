import { CATEGORIES, LIMITS, type Category } from '@helpdesk/protocol';
import type { ArticleListParams } from '../../api/knowledge';
import { queryString } from '../../api/queryString';

/**
 * The knowledge base's address and the list call it makes, without React or the router: the entry
 * script (main.tsx, through routing/pages.ts) starts the same call before the app's code arrives.
 */
export interface KnowledgeFilters {
  search: string;
  category: Category | '';
  page: number;
}

export const KNOWLEDGE_PATH = '/knowledge';
export const ARTICLE_PAGE_SIZE = LIMITS.articlePage.default;

export const isCategory = (value: unknown): value is Category => (CATEGORIES as readonly unknown[]).includes(value);

export function parseFilters(queryString: string): KnowledgeFilters {
  const params = new URLSearchParams(queryString);
  const category = params.get('category');
  const page = Number(params.get('page'));
  return {
    search: params.get('search')?.trim() ?? '',
    category: isCategory(category) ? category : '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

export function filtersPath({ search, category, page }: KnowledgeFilters): string {
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  if (category) params.set('category', category);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `${KNOWLEDGE_PATH}?${query}` : KNOWLEDGE_PATH;
}

/** The list call for these filters: one page of articles. */
export const articleListParams = ({ search, category, page }: KnowledgeFilters): ArticleListParams => ({
  search: search || undefined,
  category: category || undefined,
  page,
  limit: ARTICLE_PAGE_SIZE,
});

/** The list call's API path for the address's query string, as the page will make it. */
export const articleListRead = (search: string): string => `/knowledge${queryString({ ...articleListParams(parseFilters(search)) })}`;
