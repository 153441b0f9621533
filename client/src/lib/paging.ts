import { useEffect } from 'react';

/** Long enough that typing a word asks the server once, short enough to feel instant. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * Rows can vanish under the viewer (resolved or deleted elsewhere, an old link): when the page on
 * screen no longer exists, step back to the last one. `total` is undefined while it is not known.
 */
export function useLastPageWhenShrunk(total: number | undefined, page: number, limit: number, setPage: (page: number) => void): void {
  useEffect(() => {
    if (total === undefined) return;
    const lastPage = Math.max(1, Math.ceil(total / limit));
    if (page > lastPage) setPage(lastPage);
  }, [total, page, limit, setPage]);
}

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** Names for Mantine's pagination arrows (icons only); page buttons are named by their number. */
export const PAGINATION_LABELS = {
  getControlProps: (control: keyof typeof CONTROL_LABELS) => ({ 'aria-label': CONTROL_LABELS[control] }),
};
