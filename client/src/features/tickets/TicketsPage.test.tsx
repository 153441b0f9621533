import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { allowForLazyPages, agent, aTicket, failure, listBody, owner, statsBody, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const tickets = Array.from({ length: 10 }, (_, i) => aTicket({ id: i + 1, title: `Ticket number ${i + 1}` }));

function openList(path = '/tickets', routes: Parameters<typeof fakeServer>[0] = {}, user = owner) {
  const server = fakeServer({
    ...verified(user),
    'GET /tickets': ({ url }) =>
      listBody(tickets, 42, Number(url.searchParams.get('page') ?? 1), Number(url.searchParams.get('limit') ?? 10)),
    ...routes,
  });
  renderApp(path, { user });
  return server;
}

/** The query of the newest list request. */
const lastListQuery = (server: ReturnType<typeof fakeServer>) => {
  const calls = server.calls.filter((c) => c.key.startsWith('GET /tickets?'));
  return new URLSearchParams(calls.at(-1)?.key.split('?')[1]);
};
const urlQuery = () => new URLSearchParams(window.location.search);

async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('textbox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('tickets page', () => {
  it('asks for the first page of 10, newest first, and links each row to its ticket', async () => {
    const server = openList();
    expect(await screen.findByRole('link', { name: 'Ticket number 3' })).toHaveAttribute('href', '/ticket/3');
    const query = lastListQuery(server);
    expect([query.get('page'), query.get('limit'), query.get('sort')]).toEqual(['1', '10', '-createdAt']);
    expect(screen.getByText('Showing 1-10 of 42')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Ticket' })).toHaveAttribute('href', '/create-ticket');
  });

  it('reads filters and page from the URL, so a reload keeps them', async () => {
    const server = openList('/tickets?status=open&priority=high&search=printer&sort=-priority&page=2&limit=25');
    await screen.findByRole('link', { name: 'Ticket number 1' });
    expect(Object.fromEntries(lastListQuery(server))).toMatchObject({
      status: 'open',
      priority: 'high',
      search: 'printer',
      sort: '-priority',
      page: '2',
      limit: '25',
    });
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('printer');
    expect(screen.getByRole('textbox', { name: 'Status' })).toHaveValue('Open');
    expect(screen.getByRole('textbox', { name: 'Sort by' })).toHaveValue('Priority');
  });

  it('returns to page 1 on any filter change and keeps the filters in the URL', async () => {
    const server = openList('/tickets?page=3');
    await screen.findByRole('link', { name: 'Ticket number 1' });
    const user = userEvent.setup();

    await pick(user, 'Status', 'In Progress');
    await waitFor(() => expect(urlQuery().get('status')).toBe('in_progress'));
    expect(urlQuery().get('page')).toBeNull();
    await waitFor(() => expect(lastListQuery(server).get('page')).toBe('1'));

    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(urlQuery().get('page')).toBe('2'));
    await pick(user, 'Priority', 'Urgent');
    await waitFor(() => expect(urlQuery().get('priority')).toBe('urgent'));
    expect(urlQuery().get('page')).toBeNull();

    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(urlQuery().get('page')).toBe('2'));
    await pick(user, 'Sort by', 'Oldest');
    await waitFor(() => expect(urlQuery().get('sort')).toBe('createdAt'));
    expect(urlQuery().get('page')).toBeNull();

    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(urlQuery().get('page')).toBe('2'));
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'printer');
    await waitFor(() => expect(urlQuery().get('search')).toBe('printer'));
    expect(urlQuery().get('page')).toBeNull();
    await waitFor(() =>
      expect(Object.fromEntries(lastListQuery(server))).toMatchObject({
        search: 'printer',
        status: 'in_progress',
        priority: 'urgent',
        page: '1',
      }),
    );
  });

  it('steps back to the last page when the asked page is past the end', async () => {
    const server = openList('/tickets?page=9');
    await waitFor(() => expect(urlQuery().get('page')).toBe('5'));
    await waitFor(() => expect(lastListQuery(server).get('page')).toBe('5'));
  });

  it('changes the page size (10, 25, 50, 100) and goes back to page 1', async () => {
    const server = openList('/tickets?page=2');
    await screen.findByRole('link', { name: 'Ticket number 1' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Rows per page' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['10', '25', '50', '100']);
    await user.click(screen.getByRole('option', { name: '25' }));
    await waitFor(() => expect(lastListQuery(server).get('limit')).toBe('25'));
    expect(lastListQuery(server).get('page')).toBe('1');
  });

  it('clears the filters', async () => {
    openList('/tickets?status=open&search=printer&page=2');
    await screen.findByRole('link', { name: 'Ticket number 1' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Status' })).toHaveValue('');
  });

  it('says "No tickets found" when there are none at all', async () => {
    openList('/tickets', { 'GET /tickets': listBody([], 0) });
    expect(await screen.findByText('No tickets found')).toBeInTheDocument();
    expect(screen.queryByText('No tickets match your filters')).not.toBeInTheDocument();
  });

  it('says "No tickets match your filters" when filters leave none', async () => {
    openList('/tickets?priority=low', { 'GET /tickets': listBody([], 0) });
    expect(await screen.findByText('No tickets match your filters')).toBeInTheDocument();
    expect(screen.queryByText('No tickets found')).not.toBeInTheDocument();
  });

  it('says "Failed to load tickets. Please try again later." when loading fails', async () => {
    openList('/tickets', { 'GET /tickets': failure(403, 'Forbidden') });
    expect(await screen.findByText('Failed to load tickets. Please try again later.')).toBeInTheDocument();
  });

  it('sends staff to the queue, their one ticket list', async () => {
    openList(
      '/tickets',
      {
        'GET /tickets': listBody([]),
        'GET /tickets/stats': statsBody(),
        'GET /users/staff': { body: { success: true, staff: [] } },
        'GET /views': { body: { success: true, views: [] } },
        'GET /views/counts': { body: { success: true, counts: {} } },
      },
      agent,
    );
    await waitFor(() => expect(window.location.pathname).toBe('/agent-dashboard'));
    expect(await screen.findByRole('heading', { name: 'Agent Dashboard' })).toBeInTheDocument();
  });
});
