import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TICKET_QUERY, type TicketQuery } from '@helpdesk/protocol';
import { AppProviders } from '../App';
import { createQueryClient } from '../api/queryClient';
import { SEARCH_DEBOUNCE_MS } from '../lib/paging';
import { TicketFilters } from './TicketFilters';

/** The filters over a query held as the queue holds it: changed at once, shown back as the search sent. */
function Queue() {
  const [query, setQuery] = useState<TicketQuery>(DEFAULT_TICKET_QUERY);
  return (
    <AppProviders queryClient={createQueryClient()}>
      <TicketFilters query={query} onChange={(change) => setQuery((current) => ({ ...current, ...change }))} syntax />
      <output data-testid="sent">{query.search ?? ''}</output>
    </AppProviders>
  );
}

const box = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Search' });
const type = (value: string) => fireEvent.change(box(), { target: { value } });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the search box', () => {
  it('sends the text once typing settles', () => {
    render(<Queue />);
    type('printer');
    expect(screen.getByTestId('sent').textContent).toBe('');
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(screen.getByTestId('sent').textContent).toBe('printer');
  });

  it('keeps what was typed while its earlier text was being sent', () => {
    render(<Queue />);
    type('status:open printer colour:red');
    // The earlier text settles and is sent in the same moment the next edit lands (a chip removed, a
    // key pressed): that search coming back is the box's own, not a change from outside to show.
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
      type('status:open colour:red');
    });
    expect(screen.getByTestId('sent').textContent).toBe('status:open printer colour:red');
    expect(box().value).toBe('status:open colour:red');
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(screen.getByTestId('sent').textContent).toBe('status:open colour:red');
    expect(box().value).toBe('status:open colour:red');
  });

  it('shows a search changed from outside, such as Clear Filters', () => {
    render(<Queue />);
    type('printer');
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(box().value).toBe('');
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(screen.getByTestId('sent').textContent).toBe('');
  });
});
