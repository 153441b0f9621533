import type { Ticket, TicketStats } from '@helpdesk/protocol';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { store } from '../../state/store';
import { fakeServer, type FakeResponse } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { aComment, aDetail, aHistoryEntry, allowForLazyPages, detailBody } from '../../test-utils/ticketFixtures';
import { createQueryClient } from '../../api/queryClient';
import { applyCommentAdded } from '../../api/ticketCache';
import { COLLISION_TEXT } from '../../components/collaboration/CollisionNotice';
import { agentFiltersAtom, agentPageAtom, agentPageSizeAtom, EMPTY_AGENT_FILTERS } from './filters';

// The dashboard's chunk now carries the queue's views, bulk bar and menus.
allowForLazyPages();

const agent = testUser({ id: 9, name: 'Agent Smith', role: 'agent' });
const STATS: TicketStats = { total: 42, open: 17, in_progress: 11, pending: 0, resolved: 9, closed: 5, urgent: 3 };

const ticket = (overrides: Partial<Ticket> = {}): Ticket => ({
  id: 1,
  title: 'Printer is on fire',
  description: 'Smoke comes out of the printer on floor 3.',
  priority: 'medium',
  category: 'general',
  status: 'open',
  resolutionNotes: null,
  user: { id: 2, name: 'Olive Owner' },
  assignedAgent: null,
  updatedBy: null,
  commentCount: 0,
  answered: false,
  version: 1,
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  lastActivityAt: '2026-01-05T10:00:00.000Z',
  ...overrides,
});

const page = (rows: Ticket[], total = rows.length) => ({ body: { success: true, tickets: rows, data: rows, total, page: 1, limit: 10 } });

/** An agent's server: the session check, the counts and a ticket list, plus any extra routes. */
function agentServer(rows: Ticket[] | ((url: URL) => FakeResponse), extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    'GET /auth/verify': { body: { success: true, user: agent } },
    'GET /tickets/stats': { body: { success: true, stats: STATS } },
    'GET /tickets': typeof rows === 'function' ? ({ url }) => rows(url) : page(rows),
    'GET /users/staff': { body: { success: true, staff: [{ id: agent.id, name: agent.name }] } },
    'GET /views': { body: { success: true, views: [] } },
    'GET /views/counts': { body: { success: true, counts: {} } },
    ...extra,
  });
}

const listCalls = (server: ReturnType<typeof fakeServer>) =>
  server.calls.filter((call) => call.key.startsWith('GET /tickets?') || call.key === 'GET /tickets');
const lastListQuery = (server: ReturnType<typeof fakeServer>) =>
  new URL(listCalls(server).at(-1)?.key.replace('GET ', 'http://x') ?? 'http://x').searchParams;
const rowOf = (id: number) => {
  const row = document.querySelector(`tr[data-ticket-id="${id}"]`);
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ticket #${id}`);
  return row;
};

const statusOfRow = (id: number) => rowOf(id).querySelector('[data-status]')?.getAttribute('data-status');

async function pickOption(label: string, option: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('textbox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => {
  // The table's filters live in the app's store on purpose (they outlive the page); start each test clean.
  store.set(agentFiltersAtom, EMPTY_AGENT_FILTERS);
  store.set(agentPageAtom, 1);
  store.set(agentPageSizeAtom, 10);
});

describe('/agent-dashboard', () => {
  it('greets the agent and shows the five counts of GET /tickets/stats over all tickets', async () => {
    const server = agentServer([ticket()]);
    renderApp('/agent-dashboard', { user: agent });
    expect(await screen.findByRole('heading', { name: 'Agent Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back, Agent Smith')).toBeInTheDocument();
    const expected = { Total: '42', Open: '17', 'In Progress': '11', Resolved: '9', Urgent: '3' };
    for (const [label, value] of Object.entries(expected)) {
      await waitFor(() => expect(within(screen.getByRole('group', { name: label })).getByText(value)).toBeInTheDocument());
    }
    expect(server.calls.map((c) => c.key)).toContain('GET /tickets/stats');
    expect(screen.getByRole('link', { name: 'New Ticket' })).toHaveAttribute('href', '/tickets/new');
  });

  it('asks for the first page of 10 and re-reads counts and table on Refresh', async () => {
    const server = agentServer([ticket()]);
    renderApp('/agent-dashboard', { user: agent });
    await screen.findByText('Printer is on fire');
    expect(lastListQuery(server).get('page')).toBe('1');
    expect(lastListQuery(server).get('limit')).toBe('10');
    const before = { list: listCalls(server).length, stats: server.calls.filter((c) => c.key === 'GET /tickets/stats').length };

    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(listCalls(server).length).toBe(before.list + 1));
    expect(server.calls.filter((c) => c.key === 'GET /tickets/stats').length).toBe(before.stats + 1);
  });

  it("says 'No tickets found' when there are no tickets at all", async () => {
    agentServer([]);
    renderApp('/agent-dashboard', { user: agent });
    expect(await screen.findByText('No tickets found')).toBeInTheDocument();
    expect(screen.queryByText('No tickets match your filters')).not.toBeInTheDocument();
  });

  it("says 'No tickets match your filters' when a filter finds nothing, and Clear Filters brings the rows back", async () => {
    const server = agentServer((url) => page(url.searchParams.get('priority') === 'urgent' ? [] : [ticket()]));
    renderApp('/agent-dashboard', { user: agent });
    await screen.findByText('Printer is on fire');
    await pickOption('Priority', 'Urgent');
    expect(await screen.findByText('No tickets match your filters')).toBeInTheDocument();
    expect(screen.queryByText('No tickets found')).not.toBeInTheDocument();
    expect(lastListQuery(server).get('priority')).toBe('urgent');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(await screen.findByText('Printer is on fire')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Priority' })).toHaveValue('');
  });

  it("falls back to 'No Title' and 'Unknown' and shows the first 50 characters of the description", async () => {
    const description = 'A'.repeat(40) + 'B'.repeat(10) + 'C'.repeat(30);
    const nameless = { ...ticket({ id: 3, title: '', description }), user: undefined } as unknown as Ticket;
    agentServer([nameless]);
    renderApp('/agent-dashboard', { user: agent });
    const row = await waitFor(() => rowOf(3));
    expect(within(row).getByText('No Title')).toBeInTheDocument();
    expect(within(row).getByText('Unknown')).toBeInTheDocument();
    expect(within(row).getByText('#3')).toBeInTheDocument();
    expect(within(row).getByTestId('ticket-excerpt')).toHaveTextContent(/^A{40}B{10}\.\.\.$/);
  });

  it('offers Start and Reply on open, Resolve and Reply in progress, and none of them on resolved or closed tickets', async () => {
    agentServer([
      ticket({ id: 1, status: 'open' }),
      ticket({ id: 2, status: 'in_progress' }),
      ticket({ id: 3, status: 'resolved' }),
      ticket({ id: 4, status: 'closed' }),
    ]);
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() => rowOf(4));
    const names = (id: number) => Array.from(rowOf(id).querySelectorAll('a, button'), (el) => el.getAttribute('aria-label'));

    // The assignment menu (the queue's) and the labelled More menu (View details, Update) end every row.
    expect(names(1)).toEqual(['Quick reply to ticket #1', 'Start ticket #1', 'Assign ticket #1', 'More actions for ticket #1']);
    expect(names(2)).toEqual(['Quick reply to ticket #2', 'Resolve ticket #2', 'Assign ticket #2', 'More actions for ticket #2']);
    expect(names(3)).toEqual(['Assign ticket #3', 'More actions for ticket #3']);
    expect(names(4)).toEqual(['Assign ticket #4', 'More actions for ticket #4']);
    await userEvent.setup().click(within(rowOf(1)).getByRole('button', { name: 'More actions for ticket #1' }));
    expect(await screen.findByRole('menuitem', { name: 'View details of ticket #1' })).toHaveAttribute('href', '/ticket/1');
    expect(screen.getByRole('menuitem', { name: 'Update ticket #1' })).toHaveAttribute('href', '/agent/ticket/1/update');
  });

  it('hides the Assign tip while its menu is open, so the tip never covers the menu', async () => {
    agentServer([ticket({ id: 1, status: 'open' })]);
    renderApp('/agent-dashboard', { user: agent });
    const user = userEvent.setup();
    const assign = await waitFor(() => within(rowOf(1)).getByRole('button', { name: 'Assign ticket #1' }));
    const tip = () => document.querySelector('.mantine-Tooltip-tooltip');
    await user.hover(assign);
    await waitFor(() => expect(tip()).toHaveTextContent('Assign'));
    await user.click(assign);
    expect(await screen.findByRole('menuitem', { name: 'Assign to me' })).toBeInTheDocument();
    await waitFor(() => expect(tip()).toBeNull());
  });

  it('goes back to page 1 on any filter change', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ticket({ id: i + 1, title: `Ticket number ${i + 1}` }));
    const server = agentServer(() => page(rows, 35));
    renderApp('/agent-dashboard', { user: agent });
    // The first test to open the page pays for loading it; a busy shared machine can take longer than the default wait.
    await screen.findByText('Showing 1–10 of 35', {}, { timeout: 15_000 });
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(lastListQuery(server).get('page')).toBe('3'));
    expect(await screen.findByText('Showing 21–30 of 35')).toBeInTheDocument();
    await pickOption('Status', 'In Progress');
    await waitFor(() => expect(lastListQuery(server).get('status')).toBe('in_progress'));
    expect(lastListQuery(server).get('page')).toBe('1');

    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(lastListQuery(server).get('page')).toBe('2'));
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'printer');
    await waitFor(() => expect(lastListQuery(server).get('search')).toBe('printer'));
    expect(lastListQuery(server).get('page')).toBe('1');
    // Debounced: the server is asked for the finished word, not for every letter.
    expect(
      listCalls(server)
        .filter((c) => c.key.includes('search='))
        .map((c) => new URL(`http://x${c.key.slice(4)}`).searchParams.get('search')),
    ).toEqual(['printer']);
  }, 40_000);

  it('keeps the filters and page when the agent comes back to the dashboard', async () => {
    const server = agentServer(() => page([ticket()], 35));
    const first = renderApp('/agent-dashboard', { user: agent });
    await screen.findByText('Printer is on fire');
    await pickOption('Status', 'Open');
    await userEvent.setup().click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(lastListQuery(server).get('page')).toBe('2'));
    first.unmount();

    const again = agentServer(() => page([ticket()], 35));
    renderApp('/agent-dashboard', { user: agent });
    await screen.findByText('Printer is on fire');
    expect(screen.getByRole('textbox', { name: 'Status' })).toHaveValue('Open');
    expect(lastListQuery(again).get('status')).toBe('open');
    expect(lastListQuery(again).get('page')).toBe('2');
  });

  it('offers 5, 10, 25 and 50 rows per page, 10 by default, and re-cuts from page 1', async () => {
    const server = agentServer(() => page([ticket()], 80));
    renderApp('/agent-dashboard', { user: agent });
    await screen.findByText('Printer is on fire');
    const size = screen.getByRole('textbox', { name: 'Rows per page' });
    expect(size).toHaveValue('10');
    await userEvent.setup().click(screen.getByRole('button', { name: '4' }));
    await waitFor(() => expect(lastListQuery(server).get('page')).toBe('4'));

    await userEvent.setup().click(size);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['5', '10', '25', '50']);
    await userEvent.setup().click(screen.getByRole('option', { name: '25' }));
    await waitFor(() => expect(lastListQuery(server).get('limit')).toBe('25'));
    expect(lastListQuery(server).get('page')).toBe('1');
    expect(await screen.findByText('Showing 1–25 of 80')).toBeInTheDocument();
  });

  it('returns the focus to the row button when Quick Reply closes, and starts each reply empty', async () => {
    agentServer([ticket({ id: 5 })]);
    renderApp('/agent-dashboard', { user: agent });
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Quick reply to ticket #5' });
    button.focus();
    await user.keyboard('{Enter}');
    const box = await screen.findByRole('textbox', { name: 'Your response' });
    await waitFor(() => expect(box).toHaveFocus());
    await user.type(box, 'Half a thought');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Your response' })).not.toBeInTheDocument());
    await waitFor(() => expect(button).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('textbox', { name: 'Your response' })).toHaveValue('');
  });

  it('ignores a blank quick reply and posts a real one as a comment', async () => {
    const server = agentServer([ticket({ id: 5 })], {
      'POST /tickets/5/comments': ({ body }) => ({
        status: 201,
        body: {
          success: true,
          comment: {
            id: 1,
            ticketId: 5,
            content: (body as { content: string }).content,
            author: { id: 9, name: 'Agent Smith', role: 'agent' },
            createdAt: '2026-01-05T11:00:00.000Z',
          },
        },
      }),
    });
    renderApp('/agent-dashboard', { user: agent });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Quick reply to ticket #5' }));
    const box = await screen.findByRole('textbox', { name: 'Your response' });
    await user.type(box, '   ');
    await user.click(screen.getByRole('button', { name: 'Send Reply' }));
    expect(server.calls.some((c) => c.key.startsWith('POST'))).toBe(false);

    await user.clear(box);
    await user.type(box, '  We are on it  ');
    await user.click(screen.getByRole('button', { name: 'Send Reply' }));
    expect(await screen.findByText('Reply sent')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.key.startsWith('POST'))).toMatchObject([
      { key: 'POST /tickets/5/comments', body: { content: 'We are on it' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Your response' })).not.toBeInTheDocument());
  });

  it('holds a quick reply back when a colleague replied meanwhile, showing the reply, and sends it anyway on request', async () => {
    const queryClient = createQueryClient();
    const server = agentServer([ticket({ id: 5 })], {
      'GET /tickets/5': detailBody(aDetail({ ...ticket({ id: 5 }), comments: [], history: [] })),
      'POST /tickets/5/comments': {
        status: 201,
        body: { success: true, comment: aComment({ id: 8, ticketId: 5, author: { ...agent, role: 'agent' } }) },
      },
    });
    renderApp('/agent-dashboard', { user: agent, queryClient });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Quick reply to ticket #5' }));
    await screen.findByText('No comments yet.');
    await user.type(screen.getByRole('textbox', { name: 'Your response' }), 'We are on it');
    const colleague = { id: 4, name: 'Bea Backup', role: 'agent' as const };
    act(() =>
      applyCommentAdded(queryClient, {
        ticketId: 5,
        comment: aComment({ id: 7, ticketId: 5, content: 'Already fixed it remotely.', author: colleague }),
        history: aHistoryEntry({ id: 9, ticketId: 5, type: 'comment', to: '7' }),
        commentCount: 1,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Send Reply' }));
    const held = await screen.findByRole('alert', { name: COLLISION_TEXT.title });
    expect(within(held).getByText('Bea Backup replied')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key === 'POST /tickets/5/comments')).toBe(false);
    await user.click(within(held).getByRole('button', { name: COLLISION_TEXT.sendAnyway }));
    await waitFor(() => expect(server.calls.filter((c) => c.key === 'POST /tickets/5/comments')).toHaveLength(1));
  });

  it("says 'Failed to add comment' when the reply is refused, keeping the text", async () => {
    agentServer([ticket({ id: 5 })], {
      'POST /tickets/5/comments': {
        status: 500,
        body: { success: false, message: 'Something went wrong on our side. Please try again later.' },
      },
    });
    renderApp('/agent-dashboard', { user: agent });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Quick reply to ticket #5' }));
    await user.type(await screen.findByRole('textbox', { name: 'Your response' }), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send Reply' }));
    expect(await screen.findByText('Failed to add comment')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your response' })).toHaveValue('Hello');
  });

  it('Start sends PUT {status: in_progress}, shows the new status on the row and re-reads the counts', async () => {
    const rows = [ticket({ id: 7, status: 'open' })];
    const server = agentServer(() => page(rows), {
      'PUT /tickets/7': ({ body }) => {
        rows[0] = { ...rows[0]!, ...(body as Partial<Ticket>), version: rows[0]!.version + 1 };
        return { body: { success: true, ticket: rows[0], message: 'Ticket updated successfully!' } };
      },
    });
    renderApp('/agent-dashboard', { user: agent });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Start ticket #7' }));
    await waitFor(() => expect(statusOfRow(7)).toBe('in_progress'));
    expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toEqual({ status: 'in_progress' });
    expect(within(rowOf(7)).getByRole('button', { name: 'Resolve ticket #7' })).toBeInTheDocument();
    expect(within(rowOf(7)).queryByRole('button', { name: 'Start ticket #7' })).not.toBeInTheDocument();
    const putAt = server.calls.findIndex((c) => c.key === 'PUT /tickets/7');
    await waitFor(() => expect(server.calls.slice(putAt).some((c) => c.key === 'GET /tickets/stats')).toBe(true));
  });

  it('Resolve sends PUT {status: resolved} and the row loses its quick actions', async () => {
    const rows = [ticket({ id: 8, status: 'in_progress' })];
    const server = agentServer(() => page(rows), {
      'PUT /tickets/8': () => {
        rows[0] = { ...rows[0]!, status: 'resolved', version: rows[0]!.version + 1 };
        return { body: { success: true, ticket: rows[0], message: 'Ticket updated successfully!' } };
      },
    });
    renderApp('/agent-dashboard', { user: agent });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Resolve ticket #8' }));
    await waitFor(() => expect(statusOfRow(8)).toBe('resolved'));
    expect(server.calls.find((c) => c.key === 'PUT /tickets/8')?.body).toEqual({ status: 'resolved' });
    expect(within(rowOf(8)).queryByRole('button', { name: /Quick reply|Start|Resolve/ })).not.toBeInTheDocument();
  });

  it("says 'Failed to update ticket status' and keeps the row when the change is refused", async () => {
    agentServer([ticket({ id: 7, status: 'open' })], {
      'PUT /tickets/7': { status: 500, body: { success: false, message: 'Something went wrong on our side. Please try again later.' } },
    });
    renderApp('/agent-dashboard', { user: agent });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Start ticket #7' }));
    expect(await screen.findByText('Failed to update ticket status')).toBeInTheDocument();
    expect(statusOfRow(7)).toBe('open');
  });

  it("says 'Failed to load tickets. Please try again later.' when the list cannot be read", async () => {
    agentServer(() => ({ status: 500, body: { success: false, message: 'Something went wrong on our side. Please try again later.' } }));
    renderApp('/agent-dashboard', { user: agent });
    expect(await screen.findByText('Failed to load tickets. Please try again later.')).toBeInTheDocument();
  });

  it('shows a plain user the permission text and loads no tickets', async () => {
    const server = fakeServer({ 'GET /auth/verify': { body: { success: true, user: testUser() } } });
    renderApp('/agent-dashboard', { user: testUser() });
    expect(
      await screen.findByText(
        "You don't have permission to access this page. Please contact an administrator if you believe this is an error.",
      ),
    ).toBeInTheDocument();
    expect(server.calls.map((c) => c.key)).toEqual(['GET /auth/verify']);
  });

  it('lets an admin in too', async () => {
    agentServer([ticket()], { 'GET /auth/verify': { body: { success: true, user: testUser({ role: 'admin', name: 'Ada Admin' }) } } });
    renderApp('/agent-dashboard', { user: testUser({ role: 'admin', name: 'Ada Admin' }) });
    expect(await screen.findByText('Welcome back, Ada Admin')).toBeInTheDocument();
    expect(await screen.findByText('Printer is on fire')).toBeInTheDocument();
  });
});
