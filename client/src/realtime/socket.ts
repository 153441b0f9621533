import type { ClientToServerEvents, ServerToClientEvents } from '@helpdesk/protocol';
import { io, type Socket } from 'socket.io-client';

export type HelpdeskSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** One socket per session: signed-out visitors still get the public events (helpful counts). */
export function openSocket(token: string | null): HelpdeskSocket {
  return io({ path: '/socket.io', auth: token ? { token } : {}, transports: ['websocket', 'polling'] });
}
