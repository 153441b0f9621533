import { ROOMS, type Comment, type Ticket, type TicketPrevious } from '@helpdesk/protocol';
import type { ActorRef, Commit, EventBus } from '../events/bus.js';
import type { Fanout } from '../scaleout/fanout.js';
import { heldBackLog } from '../scaleout/heldBack.js';
import { ownerComment, ownerHistory, withoutStaffFields } from '../presenters/tickets.js';
import { socketsHere, type RealtimeServer } from './server.js';

type Target = ReturnType<RealtimeServer['to']>;
/** When an emit was first made, and when its change's commit was asked for (protocol's Stamped). */
type Stamp = { at: number; committing: number };
/** One emit, to be made on whichever target it turns out to need, stamped once. */
type Delivery = (to: Target, stamp: Stamp) => void;

export interface Publisher {
  stop(): void;
  /**
   * After an outage of Redis: what only this process's sockets got goes to every other process's
   * sockets, each event with the time it was first announced (`at`), so a client that has read its
   * data since can tell the event is in it. False when more was held than kept: the others must re-read.
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
  const heldBack = heldBackLog<() => void>(heldBackLimit);
  // Every process while Redis carries emits; only this one (without waiting) while it is away, and
  // then the others get it when Redis returns. The bus publishes after the commit, so `at` is later.
  // `except`: rooms whose sockets get this message another way (a staff owner gets staff's copy).
  const send = ({ committing }: Commit, rooms: string[], deliver: Delivery, except: string[] = []) => {
    const stamp = { at: Date.now(), committing };
    fanout.lastSent.note(rooms, stamp.at);
    if (fanout.crossProcess()) {
      deliver(io.to(rooms).except(except), stamp);
      return;
    }
    // Socket.IO encodes a broadcast before it looks for sockets: a scanner pass announces thousands
    // of marks, mostly to rooms nobody here is in (offline admins, agents), so an empty room costs nothing.
    if (rooms.some((room) => socketsHere(io, room) > 0)) deliver(io.local.to(rooms).except(except), stamp);
    if (fanout.shared) heldBack.add(() => deliver(io.to(rooms).except([fanout.localRoom, ...except]), stamp));
  };
  /**
   * A ticket change (or comment) goes to staff whole, and to its owner's room without what only staff
   * may read (tags, their history entries); a staff member who owns the ticket gets staff's copy only.
   */
  const sendTicketChange = (commit: Commit, ownerId: number, deliver: (to: Target, stamp: Stamp, forStaff: boolean) => void) => {
    send(commit, [ROOMS.staff], (to, stamp) => deliver(to, stamp, true));
    send(commit, [ROOMS.user(ownerId)], (to, stamp) => deliver(to, stamp, false), [ROOMS.staff]);
  };
  const forAudience = <T extends Ticket | TicketPrevious>(forStaff: boolean, value: T): T => (forStaff ? value : withoutStaffFields(value));
  const by = (actor: ActorRef) => ({ id: actor.id, name: actor.name });
  const offs = [
    bus.subscribe('ticket.created', ({ ownerId, actor, ticket }, commit) => {
      sendTicketChange(commit, ownerId, (to, stamp, forStaff) =>
        to.emit('ticket-changed', { action: 'created', ticket: forAudience(forStaff, ticket), by: by(actor), ...stamp }),
      );
    }),
    bus.subscribe('ticket.updated', ({ ownerId, actor, ticket, previous, history }, commit) => {
      sendTicketChange(commit, ownerId, (to, stamp, forStaff) =>
        to.emit('ticket-changed', {
          action: 'updated',
          ticket: forAudience(forStaff, ticket),
          by: by(actor),
          previous: forAudience(forStaff, previous),
          history: forStaff ? history : ownerHistory(history),
          ...stamp,
        }),
      );
    }),
    bus.subscribe('ticket.deleted', ({ ticketId, ownerId, actor, previous }, commit) => {
      sendTicketChange(commit, ownerId, (to, stamp, forStaff) =>
        to.emit('ticket-changed', {
          action: 'deleted',
          ticket: { id: ticketId },
          by: by(actor),
          previous: forAudience(forStaff, previous),
          ...stamp,
        }),
      );
    }),
    bus.subscribe('comment.added', ({ ticketId, ownerId, comment, history, commentCount }, commit) => {
      const deliver =
        (copy: Comment): Delivery =>
        (to, stamp) =>
          to.emit('comment-added', { ticketId, comment: copy, history, commentCount, ...stamp });
      const owners = ownerComment(comment);
      // An internal note goes to staff alone: never to the owner's room, whoever the owner is.
      if (comment.internal) send(commit, [ROOMS.staff], deliver(comment));
      // One emit to both rooms, unless the comment names what only staff may read (the mail it came from).
      else if (owners === comment) send(commit, ticketRooms(ownerId), deliver(comment));
      else sendTicketChange(commit, ownerId, (to, stamp, forStaff) => deliver(forStaff ? comment : owners)(to, stamp));
    }),
    // Every recipient's room in one emit: Socket.IO encodes it once and sends each socket one copy.
    bus.subscribe('notification.created', ({ userIds, notification }, commit) => {
      send(commit, userIds.map(ROOMS.user), (to, stamp) => to.emit('notification', { notification, ...stamp }));
    }),
    // The service level is staff's alone: never to the owner's room, whoever the owner is.
    bus.subscribe('sla.changed', ({ ticketId, sla, version, history }, commit) => {
      send(commit, [ROOMS.staff], (to, stamp) => to.emit('sla-changed', { ticketId, sla, version, ...(history && { history }), ...stamp }));
    }),
    bus.subscribe('email.status', ({ ticketId, commentId, status }, commit) => {
      send(commit, [ROOMS.staff], (to, stamp) => to.emit('email-status', { ticketId, commentId, status, ...stamp }));
    }),
    // A rating is staff's to read: never to the owner's room, whoever the owner is.
    bus.subscribe('csat.received', ({ ticketId, csat }, commit) => {
      send(commit, [ROOMS.staff], (to, stamp) => to.emit('csat-received', { ticketId, csat, ...stamp }));
    }),
    bus.subscribe('ticket.read', ({ userId, ticketId }, commit) => {
      send(commit, [ROOMS.user(userId)], (to, stamp) => to.emit('ticket-read', { ticketId, ...stamp }));
    }),
    bus.subscribe('notifications.read', ({ userId, ids, ticketId, unread }, commit) => {
      const which = { ...(ids && { ids }), ...(ticketId !== undefined && { ticketId }) };
      send(commit, [ROOMS.user(userId)], (to, stamp) => to.emit('notifications-read', { ...which, unread, ...stamp }));
    }),
    bus.subscribe('items.changed', ({ kind, ownerId, shared }, commit) => {
      send(commit, [shared ? ROOMS.staff : ROOMS.user(ownerId)], (to, stamp) => to.emit('items-changed', { kind, ...stamp }));
    }),
    bus.subscribe('staff.changed', (_payload, commit) => {
      send(commit, [ROOMS.staff], (to, stamp) => to.emit('staff-changed', stamp));
    }),
    bus.subscribe('article.changed', ({ articleId, action }, commit) => {
      send(commit, [ROOMS.public], (to, stamp) => to.emit('article-changed', { articleId, action, ...stamp }));
    }),
    bus.subscribe('article.helpful', ({ articleId, helpfulCount }) => {
      // A count, not a change: the newest one is all a late client needs, and a replay would be older.
      // Noted all the same, so a page read before the vote and connected after it reads again.
      fanout.lastSent.note([ROOMS.public], Date.now());
      if (fanout.crossProcess()) io.to(ROOMS.public).emit('helpful-count', { articleId, helpfulCount });
      else io.local.to(ROOMS.public).emit('helpful-count', { articleId, helpfulCount });
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
      for (const replay of items) replay();
      return true;
    },
  };
}
