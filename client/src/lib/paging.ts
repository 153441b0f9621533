import { LIMITS } from '@helpdesk/protocol';
import { useEffect } from 'react';

/** Long enough that typing a word asks the server once, short enough to feel instant. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The deepest page of a ticket list the server serves at this page size: a page starting deeper
 * than LIMITS.ticketList.depth rows is refused (docs/decisions.md#scale).
 */
export const deepestPage = (limit: number): number => Math.max(1, Math.ceil(LIMITS.ticketList.depth / limit));

/** The pages a ticket list's pager offers: the list's, down to the deepest the server serves. */
export const pagesOffered = (total: number, limit: number): number => Math.min(Math.max(1, Math.ceil(total / limit)), deepestPage(limit));

/** Whether some of the list lies past the deepest page (a capped count means more than the cap). */
export const listGoesDeeper = (total: number, limit: number, totalCapped?: boolean): boolean =>
  Boolean(totalCapped) || Math.ceil(total / limit) > deepestPage(limit);

/**
 * Rows can vanish under the viewer (resolved or deleted elsewhere, an old link): when the page on
 * screen no longer exists, step back to the last one. `total` is undefined while it is not known.
 * A page past the deepest the server serves (an old link, a larger page size) steps back to it.
 */
export function useLastPageWhenShrunk(total: number | undefined, page: number, limit: number, setPage: (page: number) => void): void {
  useEffect(() => {
    if (page > deepestPage(limit)) {
      setPage(deepestPage(limit));
      return;
    }
    if (total === undefined) return;
    const lastPage = pagesOffered(total, limit);
    if (page > lastPage) setPage(lastPage);
  }, [total, page, limit, setPage]);
}

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** Names for Mantine's pagination arrows (icons only); page buttons are named by their number. */
export const PAGINATION_LABELS = {
  getControlProps: (control: keyof typeof CONTROL_LABELS) => ({ 'aria-label': CONTROL_LABELS[control] }),
};
