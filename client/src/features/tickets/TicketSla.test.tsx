import type { TicketSla } from '@helpdesk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { agent, allowForLazyPages, aDetail, aHistoryEntry, aTicket, detailBody, owner, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const sla = (overrides: Partial<TicketSla> = {}): TicketSla => ({
  policyId: 1,
  firstResponseDueAt: inMinutes(-30),
  resolutionDueAt: inMinutes(45),
  firstRespondedAt: inMinutes(-40),
  state: 'warning',
  ...overrides,
});

function staffPage(detail = aDetail({ sla: sla() }), routes: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    ...verified(agent),
    'GET /tickets/7': detailBody(detail),
    'GET /users/staff': { body: { success: true, staff: [{ id: agent.id, name: agent.name }] } },
    'GET /users/1/tickets': { body: { success: true, requester: { ...owner, createdAt: owner.createdAt }, tickets: [] } },
    'GET /canned-responses': { body: { success: true, responses: [] } },
    ...routes,
  });
}

describe('the ticket page and service levels', () => {
  it('shows staff the countdown to the running deadline and both deadlines in the side panel', async () => {
    staffPage();
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const details = within(panel).getByTestId('sla-details');
    expect(within(details).getByTestId('sla-badge')).toHaveAttribute('data-sla-state', 'warning');
    expect(within(details).getByText('Resolution due in 45 m')).toBeInTheDocument();
    expect(within(details).getByText(/^Answered /)).toBeInTheDocument();
    expect(within(details).getByText(/^Due /)).toBeInTheDocument();
  });

  it('says so when no policy covers the ticket', async () => {
    staffPage(aDetail({ sla: null }));
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    expect(within(panel).getByText('No SLA policy applies to this ticket.')).toBeInTheDocument();
    expect(within(panel).queryByTestId('sla-badge')).toBeNull();
  });

  it('lets staff set Waiting on customer from the side panel; the badge pauses with the answer', async () => {
    const waiting = aTicket({
      status: 'pending',
      version: 2,
      sla: sla({ state: 'paused', firstResponseDueAt: null, firstRespondedAt: null, resolutionDueAt: null }),
    });
    let current = aDetail({ sla: sla({ state: 'ok' }) });
    const server = staffPage(current, {
      'GET /tickets/7': () => detailBody(current),
      'PUT /tickets/7': () => {
        current = { ...current, ...waiting };
        return { body: { success: true, ticket: waiting, message: 'ok' } };
      },
    });
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const user = userEvent.setup();
    await user.click(within(panel).getByRole('textbox', { name: 'Status' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Open',
      'In Progress',
      'Waiting on customer',
      'Resolved',
      'Closed',
    ]);
    await user.click(screen.getByRole('option', { name: 'Waiting on customer' }));
    await waitFor(() => expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toMatchObject({ status: 'pending' }));
    await waitFor(() => expect(within(panel).getByTestId('sla-badge')).toHaveTextContent('Paused'));
    // No deadline while paused: the side panel says why rather than "No target".
    const details = within(within(panel).getByTestId('sla-details'));
    expect(details.queryByText('No target')).toBeNull();
    expect(details.getAllByText('Paused').filter((el) => !el.closest('[data-testid="sla-badge"]'))).toHaveLength(2);
    expect(within(panel).getByRole('textbox', { name: 'Status' })).toHaveValue('Waiting on customer');
  });

  it('reads an SLA mark on the timeline', async () => {
    staffPage(
      aDetail({
        sla: sla(),
        history: [
          aHistoryEntry(),
          aHistoryEntry({ id: 2, type: 'sla', from: 'resolution', to: 'warning', actor: { id: 3, name: 'Olive Owner' } }),
        ],
      }),
    );
    renderApp('/ticket/7', { user: agent });
    expect(await screen.findByText('Resolution due soon')).toBeInTheDocument();
    // The scanner made the mark: the customer it concerns is not named as if they had.
    const mark = screen.getAllByTestId('thread-change').find((item) => item.getAttribute('data-history-type') === 'sla');
    expect(mark).toBeDefined();
    expect(mark).not.toHaveTextContent('Olive Owner');
  });

  it('shows the owner Waiting on customer, without a badge, and never offers it in their status choices', async () => {
    fakeServer({ ...verified(owner), 'GET /tickets/7': detailBody(aDetail({ status: 'pending' })) });
    renderApp('/ticket/7', { user: owner });
    expect(await screen.findAllByText('Waiting on customer')).not.toHaveLength(0);
    expect(screen.queryByTestId('sla-badge')).toBeNull();
  });

  it('the owner’s edit form shows the waiting status but never lets them choose it', async () => {
    fakeServer({ ...verified(owner), 'GET /tickets/7': detailBody(aDetail({ status: 'pending' })) });
    renderApp('/edit-ticket/7', { user: owner });
    const status = await screen.findByRole('textbox', { name: 'Status' });
    expect(status).toHaveValue('Waiting on customer');
    await userEvent.setup().click(status);
    const waiting = screen.getByRole('option', { name: 'Waiting on customer' });
    expect(waiting).toHaveAttribute('data-combobox-disabled', 'true');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Open', 'Waiting on customer', 'Resolved', 'Closed']);
  });
});

describe('the update screen and a waiting ticket', () => {
  it('keeps a waiting ticket on Waiting on customer, and its guideline says the clock stops', async () => {
    fakeServer({ ...verified(agent), 'GET /tickets/7': detailBody(aDetail({ status: 'pending', sla: sla({ state: 'paused' }) })) });
    renderApp('/agent/ticket/7/update', { user: agent });
    expect(await screen.findByRole('textbox', { name: 'Status' })).toHaveValue('Waiting on customer');
    expect(within(screen.getByRole('region', { name: 'Status Guidelines' })).getByText(/the SLA clock stops/)).toBeInTheDocument();
  });
});
