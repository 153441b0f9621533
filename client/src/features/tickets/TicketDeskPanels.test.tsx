import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import {
  agent,
  allowForLazyPages,
  aComment,
  aDetail,
  aHistoryEntry,
  aTicket,
  detailBody,
  owner,
  verified,
} from '../../test-utils/ticketFixtures';
import { draftKey } from '../../components/collaboration/useDraft';
import { accountAge } from './RequesterPanel';
import { withMergeLink } from './MergeLinks';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';

allowForLazyPages();

const STAFF = {
  body: {
    success: true,
    staff: [
      { id: agent.id, name: agent.name },
      { id: 9, name: 'Bea Backup' },
    ],
  },
};
const requesterTickets = {
  body: {
    success: true,
    requester: { id: owner.id, name: owner.name, email: owner.email, createdAt: '2025-12-01T00:00:00.000Z' },
    tickets: [aTicket({ id: 7 }), aTicket({ id: 3, title: 'Mouse double-clicks', status: 'resolved' })],
  },
};

function staffPage(routes: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    ...verified(agent),
    'GET /tickets/7': detailBody(aDetail({ tags: ['printer'] })),
    'GET /users/staff': STAFF,
    'GET /users/1/tickets': requesterTickets,
    'GET /tags': {
      body: {
        success: true,
        tags: [
          { tag: 'printer', count: 4 },
          { tag: 'billing', count: 2 },
        ],
      },
    },
    'GET /canned-responses': { body: { success: true, responses: [] } },
    ...routes,
  });
}

describe('ticket side panel (staff)', () => {
  it('changes status, priority, category and assignee in place, on the version shown, and stays on the ticket', async () => {
    const server = staffPage({
      'PUT /tickets/7': ({ body }) => ({
        body: { success: true, ticket: { ...aTicket(), ...(body as object), version: 2 }, message: 'ok' },
      }),
    });
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const user = userEvent.setup();
    await user.click(within(panel).getByRole('textbox', { name: 'Status' }));
    // Every status is offered, closed too.
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Open',
      'In Progress',
      'Waiting on customer',
      'Resolved',
      'Closed',
    ]);
    await user.click(screen.getByRole('option', { name: 'Closed' }));
    await waitFor(() =>
      expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toEqual({ status: 'closed', expectedVersion: 1 }),
    );
    await user.click(within(panel).getByRole('textbox', { name: 'Priority' }));
    await user.click(screen.getByRole('option', { name: 'Urgent' }));
    await waitFor(() => expect(server.calls.filter((c) => c.key === 'PUT /tickets/7').at(-1)?.body).toMatchObject({ priority: 'urgent' }));
    const category = within(panel).getByRole('textbox', { name: 'Category' });
    expect(category).toHaveValue('General');
    await user.click(category);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['General', 'Technical', 'Billing', 'Account', 'Other']);
    await user.click(screen.getByRole('option', { name: 'Billing' }));
    await waitFor(() => expect(server.calls.filter((c) => c.key === 'PUT /tickets/7').at(-1)?.body).toMatchObject({ category: 'billing' }));
    expect(window.location.pathname).toBe('/ticket/7');
  });

  it('shows the conflict review when someone else changed the ticket first, and re-applies on the new version', async () => {
    let puts = 0;
    const server = staffPage({
      'PUT /tickets/7': ({ body }) => {
        puts += 1;
        if (puts === 1) {
          return {
            status: 409,
            body: {
              success: false,
              message: 'This ticket was changed by someone else. Review the current version and try again.',
              ticket: aTicket({ status: 'in_progress', version: 3, updatedBy: { id: 9, name: 'Bea Backup' } }),
            },
          };
        }
        return { body: { success: true, ticket: { ...aTicket(), ...(body as object), version: 4 }, message: 'ok' } };
      },
    });
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const user = userEvent.setup();
    await user.click(within(panel).getByRole('textbox', { name: 'Priority' }));
    await user.click(screen.getByRole('option', { name: 'High' }));
    const conflict = await within(panel).findByTestId('conflict');
    expect(within(conflict).getByText(/Bea Backup/)).toBeInTheDocument();
    await user.click(within(conflict).getByRole('button', { name: 'Re-apply my changes' }));
    await waitFor(() =>
      expect(server.calls.filter((c) => c.key === 'PUT /tickets/7').at(-1)?.body).toEqual({ priority: 'high', expectedVersion: 3 }),
    );
  });

  it('sets tags from suggestions, lower-cased', async () => {
    const server = staffPage({
      'PUT /tickets/7': ({ body }) => ({
        body: { success: true, ticket: { ...aTicket(), ...(body as object), version: 2 }, message: 'ok' },
      }),
    });
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const user = userEvent.setup();
    await user.type(within(panel).getByRole('textbox', { name: 'Tags' }), 'Billing{Enter}');
    await waitFor(() =>
      expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toEqual({ tags: ['printer', 'billing'], expectedVersion: 1 }),
    );
  });
});

/** Holds every PUT until `release` is called, so a test can act while a change is saving. */
function holdPuts() {
  const inner = globalThis.fetch;
  const held: (() => void)[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) =>
    init.method?.toUpperCase() === 'PUT'
      ? new Promise<Response>((resolve) => held.push(() => resolve(inner(input, init))))
      : inner(input, init),
  );
  return {
    pending: () => held.length,
    release: () => held.splice(0).forEach((go) => go()),
  };
}

describe('ticket side panel while a change saves', () => {
  it('keeps focus in a box whose change is saving, so the next key is not a page shortcut', async () => {
    const server = staffPage({
      'PUT /tickets/7': ({ body }) => ({
        body: { success: true, ticket: { ...aTicket(), ...(body as object), version: 2 }, message: 'ok' },
      }),
    });
    const gate = holdPuts();
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const user = userEvent.setup();
    const status = within(panel).getByRole('textbox', { name: 'Status' });
    await user.click(status);
    await user.click(screen.getByRole('option', { name: 'In Progress' }));
    await waitFor(() => expect(gate.pending()).toBe(1));
    expect(status).toHaveFocus();
    expect(status).not.toBeDisabled();
    await user.keyboard('j');
    expect(window.location.pathname).toBe('/ticket/7');
    gate.release();
    await waitFor(() => expect(server.calls.filter((c) => c.key === 'PUT /tickets/7')).toHaveLength(1));
    expect(status).toHaveFocus();
  });

  it('keeps tags typed while the last one saves, and sends them on the saved version', async () => {
    let version = 1;
    const server = staffPage({
      'PUT /tickets/7': ({ body }) => {
        version += 1;
        return { body: { success: true, ticket: { ...aTicket(), ...(body as object), version }, message: 'ok' } };
      },
    });
    const gate = holdPuts();
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const user = userEvent.setup();
    const tags = within(panel).getByRole('textbox', { name: 'Tags' });
    await user.type(tags, 'net{Enter}java{Enter}');
    expect(tags).toHaveFocus();
    expect(window.location.pathname).toBe('/ticket/7');
    expect(gate.pending()).toBe(1);
    gate.release();
    await waitFor(() => expect(gate.pending()).toBe(1));
    gate.release();
    await waitFor(() =>
      expect(server.calls.filter((c) => c.key === 'PUT /tickets/7').map((c) => c.body)).toEqual([
        { tags: ['printer', 'net'], expectedVersion: 1 },
        { tags: ['printer', 'net', 'java'], expectedVersion: 2 },
      ]),
    );
    expect(tags).toHaveFocus();
  });
});

describe('merge (staff)', () => {
  it('merges into another ticket, opens it, and shows the server’s refusal word for word', async () => {
    let refuse = true;
    const server = staffPage({
      'POST /tickets/7/merge': () =>
        refuse
          ? { status: 400, body: { success: false, message: 'Only tickets from the same requester can be merged' } }
          : { body: { success: true, ticket: aTicket({ id: 3, title: 'Mouse double-clicks' }) } },
      'GET /tickets/3': detailBody(aDetail({ id: 3, title: 'Mouse double-clicks' })),
    });
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Ticket details' });
    const user = userEvent.setup();
    await user.type(within(panel).getByRole('textbox', { name: 'Merge into ticket #' }), '3');
    await user.click(within(panel).getByRole('button', { name: 'Merge' }));
    expect(await within(panel).findByText('Only tickets from the same requester can be merged')).toBeInTheDocument();
    refuse = false;
    await user.click(within(panel).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(window.location.pathname).toBe('/ticket/3'));
    expect(server.calls.filter((c) => c.key === 'POST /tickets/7/merge').map((c) => c.body)).toEqual([{ intoId: 3 }, { intoId: 3 }]);
  });
});

describe('merged tickets', () => {
  it('links the ticket number of the merge reply, the merge note and the merge change, and no other #number', async () => {
    fakeServer({
      ...verified(owner),
      'GET /tickets/7': detailBody(
        aDetail({
          status: 'closed',
          commentCount: 2,
          comments: [
            aComment({ id: 1, content: 'My order #555 is late' }),
            aComment({ id: 2, content: 'Merged into #3', createdAt: '2026-03-01T11:00:00.000Z' }),
          ],
          history: [
            aHistoryEntry(),
            aHistoryEntry({
              id: 2,
              type: 'merged',
              from: null,
              to: '3',
              actor: { id: agent.id, name: agent.name },
              createdAt: '2026-03-01T11:00:00.000Z',
            }),
          ],
        }),
      ),
    });
    renderApp('/ticket/7', { user: owner });
    await screen.findByText('My order #555 is late');
    const links = screen.getAllByRole('link', { name: '#3' });
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toHaveAttribute('href', '/ticket/3');
    expect(screen.queryByRole('link', { name: '#555' })).not.toBeInTheDocument();
    expect(withMergeLinkText('Merged from #9: Printer\n\nIt jams')).toBe('Merged from #9: Printer\n\nIt jams');
  });
});

describe('requester panel (staff)', () => {
  it('shows name, email, account age and the other tickets with their status, each a link, without the open one', async () => {
    staffPage();
    renderApp('/ticket/7', { user: agent });
    const panel = await screen.findByRole('region', { name: 'Requester' });
    expect(within(panel).getByTestId('requester-name')).toHaveTextContent(owner.name);
    expect(await within(panel).findByTestId('requester-email')).toHaveTextContent(owner.email);
    expect(within(panel).getByText(accountAge('2025-12-01T00:00:00.000Z'))).toBeInTheDocument();
    expect(accountAge('2025-12-01T00:00:00.000Z', Date.parse('2026-03-02T00:00:00.000Z'))).toBe('Customer for 3 months');
    const links = within(within(panel).getByRole('list', { name: 'Other tickets' })).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/ticket/3']);
    expect(within(panel).getByText('Resolved')).toBeInTheDocument();
  });

  it('is not shown to the owner, and neither is the side panel', async () => {
    fakeServer({ ...verified(owner), 'GET /tickets/7': detailBody(aDetail()) });
    renderApp('/ticket/7', { user: owner });
    await screen.findByRole('heading', { name: /Printer is on fire/ });
    expect(screen.queryByRole('region', { name: 'Requester' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Ticket details' })).not.toBeInTheDocument();
  });
});

describe('thread and drafts', () => {
  it('counts every comment in the heading and pages back through comments and history with one button', async () => {
    const server = fakeServer({
      ...verified(owner),
      'GET /tickets/7': detailBody(
        aDetail({
          commentCount: 64,
          comments: [aComment({ id: 60, createdAt: '2026-03-01T12:00:00.000Z' })],
          hasOlderComments: true,
          hasOlderHistory: true,
        }),
      ),
      'GET /tickets/7/comments': {
        body: { success: true, comments: [aComment({ id: 1, content: 'The very first reply' })], hasMore: false },
      },
      'GET /tickets/7/history': { body: { success: true, history: [], hasMore: false } },
    });
    renderApp('/ticket/7', { user: owner });
    expect(await screen.findByRole('heading', { name: 'Comments (64)' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show older' }));
    expect(await screen.findByText('The very first reply')).toBeInTheDocument();
    expect(server.calls.map((c) => c.key)).toEqual(
      expect.arrayContaining(['GET /tickets/7/comments?before=60', 'GET /tickets/7/history?before=1']),
    );
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  });

  it('keeps an unsent reply per person and ticket, restores it, and removes it once sent', async () => {
    localStorage.setItem(draftKey(owner.id, 7), JSON.stringify({ content: 'Half-written answer', mode: 'reply' }));
    localStorage.setItem(draftKey(99, 7), JSON.stringify({ content: 'Someone else’s', mode: 'reply' }));
    fakeServer({
      ...verified(owner),
      'GET /tickets/7': detailBody(aDetail()),
      'POST /tickets/7/comments': ({ body }) => ({
        status: 201,
        body: { success: true, comment: aComment({ id: 5, content: (body as { content: string }).content }) },
      }),
    });
    renderApp('/ticket/7', { user: owner });
    const box = await screen.findByRole('textbox', { name: 'Add a comment' });
    expect(box).toHaveValue('Half-written answer');
    const user = userEvent.setup();
    await user.type(box, ', more');
    expect(JSON.parse(localStorage.getItem(draftKey(owner.id, 7)) ?? '{}').content).toBe('Half-written answer, more');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    await waitFor(() => expect(box).toHaveValue(''));
    expect(localStorage.getItem(draftKey(owner.id, 7))).toBeNull();
    expect(localStorage.getItem(draftKey(99, 7))).not.toBeNull();
  });

  it('tells the owner that replying reopens a resolved ticket', async () => {
    fakeServer({ ...verified(owner), 'GET /tickets/7': detailBody(aDetail({ status: 'resolved' })) });
    renderApp('/ticket/7', { user: owner });
    expect(await screen.findByText('Replying will reopen this ticket.')).toBeInTheDocument();
  });
});

/** The text a merge opening renders to, with its link, as the reader sees it. */
function withMergeLinkText(text: string): string {
  const { getByTestId, unmount } = render(
    <MantineProvider>
      <span data-testid="merge-text">{withMergeLink(text)}</span>
    </MantineProvider>,
  );
  const shown = getByTestId('merge-text').textContent;
  expect(getByTestId('merge-text').querySelector('a')?.getAttribute('href')).toBe('/ticket/9');
  unmount();
  return shown;
}
