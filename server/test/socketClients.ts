import { io as connectClient, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@helpdesk/protocol';
import type { ApiClient } from './http.js';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EventName = keyof ServerToClientEvents;
type Payloads = { [K in EventName]: Parameters<ServerToClientEvents[K]>[0] };
/** Every server event, each named once: the compiler refuses a list that misses one. */
const EVENT_NAMES = Object.keys({
  'ticket-changed': true,
  'comment-added': true,
  'helpful-count': true,
  notification: true,
  presence: true,
  'view-counts': true,
  'email-status': true,
  'sla-changed': true,
  'last-change': true,
  'csat-received': true,
  'article-changed': true,
  'items-changed': true,
  'staff-changed': true,
  'ticket-read': true,
  'notifications-read': true,
} satisfies Record<EventName, true>) as EventName[];

/**
 * Long enough for a misrouted event to show up after the rightful receivers already have theirs. Only
 * for a negative that nothing can be ordered after; everywhere else `sentinel` is exact and faster.
 */
export const QUIET_MS = 200;
export const EVENT_TIMEOUT_MS = 3_000;

/** A real client socket that records every server event it gets. */
export interface Listener {
  socket: ClientSocket;
  events: { [K in EventName]: Payloads[K][] };
  /** Resolves with the first recorded (or future) event of that name matching the predicate. */
  next<K extends EventName>(name: K, match?: (payload: Payloads[K]) => boolean, timeoutMs?: number): Promise<Payloads[K]>;
  disconnected(timeoutMs?: number): Promise<string>;
}

/** Real Socket.IO clients for tests; `closeAll` in afterEach/afterAll. */
export function socketClients() {
  const open: ClientSocket[] = [];

  const newSocket = (url: string, token?: string, headers?: Record<string, string>): ClientSocket => {
    const socket: ClientSocket = connectClient(url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: token === undefined ? {} : { token },
      ...(headers && { extraHeaders: headers }),
      reconnection: false,
      forceNew: true,
      timeout: EVENT_TIMEOUT_MS,
    });
    open.push(socket);
    return socket;
  };

  /** `headers` go with the handshake, e.g. the X-Forwarded-For a proxy in front would add. */
  const listen = async (url: string, token?: string, headers?: Record<string, string>): Promise<Listener> => {
    const socket = newSocket(url, token, headers);
    const events = Object.fromEntries(EVENT_NAMES.map((name) => [name, []])) as unknown as Listener['events'];
    const waiters: { name: EventName; match: (p: any) => boolean; resolve: (p: any) => void }[] = [];
    let disconnectReason: string | undefined;
    const disconnectWaiters: ((reason: string) => void)[] = [];
    const record = (name: EventName) => (payload: any) => {
      (events[name] as unknown[]).push(payload);
      for (const w of [...waiters]) {
        if (w.name === name && w.match(payload)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(payload);
        }
      }
    };
    // Typed per name by the map above; the socket's own typing cannot follow a name held in a variable.
    for (const name of EVENT_NAMES) (socket as Socket).on(name, record(name));
    socket.on('disconnect', (reason) => {
      disconnectReason = reason;
      disconnectWaiters.splice(0).forEach((resolve) => resolve(reason));
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (error) => reject(error));
    });
    return {
      socket,
      events,
      next(name, match = () => true, timeoutMs = EVENT_TIMEOUT_MS) {
        const seen = (events[name] as Payloads[typeof name][]).find(match);
        if (seen) return Promise.resolve(seen);
        return new Promise((resolve, reject) => {
          const waiter = { name, match, resolve };
          waiters.push(waiter);
          setTimeout(() => {
            const i = waiters.indexOf(waiter);
            if (i >= 0) {
              waiters.splice(i, 1);
              reject(new Error(`no ${name} event within ${timeoutMs} ms`));
            }
          }, timeoutMs);
        });
      },
      disconnected(timeoutMs = EVENT_TIMEOUT_MS) {
        if (disconnectReason !== undefined) return Promise.resolve(disconnectReason);
        return new Promise((resolve, reject) => {
          disconnectWaiters.push(resolve);
          setTimeout(() => reject(new Error(`socket was not disconnected within ${timeoutMs} ms`)), timeoutMs);
        });
      },
    };
  };

  /** Handshake that must fail: resolves with the connect_error message. */
  const refusedHandshake = (url: string, auth: Record<string, unknown>, headers?: Record<string, string>) =>
    new Promise<string>((resolve, reject) => {
      const socket: ClientSocket = connectClient(url, {
        path: '/socket.io',
        transports: ['websocket'],
        auth,
        ...(headers && { extraHeaders: headers }),
        reconnection: false,
        forceNew: true,
      });
      open.push(socket);
      socket.once('connect', () => reject(new Error('handshake unexpectedly succeeded')));
      socket.once('connect_error', (error) => resolve(error.message));
    });

  return {
    listen,
    refusedHandshake,
    closeAll() {
      for (const socket of open.splice(0)) socket.disconnect();
    },
  };
}

/**
 * Proves that nothing more is coming to these sockets from what happened before, without waiting out
 * a delay: Socket.IO keeps each connection's order and a request's events are emitted before it is
 * answered, so once a later event has reached a socket, every earlier emit to it has too. The later
 * event is a vote on a fresh article, which reaches every socket, anonymous ones included. Emits are
 * ordered per process only, so `api` must be the process that emitted the events in question. A
 * socket disconnected meanwhile never gets it, and the call fails.
 */
export async function sentinel(api: ApiClient, staffToken: string, listeners: Listener[]): Promise<void> {
  const body = { title: 'Sentinel article', content: 'Marks the end of a test step.', category: 'general', keywords: ['sentinel'] };
  const article = await api.post('/knowledge', body, { token: staffToken });
  if (article.status !== 201) throw new Error(`sentinel article failed: ${article.status} ${JSON.stringify(article.body)}`);
  const articleId: number = article.body.article.id;
  const vote = await api.post(`/knowledge/${articleId}/helpful`, undefined, { token: staffToken });
  if (vote.status !== 200) throw new Error(`sentinel vote failed: ${vote.status} ${JSON.stringify(vote.body)}`);
  await Promise.all(
    listeners.map((l) =>
      l
        .next('helpful-count', (e) => e.articleId === articleId)
        .catch((error: unknown) => {
          throw l.socket.connected ? error : new Error('the socket was disconnected before the sentinel reached it');
        }),
    ),
  );
}
