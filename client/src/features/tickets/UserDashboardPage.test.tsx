import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { allowForLazyPages, agent, aTicket, failure, listBody, owner, statsBody, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const manyTickets = (n: number) => Array.from({ length: n }, (_, i) => aTicket({ id: i + 1, title: `Ticket number ${i + 1}` }));

function openDashboard(routes: Parameters<typeof fakeServer>[0], user = owner) {
  const server = fakeServer({ ...verified(user), 'GET /tickets/stats': statsBody(), 'GET /tickets': listBody([]), ...routes });
  renderApp('/dashboard', { user });
  return server;
}

const countOf = (label: string) => within(screen.getByRole('group', { name: label }));

describe('user dashboard', () => {
  it('greets the user, links New Ticket to /create-ticket and shows the four counts', async () => {
    openDashboard({ 'GET /tickets/stats': statsBody({ total: 9, open: 4, in_progress: 3, resolved: 2, urgent: 1 }) });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Ticket' })).toHaveAttribute('href', '/create-ticket');
    await waitFor(() => expect(countOf('Total Tickets').getByText('9')).toBeInTheDocument());
    expect(countOf('Open Tickets').getByText('4')).toBeInTheDocument();
    expect(countOf('In Progress').getByText('3')).toBeInTheDocument();
    expect(countOf('Resolved').getByText('2')).toBeInTheDocument();
  });

  it('asks for the six newest tickets and shows them as cards with View All Tickets when there are more', async () => {
    const server = openDashboard({ 'GET /tickets': listBody(manyTickets(6), 9, 1, 6) });
    await screen.findByText('Ticket number 6');
    expect(screen.getAllByTestId('ticket-card')).toHaveLength(6);
    expect(screen.getByRole('link', { name: 'View All Tickets' })).toHaveAttribute('href', '/tickets');
    const call = server.calls.find((c) => c.key.startsWith('GET /tickets?'));
    const query = new URLSearchParams(call?.key.split('?')[1]);
    expect(query.get('limit')).toBe('6');
    expect(query.get('sort')).toBe('-createdAt');
  });

  it('has no View All Tickets with six or fewer', async () => {
    openDashboard({ 'GET /tickets': listBody(manyTickets(6), 6, 1, 6) });
    await screen.findByText('Ticket number 6');
    expect(screen.queryByRole('link', { name: 'View All Tickets' })).not.toBeInTheDocument();
  });

  it('shows title, chips, a 120-character excerpt, date and author on a card that opens the ticket', async () => {
    const description = `${'a'.repeat(110)} bbbbbbbbbb cccccccccc`;
    openDashboard({ 'GET /tickets': listBody([aTicket({ id: 42, description, status: 'in_progress', priority: 'urgent' })]) });
    const card = await screen.findByTestId('ticket-card');
    expect(card).toHaveAttribute('href', '/ticket/42');
    expect(within(card).getByText('Printer is on fire')).toBeInTheDocument();
    expect(within(card).getByText(`${'a'.repeat(110)} bbbbbbbbb...`)).toBeInTheDocument();
    expect(card.querySelector('[data-status]')).toHaveAttribute('data-status', 'in_progress');
    expect(card.querySelector('[data-priority]')).toHaveAttribute('data-priority', 'urgent');
    expect(within(card).getByText('By Ada Lovelace')).toBeInTheDocument();
    expect(within(card).getByText('Mar 1, 2026')).toBeInTheDocument();
  });

  it('shows the empty state with a way to create the first ticket', async () => {
    openDashboard({});
    expect(await screen.findByText('No tickets yet')).toBeInTheDocument();
    expect(screen.getByText('Create your first support ticket to get started')).toBeInTheDocument();
    expect(within(screen.getByTestId('empty-state')).getByRole('link', { name: 'Create Ticket' })).toHaveAttribute(
      'href',
      '/create-ticket',
    );
  });

  it('shows the failure in words and an empty list', async () => {
    openDashboard({ 'GET /tickets': failure(403, 'Forbidden') });
    expect(await screen.findByText('You do not have permission to access this resource.')).toBeInTheDocument();
    expect(screen.queryAllByTestId('ticket-card')).toHaveLength(0);
  });

  it('shows staff the same page (the server scopes the tickets)', async () => {
    openDashboard({ 'GET /tickets': listBody([aTicket({ user: { id: 9, name: 'Other Oscar' } })]) }, agent);
    expect(await screen.findByRole('heading', { name: 'Welcome, Agent Smith!' })).toBeInTheDocument();
    expect(await screen.findByText('By Other Oscar')).toBeInTheDocument();
  });
});
