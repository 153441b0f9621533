import { LIMITS, type CannedResponse, type Ticket, type View } from '@helpdesk/protocol';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../App';
import { createQueryClient } from '../../api/queryClient';
import { applyPushedViewCounts, moveViewCounts } from '../../api/viewCountCache';
import { sessionAtom } from '../../state/session';
import { store } from '../../state/store';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { agent, allowForLazyPages, aTicket, owner } from '../../test-utils/ticketFixtures';
import { bulkResultText } from './BulkBar';
import { CannedResponsePicker } from '../../components/collaboration/CannedResponsePicker';
import { agentQueryAtom } from '../../state/agentQuery';
import { agentFiltersAtom, agentPageAtom, agentPageSizeAtom, EMPTY_AGENT_FILTERS } from './filters';

allowForLazyPages();

const STATS = { total: 3, open: 3, in_progress: 0, resolved: 0, closed: 0, urgent: 1 };
const VIEWS: View[] = [
  { id: -1, name: 'My open tickets', filters: { status: 'open', assignee: 'me' }, shared: true, builtIn: true, owner: null },
  { id: -2, name: 'Unassigned', filters: { assignee: 'none' }, shared: true, builtIn: true, owner: null },
  { id: 5, name: 'Printers', filters: { search: 'printer' }, sort: '-priority', shared: false, owner: { id: agent.id, name: agent.name } },
];
const rows: Ticket[] = [
  aTicket({ id: 1, title: 'First ticket here', unread: true }),
  aTicket({ id: 2, title: 'Second ticket here', assignedAgent: { id: agent.id, name: agent.name } }),
  aTicket({ id: 3, title: 'Third ticket here', status: 'closed' }),
];
const page = (data: Ticket[]) => ({ body: { success: true, tickets: data, data, total: data.length, page: 1, limit: 10 } });

function queueServer(counts: () => Record<string, number>, extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    'GET /auth/verify': { body: { success: true, user: agent } },
    'GET /tickets/stats': { body: { success: true, stats: STATS } },
    'GET /tickets': page(rows),
    'GET /users/staff': {
      body: {
        success: true,
        staff: [
          { id: agent.id, name: agent.name },
          { id: 9, name: 'Bea Backup' },
        ],
      },
    },
    'GET /views': { body: { success: true, views: VIEWS } },
    'GET /views/counts': () => ({ body: { success: true, counts: counts() } }),
    ...extra,
  });
}
const listQueries = (server: ReturnType<typeof fakeServer>) =>
  server.calls.filter((c) => c.key.startsWith('GET /tickets?')).map((c) => new URL(c.key.replace('GET ', 'http://x')).searchParams);
const rowOf = (id: number) => document.querySelector<HTMLElement>(`tr[data-ticket-id="${id}"]`)!;
type Server = ReturnType<typeof fakeServer>;
type User = ReturnType<typeof userEvent.setup>;

/** Picks a filter box's option, then waits for the list to ask for it and the address to keep it. */
async function pickFilter(user: User, server: Server, box: string, option: string, [param, value]: [string, string]) {
  await user.click(screen.getByRole('textbox', { name: box }));
  await user.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(listQueries(server).at(-1)?.get(param)).toBe(value));
  await waitFor(() => expect(window.location.search).toContain(`${param}=${value}`));
}

/** Saves the table's filters and sort as a view named `name`; answers the body it posted. */
async function saveCurrentView(user: User, server: Server, name: string): Promise<unknown> {
  await user.click(screen.getByRole('button', { name: 'Save current view' }));
  await user.type(await screen.findByRole('textbox', { name: 'View name' }), name);
  await user.click(screen.getByRole('button', { name: 'Save view' }));
  await waitFor(() => expect(server.calls.some((c) => c.key === 'POST /views')).toBe(true));
  return server.calls.find((c) => c.key === 'POST /views')?.body;
}

beforeEach(() => {
  store.set(agentFiltersAtom, EMPTY_AGENT_FILTERS);
  store.set(agentPageAtom, 1);
  store.set(agentPageSizeAtom, 10);
  store.set(agentQueryAtom, { ...store.get(agentQueryAtom), sort: { field: 'createdAt', descending: true } });
});

describe('agent table', () => {
  it('sorts by a clicked header, says so with aria-sort, keeps it in the address, and shows unread rows in bold', async () => {
    const server = queueServer(() => ({}));
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(rowOf(1)).toHaveAttribute('data-unread', 'true');
    expect(rowOf(2)).not.toHaveAttribute('data-unread');
    expect(within(rowOf(2)).getByTestId('ticket-assignee')).toHaveTextContent(agent.name);
    expect(within(rowOf(1)).getByTestId('ticket-assignee')).toHaveTextContent('Unassigned');

    const header = screen.getByRole('columnheader', { name: /Priority/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('columnheader', { name: /Created/ })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.setup().click(within(header).getByRole('button'));
    await waitFor(() => expect(listQueries(server).at(-1)?.get('sort')).toBe('-priority'));
    expect(screen.getByRole('columnheader', { name: /Priority/ })).toHaveAttribute('aria-sort', 'descending');
    await waitFor(() => expect(window.location.search).toContain('sort=-priority'));
    await userEvent.setup().click(within(screen.getByRole('columnheader', { name: /Priority/ })).getByRole('button'));
    await waitFor(() => expect(listQueries(server).at(-1)?.get('sort')).toBe('priority'));
  });

  it('selects the page, changes the selection in bulk and says how many changed and which failed and why', async () => {
    const server = queueServer(() => ({}), {
      'POST /tickets/bulk': () => ({
        body: {
          success: true,
          updated: [
            { ...rows[0], status: 'resolved', version: 2 },
            { ...rows[1], status: 'resolved', version: 2 },
          ],
          failed: [{ id: 3, message: 'Closed tickets are not changed in bulk: reopen it from its own update screen' }],
        },
      }),
    });
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select all tickets on this page' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('3 selected')).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Apply to 3' })).toBeDisabled();
    await user.click(within(bar).getByRole('textbox', { name: 'Set status' }));
    await user.click(await screen.findByRole('option', { name: 'Resolved' }));
    await user.click(within(bar).getByRole('button', { name: 'Apply to 3' }));

    await waitFor(() => expect(server.calls.some((c) => c.key === 'POST /tickets/bulk')).toBe(true));
    expect(server.calls.find((c) => c.key === 'POST /tickets/bulk')?.body).toEqual({ ids: [1, 2, 3], changes: { status: 'resolved' } });
    expect(await screen.findByText('2 tickets updated, 1 failed')).toBeInTheDocument();
    expect(screen.getByText('#3: Closed tickets are not changed in bulk: reopen it from its own update screen')).toBeInTheDocument();
    // The failed ticket stays selected, to try another change on it.
    expect(within(screen.getByRole('region', { name: 'Bulk actions' })).getByText('1 selected')).toBeInTheDocument();
  });

  it('adds and removes tags in bulk, offering the tags in use, lower-cased', async () => {
    const server = queueServer(() => ({}), {
      'GET /tags': { body: { success: true, tags: [{ tag: 'legacy', count: 3 }] } },
      'POST /tickets/bulk': () => ({ body: { success: true, updated: rows.slice(0, 2), failed: [] } }),
    });
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    const user = userEvent.setup();
    await user.click(within(rowOf(1)).getByRole('checkbox'));
    await user.click(within(rowOf(2)).getByRole('checkbox'));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await user.type(within(bar).getByRole('textbox', { name: 'Add tags' }), 'VIP{Enter}bad tag!{Enter}');
    const remove = within(bar).getByRole('textbox', { name: 'Remove tags' });
    await user.click(remove);
    await user.click(await screen.findByRole('option', { name: 'legacy' }));
    await user.click(within(bar).getByRole('button', { name: 'Apply to 2' }));
    await waitFor(() => expect(server.calls.some((c) => c.key === 'POST /tickets/bulk')).toBe(true));
    expect(server.calls.find((c) => c.key === 'POST /tickets/bulk')?.body).toEqual({
      ids: [1, 2],
      changes: { addTags: ['vip'], removeTags: ['legacy'] },
    });
    expect(await screen.findByText('2 tickets updated')).toBeInTheDocument();
    // The tags in use changed: the suggestions are read again.
    await waitFor(() => expect(server.calls.filter((c) => c.key === 'GET /tags')).toHaveLength(2));
  });

  it('filters by a tag from the Tag box, saves it in a view, and opens a tag view', async () => {
    const tagView: View = { id: 6, name: 'VIPs', filters: { tag: 'vip' }, shared: false, owner: { id: agent.id, name: agent.name } };
    const server = queueServer(() => ({}), {
      'GET /tags': {
        body: {
          success: true,
          tags: [
            { tag: 'printer', count: 4 },
            { tag: 'vip', count: 2 },
          ],
        },
      },
      'GET /views': { body: { success: true, views: [...VIEWS, tagView] } },
      'POST /views': ({ body }) => ({
        status: 201,
        body: { success: true, view: { id: 7, shared: false, owner: null, ...(body as object) } },
      }),
    });
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    const user = userEvent.setup();
    await pickFilter(user, server, 'Tag', 'printer', ['tag', 'printer']);
    expect(await saveCurrentView(user, server, 'Printers tagged')).toMatchObject({ name: 'Printers tagged', filters: { tag: 'printer' } });

    const nav = screen.getByRole('navigation', { name: 'Saved views' });
    await user.click(within(nav).getByRole('button', { name: /^VIPs/ }));
    await waitFor(() => expect(listQueries(server).at(-1)?.get('tag')).toBe('vip'));
    expect(within(nav).getByRole('button', { name: /^VIPs/ })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('textbox', { name: 'Tag' })).toHaveValue('vip');
  });

  it('filters by category, saves it in a view, opens a category view, and sets a category in bulk', async () => {
    const billingView: View = {
      id: 8,
      name: 'Billing',
      filters: { category: 'billing' },
      shared: false,
      owner: { id: agent.id, name: agent.name },
    };
    const server = queueServer(() => ({}), {
      'GET /views': { body: { success: true, views: [...VIEWS, billingView] } },
      'POST /views': ({ body }) => ({
        status: 201,
        body: { success: true, view: { id: 9, shared: false, owner: null, ...(body as object) } },
      }),
      'POST /tickets/bulk': () => ({ body: { success: true, updated: rows.slice(0, 2), failed: [] } }),
    });
    renderApp('/agent-dashboard', { user: agent });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    // Each row shows its category beside the excerpt.
    expect(within(rowOf(1)).getByText('General')).toBeInTheDocument();
    const user = userEvent.setup();
    await pickFilter(user, server, 'Category', 'Technical', ['category', 'technical']);
    expect(await saveCurrentView(user, server, 'Technical')).toMatchObject({ name: 'Technical', filters: { category: 'technical' } });

    const nav = screen.getByRole('navigation', { name: 'Saved views' });
    await user.click(within(nav).getByRole('button', { name: /^Billing/ }));
    await waitFor(() => expect(listQueries(server).at(-1)?.get('category')).toBe('billing'));
    expect(within(nav).getByRole('button', { name: /^Billing/ })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('textbox', { name: 'Category' })).toHaveValue('Billing');

    await user.click(within(rowOf(1)).getByRole('checkbox'));
    await user.click(within(rowOf(2)).getByRole('checkbox'));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await user.click(within(bar).getByRole('textbox', { name: 'Set category' }));
    await user.click(await screen.findByRole('option', { name: 'Account' }));
    await user.click(within(bar).getByRole('button', { name: 'Apply to 2' }));
    await waitFor(() => expect(server.calls.some((c) => c.key === 'POST /tickets/bulk')).toBe(true));
    expect(server.calls.find((c) => c.key === 'POST /tickets/bulk')?.body).toEqual({ ids: [1, 2], changes: { category: 'account' } });
  });

  it('phrases bulk results', () => {
    expect(bulkResultText({ updated: [aTicket()], failed: [] })).toBe('1 ticket updated');
    expect(bulkResultText({ updated: [], failed: [{ id: 1, message: 'x' }] })).toBe('0 tickets updated, 1 failed');
  });
});

describe('capped counts', () => {
  const cap = LIMITS.ticketList.countCap;

  it('shows the count cards stopped at the cap as "10,000+", and the rest as they are', async () => {
    queueServer(() => ({}), {
      'GET /tickets/stats': {
        body: {
          success: true,
          stats: { total: cap, open: cap, in_progress: 40, pending: 0, resolved: 7, closed: 0, urgent: 120 },
          totalCapped: true,
        },
      },
    });
    renderApp('/agent-dashboard', { user: agent });
    const card = (key: string) => screen.getByTestId(`count-${key}`);
    await waitFor(() => expect(within(card('total')).getByText('10,000+')).toBeInTheDocument());
    expect(within(card('open')).getByText('10,000+')).toBeInTheDocument();
    expect(within(card('in_progress')).getByText('40')).toBeInTheDocument();
    expect(within(card('urgent')).getByText('120')).toBeInTheDocument();
  });

  it('shows a searched view counted to the cap as "10,000+", a view counted exactly as its number', async () => {
    queueServer(() => ({ '-1': 4, '-2': cap, '5': cap }));
    renderApp('/agent-dashboard', { user: agent });
    const nav = await screen.findByRole('navigation', { name: 'Saved views' });
    await waitFor(() => expect(within(nav).getByTestId('view-count-5')).toHaveTextContent('10,000+'));
    expect(within(nav).getByTestId('view-count--2')).toHaveTextContent(/^10000$/);
    expect(within(nav).getByTestId('view-count--1')).toHaveTextContent(/^4$/);
  });
});

describe('view list', () => {
  it('returns the focus to "Save current view" when its dialog closes, and starts each naming empty', async () => {
    queueServer(() => ({}));
    renderApp('/agent-dashboard', { user: agent });
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Save current view' });
    button.focus();
    await user.keyboard('{Enter}');
    const name = await screen.findByRole('textbox', { name: 'View name' });
    await waitFor(() => expect(name).toHaveFocus());
    await user.type(name, 'Half');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'View name' })).not.toBeInTheDocument());
    await waitFor(() => expect(button).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('textbox', { name: 'View name' })).toHaveValue('');
  });

  it('shows each view with its count, follows ticket events and pushed counts without a request, and opens a view as filters', async () => {
    const client = createQueryClient();
    const server = queueServer(() => ({ '-1': 4, '-2': 7, '5': 2 }));
    renderApp('/agent-dashboard', { user: agent, queryClient: client });
    const nav = await screen.findByRole('navigation', { name: 'Saved views' });
    await waitFor(() => expect(within(nav).getByTestId('view-count--2')).toHaveTextContent('7'));
    expect(within(nav).getByTestId('view-count--1')).toHaveTextContent('4');
    expect(within(nav).getByTestId('view-count-5')).toHaveTextContent('2');
    const reads = () => server.calls.filter((c) => c.key === 'GET /views/counts').length;
    const readsBefore = reads();

    // A colleague assigns an open ticket to this agent: it leaves Unassigned and joins My open tickets.
    const assigned = aTicket({ id: 40, assignedAgent: { id: agent.id, name: agent.name }, version: 2 });
    moveViewCounts(
      client,
      { action: 'updated', ticket: assigned, by: { id: 9, name: 'Bea Backup' }, previous: { assignedAgent: null }, history: [] },
      agent.id,
    );
    await waitFor(() => expect(within(nav).getByTestId('view-count--1')).toHaveTextContent('5'));
    expect(within(nav).getByTestId('view-count--2')).toHaveTextContent('6');
    // The searched view is the server's to count: it changes when the server pushes it.
    expect(within(nav).getByTestId('view-count-5')).toHaveTextContent('2');
    applyPushedViewCounts(client, { counts: { '5': 3 } });
    await waitFor(() => expect(within(nav).getByTestId('view-count-5')).toHaveTextContent('3'));
    expect(reads()).toBe(readsBefore);

    await userEvent.setup().click(within(nav).getByRole('button', { name: /^Printers/ }));
    await waitFor(() => expect(listQueries(server).at(-1)?.get('search')).toBe('printer'));
    expect(listQueries(server).at(-1)?.get('sort')).toBe('-priority');
    expect(within(nav).getByRole('button', { name: /^Printers/ })).toHaveAttribute('aria-current', 'true');
  });
});

describe('CannedResponsePicker', () => {
  const CANNED: CannedResponse[] = [
    { id: 1, title: 'Greeting', content: 'Hi {{customer.name}}, thanks for #{{ticket.id}}', shared: false, owner: agent },
    { id: 2, title: 'Sign-off', content: 'Regards, {{ agent.name }} about "{{ticket.title}}"', shared: true, owner: agent },
  ];

  it('filters as you type and inserts the pick with its placeholders filled', async () => {
    fakeServer({ 'GET /canned-responses': { body: { success: true, cannedResponses: CANNED } } });
    store.set(sessionAtom, { token: 't', user: agent });
    const onInsert = vi.fn();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <CannedResponsePicker
          ticketId={42}
          ticket={{ id: 42, title: 'Printer jam', user: { id: owner.id, name: 'Olive' } }}
          onInsert={onInsert}
        />
      </AppProviders>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Insert canned response' }));
    await screen.findByText('Greeting');
    // A list whose items each hold a button: heard as both.
    const items = within(screen.getByRole('list', { name: 'Canned responses' })).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('button').textContent)).toEqual([
      'GreetingHi {{customer.name}}, thanks for #{{ticket.id}}',
      'Sign-offRegards, {{ agent.name }} about "{{ticket.title}}"',
    ]);
    await user.type(screen.getByRole('textbox', { name: 'Filter canned responses' }), 'regards');
    expect(screen.queryByText('Greeting')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Sign-off/ }));
    expect(onInsert).toHaveBeenCalledWith('Regards, Agent Smith about "Printer jam"');

    await user.click(screen.getByRole('button', { name: 'Insert canned response' }));
    await user.type(await screen.findByRole('textbox', { name: 'Filter canned responses' }), 'greet{Enter}');
    expect(onInsert).toHaveBeenLastCalledWith('Hi Olive, thanks for #42');
    // Picked by keyboard: the focus is back on the picker, not lost to the page.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Insert canned response' })).toHaveFocus());
  });

  it('gives the focus back to "New canned response" when its dialog closes, and opens empty each time', async () => {
    fakeServer({ 'GET /canned-responses': { body: { success: true, cannedResponses: CANNED } } });
    renderApp('/agent/canned-responses', { user: agent });
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'New canned response' });
    button.focus();
    await user.keyboard('{Enter}');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    await waitFor(() => expect(title).toHaveFocus());
    await user.type(title, 'Half');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Title' })).not.toBeInTheDocument());
    await waitFor(() => expect(button).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveValue('');
  });

  it('is not there for a user', () => {
    store.set(sessionAtom, { token: 't', user: owner });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <CannedResponsePicker ticketId={1} onInsert={() => undefined} />
      </AppProviders>,
    );
    expect(screen.queryByRole('button', { name: 'Insert canned response' })).not.toBeInTheDocument();
  });
});
