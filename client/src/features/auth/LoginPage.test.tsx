import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { clearSession } from '../../state/session';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

const fillAndSubmit = async (email: string, password: string) => {
  const user = userEvent.setup();
  if (email) await user.type(await screen.findByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
};

describe('/login', () => {
  it('shows the form with its links', async () => {
    fakeServer({});
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'HelpDesk Login' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute('href', '/reset-password');
    expect(screen.getByRole('link', { name: 'Sign up here' })).toHaveAttribute('href', '/signup');
    expect(screen.queryByTestId('session-notice')).not.toBeInTheDocument();
  });

  it('checks the email and password length before calling the server', async () => {
    const server = fakeServer({});
    renderApp('/login');
    await fillAndSubmit('not-an-address', '12345');
    expect(await screen.findByText('Invalid email format')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters long')).toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });

  it.each([
    ['user', '/dashboard'],
    ['agent', '/agent-dashboard'],
    ['admin', '/agent-dashboard'],
  ] as const)('signs a %s in, stores the session and goes to %s', async (role, home) => {
    const account = testUser({ role, email: 'ada@example.com' });
    const server = fakeServer({
      'POST /auth/login': { body: { success: true, token: 'fresh-token', user: account } },
      // The home page may load data; the login flow itself ends at the navigation.
      'GET /tickets': { body: { success: true, tickets: [], data: [], total: 0, page: 1, limit: 10 } },
      'GET /tickets/stats': { body: { success: true, stats: { total: 0, open: 0, in_progress: 0, resolved: 0, closed: 0, urgent: 0 } } },
    });
    renderApp('/login');
    await fillAndSubmit('ada@example.com', 'Secret123!');
    await waitFor(() => expect(window.location.pathname).toBe(home));
    // A read of the page before may still land in this server's log; the sign-in itself is sent once.
    expect(server.calls.filter((c) => c.key === 'POST /auth/login')).toEqual([
      expect.objectContaining({ body: { email: 'ada@example.com', password: 'Secret123!' } }),
    ]);
    expect(localStorage.getItem('token')).toBe('fresh-token');
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ role, email: 'ada@example.com' });
  });

  it.each([
    [401, { success: false, message: 'Invalid credentials' }, 'Invalid credentials, please try again.'],
    [
      500,
      { success: false, message: 'Something went wrong on our side. Please try again later.' },
      'An unexpected error occurred. Please try again later.',
    ],
    [503, undefined, 'An unexpected error occurred. Please try again later.'],
    [
      429,
      { success: false, message: 'Too many login attempts. Please try again later.' },
      'Too many login attempts. Please try again later.',
    ],
    [429, undefined, 'Login failed. Please try again.'],
    [200, { success: true, user: testUser() }, 'Invalid login response'],
    [200, { success: true, token: 'only-a-token' }, 'Invalid login response'],
  ])('a %i answer shows the right message', async (status, body, message) => {
    fakeServer({ 'POST /auth/login': { status, body } });
    renderApp('/login');
    await fillAndSubmit('ada@example.com', 'Secret123!');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('says so when the server cannot be reached', async () => {
    fakeServer({});
    renderApp('/login');
    // fakeServer throws for an unlisted call, which the client sees as no answer at all.
    await fillAndSubmit('ada@example.com', 'Secret123!');
    expect(await screen.findByText('An unexpected error occurred. Please try again later.')).toBeInTheDocument();
  });

  it('explains an expired session when sent back with ?session_expired=true', async () => {
    fakeServer({});
    renderApp('/login?session_expired=true');
    expect(await screen.findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
    expect(screen.queryByText('You have been logged out.')).not.toBeInTheDocument();
  });

  it('says "logged out" after a deliberate logout', async () => {
    fakeServer({});
    renderApp('/login?session_expired=true');
    clearSession('logout');
    expect(await screen.findByText('You have been logged out.')).toBeInTheDocument();
    expect(screen.queryByText('Your session has expired. Please log in again.')).not.toBeInTheDocument();
  });
});
