import type {
  ReportBacklogResponse,
  ReportBreakdownResponse,
  ReportSummaryResponse,
  ReportTimeseriesResponse,
  User,
} from '@helpdesk/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { socketAtom } from '../../realtime/collaboration';
import type { HelpdeskSocket } from '../../realtime/socket';
import { store } from '../../state/store';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { listBody, statsBody } from '../../test-utils/ticketFixtures';
import { LIVE_REFETCH_MS, useLiveReports } from './useLiveReports';

const agent = testUser({ id: 2, name: 'Agent Smith', role: 'agent' });
const admin = testUser({ id: 1, name: 'Root Admin', role: 'admin' });

const summary: ReportSummaryResponse = {
  success: true,
  summary: {
    created: 12,
    resolved: 7,
    reopened: 1,
    backlog: 5,
    firstResponse: { count: 7, p50: 2 * 3600 + 5 * 60, p90: (3 * 24 + 4) * 3600 },
    resolution: { count: 7, p50: null, p90: null },
    sla: { firstResponseMetPct: 92.5, resolutionMetPct: null },
    csat: { responses: 4, good: 3, neutral: 1, bad: 0, scorePct: 75 },
  },
};
const point = (start: string, created: number, resolved: number) => ({
  start,
  created,
  resolved,
  reopened: 0,
  firstResponseP50: 600,
  firstResponseP90: 1200,
  resolutionP50: null,
  resolutionP90: null,
  csatScorePct: null,
});
const timeseries: ReportTimeseriesResponse = {
  success: true,
  interval: 'day',
  points: [point('2026-11-28', 4, 2), point('2026-11-29', 8, 5)],
};
const backlog: ReportBacklogResponse = {
  success: true,
  buckets: (['<1d', '1-3d', '3-7d', '7-30d', '>30d'] as const).map((label) => ({ label, open: 0, in_progress: 0, pending: 0 })),
};
const row = { created: 0, resolved: 0, backlog: 0, firstResponseP50: null, resolutionP50: null };
const breakdown: ReportBreakdownResponse = {
  success: true,
  priority: [{ key: 'urgent', ...row, created: 3 }],
  category: [{ key: 'billing', ...row, created: 3 }],
};
const reports = {
  'GET /reports/summary': { body: summary },
  'GET /reports/timeseries': { body: timeseries },
  'GET /reports/backlog': { body: backlog },
  'GET /reports/breakdown': { body: breakdown },
  'GET /users/staff': { body: { success: true, staff: [agent, { id: 3, name: 'Bea Agent' }] } },
};

const openReports = (user: User, path = '/reports', routes: Parameters<typeof fakeServer>[0] = {}) => {
  const server = fakeServer({ 'GET /auth/verify': { body: { success: true, user } }, ...reports, ...routes });
  renderApp(path, { user });
  return server;
};
const figure = (key: string) => within(screen.getByTestId(`figure-${key}`));

describe('/reports', () => {
  // The test DOM lays nothing out, so recharts warns that every chart is 0 wide; the tables carry the figures here.
  const warn = console.warn;
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).startsWith('The width(0) and height(0) of chart')) warn(...args);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows an agent the figures, durations as people read them, and the charts with their tables', async () => {
    const server = openReports(agent, '/reports?range=7d&priority=urgent');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    await waitFor(() => expect(figure('created').getByText('12')).toBeInTheDocument());
    expect(figure('backlog').getByText('5')).toBeInTheDocument();
    expect(figure('first-response').getByText('2 h 5 m')).toBeInTheDocument();
    expect(figure('first-response').getByText('90th percentile 3 d 4 h · 7 tickets')).toBeInTheDocument();
    expect(figure('resolution').getByText('—')).toBeInTheDocument();
    expect(figure('sla-first-response').getByText('92.5%')).toBeInTheDocument();
    expect(figure('csat').getByText('75%')).toBeInTheDocument();
    expect(figure('csat').getByText('4 responses: 3 good, 1 neutral, 0 bad')).toBeInTheDocument();

    // Each chart is a headed region whose figures are also a table; an empty one says so.
    const volume = screen.getByRole('region', { name: 'Created and resolved' });
    const table = within(volume).getByRole('table', { name: 'Created and resolved' });
    expect(within(table).getByRole('rowheader', { name: 'Sun, Nov 29, 2026' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Backlog by age' })).getByText('No open tickets match these filters.'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Resolution time' })).getByTestId('chart-empty')).toBeInTheDocument();

    // Every report is read with the address's filters; an agent reads no agents' report.
    const keys = server.calls.map((call) => call.key).filter((key) => key.startsWith('GET /reports'));
    expect(keys.every((key) => key.includes('priority=urgent') && key.includes('from=') && key.includes('tz='))).toBe(true);
    expect(keys.some((key) => key.startsWith('GET /reports/timeseries') && key.includes('interval=day'))).toBe(true);
    expect(keys.some((key) => key.startsWith('GET /reports/agents'))).toBe(false);
    expect(screen.queryByRole('button', { name: 'Download CSV' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Agents' })).not.toBeInTheDocument();
  });

  it('says at once why a range is refused and reads nothing for it', async () => {
    const server = openReports(agent, '/reports?from=2026-01-01&to=2026-06-30&interval=day');
    expect(await screen.findByText('Use a weekly or monthly interval for ranges over 92 days')).toBeInTheDocument();
    expect(server.calls.some((call) => call.key.startsWith('GET /reports'))).toBe(false);
  });

  it('shows the server’s words when it refuses the report', async () => {
    openReports(agent, '/reports', {
      'GET /reports/summary': { status: 400, body: { success: false, message: 'Time zone is not known' } },
    });
    expect(await screen.findByText('Time zone is not known')).toBeInTheDocument();
  });

  it('keeps a changed filter in the address', async () => {
    openReports(agent);
    await screen.findByTestId('figure-created');
    await userEvent.click(screen.getByRole('textbox', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Billing' }));
    await waitFor(() => expect(window.location.search).toBe('?category=billing'));
  });

  it('shows an admin the agents table and the CSV download', async () => {
    openReports(admin, '/reports', {
      'GET /reports/agents': {
        body: {
          success: true,
          agents: [
            {
              agent: { id: 2, name: 'Agent Smith' },
              assigned: 9,
              resolved: 6,
              firstResponseP50: 300,
              resolutionP50: 7200,
              slaMetPct: 80,
              csatScorePct: null,
            },
          ],
        },
      },
    });
    const agents = await screen.findByRole('region', { name: 'Agents' });
    const smith = await within(agents).findByRole('row', { name: /Agent Smith/ });
    expect(
      within(smith)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['9', '6', '5 m', '2 h', '80%', '—']);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  });

  it('sends a user away', async () => {
    // The dashboard's reads answered here: refused, they would be tried again after the test let go of the network.
    const server = openReports(testUser(), '/reports', { 'GET /tickets/stats': statsBody(), 'GET /tickets': listBody([]) });
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    await waitFor(() => {
      const keys = server.calls.map((c) => c.key);
      expect(keys).toContain('GET /tickets/stats');
      expect(keys.some((key) => key.startsWith('GET /tickets?'))).toBe(true);
    });
  });
});

describe('useLiveReports', () => {
  it('refetches the reports once per burst of ticket events, at most every 10 seconds, and stops when the page goes', () => {
    vi.useFakeTimers();
    const handlers = new Map<string, Set<() => void>>();
    const socket = {
      on: (event: string, handler: () => void) => handlers.set(event, (handlers.get(event) ?? new Set()).add(handler)),
      off: (event: string, handler: () => void) => handlers.get(event)?.delete(handler),
    };
    const emit = (event: string) => handlers.get(event)?.forEach((handler) => handler());
    store.set(socketAtom, socket as unknown as HelpdeskSocket);
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <Provider store={store}>
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </Provider>
    );
    const { unmount } = renderHook(() => useLiveReports(), { wrapper });

    emit('ticket-changed');
    emit('comment-added');
    emit('csat-received');
    act(() => void vi.advanceTimersByTime(LIVE_REFETCH_MS - 1));
    expect(invalidate).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['reports'] });

    emit('sla-changed');
    unmount();
    act(() => void vi.advanceTimersByTime(LIVE_REFETCH_MS * 2));
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect([...handlers.values()].every((set) => set.size === 0)).toBe(true);
    store.set(socketAtom, null);
  });
});
