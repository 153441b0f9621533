import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test-utils/fakeServer';
import { testUser } from '../test-utils/renderApp';
import { clearSession, getToken, setSession, signOutReasonAtom } from '../state/session';
import { store } from '../state/store';
import { ApiError } from './ApiError';
import { catalogueMessage } from './errorCatalogue';
import { http } from './http';

const failureOf = async (call: Promise<unknown>): Promise<ApiError> => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
};

describe('error catalogue (docs/product.md#error-messages)', () => {
  it.each([
    [401, undefined, 'Your session has expired. Please log in again.'],
    [403, 'Only support staff can perform this action', 'You do not have permission to access this resource.'],
    [404, undefined, 'The requested resource was not found: /tickets/9'],
    [500, 'boom', 'Server error. Please try again later.'],
    [503, undefined, 'Server error. Please try again later.'],
    [409, 'An account with this email already exists', 'An account with this email already exists'],
    [429, undefined, 'An error occurred'],
  ])('a %i answer reads as the catalogue says', (status, serverMessage, expected) => {
    expect(catalogueMessage({ kind: 'response', status, url: '/tickets/9', serverMessage })).toBe(expected);
  });

  it('names a missing answer and a failed request setup', () => {
    expect(catalogueMessage({ kind: 'no-response', url: '/x' })).toBe(
      'Unable to connect to the server. Please check your internet connection and try again.',
    );
    expect(catalogueMessage({ kind: 'setup', url: '/x', reason: 'Converting circular structure to JSON' })).toBe(
      'Request failed: Converting circular structure to JSON',
    );
  });
});

describe('http client', () => {
  it('calls /api with JSON and the stored bearer token, and sends credentials', async () => {
    const server = fakeServer({ 'PUT /tickets/3': { body: { success: true } } });
    setSession({ token: 'abc.def', user: testUser() });
    await http.put('/tickets/3', { status: 'open' });
    const [call] = server.calls;
    expect(call?.key).toBe('PUT /tickets/3');
    expect(call?.body).toEqual({ status: 'open' });
    expect(call?.headers.get('Authorization')).toBe('Bearer abc.def');
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    const init = vi.mocked(fetch).mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    clearSession();
  });

  it('leaves out empty query parameters', async () => {
    const server = fakeServer({ 'GET /tickets': { body: {} } });
    await http.get('/tickets', { query: { status: '', priority: 'high', search: undefined, page: 2 } });
    expect(server.calls[0]?.key).toBe('GET /tickets?priority=high&page=2');
  });

  it('keeps the server message and field errors of a 400', async () => {
    fakeServer({
      'POST /tickets': { status: 400, body: { success: false, message: 'Title is required', errors: { title: 'Title is required' } } },
    });
    const error = await failureOf(http.post('/tickets', {}));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Title is required');
    expect(error.fieldErrors).toEqual({ title: 'Title is required' });
  });

  it('turns a network failure into the no-response message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await failureOf(http.get('/tickets'));
    expect(error.status).toBeUndefined();
    expect(error.message).toBe('Unable to connect to the server. Please check your internet connection and try again.');
  });

  it('reports a body that cannot be encoded as a setup failure', async () => {
    fakeServer({});
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const error = await failureOf(http.post('/tickets', circular));
    expect(error.message).toMatch(/^Request failed: /);
  });

  it('ends a signed-in session on 401 and goes to /login?session_expired=true', async () => {
    window.history.replaceState(null, '', '/tickets');
    fakeServer({
      'GET /tickets': { status: 401, body: { success: false, message: 'Your session is invalid or has expired. Please log in again.' } },
    });
    setSession({ token: 'old', user: testUser() });
    const error = await failureOf(http.get('/tickets'));
    expect(error.message).toBe('Your session has expired. Please log in again.');
    expect(getToken()).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(store.get(signOutReasonAtom)).toBe('expired');
    expect(`${window.location.pathname}${window.location.search}`).toBe('/login?session_expired=true');
  });

  it('stays on a login page when a 401 arrives there', async () => {
    window.history.replaceState(null, '', '/api-test');
    fakeServer({ 'GET /auth/verify': { status: 401, body: { success: false, message: 'x' } } });
    setSession({ token: 'old', user: testUser() });
    await failureOf(http.get('/auth/verify'));
    expect(window.location.pathname).toBe('/api-test');
    expect(getToken()).toBeNull();
  });

  it('treats a 401 without a session (wrong password) as an answer, not an expiry', async () => {
    window.history.replaceState(null, '', '/somewhere');
    fakeServer({ 'POST /auth/login': { status: 401, body: { success: false, message: 'Invalid credentials' } } });
    const error = await failureOf(http.post('/auth/login', { email: 'a@b.c', password: 'x' }));
    expect(error.serverMessage).toBe('Invalid credentials');
    expect(window.location.pathname).toBe('/somewhere');
  });
});
