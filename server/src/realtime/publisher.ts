import { ROOMS } from '@helpdesk/protocol';
import type { ActorRef, DomainEvents, EventBus } from '../events/bus.js';
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
  const by = (actor: ActorRef) => ({ id: actor.id, name: actor.name });
  // Created and updated carry the ticket as it is after commit, read the way HTTP reads it.
  const announceTicket =
    (action: 'created' | 'updated') =>
    async ({ ticketId, ownerId, actor }: DomainEvents['ticket.created']) => {
      const ticket = await tickets.findForEvent(ticketId);
      if (ticket) out().to(ticketRooms(ownerId)).emit('ticket-changed', { action, ticket, by: by(actor) });
    };
  const offs = [
    bus.subscribe('ticket.created', announceTicket('created')),
    bus.subscribe('ticket.updated', announceTicket('updated')),
    bus.subscribe('ticket.deleted', ({ ticketId, ownerId, actor }) => {
      out().to(ticketRooms(ownerId)).emit('ticket-changed', { action: 'deleted', ticket: { id: ticketId }, by: by(actor) });
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
