import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { filtersPath, KNOWLEDGE_PATH, parseFilters, type KnowledgeFilters } from './filters';

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
