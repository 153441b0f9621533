import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { theme } from '../../theme';
import { clockReaders } from './clock';
import type { SlaClock } from './countdown';
import { SlaBadge } from './SlaBadge';

const START = Date.parse('2026-01-16T10:00:00Z');
const inMinutes = (minutes: number) => new Date(START + minutes * 60_000).toISOString();
const sla = (overrides: Partial<SlaClock> = {}): SlaClock => ({
  firstResponseDueAt: inMinutes(2),
  resolutionDueAt: inMinutes(600),
  firstRespondedAt: null,
  state: 'ok',
  ...overrides,
});

const renderBadges = (slas: SlaClock[]) =>
  render(
    <MantineProvider theme={theme}>
      {slas.map((s, i) => (
        <SlaBadge key={i} sla={s} status="open" />
      ))}
    </MantineProvider>,
  );

const badges = () => screen.queryAllByTestId('sla-badge');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(START);
});
afterEach(() => vi.useRealTimers());

describe('SlaBadge', () => {
  it('counts down on its own and turns red with "Overdue" once the deadline passes', () => {
    renderBadges([sla()]);
    const [badge] = badges();
    expect(badge).toHaveTextContent('2 m');
    expect(badge).toHaveAttribute('data-sla-state', 'ok');
    expect(screen.getByText('First response due in 2 m')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(61_000));
    expect(screen.getByText('First response due in 1 m')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(60_000));
    expect(badge).toHaveAttribute('data-sla-state', 'breached');
    expect(screen.getByText('First response overdue by < 1 m')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(12 * 60_000));
    expect(badge).toHaveTextContent('Overdue 12 m');
  });

  it('stands still at "Breached" on a resolved ticket that missed its deadline', () => {
    render(
      <MantineProvider theme={theme}>
        <SlaBadge sla={sla({ state: 'breached', firstRespondedAt: inMinutes(-100), resolutionDueAt: inMinutes(-21) })} status="resolved" />
      </MantineProvider>,
    );
    const [badge] = badges();
    expect(badge).toHaveTextContent('Breached');
    expect(badge).toHaveAttribute('data-sla-state', 'breached');
    expect(screen.getByText('Service level breached')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(30 * 60_000));
    expect(badge).toHaveTextContent('Breached');
  });

  it('is amber on warning, grey while paused and says Met when met', () => {
    renderBadges([sla({ state: 'warning' }), sla({ state: 'paused' }), sla({ state: 'met' })]);
    expect(badges().map((b) => b.getAttribute('data-sla-state'))).toEqual(['warning', 'paused', 'met']);
    expect(screen.getByText('Service level paused while waiting on the customer')).toBeInTheDocument();
    expect(screen.getByText('Service level met')).toBeInTheDocument();
    // A paused badge does not count: time passing leaves it alone.
    act(() => void vi.advanceTimersByTime(10 * 60_000));
    expect(badges()[1]).toHaveTextContent('Paused');
  });

  it('names the deadline in its hover title', () => {
    renderBadges([sla({ firstRespondedAt: inMinutes(-1) })]);
    expect(badges()[0]?.getAttribute('title')).toMatch(/^Resolution due in 10 h \(due .+\)$/);
  });

  it('follows a new state from the server at once', () => {
    function Live() {
      const [current, setCurrent] = useState(sla({ firstResponseDueAt: inMinutes(30) }));
      return (
        <MantineProvider theme={theme}>
          <SlaBadge sla={current} status="open" />
          <button type="button" onClick={() => setCurrent({ ...current, state: 'warning' })}>
            warn
          </button>
        </MantineProvider>
      );
    }
    render(<Live />);
    expect(badges()[0]).toHaveAttribute('data-sla-state', 'ok');
    act(() => screen.getByText('warn').click());
    expect(badges()[0]).toHaveAttribute('data-sla-state', 'warning');
    expect(badges()[0]).toHaveTextContent('30 m');
  });

  it('runs one timer for the whole page however many badges show, and none once they are gone', () => {
    const { unmount } = renderBadges(Array.from({ length: 40 }, (_, i) => sla({ firstResponseDueAt: inMinutes(i + 1) })));
    expect(badges()).toHaveLength(40);
    expect(clockReaders()).toBe(40);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(clockReaders()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
