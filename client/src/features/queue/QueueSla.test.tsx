import { BUILT_IN_VIEWS, DEFAULT_TICKET_SORT, type Ticket, type TicketSla } from '@helpdesk/protocol';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { applySlaChanged } from '../../api/ticketCache';
import { store } from '../../state/store';
import { fakeServer } from '../../test-utils/fakeServer';
import { asPhone } from '../../test-utils/phone';
import { renderApp } from '../../test-utils/renderApp';
import { agent, allowForLazyPages, aTicket, listBody, statsBody, verified } from '../../test-utils/ticketFixtures';
import { agentQueryAtom } from '../../state/agentQuery';
import { agentPageAtom } from './filters';

allowForLazyPages();

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const sla = (overrides: Partial<TicketSla> = {}): TicketSla => ({
  policyId: 1,
  firstResponseDueAt: inMinutes(125),
  resolutionDueAt: inMinutes(600),
  firstRespondedAt: null,
  state: 'ok',
  ...overrides,
});
const AT_RISK = { ...BUILT_IN_VIEWS.find((view) => view.name === 'SLA at risk')!, owner: null };

function queueServer(rows: Ticket[]) {
  return fakeServer({
    ...verified(agent),
    'GET /tickets/stats': statsBody({ total: 3, open: 1, pending: 1, in_progress: 1 }),
    'GET /tickets': listBody(rows),
    'GET /users/staff': { body: { success: true, staff: [{ id: agent.id, name: agent.name }] } },
    'GET /views': { body: { success: true, views: [AT_RISK] } },
    'GET /views/counts': { body: { success: true, counts: { [AT_RISK.id]: 4 } } },
  });
}
const lastListQuery = (server: ReturnType<typeof fakeServer>) =>
  new URL(
    server.calls
      .filter((call) => call.key.startsWith('GET /tickets?'))
      .at(-1)
      ?.key.replace('GET ', 'http://x') ?? 'http://x',
  ).searchParams;
const rowOf = (id: number) => document.querySelector<HTMLElement>(`tr[data-ticket-id="${id}"]`)!;

beforeEach(() => {
  // The queue's query outlives a page in the app's store: each test starts from the default one.
  store.set(agentQueryAtom, {
    ...store.get(agentQueryAtom),
    status: undefined,
    priority: undefined,
    search: undefined,
    assignee: undefined,
    sla: undefined,
    sort: DEFAULT_TICKET_SORT,
  });
  store.set(agentPageAtom, 1);
});

describe('the queue and service levels', () => {
  // Newest first, as the server sends them.
  const rows = [
    aTicket({ id: 3, title: 'Counting down', sla: sla() }),
    aTicket({ id: 2, title: 'Waiting', status: 'pending', sla: sla({ state: 'paused' }) }),
    aTicket({ id: 1, title: 'No policy', status: 'in_progress', sla: null }),
  ];

  it('shows each row’s countdown, a waiting ticket as Waiting on customer, and its count card', async () => {
    queueServer(rows);
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(within(rowOf(3)).getByTestId('sla-badge')).toHaveTextContent('2 h 5 m');
    expect(within(rowOf(3)).getByText('First response due in 2 h 5 m')).toBeInTheDocument();
    expect(within(rowOf(2)).getByTestId('sla-badge')).toHaveAttribute('data-sla-state', 'paused');
    expect(within(rowOf(2)).getByText('Waiting on customer')).toBeInTheDocument();
    expect(within(rowOf(1)).queryByTestId('sla-badge')).toBeNull();
    await waitFor(() => expect(within(screen.getByRole('group', { name: 'Waiting on customer' })).getByText('1')).toBeInTheDocument());
  });

  it('sorts by the nearest deadline from the SLA column and filters by SLA state', async () => {
    const server = queueServer(rows);
    renderApp('/agent-dashboard', { user: agent });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'SLA' }));
    await waitFor(() => expect(lastListQuery(server).get('sort')).toBe('slaDueAt'));
    expect(screen.getByRole('columnheader', { name: 'Status SLA' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('textbox', { name: 'SLA' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Overdue', 'Due soon', 'Paused', 'On track']);
    await user.click(screen.getByRole('option', { name: 'Overdue' }));
    await waitFor(() => expect(lastListQuery(server).get('sla')).toBe('breached'));
  });

  it('opens the built-in SLA at risk view with its count: due soon, the nearest deadline first', async () => {
    const server = queueServer(rows);
    renderApp('/agent-dashboard', { user: agent });
    const views = await screen.findByRole('navigation', { name: 'Saved views' });
    await waitFor(() => expect(within(views).getByTestId(`view-count-${AT_RISK.id}`)).toHaveTextContent('4'));
    await userEvent.setup().click(within(views).getByRole('button', { name: /SLA at risk/ }));
    await waitFor(() => expect(lastListQuery(server).get('sla')).toBe('warning'));
    expect(lastListQuery(server).get('sort')).toBe('slaDueAt');
    await waitFor(() => expect(within(views).getByRole('button', { name: /SLA at risk/ })).toHaveAttribute('aria-current', 'true'));
  });

  it('turns a row’s badge amber when sla-changed arrives, without a request', async () => {
    const server = queueServer(rows);
    const client = createQueryClient();
    renderApp('/agent-dashboard', { user: agent, queryClient: client });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    const calls = server.calls.length;
    act(() => applySlaChanged(client, { ticketId: 3, sla: sla({ state: 'warning' }), version: 1 }));
    await waitFor(() => expect(within(rowOf(3)).getByTestId('sla-badge')).toHaveAttribute('data-sla-state', 'warning'));
    expect(server.calls.length).toBe(calls);
  });
});

describe('the queue on a phone', () => {
  it('shows the countdown on each card', async () => {
    asPhone();
    queueServer([aTicket({ id: 1, sla: sla({ state: 'breached', firstResponseDueAt: inMinutes(-12.5) }) })]);
    renderApp('/agent-dashboard', { user: agent });
    const card = await screen.findByRole('listitem');
    expect(within(card).getByTestId('sla-badge')).toHaveTextContent('Overdue 12 m');
  });
});
