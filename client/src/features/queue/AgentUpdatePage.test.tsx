import { MESSAGES, type TicketDetail } from '@helpdesk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CONFLICT_TEXT } from '../../components/collaboration/ConflictReview';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

const agent = testUser({ id: 9, name: 'Agent Smith', role: 'agent' });

const detail = (overrides: Partial<TicketDetail> = {}): TicketDetail => ({
  id: 7,
  title: 'VPN drops every hour',
  attachments: [],
  description: 'The VPN disconnects every hour on the hour since Monday.',
  priority: 'high',
  category: 'technical',
  status: 'open',
  resolutionNotes: null,
  user: { id: 2, name: 'Olive Owner' },
  assignedAgent: { id: 9, name: 'Agent Smith' },
  updatedBy: null,
  commentCount: 3,
  answered: false,
  version: 1,
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  lastActivityAt: '2026-01-05T10:00:00.000Z',
  comments: [],
  history: [],
  ...overrides,
});

const EMPTY_DASHBOARD = {
  'GET /tickets': { body: { success: true, tickets: [], data: [], total: 0, page: 1, limit: 10 } },
  'GET /tickets/stats': { body: { success: true, stats: { total: 0, open: 0, in_progress: 0, resolved: 0, closed: 0, urgent: 0 } } },
};

function updateServer(ticket: TicketDetail, extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    'GET /auth/verify': { body: { success: true, user: agent } },
    'GET /tickets/7': { body: { success: true, ticket } },
    ...EMPTY_DASHBOARD,
    ...extra,
  });
}

async function chooseStatus(label: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('textbox', { name: 'Status' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

describe('/agent/ticket/:id/update', () => {
  it('shows the ticket info, the form with a read-only Updated by, and the status guidelines', async () => {
    updateServer(detail());
    renderApp('/agent/ticket/7/update', { user: agent });
    expect(await screen.findByRole('heading', { name: 'Update Ticket #7' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/agent-dashboard');

    const info = await screen.findByRole('region', { name: 'Ticket information' });
    expect(within(info).getByText('VPN drops every hour')).toBeInTheDocument();
    expect(within(info).getByText('The VPN disconnects every hour on the hour since Monday.')).toBeInTheDocument();
    expect(within(info).getByText('Olive Owner')).toBeInTheDocument();
    expect(within(info).getByText('Agent Smith')).toBeInTheDocument();
    expect(within(info).getByText('3')).toBeInTheDocument();
    expect(info.querySelector('[data-priority="high"]')).not.toBeNull();
    expect(info.querySelector('[data-status="open"]')).not.toBeNull();

    expect(screen.getByRole('textbox', { name: 'Status' })).toHaveValue('Open');
    expect(screen.getByRole('textbox', { name: /Resolution Notes/ })).toHaveValue('');
    const updatedBy = screen.getByRole('textbox', { name: /Updated by/ });
    expect(updatedBy).toHaveValue('Agent Smith');
    expect(updatedBy).toHaveAttribute('readonly');

    const guidelines = screen.getByRole('region', { name: 'Status Guidelines' });
    for (const status of ['open', 'in_progress', 'resolved']) expect(guidelines.querySelector(`[data-status="${status}"]`)).not.toBeNull();
  });

  it('offers Open, In Progress, Waiting on customer and Resolved, never Closed', async () => {
    updateServer(detail());
    renderApp('/agent/ticket/7/update', { user: agent });
    await userEvent.setup().click(await screen.findByRole('textbox', { name: 'Status' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Open', 'In Progress', 'Waiting on customer', 'Resolved']);
  });

  it('starts a waiting ticket on Waiting on customer, and puts a ticket on hold', async () => {
    const server = updateServer(detail({ status: 'pending' }), {
      'PUT /tickets/7': ({ body }) => ({
        body: { success: true, ticket: { ...detail(), ...(body as object) }, message: 'Ticket updated successfully!' },
      }),
    });
    renderApp('/agent/ticket/7/update', { user: agent });
    expect(await screen.findByRole('textbox', { name: 'Status' })).toHaveValue('Waiting on customer');
    await chooseStatus('In Progress');
    await chooseStatus('Waiting on customer');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Update Ticket' }));
    expect(await screen.findByText('Ticket updated successfully!')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toMatchObject({ status: 'pending' });
  });

  it("sends only status and resolution notes, says 'Ticket updated successfully!' and returns to the dashboard", async () => {
    const server = updateServer(detail(), {
      'PUT /tickets/7': ({ body }) => ({
        body: { success: true, ticket: { ...detail(), ...(body as object) }, message: 'Ticket updated successfully!' },
      }),
    });
    renderApp('/agent/ticket/7/update', { user: agent });
    await screen.findByRole('textbox', { name: 'Status' });
    await chooseStatus('Resolved');
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Resolution Notes/ }), 'Replaced the VPN client.');
    await user.click(screen.getByRole('button', { name: 'Update Ticket' }));

    expect(await screen.findByText('Ticket updated successfully!')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toEqual({
      status: 'resolved',
      resolutionNotes: 'Replaced the VPN client.',
      expectedVersion: detail().version,
    });
    expect(screen.getByRole('button', { name: 'Update Ticket' })).toBeDisabled();
    await waitFor(() => expect(window.location.pathname).toBe('/agent-dashboard'), { timeout: 4000 });
  });

  it('assigns on the version shown, and on a 409 shows what changed and re-applies on the current version', async () => {
    const current = detail({ version: 2, priority: 'urgent', assignedAgent: null, updatedBy: { id: 4, name: 'Bea Backup' } });
    const server = updateServer(detail({ assignedAgent: null }), {
      'GET /users/staff': { body: { success: true, staff: [{ id: 9, name: 'Agent Smith', role: 'agent' }] } },
      'PUT /tickets/7': ({ body }) =>
        (body as { expectedVersion?: number }).expectedVersion === 1
          ? { status: 409, body: { success: false, message: MESSAGES.tickets.versionConflict, ticket: current } }
          : { body: { success: true, ticket: { ...current, version: 3, assignedAgent: agent }, message: 'Ticket updated successfully!' } },
    });
    renderApp('/agent/ticket/7/update', { user: agent });
    const card = await screen.findByRole('region', { name: 'Assignment' });
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Assign to me' }));

    const review = await within(card).findByTestId('conflict');
    expect(within(review).getByText(MESSAGES.tickets.versionConflict)).toBeInTheDocument();
    expect(within(review).getByText('Bea Backup')).toBeInTheDocument();
    await user.click(within(review).getByRole('button', { name: CONFLICT_TEXT.reapply }));
    await waitFor(() => expect(within(card).queryByTestId('conflict')).not.toBeInTheDocument());
    expect(server.calls.filter((c) => c.key === 'PUT /tickets/7').map((c) => c.body)).toEqual([
      { assignedAgentId: 9, expectedVersion: 1 },
      { assignedAgentId: 9, expectedVersion: 2 },
    ]);
  });

  it("says 'Failed to update ticket' when the server refuses, and stays", async () => {
    updateServer(detail(), {
      'PUT /tickets/7': { status: 500, body: { success: false, message: 'Something went wrong on our side. Please try again later.' } },
    });
    renderApp('/agent/ticket/7/update', { user: agent });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Update Ticket' }));
    expect(await screen.findByText('Failed to update ticket')).toBeInTheDocument();
    expect(screen.queryByText('Ticket updated successfully!')).not.toBeInTheDocument();
    expect(window.location.pathname).toBe('/agent/ticket/7/update');
    expect(screen.getByRole('button', { name: 'Update Ticket' })).toBeEnabled();
  });

  it("notes a closed ticket, offers no status for it and asks for one: 'Status is required'", async () => {
    const server = updateServer(detail({ status: 'closed' }));
    renderApp('/agent/ticket/7/update', { user: agent });
    expect(await screen.findByText('This ticket is closed')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Status' })).toHaveValue('');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Update Ticket' }));
    expect(await screen.findByText('Status is required')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key.startsWith('PUT'))).toBe(false);
  });

  it("says 'Ticket not found' for a missing ticket", async () => {
    updateServer(detail(), { 'GET /tickets/7': { status: 404, body: { success: false, message: 'Ticket not found' } } });
    renderApp('/agent/ticket/7/update', { user: agent });
    expect(await screen.findByText('Ticket not found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update Ticket' })).not.toBeInTheDocument();
  });

  it("says 'Failed to load ticket details' when the ticket cannot be read", async () => {
    updateServer(detail(), {
      'GET /tickets/7': { status: 500, body: { success: false, message: 'Something went wrong on our side. Please try again later.' } },
    });
    renderApp('/agent/ticket/7/update', { user: agent });
    expect(await screen.findByText('Failed to load ticket details')).toBeInTheDocument();
  });
});
