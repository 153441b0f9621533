import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { MESSAGES, ROOMS, isStaff, type ClientToServerEvents, type ServerToClientEvents } from '@helpdesk/protocol';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Logger } from '../lib/logger.js';
import type { Actor } from '../lib/actor.js';
import type { Fanout } from '../scaleout/fanout.js';
import type { AccountService } from '../services/accounts.js';

export interface SocketData {
  actor?: Actor;
}

/** Messages between server processes (Socket.IO server-side emits, through Redis). */
export interface InterServerEvents {
  /** Every socket of the receiving process (or one user's) reconnects, and its client re-reads. */
  resync: (userId?: number) => void;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Sockets on this process in `room` (of the one namespace the server uses). */
export const socketsHere = (io: RealtimeServer, room: string): number => io.of('/').adapter.rooms.get(room)?.size ?? 0;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface RealtimeOptions {
  /** Live sockets one user may hold on this process; the next handshake is refused. */
  maxSocketsPerUser: number;
  /** Live sockets without a token one client address may hold on this process. */
  maxAnonymousSocketsPerAddress: number;
  /** Read the client address from X-Forwarded-For's last hop, as the HTTP side does (TRUST_PROXY). */
  trustProxy: boolean;
}

/** setTimeout's ceiling; longer sessions are re-checked when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647;

/** A room per client address for its sockets without a token; only counted, never sent to. */
const anonymousRoom = (address: string) => `anonymous:${address}`;

/** The client address as rate limits see it over HTTP (Koa trusts one proxy hop, the last X-Forwarded-For entry). */
function addressOf(socket: RealtimeSocket, trustProxy: boolean): string {
  const forwarded = trustProxy ? socket.handshake.headers['x-forwarded-for'] : undefined;
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').at(-1)?.trim();
  return last || socket.handshake.address;
}

/**
 * Socket.IO on the HTTP server's port. The handshake token decides the rooms (docs/api.md#real-time-events): everyone
 * joins `public`, a signed-in user `user:<id>`, staff also `staff`. A socket never outlives its token.
 */
export function attachRealtime(
  httpServer: HttpServer,
  accounts: AccountService,
  fanout: Fanout,
  logger: Logger,
  options: RealtimeOptions,
): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    ...(fanout.adapter && { adapter: fanout.adapter }),
  });
  const log = logger.child({ component: 'realtime' });

  /**
   * Sockets in `room` on this process, checked and joined in one step. Joined in the handshake rather
   * than on "connection" so handshakes completing in the same tick count each other; Socket.IO
   * removes a socket from its rooms when it closes or its handshake fails, so nothing needs undoing.
   */
  const claimPlace = (socket: RealtimeSocket, room: string, max: number): boolean => {
    if (socketsHere(io, room) >= max) return false;
    void socket.join(room);
    return true;
  };

  const handshake = async (socket: RealtimeSocket, next: (error?: Error) => void) => {
    const token: unknown = socket.handshake.auth.token;
    if (token === undefined || token === null || token === '') {
      const room = anonymousRoom(addressOf(socket, options.trustProxy));
      next(
        claimPlace(socket, room, options.maxAnonymousSocketsPerAddress) ? undefined : new Error(MESSAGES.auth.tooManyAnonymousConnections),
      );
      return;
    }
    try {
      const session = typeof token === 'string' ? await accounts.resolveSession(token) : undefined;
      if (!session) {
        next(new Error(MESSAGES.auth.sessionInvalid));
        return;
      }
      // The user's room holds exactly their live sockets here.
      if (!claimPlace(socket, ROOMS.user(session.actor.id), options.maxSocketsPerUser)) {
        next(new Error(MESSAGES.auth.tooManyConnections));
        return;
      }
      socket.data.actor = session.actor;
      expireWithToken(socket, session.expiresAt);
      next();
    } catch (error) {
      // The client retries later on "unavailable"; anything else is a bug worth a stack trace.
      if (isDatabaseUnavailable(error)) {
        next(new Error(MESSAGES.http.unavailable));
        return;
      }
      log.error({ err: error }, 'socket handshake failed');
      next(new Error(MESSAGES.http.internal));
    }
  };
  io.use((socket, next) => void handshake(socket, next));

  io.on('connection', (socket) => {
    const { actor } = socket.data;
    void socket.join([ROOMS.public, fanout.localRoom]);
    if (actor && isStaff(actor)) void socket.join(ROOMS.staff);
    // From here on the socket hears every change; what came before it joined, its client may lack.
    const heard = [ROOMS.public, ...(actor ? [ROOMS.user(actor.id), ...(isStaff(actor) ? [ROOMS.staff] : [])] : [])];
    void fanout.lastSent.latest(heard).then((at) => socket.emit('last-change', { at }));
  });
  io.on('resync', (userId) => resyncLocalSockets(io, userId));

  return io;
}

/**
 * Closes the transport (not the session) of every socket on this process, or of one user's, so
 * clients reconnect on their own, pass the handshake again and re-read what they show: after Redis
 * returns, this process's clients catch up on what the others did meanwhile this way, and a session
 * revoked meanwhile ends.
 */
export function resyncLocalSockets(io: RealtimeServer, userId?: number): void {
  const main = io.of('/');
  const ids = userId === undefined ? main.sockets.keys() : (main.adapter.rooms.get(ROOMS.user(userId)) ?? []);
  for (const id of [...ids]) main.sockets.get(id)?.conn.close();
}

function expireWithToken(socket: RealtimeSocket, expiresAt: number) {
  const timer = setTimeout(
    () => {
      if (Date.now() >= expiresAt) socket.disconnect(true);
      else expireWithToken(socket, expiresAt);
    },
    Math.min(Math.max(0, expiresAt - Date.now()), MAX_TIMER_MS),
  );
  timer.unref();
  socket.once('disconnect', () => clearTimeout(timer));
}
