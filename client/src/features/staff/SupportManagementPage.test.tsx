import type { User } from '@helpdesk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { asPhone } from '../../test-utils/phone';
import { renderApp, testUser } from '../../test-utils/renderApp';

const admin = testUser({ id: 1, name: 'Root Admin', email: 'root@example.com', role: 'admin' });
const smith = testUser({ id: 2, name: 'Agent Smith', email: 'smith@example.com', role: 'agent' });
const jones = testUser({ id: 3, name: 'Agent Jones', email: 'jones@example.com', role: 'agent' });
const verify = (user: User) => ({ 'GET /auth/verify': { body: { success: true, user } } });
const list = (users: User[]) => ({ 'GET /users': { body: { success: true, users } } });

const openPage = (routes: Parameters<typeof fakeServer>[0], user: User = admin) => {
  const server = fakeServer({ ...verify(user), ...routes });
  renderApp('/support-management', { user });
  return server;
};

describe('/support-management', () => {
  // Snackbars live in a module-wide store; start each test without the last one's.
  beforeEach(() => notifications.clean());

  it('tells a non-admin they may not be here, without asking for the list', async () => {
    const server = openPage({}, smith);
    expect(
      await screen.findByText(
        "You don't have permission to access this page. Please contact an administrator if you believe this is an error.",
      ),
    ).toBeInTheDocument();
    expect(server.calls.map((c) => c.key)).not.toContain('GET /users?role=agent');
  });

  it('lists the support agents with their actions', async () => {
    const server = openPage(list([smith, jones]));
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Role', 'Actions']);
    expect(within(table).getByText('Agent Smith')).toBeInTheDocument();
    expect(within(table).getByText('jones@example.com')).toBeInTheDocument();
    expect(within(table).getAllByText('Agent').length).toBe(2);
    expect(screen.getByRole('button', { name: 'Edit Agent Smith' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete Agent Jones' })).toBeEnabled();
    expect(server.calls.map((c) => c.key)).toContain('GET /users?role=agent');
  });

  it('shows cards instead of the table on a phone', async () => {
    asPhone();
    openPage(list([smith]));
    expect(await screen.findByTestId('agent-row-2')).toHaveTextContent('smith@example.com');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Agent Smith' })).toBeEnabled();
  });

  it('shows the empty state', async () => {
    openPage(list([]));
    expect(await screen.findByText('No support agents found')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the load failure', async () => {
    openPage({ 'GET /users': { status: 400, body: { success: false, message: 'nope' } } });
    expect(await screen.findByText('Failed to fetch support agents')).toBeInTheDocument();
  });

  it('never lets someone delete their own row', async () => {
    const self = { ...admin, role: 'admin' as const };
    openPage(list([self, smith]));
    expect(await screen.findByRole('button', { name: 'Delete Root Admin' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Agent Smith' })).toBeEnabled();
  });

  it('validates a new agent, then creates one with the agent role', async () => {
    let agents = [smith];
    const server = openPage({
      'GET /users': () => list(agents)['GET /users'],
      'POST /users': ({ body }) => {
        const created = testUser({ id: 4, ...(body as object), role: 'agent' });
        agents = [...agents, created];
        return { status: 201, body: { success: true, user: created, message: 'Support agent created successfully' } };
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add Support Agent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Support Agent' });
    await user.click(within(dialog).getByRole('button', { name: 'Add Agent' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Full Name'), 'Agent Brown');
    await user.type(within(dialog).getByLabelText('Email'), 'brown@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'weakpass');
    await user.click(within(dialog).getByRole('button', { name: 'Add Agent' }));
    expect(await within(dialog).findByText('Password must include uppercase, number, and special character')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'Secret123!');
    await user.click(within(dialog).getByRole('button', { name: 'Add Agent' }));
    expect(await screen.findByText('Support agent created successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls.find((c) => c.key === 'POST /users')?.body).toEqual({
      name: 'Agent Brown',
      email: 'brown@example.com',
      password: 'Secret123!',
      role: 'agent',
    });
    // The list is fetched again and shows the newcomer.
    expect(await screen.findByText('Agent Brown')).toBeInTheDocument();
  });

  it('keeps the dialog open with the server message when the email is taken', async () => {
    openPage({
      ...list([smith]),
      'POST /users': { status: 409, body: { success: false, message: 'An account with this email already exists' } },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add Support Agent' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Full Name'), 'Agent Copy');
    await user.type(within(dialog).getByLabelText('Email'), 'smith@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'Secret123!');
    await user.click(within(dialog).getByRole('button', { name: 'Add Agent' }));
    expect(await within(dialog).findByText('An account with this email already exists')).toBeInTheDocument();
  });

  it('falls back to "An error occurred" when a save fails without a reason', async () => {
    openPage({ ...list([smith]), 'PUT /users/2': { status: 500, body: { success: false, message: 'boom' } } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Agent Smith' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('An error occurred')).toBeInTheDocument();
  });

  it('edits with the email locked and the password optional, sending only what changes', async () => {
    const server = openPage({
      ...list([smith]),
      'PUT /users/2': ({ body }) => ({
        body: { success: true, user: { ...smith, ...(body as object) }, message: 'Support agent updated successfully' },
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Agent Smith' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Support Agent' });
    expect(within(dialog).getByLabelText('Email')).toBeDisabled();
    expect(within(dialog).getByLabelText('Email')).toHaveValue('smith@example.com');
    expect(within(dialog).getByText('Leave blank to keep current password')).toBeInTheDocument();

    const name = within(dialog).getByLabelText('Full Name');
    await user.clear(name);
    await user.type(name, 'Agent Smithers');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Support agent updated successfully')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'PUT /users/2')?.body).toEqual({ name: 'Agent Smithers' });
  });

  it('checks a new password on edit and sends it when given', async () => {
    const server = openPage({
      ...list([smith]),
      'PUT /users/2': { body: { success: true, user: smith, message: 'Support agent updated successfully' } },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Agent Smith' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Password'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Password must be at least 6 characters long')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Password'), 'Pass9!');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Support agent updated successfully');
    expect(server.calls.find((c) => c.key === 'PUT /users/2')?.body).toEqual({ name: 'Agent Smith', password: 'shortPass9!' });
  });

  it('asks before deleting, and deletes only on confirmation', async () => {
    let agents = [smith, jones];
    const server = openPage({
      'GET /users': () => list(agents)['GET /users'],
      'DELETE /users/3': () => {
        agents = [smith];
        return { body: { success: true, message: 'Support agent deleted successfully' } };
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Agent Jones' }));
    expect(await screen.findByText('Are you sure you want to delete this support agent?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Are you sure you want to delete this support agent?')).not.toBeInTheDocument());
    expect(server.calls.map((c) => c.key)).not.toContain('DELETE /users/3');

    await user.click(screen.getByRole('button', { name: 'Delete Agent Jones' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Support agent deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Agent Jones')).not.toBeInTheDocument());
  });

  it('says so when a delete fails', async () => {
    openPage({ ...list([smith]), 'DELETE /users/2': { status: 500, body: { success: false, message: 'boom' } } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Agent Smith' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete support agent')).toBeInTheDocument();
    expect(screen.getByText('Agent Smith')).toBeInTheDocument();
  });
});
