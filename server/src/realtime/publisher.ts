import { ROOMS } from '@helpdesk/protocol';
import type { ActorRef, EventBus } from '../events/bus.js';
import type { Fanout } from '../scaleout/fanout.js';
import type { RealtimeServer } from './server.js';

/**
 * Bus → rooms. Ticket data goes only to its owner and to staff, the same people who may read it over
 * REST. Events carry what their unit of work wrote, presented by the same presenter as HTTP, so
 * nothing is read again here.
 */
export function publishDomainEvents(io: RealtimeServer, bus: EventBus, fanout: Fanout) {
  const ticketRooms = (ownerId: number) => [ROOMS.user(ownerId), ROOMS.staff];
  // Every process while Redis carries emits; only this one (without waiting) while it is away.
  const out = () => (fanout.crossProcess() ? io : io.local);
  const by = (actor: ActorRef) => ({ id: actor.id, name: actor.name });
  const offs = [
    bus.subscribe('ticket.created', ({ ownerId, actor, ticket }) => {
      out()
        .to(ticketRooms(ownerId))
        .emit('ticket-changed', { action: 'created', ticket, by: by(actor) });
    }),
    bus.subscribe('ticket.updated', ({ ownerId, actor, ticket, previous, history }) => {
      out()
        .to(ticketRooms(ownerId))
        .emit('ticket-changed', { action: 'updated', ticket, by: by(actor), previous, history });
    }),
    bus.subscribe('ticket.deleted', ({ ticketId, ownerId, actor, previous }) => {
      out()
        .to(ticketRooms(ownerId))
        .emit('ticket-changed', { action: 'deleted', ticket: { id: ticketId }, by: by(actor), previous });
    }),
    bus.subscribe('comment.added', ({ ticketId, ownerId, comment, history }) => {
      // An internal note goes to staff alone: never to the owner's room, whoever the owner is.
      const rooms = comment.internal ? [ROOMS.staff] : ticketRooms(ownerId);
      out().to(rooms).emit('comment-added', { ticketId, comment, history });
    }),
    bus.subscribe('notification.created', ({ userId, notification }) => {
      out().to(ROOMS.user(userId)).emit('notification', { notification });
    }),
    bus.subscribe('article.helpful', ({ articleId, helpfulCount }) => {
      out().to(ROOMS.public).emit('helpful-count', { articleId, helpfulCount });
    }),
    bus.subscribe('user.revoked', ({ userId }) => {
      out().in(ROOMS.user(userId)).disconnectSockets(true);
    }),
  ];
  return () => offs.forEach((off) => off());
}
