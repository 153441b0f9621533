import { MESSAGES, type Ticket, type TicketChangedEvent } from '@helpdesk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { applyCommentAdded, applyEmailStatus, applyTicketChanged } from '../../api/ticketCache';
import { fakeServer, type FakeResponse } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { asPhone } from '../../test-utils/phone';
import { COMPOSER_TEXT } from '../../components/collaboration/StaffComposer';
import {
  allowForLazyPages,
  aComment,
  aDetail,
  admin,
  agent,
  aHistoryEntry,
  aTicket,
  detailBody,
  failure,
  listBody,
  owner,
  statsBody,
  verified,
} from '../../test-utils/ticketFixtures';

allowForLazyPages();

const statusChip = () => document.querySelector('[data-status]');

async function openTicket(routes: Parameters<typeof fakeServer>[0] = {}, user = owner, path = '/ticket/7') {
  const server = fakeServer({ ...verified(user), 'GET /tickets/7': detailBody(aDetail()), ...routes });
  renderApp(path, { user });
  await screen.findByRole('heading', { name: /Printer is on fire/ });
  return server;
}

/** An agent on ticket 7 at version 2; each comment sent is kept, and answered by `answer(how many so far)`. */
async function agentSending(answer: (count: number) => FakeResponse) {
  const sent: unknown[] = [];
  await openTicket(
    {
      'GET /tickets/7': detailBody(aDetail({ version: 2 })),
      'POST /tickets/7/comments': ({ body }) => {
        sent.push(body);
        return answer(sent.length);
      },
    },
    agent,
  );
  return sent;
}

const commentSaved = (content: string, ticket: Ticket): FakeResponse => ({
  status: 201,
  body: { success: true, comment: aComment({ id: 9, content }), ticket },
});

describe('ticket detail page', () => {
  it('shows the number, title, chips, info, description and resolution notes', async () => {
    await openTicket({
      'GET /tickets/7': detailBody(
        aDetail({
          status: 'resolved',
          priority: 'high',
          assignedAgent: { id: agent.id, name: agent.name },
          updatedBy: { id: agent.id, name: agent.name },
          resolutionNotes: 'Replaced the fuser unit.',
        }),
      ),
    });
    expect(screen.getByRole('heading', { name: '#7 Printer is on fire' })).toBeInTheDocument();
    expect(statusChip()).toHaveAttribute('data-status', 'resolved');
    expect(statusChip()).toHaveTextContent('Resolved');
    expect(document.querySelector('[data-priority]')).toHaveAttribute('data-priority', 'high');
    expect(document.querySelector('[data-priority]')).toHaveTextContent('High');
    const info = screen.getByRole('region', { name: 'Ticket Information' });
    expect(within(info).getByText('Created by').nextSibling).toHaveTextContent('Ada Lovelace');
    expect(within(info).getByText('Assigned agent').nextSibling).toHaveTextContent('Agent Smith');
    expect(within(info).getByText('Updated by').nextSibling).toHaveTextContent('Agent Smith');
    expect(screen.getByText('Smoke comes out of the printer on floor 3.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Resolution Notes' })).getByText('Replaced the fuser unit.')).toBeInTheDocument();
  });

  it('says Unassigned and leaves out resolution notes the ticket does not have', async () => {
    await openTicket();
    const info = screen.getByRole('region', { name: 'Ticket Information' });
    expect(within(info).getByText('Assigned agent').nextSibling).toHaveTextContent('Unassigned');
    expect(screen.queryByRole('region', { name: 'Resolution Notes' })).not.toBeInTheDocument();
  });

  it("shows a reopened ticket's earlier resolution notes as history in the thread, not as the current state", async () => {
    const actor = { id: agent.id, name: agent.name };
    await openTicket({
      'GET /tickets/7': detailBody(
        aDetail({
          status: 'open',
          resolutionNotes: 'Replaced the fuser unit.',
          history: [
            aHistoryEntry(),
            aHistoryEntry({ id: 2, type: 'resolution', to: 'Replaced the fuser unit.', actor }),
            aHistoryEntry({ id: 3, type: 'status', from: 'in_progress', to: 'resolved', actor }),
            aHistoryEntry({ id: 4, type: 'status', from: 'resolved', to: 'open' }),
          ],
        }),
      ),
    });
    expect(screen.queryByRole('region', { name: 'Resolution Notes' })).not.toBeInTheDocument();
    const entry = screen.getAllByTestId('thread-change').find((node) => node.dataset.historyType === 'resolution');
    expect(entry).toHaveTextContent(/^Resolution notes updated · Agent Smith ·/);
    expect(within(entry!).getByTestId('resolution-notes')).toHaveTextContent('Replaced the fuser unit.');
  });

  it('quotes no notes under a "Resolution notes cleared" entry', async () => {
    await openTicket({
      'GET /tickets/7': detailBody(
        aDetail({ history: [aHistoryEntry(), aHistoryEntry({ id: 2, type: 'resolution', from: 'Old notes.', to: null })] }),
      ),
    });
    expect(screen.getByText('Resolution notes cleared')).toBeInTheDocument();
    expect(screen.queryByTestId('resolution-notes')).not.toBeInTheDocument();
    expect(screen.queryByText('Old notes.')).not.toBeInTheDocument();
  });

  it('gives the owner Edit and Delete, and no Update Status', async () => {
    await openTicket();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/edit-ticket/7');
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Update Status' })).not.toBeInTheDocument();
  });

  it.each([
    ['agent', agent, false],
    ['admin', admin, true],
  ])(
    'gives an %s Update Status, Delete only to an admin, no Edit, and the staff composer on a ticket not theirs',
    async (_role, user, deletes) => {
      await openTicket({}, user);
      expect(screen.getByRole('link', { name: 'Update Status' })).toHaveAttribute('href', '/agent/ticket/7/update');
      expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Delete' }) !== null).toBe(deletes);
      expect(screen.getByRole('textbox', { name: 'Reply to the customer' })).toBeInTheDocument();
      expect(screen.getByRole('radiogroup', { name: 'Reply type' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Send and resolve' })).toBeInTheDocument();
    },
  );

  it('lets an admin delete an answered ticket after the confirmation, and goes to the queue', async () => {
    const server = await openTicket(
      {
        'GET /tickets/7': detailBody(aDetail({ answered: true })),
        'DELETE /tickets/7': { body: { success: true, message: 'Ticket deleted successfully' } },
      },
      admin,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this ticket?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(window.location.pathname).toBe('/agent-dashboard'));
    expect(server.calls.some((c) => c.key === 'DELETE /tickets/7')).toBe(true);
  });

  it('gives the owner Edit but no Delete once support has answered or changed the ticket', async () => {
    await openTicket({ 'GET /tickets/7': detailBody(aDetail({ answered: true })) });
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/edit-ticket/7');
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('takes Delete away live when support replies, as a fresh load would', async () => {
    const queryClient = createQueryClient();
    fakeServer({ ...verified(owner), 'GET /tickets/7': detailBody(aDetail()) });
    renderApp('/ticket/7', { user: owner, queryClient });
    await screen.findByRole('button', { name: 'Delete' });
    const history = aHistoryEntry({ id: 2, type: 'comment', to: '5', actor: { id: agent.id, name: agent.name } });
    act(() => applyCommentAdded(queryClient, { ticketId: 7, comment: aComment({ id: 5, content: 'On it.' }), history, commentCount: 1 }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Edit' })).toBeInTheDocument();
  });

  it("shows staff each reply's email state, and moves it live", async () => {
    const queryClient = createQueryClient();
    const reply = aComment({ id: 5, content: 'On it.', author: { id: agent.id, name: agent.name, role: 'agent' }, emailStatus: 'queued' });
    fakeServer({ ...verified(agent), 'GET /tickets/7': detailBody(aDetail({ comments: [reply] })) });
    renderApp('/ticket/7', { user: agent, queryClient });
    expect(await screen.findByText('Email queued')).toBeInTheDocument();
    act(() => applyEmailStatus(queryClient, { ticketId: 7, commentId: 5, status: 'bounced' }));
    expect(await screen.findByText('Email bounced')).toBeInTheDocument();
    expect(screen.queryByText('Email queued')).not.toBeInTheDocument();
  });

  it('sends a status change from the composer on the version shown, and on a 409 lets the agent review and re-apply', async () => {
    const current = aTicket({ status: 'closed', version: 3, updatedBy: { id: admin.id, name: admin.name } });
    const sent = await agentSending((count) =>
      count === 1
        ? { status: 409, body: { success: false, message: MESSAGES.tickets.versionConflict, ticket: current } }
        : commentSaved('Fixed it.', { ...current, status: 'resolved', version: 4 }),
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Reply to the customer' }), 'Fixed it.');
    await user.click(screen.getByRole('button', { name: 'Send and resolve' }));
    const conflict = await screen.findByTestId('conflict');
    expect(within(conflict).getByText(MESSAGES.tickets.versionConflict)).toBeInTheDocument();
    expect(sent[0]).toEqual({ content: 'Fixed it.', internal: false, mentions: [], status: 'resolved', expectedVersion: 2 });
    // The reply is kept while the agent decides.
    expect(screen.getByRole('textbox', { name: 'Reply to the customer' })).toHaveValue('Fixed it.');

    await user.click(within(conflict).getByRole('button', { name: 'Re-apply my changes' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ content: 'Fixed it.', internal: false, mentions: [], status: 'resolved', expectedVersion: 3 });
    await waitFor(() => expect(screen.queryByTestId('conflict')).not.toBeInTheDocument());
  });

  it('folds the status sends into a menu beside Send on a phone, each still one request', async () => {
    asPhone();
    const sent = await agentSending(() => commentSaved('Is it plugged in?', aTicket({ status: 'pending', version: 3 })));
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send and resolve' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Reply to the customer' }), 'Is it plugged in?');
    await user.click(screen.getByRole('button', { name: COMPOSER_TEXT.moreSends }));
    const choices = await screen.findAllByRole('menuitem');
    expect(choices.map((item) => item.textContent)).toEqual(['Send and mark In Progress', 'Send and wait on customer', 'Send and resolve']);
    await user.click(screen.getByRole('menuitem', { name: 'Send and wait on customer' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ content: 'Is it plugged in?', internal: false, mentions: [], status: 'pending', expectedVersion: 2 });
  });

  it('also opens at /tickets/:id', async () => {
    await openTicket({}, owner, '/tickets/7');
    expect(screen.getByRole('heading', { name: '#7 Printer is on fire' })).toBeInTheDocument();
  });

  it('asks before deleting, and deletes and goes to the dashboard on confirmation', async () => {
    const server = await openTicket({
      'DELETE /tickets/7': { body: { success: true, message: 'Ticket deleted successfully' } },
      'GET /tickets/stats': statsBody(),
      'GET /tickets': listBody([]),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this ticket?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls.some((c) => c.key.startsWith('DELETE'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    expect(server.calls.filter((c) => c.key === 'DELETE /tickets/7')).toHaveLength(1);
  });

  it('says "Failed to delete ticket" when deleting fails', async () => {
    await openTicket({ 'DELETE /tickets/7': failure(500) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete ticket')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/ticket/7');
  });

  it('puts the changes between the messages in time order, with who, and no "Comment added" entries', async () => {
    const actor = { id: agent.id, name: agent.name };
    await openTicket({
      'GET /tickets/7': detailBody(
        aDetail({
          history: [
            aHistoryEntry(),
            aHistoryEntry({ id: 2, type: 'assigned', from: null, to: 'Agent Smith', actor }),
            aHistoryEntry({ id: 3, type: 'status', from: 'open', to: 'in_progress', actor }),
            aHistoryEntry({ id: 4, type: 'priority', from: 'medium', to: 'high', actor }),
            aHistoryEntry({ id: 5, type: 'edited', to: 'title,description' }),
            aHistoryEntry({ id: 6, type: 'resolution', to: 'Replaced the fuser unit.', actor }),
            aHistoryEntry({ id: 7, type: 'comment', to: '1', actor, createdAt: '2026-03-01T10:00:00.000Z' }),
            aHistoryEntry({ id: 8, type: 'status', from: 'in_progress', to: 'resolved', actor, createdAt: '2026-03-01T11:00:00.000Z' }),
          ],
          comments: [aComment({ createdAt: '2026-03-01T10:00:00.000Z' })],
          commentCount: 1,
        }),
      ),
    });
    const thread = screen.getByRole('region', { name: 'Comments (1)' });
    const lines = within(thread)
      .getAllByTestId(/^(thread-change|comment)$/)
      .map((node) => (node.dataset.testid === 'comment' ? 'comment' : node.textContent.split(' · ')[0]));
    expect(lines).toEqual([
      'Ticket created',
      'Assigned to Agent Smith',
      'Status changed from Open to In Progress',
      'Priority changed from Medium to High',
      'Title and description edited',
      'Resolution notes updated',
      'comment',
      'Status changed from In Progress to Resolved',
    ]);
    expect(within(thread).queryByText('Comment added')).not.toBeInTheDocument();
    expect(within(thread).getAllByText(/· Agent Smith ·/)).toHaveLength(5);
    expect(within(thread).getAllByText(/· Ada Lovelace ·/)).toHaveLength(2);
  });

  it('lists comments with author, role and text, and adds one', async () => {
    let ticket = aDetail({ comments: [aComment()], commentCount: 1 });
    const server = await openTicket({
      'GET /tickets/7': () => detailBody(ticket),
      'POST /tickets/7/comments': ({ body }) => {
        const comment = aComment({
          id: 2,
          content: (body as { content: string }).content,
          author: { id: owner.id, name: owner.name, role: 'user' },
        });
        ticket = {
          ...ticket,
          comments: [...ticket.comments, comment],
          commentCount: 2,
          history: [...ticket.history, aHistoryEntry({ id: 9, type: 'comment', to: '2' })],
        };
        return { status: 201, body: { success: true, comment } };
      },
    });
    const comments = screen.getByRole('region', { name: 'Comments (1)' });
    const first = within(comments).getByTestId('comment');
    expect(within(first).getByText('Agent Smith')).toBeInTheDocument();
    expect(within(first).getByText('Agent')).toBeInTheDocument();
    expect(within(first).getByText('Have you tried turning it off and on again?')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), '  Yes, twice.  ');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(await screen.findByText('Yes, twice.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'POST /tickets/7/comments')?.body).toEqual({ content: 'Yes, twice.' });
    expect(screen.getByRole('region', { name: 'Comments (2)' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');
  });

  it('does not send a blank comment', async () => {
    const server = await openTicket();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), '    ');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(await screen.findByText('Comment content is required')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key.startsWith('POST'))).toBe(false);
  });

  it('says "Failed to add comment" when the comment is not saved', async () => {
    await openTicket({ 'POST /tickets/7/comments': failure(500) });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'Any news?');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(await screen.findByText('Failed to add comment')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('Any news?');
  });

  it('says "Ticket not found" for a 404, with a way back', async () => {
    fakeServer({ ...verified(owner), 'GET /tickets/7': failure(404, 'Ticket not found') });
    renderApp('/ticket/7', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket not found' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Back to Dashboard' }).every((link) => link.getAttribute('href') === '/dashboard')).toBe(
      true,
    );
  });

  it('says "Failed to load ticket details" when loading fails otherwise', async () => {
    fakeServer({ ...verified(owner), 'GET /tickets/7': failure(500) });
    renderApp('/ticket/7', { user: owner });
    expect(await screen.findByText('Failed to load ticket details')).toBeInTheDocument();
  });

  it('says "Ticket not found" when the ticket is deleted while open (live event)', async () => {
    const queryClient = createQueryClient();
    fakeServer({ ...verified(owner), 'GET /tickets/7': detailBody(aDetail()) });
    renderApp('/ticket/7', { user: owner, queryClient });
    await screen.findByRole('heading', { name: '#7 Printer is on fire' });
    act(() =>
      applyTicketChanged(queryClient, {
        action: 'deleted',
        ticket: { id: 7 },
        by: { id: agent.id, name: agent.name },
        previous: aTicket(),
      }),
    );
    expect(await screen.findByText('Ticket not found')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: '#7 Printer is on fire' })).not.toBeInTheDocument();
  });

  it('shows a live status change and its timeline entry from the event alone', async () => {
    const queryClient = createQueryClient();
    const server = fakeServer({
      ...verified(owner),
      'GET /tickets/7': detailBody(aDetail()),
      'GET /tickets/7/csat': { body: { success: true, survey: null } },
    });
    renderApp('/ticket/7', { user: owner, queryClient });
    await screen.findByRole('heading', { name: '#7 Printer is on fire' });
    // The survey a resolution issues is a read of its own (docs/api.md#satisfaction-surveys), not the ticket's.
    const ticketReads = () => server.calls.filter((call) => !call.key.endsWith('/csat')).length;
    const reads = ticketReads();
    const actor = { id: agent.id, name: agent.name };
    const entry = aHistoryEntry({ id: 2, type: 'status', from: 'open', to: 'resolved', actor, createdAt: '2026-03-01T11:00:00.000Z' });
    const event: TicketChangedEvent = {
      action: 'updated',
      ticket: aTicket({ status: 'resolved', version: 2 }),
      by: actor,
      previous: { status: 'open' },
      history: [entry],
    };
    act(() => applyTicketChanged(queryClient, event));
    await waitFor(() => expect(statusChip()).toHaveAttribute('data-status', 'resolved'));
    expect(await screen.findByText('Status changed from Open to Resolved')).toBeInTheDocument();
    // The same event again, or an older version, changes nothing.
    act(() => applyTicketChanged(queryClient, event));
    act(() => applyTicketChanged(queryClient, { ...event, ticket: aTicket({ status: 'in_progress', version: 1 }) }));
    expect(statusChip()).toHaveAttribute('data-status', 'resolved');
    expect(screen.getAllByText('Status changed from Open to Resolved')).toHaveLength(1);
    expect(ticketReads()).toBe(reads);
  });
});
