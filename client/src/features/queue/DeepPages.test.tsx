import { LIMITS, MESSAGES, type Ticket, type TicketStats } from '@helpdesk/protocol';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { store } from '../../state/store';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { aTicket, allowForLazyPages, listBody, owner, verified } from '../../test-utils/ticketFixtures';
import { agentFiltersAtom, agentPageAtom, agentPageSizeAtom, EMPTY_AGENT_FILTERS } from './filters';

allowForLazyPages();

const agent = testUser({ id: 9, name: 'Agent Smith', role: 'agent' });
const MILLION = 1_000_000;
const STATS: TicketStats = { total: MILLION, open: MILLION, in_progress: 0, pending: 0, resolved: 0, closed: 0, urgent: 0 };
const NARROW = MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth);

/** A million tickets: the server answers any page it serves with one row. */
function millionServer() {
  const rows: Ticket[] = [aTicket({ id: 1, title: 'Printer is on fire' })];
  return fakeServer({
    'GET /auth/verify': { body: { success: true, user: agent } },
    'GET /tickets/stats': { body: { success: true, stats: STATS } },
    'GET /tickets': { body: { success: true, tickets: rows, data: rows, total: MILLION, page: 1, limit: 25 } },
    'GET /users/staff': { body: { success: true, staff: [{ id: agent.id, name: agent.name }] } },
    'GET /views': { body: { success: true, views: [] } },
    'GET /views/counts': { body: { success: true, counts: {} } },
  });
}

const lastAsked = (server: ReturnType<typeof fakeServer>, param: string) => {
  const call = server.calls.filter((c) => c.key.startsWith('GET /tickets?')).at(-1);
  return call ? new URL(call.key.replace('GET ', 'http://x')).searchParams.get(param) : undefined;
};

beforeEach(() => {
  store.set(agentFiltersAtom, EMPTY_AGENT_FILTERS);
  store.set(agentPageAtom, 1);
  store.set(agentPageSizeAtom, 10);
});

describe('a list deeper than the server pages', () => {
  it('offers pages only as deep as the server serves, and on the deepest says how to narrow the list', async () => {
    const server = millionServer();
    renderApp('/agent-dashboard', { user: agent });
    await screen.findByText(/Showing/, undefined, { timeout: 5_000 });
    const limit = Number(lastAsked(server, 'limit'));
    // 10,000 rows deep at `limit` a page, not the million's last page.
    const deepest = String(Math.ceil(LIMITS.ticketList.depth / limit));
    expect(screen.getByRole('button', { name: deepest })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: String(MILLION / limit) })).not.toBeInTheDocument();
    expect(screen.queryByText(NARROW)).not.toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Last page' }));
    await waitFor(() => expect(lastAsked(server, 'page')).toBe(deepest));
    expect(await screen.findByText(NARROW)).toBeInTheDocument();
  });

  it('steps back to the deepest page from a deeper one (an old link) instead of showing a refusal', async () => {
    store.set(agentPageAtom, 5_000);
    const server = millionServer();
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() =>
      expect(lastAsked(server, 'page')).toBe(String(Math.ceil(LIMITS.ticketList.depth / Number(lastAsked(server, 'limit'))))),
    );
    expect(await screen.findByText(NARROW)).toBeInTheDocument();
  });

  it('does the same on /tickets: a deep page in the address steps back, the pager stops there and says how to narrow', async () => {
    const rows = [aTicket({ id: 1, title: 'Printer is on fire' })];
    const server = fakeServer({ ...verified(owner), 'GET /tickets': listBody(rows, MILLION, 1, 100) });
    renderApp('/tickets?limit=100&page=999', { user: owner });
    // 10,000 rows at 100 a page: page 100 is the deepest.
    await waitFor(() => expect(lastAsked(server, 'page')).toBe('100'));
    expect(await screen.findByText(NARROW)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '100' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '101' })).not.toBeInTheDocument();
  });
});
