import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../test-utils/fakeServer';
import { renderApp, testUser } from '../test-utils/renderApp';

const verified = (user = testUser()) => ({ 'GET /auth/verify': { body: { success: true, user } } });

describe('route guards', () => {
  it('shows the check while a stored token is verified, then the page', async () => {
    let answer: (value: unknown) => void = () => {};
    const pending = new Promise((resolve) => (answer = resolve));
    fakeServer({ 'GET /auth/verify': () => ({ body: { success: true, user: testUser() } }) });
    // Hold the verification open to see the check text.
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      await pending;
      return realFetch(...args);
    };
    renderApp('/settings', { user: testUser() });
    expect(await screen.findByText('Checking authentication...')).toBeInTheDocument();
    answer(undefined);
    await waitFor(() => expect(screen.queryByText('Checking authentication...')).not.toBeInTheDocument());
    expect(window.location.pathname).toBe('/settings');
  });

  it('sends a visitor without a session from a protected route to /login', async () => {
    fakeServer({});
    renderApp('/dashboard');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('clears a stored session the server refuses and goes to /login', async () => {
    fakeServer({
      'GET /auth/verify': {
        status: 401,
        body: { success: false, message: 'Your session is invalid or has expired. Please log in again.' },
      },
    });
    renderApp('/dashboard', { user: testUser() });
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('sends / to /login', async () => {
    fakeServer({});
    renderApp('/');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it.each([
    ['user', '/dashboard'],
    ['agent', '/agent-dashboard'],
    ['admin', '/agent-dashboard'],
  ] as const)('sends a signed-in %s from /login to %s', async (role, home) => {
    fakeServer(verified(testUser({ role })));
    renderApp('/login', { user: testUser({ role }) });
    await waitFor(() => expect(window.location.pathname).toBe(home));
  });

  it.each(['/reset-password', '/api-test'])('sends a signed-in visitor from the public page %s home', async (path) => {
    fakeServer(verified(testUser({ role: 'agent' })));
    renderApp(path, { user: testUser({ role: 'agent' }) });
    await waitFor(() => expect(window.location.pathname).toBe('/agent-dashboard'));
  });

  it('lets a signed-in admin open /signup but sends a user home', async () => {
    fakeServer({ ...verified(testUser({ role: 'admin' })), 'GET /config': { body: { success: true, agentSignup: 'open' } } });
    renderApp('/signup', { user: testUser({ role: 'admin' }) });
    await waitFor(() => expect(screen.queryByText('Checking authentication...')).not.toBeInTheDocument());
    expect(window.location.pathname).toBe('/signup');
  });

  it('redirects a user away from the agent update screen to /dashboard', async () => {
    fakeServer(verified());
    renderApp('/agent/ticket/5/update', { user: testUser() });
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
  });

  it('sends /admin-dashboard to /agent-dashboard', async () => {
    fakeServer(verified(testUser({ role: 'admin' })));
    renderApp('/admin-dashboard', { user: testUser({ role: 'admin' }) });
    await waitFor(() => expect(window.location.pathname).toBe('/agent-dashboard'));
  });

  it('shows the 404 page for an unknown path, with a way to log in and to the articles', async () => {
    fakeServer({});
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Help Articles' })).toHaveAttribute('href', '/knowledge');
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  });

  it.each(['/ticket/abc', '/ticket/0', '/edit-ticket/1.5'])('shows the 404 page with the way home for %s', async (path) => {
    fakeServer(verified());
    renderApp(path, { user: testUser() });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});
