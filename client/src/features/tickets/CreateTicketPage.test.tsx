import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { allowForLazyPages, agent, aTicket, failure, listBody, owner, statsBody, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const dashboardCalls = { 'GET /tickets/stats': statsBody(), 'GET /tickets': listBody([]) };

async function openForm(user = owner) {
  renderApp('/create-ticket', { user });
  await screen.findByRole('heading', { name: 'Create New Ticket' });
}

const titleInput = () => screen.getByRole('textbox', { name: /^Title/ });
const descriptionInput = () => screen.getByRole('textbox', { name: /^Description/ });
const priorityInput = () => screen.getByRole('textbox', { name: 'Priority' });
const categoryInput = () => screen.getByRole('textbox', { name: 'Category' });
const submit = () => screen.getByRole('button', { name: 'Create Ticket' });

describe('create ticket page', () => {
  it('shows the form with tips, help text, counters, Back to the dashboard, priority medium and category general', async () => {
    fakeServer(verified(owner));
    const user = userEvent.setup();
    await openForm();
    expect(screen.getByText('Tips for a faster resolution')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByText(/5-200 characters/)).toBeInTheDocument();
    expect(priorityInput()).toHaveValue('Medium');
    expect(categoryInput()).toHaveValue('General');
    expect(screen.getByText('0/200')).toBeInTheDocument();
    expect(screen.getByText('0/2000')).toBeInTheDocument();

    await user.type(titleInput(), 'Printer jams');
    expect(screen.getByText('12/200')).toBeInTheDocument();
    await user.type(descriptionInput(), 'Paper');
    expect(screen.getByText('5/2000')).toBeInTheDocument();
  });

  it('says what is required and sends nothing', async () => {
    const server = fakeServer(verified(owner));
    const user = userEvent.setup();
    await openForm();
    await user.click(submit());
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key.startsWith('POST'))).toBe(false);
  });

  it('gives the minimum-length messages, counting trimmed text', async () => {
    const server = fakeServer(verified(owner));
    const user = userEvent.setup();
    await openForm();
    await user.type(titleInput(), '  abcd   ');
    await user.type(descriptionInput(), 'too short');
    await user.click(submit());
    expect(await screen.findByText('Title must be at least 5 characters long')).toBeInTheDocument();
    expect(screen.getByText('Description must be at least 10 characters long')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key.startsWith('POST'))).toBe(false);
  });

  it('gives the maximum-length messages', async () => {
    fakeServer(verified(owner));
    const user = userEvent.setup();
    await openForm();
    fireEvent.change(titleInput(), { target: { value: 'x'.repeat(201) } });
    fireEvent.change(descriptionInput(), { target: { value: 'y'.repeat(2001) } });
    expect(screen.getByText('201/200')).toBeInTheDocument();
    expect(screen.getByText('2001/2000')).toBeInTheDocument();
    await user.click(submit());
    expect(await screen.findByText('Title must be at most 200 characters long')).toBeInTheDocument();
    expect(screen.getByText('Description must be at most 2000 characters long')).toBeInTheDocument();
  });

  it('creates the ticket, says so, and goes to the dashboard after 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeServer({
      ...verified(owner),
      ...dashboardCalls,
      'POST /tickets': { status: 201, body: { success: true, ticket: aTicket(), message: 'Ticket created successfully' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await openForm();
    await user.type(titleInput(), '  Printer is on fire ');
    await user.type(descriptionInput(), 'Smoke comes out of the printer on floor 3.');
    await user.click(priorityInput());
    await user.click(await screen.findByRole('option', { name: 'High' }));
    await user.click(categoryInput());
    await user.click(await screen.findByRole('option', { name: 'Technical' }));
    await user.click(submit());

    expect(await screen.findByText('Ticket created successfully! Redirecting to dashboard...')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'POST /tickets')?.body).toEqual({
      title: 'Printer is on fire',
      description: 'Smoke comes out of the printer on floor 3.',
      priority: 'high',
      category: 'technical',
    });
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(window.location.pathname).toBe('/create-ticket');
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(window.location.pathname).toBe('/dashboard');
  });

  it('sends staff to their own home after creating', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fakeServer({
      ...verified(agent),
      'POST /tickets': { status: 201, body: { success: true, ticket: aTicket(), message: 'Ticket created successfully' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await openForm(agent);
    await user.type(titleInput(), 'Printer is on fire');
    await user.type(descriptionInput(), 'Smoke comes out of the printer on floor 3.');
    await user.click(submit());
    await screen.findByText('Ticket created successfully! Redirecting to dashboard...');
    await act(() => vi.advanceTimersByTimeAsync(2100));
    expect(window.location.pathname).toBe('/agent-dashboard');
  });

  it('shows "Failed to create ticket" when the server fails, and the server reason for a 400', async () => {
    let answer = failure(500);
    fakeServer({ ...verified(owner), 'POST /tickets': () => answer });
    const user = userEvent.setup();
    await openForm();
    await user.type(titleInput(), 'Printer is on fire');
    await user.type(descriptionInput(), 'Smoke comes out of the printer on floor 3.');
    await user.click(submit());
    expect(await screen.findByText('Failed to create ticket')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/create-ticket');

    answer = failure(400, 'Title must be at least 5 characters long');
    await user.click(submit());
    await waitFor(() => expect(screen.queryByText('Failed to create ticket')).not.toBeInTheDocument());
    expect(screen.getAllByText('Title must be at least 5 characters long').length).toBeGreaterThan(0);
  });
});
