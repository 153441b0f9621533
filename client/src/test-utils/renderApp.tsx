import { STORAGE_KEYS, type User } from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { createQueryClient } from '../api/queryClient';
import { App } from '../App';
import { authStatusAtom, sessionAtom, signOutReasonAtom } from '../state/session';
import { store } from '../state/store';

export const testUser = (overrides: Partial<User> = {}): User => ({
  id: 1,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'user',
  email_notifications: 'all',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/**
 * Renders the whole app at `path`, optionally signed in. The session goes through localStorage
 * as in the browser, so the guards' check of the stored token runs for real (answer
 * `GET /auth/verify` with fakeServer). The socket stays closed: there is no server here; pass a
 * `queryClient` to play socket events into its cache.
 */
export function renderApp(path: string, options: { user?: User; token?: string; queryClient?: QueryClient } = {}): RenderResult {
  window.history.replaceState(null, '', path);
  if (options.user) {
    localStorage.setItem(STORAGE_KEYS.token, options.token ?? 'test-token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(options.user));
    store.set(sessionAtom, { token: options.token ?? 'test-token', user: options.user });
    store.set(authStatusAtom, 'checking');
  } else {
    store.set(sessionAtom, null);
    store.set(authStatusAtom, 'settled');
  }
  store.set(signOutReasonAtom, null);
  return render(<App queryClient={options.queryClient ?? testQueryClient()} live={false} />);
}

/** The app's client with its retry policy kept but without the waits between tries (1 s, then 2 s). */
function testQueryClient(): QueryClient {
  const client = createQueryClient();
  client.setDefaultOptions({ ...client.getDefaultOptions(), queries: { ...client.getDefaultOptions().queries, retryDelay: 0 } });
  return client;
}
