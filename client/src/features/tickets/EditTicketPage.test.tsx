import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { allowForLazyPages, aDetail, agent, aTicket, detailBody, failure, owner, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const titleInput = () => screen.getByRole('textbox', { name: /^Title/ });
const descriptionInput = () => screen.getByRole('textbox', { name: /^Description/ });
const save = () => screen.getByRole('button', { name: 'Save Changes' });

async function openEdit(routes: Parameters<typeof fakeServer>[0] = {}, user = owner) {
  const server = fakeServer({ ...verified(user), 'GET /tickets/7': detailBody(aDetail()), ...routes });
  renderApp('/edit-ticket/7', { user });
  await screen.findByRole('heading', { name: 'Edit Ticket #7' });
  return server;
}

describe('edit ticket page', () => {
  it('fills the form from the ticket, with Back to the ticket and the 3-100 help text', async () => {
    await openEdit();
    expect(await screen.findByDisplayValue('Printer is on fire')).toBe(titleInput());
    expect(descriptionInput()).toHaveValue('Smoke comes out of the printer on floor 3.');
    expect(screen.getByRole('textbox', { name: 'Priority' })).toHaveValue('Medium');
    expect(screen.getByRole('textbox', { name: 'Status' })).toHaveValue('Open');
    expect(screen.getByRole('link', { name: 'Back to Ticket' })).toHaveAttribute('href', '/ticket/7');
    expect(screen.getByText(/3-100 characters/)).toBeInTheDocument();
    expect(screen.getByText('18/100')).toBeInTheDocument();
  });

  it('offers open, resolved and closed (withdraw), not in progress, and sends a close', async () => {
    const user = userEvent.setup();
    const server = await openEdit({
      'PUT /tickets/7': {
        body: { success: true, ticket: aTicket({ status: 'closed', version: 2 }), message: 'Ticket updated successfully' },
      },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Status' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Open', 'Resolved', 'Closed']);
    await user.click(screen.getByRole('option', { name: 'Closed' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toMatchObject({ status: 'closed' }));
  });

  it.each([
    ['empty', '', 'Title is required'],
    ['2 characters', 'ab', 'Title must be at least 3 characters long'],
    ['2 characters in spaces', '   ab    ', 'Title must be at least 3 characters long'],
    ['101 characters', 'x'.repeat(101), 'Title must be at most 100 characters long'],
  ])('rejects a title of %s with "%s"', async (_label, title, message) => {
    const server = await openEdit();
    const user = userEvent.setup();
    await screen.findByDisplayValue('Printer is on fire');
    fireEvent.change(titleInput(), { target: { value: title } });
    await user.click(save());
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(server.calls.some((c) => c.key.startsWith('PUT'))).toBe(false);
  });

  it.each([
    ['empty', '', 'Description is required'],
    ['9 characters in spaces', '  nine ch  ', 'Description must be at least 10 characters long'],
    ['2001 characters', 'y'.repeat(2001), 'Description must be at most 2000 characters long'],
  ])('rejects a description of %s with "%s"', async (_label, description, message) => {
    await openEdit();
    const user = userEvent.setup();
    await screen.findByDisplayValue('Printer is on fire');
    fireEvent.change(descriptionInput(), { target: { value: description } });
    await user.click(save());
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('saves title, description, priority and status, says so, and opens the ticket after 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = await openEdit({
      'PUT /tickets/7': {
        body: { success: true, ticket: aTicket({ title: 'Printer still on fire' }), message: 'Ticket updated successfully!' },
      },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await screen.findByDisplayValue('Printer is on fire');
    await user.clear(titleInput());
    await user.type(titleInput(), ' Printer still on fire ');
    await user.click(screen.getByRole('textbox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Resolved' }));
    await user.click(save());

    expect(await screen.findByText('Ticket updated successfully!')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).toEqual({
      title: 'Printer still on fire',
      description: 'Smoke comes out of the printer on floor 3.',
      priority: 'medium',
      status: 'resolved',
      expectedVersion: 1,
    });
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(window.location.pathname).toBe('/edit-ticket/7');
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(window.location.pathname).toBe('/ticket/7');
  });

  it('keeps a closed ticket closed: the status is not sent unless the owner picks another', async () => {
    const server = await openEdit({
      'GET /tickets/7': detailBody(aDetail({ status: 'closed' })),
      'PUT /tickets/7': { body: { success: true, ticket: aTicket({ status: 'closed' }), message: 'Ticket updated successfully!' } },
    });
    const user = userEvent.setup();
    await screen.findByDisplayValue('Printer is on fire');
    expect(screen.getByRole('textbox', { name: 'Status' })).toHaveValue('Closed');
    await user.click(save());
    await screen.findByText('Ticket updated successfully!');
    expect(server.calls.find((c) => c.key === 'PUT /tickets/7')?.body).not.toHaveProperty('status');
  });

  it('shows "Failed to update ticket" when saving fails, and the server reason for a 403', async () => {
    let answer = failure(500);
    await openEdit({ 'PUT /tickets/7': () => answer });
    const user = userEvent.setup();
    await screen.findByDisplayValue('Printer is on fire');
    await user.click(save());
    expect(await screen.findByText('Failed to update ticket')).toBeInTheDocument();

    answer = failure(403, 'You are not allowed to change: status');
    await user.click(save());
    expect(await screen.findByText('You are not allowed to change: status')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/edit-ticket/7');
  });

  it('shows Access Denied for a ticket that does not exist (or is hidden)', async () => {
    await openEdit({ 'GET /tickets/7': failure(404, 'Ticket not found') });
    expect(await screen.findByText('Access Denied')).toBeInTheDocument();
    expect(screen.getByText("Ticket not found or you don't have permission to edit it")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });

  it('shows Access Denied to staff opening a ticket they do not own', async () => {
    await openEdit({}, agent);
    expect(await screen.findByText('Access Denied')).toBeInTheDocument();
    expect(screen.getByText("Ticket not found or you don't have permission to edit it")).toBeInTheDocument();
  });

  it('shows "Failed to load ticket details" when loading fails otherwise', async () => {
    await openEdit({ 'GET /tickets/7': failure(500) });
    expect(await screen.findByText('Failed to load ticket details')).toBeInTheDocument();
  });
});
