import { vi } from 'vitest';

export interface FakeResponse {
  status?: number;
  body?: unknown;
}
type Handler = FakeResponse | ((request: { url: URL; body: unknown; headers: Headers }) => FakeResponse);

export interface FakeServer {
  /** Every call made, in order, as `METHOD /path?query` with its JSON body and headers. */
  calls: { key: string; body: unknown; headers: Headers }[];
}

/**
 * Reads the page frame makes on its own for every staff page (the notification bell), answered
 * empty unless a test lists them, and left out of `calls` so no test has to account for them.
 */
const AMBIENT: Record<string, FakeResponse> = {
  'GET /notifications': { body: { success: true, notifications: [], unread: 0 } },
};

/**
 * Stands in for the network at fetch, the boundary of the browser, answering `METHOD /path`
 * (path below /api, without the query) from a table. An unlisted call fails the test loudly.
 * Component tests use it; the real server is exercised by the browser journeys in e2e/.
 */
export function fakeServer(routes: Record<string, Handler>): FakeServer {
  const server: FakeServer = { calls: [] };
  const respond = (input: string, init: RequestInit): Response => {
    const url = new URL(input, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api/, '');
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = new Headers(init.headers);
    const ambient = routes[`${method} ${path}`] ? undefined : AMBIENT[`${method} ${path}`];
    if (!ambient) server.calls.push({ key: `${method} ${path}${url.search}`, body, headers });
    const handler = routes[`${method} ${path}`] ?? ambient;
    if (!handler) throw new Error(`fakeServer: no answer for ${method} ${path}`);
    const answer = typeof handler === 'function' ? handler({ url, body, headers }) : handler;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  // Like fetch, an error (an unlisted call) comes back as a rejected promise, never as a throw at the call.
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => new Promise<Response>((resolve) => resolve(respond(input, init)))),
  );
  return server;
}
