import { ROOMS } from '@helpdesk/protocol';
import type { ActorRef, EventBus } from '../events/bus.js';
import type { Fanout } from '../scaleout/fanout.js';
import { heldBackLog } from '../scaleout/heldBack.js';
import type { RealtimeServer } from './server.js';

type Target = ReturnType<RealtimeServer['to']>;
/** How late a replayed event is: `{}` when it goes out as it happens. */
type Lateness = { delayMs?: number };
/** One emit, to be made on whichever target it turns out to need. */
type Delivery = (to: Target, late: Lateness) => void;

export interface Publisher {
  stop(): void;
  /**
   * After an outage of Redis: what only this process's sockets got goes to every other process's
   * sockets, each event with how long ago it happened (`delayMs`), so a client that has read its data
   * since can tell the event is in it. False when more was held than kept: the others must re-read.
   */
  replayHeldBack(): boolean;
}

/**
 * Bus → rooms. Ticket data goes only to its owner and to staff, the same people who may read it over
 * REST. Events carry what their unit of work wrote, presented by the same presenter as HTTP, so
 * nothing is read again here.
 */
export function publishDomainEvents(io: RealtimeServer, bus: EventBus, fanout: Fanout, heldBackLimit?: number): Publisher {
  const ticketRooms = (ownerId: number) => [ROOMS.user(ownerId), ROOMS.staff];
  /** Replays, each made on the other processes once Redis is back. */
  const heldBack = heldBackLog<(late: Lateness) => void>(heldBackLimit);
  // Every process while Redis carries emits; only this one (without waiting) while it is away, and
  // then the others get it when Redis returns.
  const send = (rooms: string[], deliver: Delivery) => {
    if (fanout.crossProcess()) {
      deliver(io.to(rooms), {});
      return;
    }
    deliver(io.local.to(rooms), {});
    if (fanout.shared) heldBack.add((late) => deliver(io.to(rooms).except(fanout.localRoom), late));
  };
  const by = (actor: ActorRef) => ({ id: actor.id, name: actor.name });
  const offs = [
    bus.subscribe('ticket.created', ({ ownerId, actor, ticket }) => {
      send(ticketRooms(ownerId), (to, late) => to.emit('ticket-changed', { action: 'created', ticket, by: by(actor), ...late }));
    }),
    bus.subscribe('ticket.updated', ({ ownerId, actor, ticket, previous, history }) => {
      send(ticketRooms(ownerId), (to, late) =>
        to.emit('ticket-changed', { action: 'updated', ticket, by: by(actor), previous, history, ...late }),
      );
    }),
    bus.subscribe('ticket.deleted', ({ ticketId, ownerId, actor, previous }) => {
      send(ticketRooms(ownerId), (to, late) =>
        to.emit('ticket-changed', { action: 'deleted', ticket: { id: ticketId }, by: by(actor), previous, ...late }),
      );
    }),
    bus.subscribe('comment.added', ({ ticketId, ownerId, comment, history, commentCount }) => {
      // An internal note goes to staff alone: never to the owner's room, whoever the owner is.
      const rooms = comment.internal ? [ROOMS.staff] : ticketRooms(ownerId);
      send(rooms, (to, late) => to.emit('comment-added', { ticketId, comment, history, commentCount, ...late }));
    }),
    bus.subscribe('notification.created', ({ userId, notification }) => {
      send([ROOMS.user(userId)], (to, late) => to.emit('notification', { notification, ...late }));
    }),
    bus.subscribe('article.helpful', ({ articleId, helpfulCount }) => {
      // A count, not a change: the newest one is all a late client needs, and a replay would be older.
      send([ROOMS.public], (to) => to.emit('helpful-count', { articleId, helpfulCount }));
    }),
    bus.subscribe('user.revoked', ({ userId }) => {
      if (fanout.crossProcess()) {
        io.in(ROOMS.user(userId)).disconnectSockets(true);
        return;
      }
      io.local.in(ROOMS.user(userId)).disconnectSockets(true);
      // Later, the others' sockets of this user reconnect instead: the handshake refuses a revoked
      // token, and lets in a session started since (a new sign-in on another process).
      if (fanout.shared) heldBack.add(() => io.serverSideEmit('resync', userId));
    }),
  ];
  return {
    stop: () => offs.forEach((off) => off()),
    replayHeldBack() {
      const { items, overflowed } = heldBack.drain();
      if (overflowed) return false;
      const now = Date.now();
      for (const { at, item: replay } of items) replay({ delayMs: now - at });
      return true;
    },
  };
}
