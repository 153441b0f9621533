import { CATEGORIES, type Category } from '@helpdesk/protocol';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

export interface KnowledgeFilters {
  search: string;
  category: Category | '';
  page: number;
}

export const KNOWLEDGE_PATH = '/knowledge';

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

/**
 * The applied search, category and page live in the address, so a result list can be shared and
 * Back returns to the previous one. A new search or category starts again at page 1.
 */
export function useKnowledgeFilters() {
  const queryString = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => parseFilters(queryString), [queryString]);

  const apply = useCallback(
    (change: Partial<KnowledgeFilters>) => navigate(filtersPath({ ...filters, page: 1, ...change })),
    [filters, navigate],
  );
  const clear = useCallback(() => {
    if (queryString) navigate(KNOWLEDGE_PATH);
  }, [queryString, navigate]);

  return { filters, apply, clear, filtered: filters.search !== '' || filters.category !== '' };
}
