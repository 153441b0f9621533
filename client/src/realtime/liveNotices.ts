import type { CommentAddedEvent, TicketChangedEvent } from '@helpdesk/protocol';
import { labelOf } from '../lib/text';

/** What a live change says to the person who did not make it. */
export interface LiveNotice {
  ticketId: number;
  title: string;
  message: string;
}

/** The ticket a path shows, if it shows one. */
export function ticketOnScreen(path: string): number | null {
  const match = /^\/(?:ticket|tickets|edit-ticket|agent\/ticket)\/(\d+)(?:\/|$)/.exec(path);
  return match ? Number(match[1]) : null;
}

/** A notice for someone else's change, or null for one's own (they saw it happen). */
export function ticketNotice(event: TicketChangedEvent, myId: number | undefined): LiveNotice | null {
  if (event.by.id === myId) return null;
  const id = event.ticket.id;
  const by = event.by.name;
  switch (event.action) {
    case 'created':
      return { ticketId: id, title: `New ticket #${id}`, message: `${by} opened “${event.ticket.title}”` };
    case 'deleted':
      return { ticketId: id, title: `Ticket #${id} deleted`, message: `${by} deleted “${event.previous.title}”` };
    case 'updated': {
      const { previous, ticket } = event;
      const change =
        previous.status !== undefined && previous.status !== ticket.status
          ? `status ${labelOf(previous.status)} → ${labelOf(ticket.status)}`
          : previous.priority !== undefined && previous.priority !== ticket.priority
            ? `priority ${labelOf(previous.priority)} → ${labelOf(ticket.priority)}`
            : previous.category !== undefined && previous.category !== ticket.category
              ? `category ${labelOf(previous.category)} → ${labelOf(ticket.category)}`
              : 'details updated';
      return { ticketId: id, title: `Ticket #${id} updated`, message: `${by}: ${change}` };
    }
  }
}

export function commentNotice(event: CommentAddedEvent, myId: number | undefined): LiveNotice | null {
  if (event.comment.author.id === myId) return null;
  const { author, internal } = event.comment;
  return internal
    ? {
        ticketId: event.ticketId,
        title: `New internal note on ticket #${event.ticketId}`,
        message: `${author.name} added an internal note`,
      }
    : { ticketId: event.ticketId, title: `New reply on ticket #${event.ticketId}`, message: `${author.name} replied` };
}
