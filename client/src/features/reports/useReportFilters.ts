import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { parseReportFilters, reportSearch, withChange, type ReportFilters } from './reportFilters';

export const REPORTS_PATH = '/reports';

/** The filters live in the address, so a report can be linked, survives a reload, and Back returns to the previous one. */
export function useReportFilters() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => parseReportFilters(search), [search]);
  const apply = useCallback(
    (change: Partial<ReportFilters>) => navigate(`${REPORTS_PATH}${reportSearch(withChange(filters, change))}`),
    [filters, navigate],
  );
  return { filters, apply };
}
