import { ROOMS } from '@helpdesk/protocol';
import type { EventBus } from '../events/bus.js';
import type { TicketService } from '../services/tickets.js';
import type { Fanout } from '../scaleout/fanout.js';
import type { RealtimeServer } from './server.js';

/**
 * Bus → rooms. Ticket data goes only to its owner and to staff, the same people who may read it over
 * REST; the payload is re-read after commit and built by the same presenter as HTTP.
 */
export function publishDomainEvents(io: RealtimeServer, bus: EventBus, tickets: TicketService, fanout: Fanout) {
  const ticketRooms = (ownerId: number) => [ROOMS.user(ownerId), ROOMS.staff];
  // Every process while Redis carries emits; only this one (without waiting) while it is away.
  const out = () => (fanout.crossProcess() ? io : io.local);
  const offs = [
    bus.subscribe('ticket.created', async ({ ticketId, ownerId, actor }) => {
      const ticket = await tickets.findForEvent(ticketId);
      if (ticket) out().to(ticketRooms(ownerId)).emit('ticket-changed', { action: 'created', ticket, by: { id: actor.id, name: actor.name } });
    }),
    bus.subscribe('ticket.updated', async ({ ticketId, ownerId, actor }) => {
      const ticket = await tickets.findForEvent(ticketId);
      if (ticket) out().to(ticketRooms(ownerId)).emit('ticket-changed', { action: 'updated', ticket, by: { id: actor.id, name: actor.name } });
    }),
    bus.subscribe('ticket.deleted', ({ ticketId, ownerId, actor }) => {
      out().to(ticketRooms(ownerId)).emit('ticket-changed', { action: 'deleted', ticket: { id: ticketId }, by: { id: actor.id, name: actor.name } });
    }),
    bus.subscribe('comment.added', async ({ ticketId, ownerId, commentId }) => {
      const comment = await tickets.findCommentForEvent(commentId);
      if (comment) out().to(ticketRooms(ownerId)).emit('comment-added', { ticketId, comment });
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
