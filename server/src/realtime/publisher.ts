import { ROOMS } from '@helpdesk/protocol';
import type { EventBus } from '../events/bus.js';
import type { TicketService } from '../services/tickets.js';
import type { RealtimeServer } from './server.js';

/**
 * Bus → rooms. Ticket data goes only to its owner and to staff, the same people who may read it over
 * REST; the payload is re-read after commit and built by the same presenter as HTTP.
 */
export function publishDomainEvents(io: RealtimeServer, bus: EventBus, tickets: TicketService) {
  const ticketRooms = (ownerId: number) => [ROOMS.user(ownerId), ROOMS.staff];
  const offs = [
    bus.subscribe('ticket.created', async ({ ticketId, ownerId, actor }) => {
      const ticket = await tickets.findForEvent(ticketId);
      if (ticket) io.to(ticketRooms(ownerId)).emit('ticket-changed', { action: 'created', ticket, by: { id: actor.id, name: actor.name } });
    }),
    bus.subscribe('ticket.updated', async ({ ticketId, ownerId, actor }) => {
      const ticket = await tickets.findForEvent(ticketId);
      if (ticket) io.to(ticketRooms(ownerId)).emit('ticket-changed', { action: 'updated', ticket, by: { id: actor.id, name: actor.name } });
    }),
    bus.subscribe('ticket.deleted', ({ ticketId, ownerId, actor }) => {
      io.to(ticketRooms(ownerId)).emit('ticket-changed', { action: 'deleted', ticket: { id: ticketId }, by: { id: actor.id, name: actor.name } });
    }),
    bus.subscribe('comment.added', async ({ ticketId, ownerId, commentId }) => {
      const comment = await tickets.findCommentForEvent(commentId);
      if (comment) io.to(ticketRooms(ownerId)).emit('comment-added', { ticketId, comment });
    }),
    bus.subscribe('article.helpful', ({ articleId, helpfulCount }) => {
      io.to(ROOMS.public).emit('helpful-count', { articleId, helpfulCount });
    }),
    bus.subscribe('user.revoked', ({ userId }) => {
      io.in(ROOMS.user(userId)).disconnectSockets(true);
    }),
  ];
  return () => offs.forEach((off) => off());
}
