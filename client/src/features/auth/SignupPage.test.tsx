import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { clearSession } from '../../state/session';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

const config = (agentSignup: 'open' | 'closed' = 'open') => ({ 'GET /config': { body: { success: true, agentSignup } } });
const admin = testUser({ id: 7, role: 'admin', name: 'Root Admin', email: 'root@example.com' });
const signedInAdmin = () => ({ ...config(), 'GET /auth/verify': { body: { success: true, user: admin } } });

async function fill(values: Partial<Record<'name' | 'email' | 'password' | 'confirm', string>>) {
  const user = userEvent.setup();
  if (values.name) await user.type(await screen.findByLabelText('Full Name'), values.name);
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirm) await user.type(screen.getByLabelText('Confirm Password'), values.confirm);
  return user;
}

async function roleOptions() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('textbox', { name: 'Role' }));
  const listbox = await screen.findByRole('listbox');
  return within(listbox)
    .getAllByRole('option')
    .map((option) => option.textContent);
}

async function pickRole(label: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('textbox', { name: 'Role' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

const submit = () => userEvent.setup().click(screen.getByRole('button', { name: 'Create Account' }));

describe('/signup', () => {
  it('shows every field and a way back to login', async () => {
    fakeServer(config());
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    for (const label of ['Full Name', 'Email', 'Password', 'Confirm Password']) expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login here' })).toHaveAttribute('href', '/login');
  });

  it('validates with the documented messages and calls nothing while invalid', async () => {
    const server = fakeServer(config());
    renderApp('/signup');
    await fill({ email: 'nope', password: 'abc', confirm: 'abd' });
    await submit();
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid email format')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters long')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    // Every wrong field says so to a screen reader, the password fields too.
    for (const label of ['Full Name', 'Email', 'Password', 'Confirm Password'])
      expect(screen.getByLabelText(label), label).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls.map((c) => c.key)).toEqual(['GET /config']);
  });

  it('asks for an uppercase letter, a number and a special character', async () => {
    fakeServer(config());
    renderApp('/signup');
    await fill({ name: 'Jane', email: 'jane@example.com', password: 'abcdefg', confirm: 'abcdefg' });
    await submit();
    expect(await screen.findByText('Password must include uppercase, number, and special character')).toBeInTheDocument();
    expect(screen.queryByText('Passwords do not match')).not.toBeInTheDocument();
  });

  it('offers User and Agent to a visitor, never Admin', async () => {
    fakeServer(config('open'));
    renderApp('/signup');
    await screen.findByRole('heading', { name: 'Create Account' });
    await waitFor(async () => expect(await roleOptions()).toEqual(['User', 'Agent']));
    // User is preselected, and the line says what an agent account sees.
    expect(screen.getByRole('textbox', { name: 'Role' })).toHaveValue('User');
    expect(screen.getByText("Agent accounts see every customer's tickets.")).toBeInTheDocument();
  });

  it('hides Agent while the server keeps agent signup closed', async () => {
    const server = fakeServer(config('closed'));
    renderApp('/signup');
    await waitFor(() => expect(server.calls.map((c) => c.key)).toContain('GET /config'));
    await waitFor(async () => expect(await roleOptions()).toEqual(['User']));
    expect(screen.queryByText("Agent accounts see every customer's tickets.")).not.toBeInTheDocument();
  });

  it('offers only User, without the agent line, when the config cannot be read', async () => {
    const server = fakeServer({ 'GET /config': { status: 500, body: { success: false, message: 'Internal server error' } } });
    renderApp('/signup');
    await waitFor(() => expect(server.calls.map((c) => c.key)).toContain('GET /config'));
    expect(await roleOptions()).toEqual(['User']);
    expect(screen.getByRole('textbox', { name: 'Role' })).toHaveValue('User');
    expect(screen.queryByText("Agent accounts see every customer's tickets.")).not.toBeInTheDocument();
  });

  it('signs a visitor up without sending the confirmation, then goes home', async () => {
    const created = testUser({ id: 9, name: 'Jane Agent', email: 'jane@example.com', role: 'agent' });
    const server = fakeServer({
      ...config(),
      'POST /auth/register': { status: 201, body: { success: true, token: 'new-token', user: created } },
    });
    renderApp('/signup');
    await fill({ name: 'Jane Agent', email: 'jane@example.com', password: 'Secret123!', confirm: 'Secret123!' });
    await pickRole('Agent');
    await submit();
    await waitFor(() => expect(window.location.pathname).toBe('/agent-dashboard'));
    const call = server.calls.find((c) => c.key === 'POST /auth/register');
    expect(call?.body).toEqual({ name: 'Jane Agent', email: 'jane@example.com', password: 'Secret123!', role: 'agent' });
    expect(localStorage.getItem('token')).toBe('new-token');
  });

  it('lets a signed-in admin create an admin account and stay signed in as themselves', async () => {
    const created = testUser({ id: 10, name: 'Second Admin', email: 'second@example.com', role: 'admin' });
    const server = fakeServer({
      ...signedInAdmin(),
      'POST /auth/register': { status: 201, body: { success: true, token: 'their-token', user: created } },
    });
    renderApp('/signup', { user: admin, token: 'admin-token' });
    await waitFor(async () => expect(await roleOptions()).toEqual(['User', 'Agent', 'Admin']));
    await userEvent.setup().keyboard('{Escape}');
    await fill({ name: 'Second Admin', email: 'second@example.com', password: 'Secret123!', confirm: 'Secret123!' });
    await pickRole('Admin');
    await submit();
    expect(await screen.findByText('Account created for Second Admin (second@example.com) as Admin')).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/agent-dashboard'));
    const call = server.calls.find((c) => c.key === 'POST /auth/register');
    expect(call?.body).toMatchObject({ role: 'admin' });
    expect(call?.headers.get('Authorization')).toBe('Bearer admin-token');
    expect(localStorage.getItem('token')).toBe('admin-token');
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ id: 7, role: 'admin' });
  });

  it('refuses the admin role once the one choosing it is no longer a signed-in admin', async () => {
    const server = fakeServer(signedInAdmin());
    renderApp('/signup', { user: admin });
    await fill({ name: 'Sneaky', email: 'sneaky@example.com', password: 'Secret123!', confirm: 'Secret123!' });
    await pickRole('Admin');
    act(() => clearSession('logout'));
    await submit();
    expect(await screen.findByText('Only administrators can create admin accounts')).toBeInTheDocument();
    expect(server.calls.map((c) => c.key)).not.toContain('POST /auth/register');
  });

  it.each([
    [409, { success: false, message: 'An account with this email already exists' }, 'An account with this email already exists'],
    [403, { success: false, message: 'Only administrators can create agent accounts' }, 'Only administrators can create agent accounts'],
    [400, { success: false, message: 'Invalid email format', errors: { email: 'Invalid email format' } }, 'Invalid email format'],
    [500, { success: false, message: 'Something went wrong on our side. Please try again later.' }, 'Signup failed. Please try again.'],
    [429, { success: false, message: 'Slow down' }, 'Signup failed. Please try again.'],
    [201, { success: true, user: testUser() }, 'Invalid signup response from server'],
  ])('a %i answer shows the right message', async (status, body, message) => {
    fakeServer({ ...config(), 'POST /auth/register': { status, body } });
    renderApp('/signup');
    await fill({ name: 'Jane', email: 'jane@example.com', password: 'Secret123!', confirm: 'Secret123!' });
    await submit();
    expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    expect(window.location.pathname).toBe('/signup');
    expect(localStorage.getItem('token')).toBeNull();
  });
});
