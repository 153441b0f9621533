import {
  STAFF_ONLY_HISTORY_TYPES,
  type Comment,
  type HistoryEntry,
  type Ticket,
  type TicketDetail,
  type TicketPrevious,
  type UserRef,
} from '@helpdesk/protocol';
import type { AttachmentRow } from '../db/queries/attachments.js';
import type { TicketRow } from '../db/queries/tickets.js';
import type { CommentRow, HistoryRow } from '../db/queries/ticketThread.js';
import { presentSla } from '../sla/ticketSla.js';

import { presentAttachment } from './attachments.js';

type Ref = UserRef | null;

const ref = (id: number | null, name: string | null): Ref => (id === null ? null : { id, name: name ?? '' });

export const presentTicket = ({ ticket, ownerName, agentName, editorName, commentCount, answered, unread }: TicketRow): Ticket => ({
  id: ticket.id,
  title: ticket.title,
  description: ticket.description,
  priority: ticket.priority,
  category: ticket.category,
  status: ticket.status,
  resolutionNotes: ticket.resolutionNotes,
  user: { id: ticket.userId, name: ownerName ?? '' },
  assignedAgent: ref(ticket.assignedAgentId, agentName),
  updatedBy: ref(ticket.updatedById, editorName),
  commentCount,
  answered,
  version: ticket.version,
  createdAt: ticket.createdAt.toISOString(),
  updatedAt: ticket.updatedAt.toISOString(),
  lastActivityAt: ticket.lastActivityAt.toISOString(),
  ...(unread !== undefined && { unread }),
  tags: ticket.tags,
  sla: presentSla(ticket),
});

/**
 * A ticket as anyone but staff receives it, over REST and sockets: the staff-only fields (tags, the
 * service level) left out, absent rather than empty, so nothing says there were any (docs/api.md#tags).
 */
export function withoutStaffFields<T extends Ticket | TicketPrevious>(ticket: T): T {
  if (!('tags' in ticket) && !('sla' in ticket)) return ticket;
  const { tags: _tags, sla: _sla, ...rest } = ticket;
  return rest as T;
}

/** The ticket for this reader: whole for staff, without the staff-only fields for anyone else. */
export const ticketFor = <T extends Ticket>(staffReader: boolean, ticket: T): T => (staffReader ? ticket : withoutStaffFields(ticket));

/** The timeline entries of an event that the owner's room may receive. */
export const ownerHistory = (history: HistoryEntry[]): HistoryEntry[] =>
  history.filter((entry) => !(STAFF_ONLY_HISTORY_TYPES as readonly string[]).includes(entry.type));

export const presentComment = ({ comment, author, emailStatus, inboundMessageId, attachments = [] }: CommentRow): Comment => ({
  id: comment.id,
  ticketId: comment.ticketId,
  content: comment.content,
  author: { id: author.id, name: author.name, role: author.role },
  internal: comment.internal,
  createdAt: comment.createdAt.toISOString(),
  attachments: attachments.map(presentAttachment),
  // Present only in staff reads (db/queries/ticketThread.ts), and only for a reply that sent a mail.
  ...(emailStatus && { emailStatus }),
  // Staff reads, and the intake's own comment (ownerComment takes it out of the owner's copy).
  ...(inboundMessageId != null && { inboundMessageId }),
});

/** A comment as its owner receives it: without the staff-only fields, absent rather than empty. */
export function ownerComment(comment: Comment): Comment {
  if (!('emailStatus' in comment) && !('inboundMessageId' in comment)) return comment;
  const { emailStatus: _emailStatus, inboundMessageId: _inboundMessageId, ...rest } = comment;
  return rest;
}

export const presentHistoryEntry = ({ entry, actor }: HistoryRow): HistoryEntry => ({
  id: entry.id,
  ticketId: entry.ticketId,
  type: entry.type,
  from: entry.fromValue,
  to: entry.toValue,
  actor: { id: actor.id, name: actor.name },
  createdAt: entry.createdAt.toISOString(),
});

export const presentTicketDetail = (
  row: TicketRow,
  comments: CommentRow[],
  history: HistoryRow[],
  attachments: AttachmentRow[] = [],
): TicketDetail => ({
  ...presentTicket(row),
  comments: comments.map(presentComment),
  history: history.map(presentHistoryEntry),
  attachments: attachments.map(presentAttachment),
});

const CHANGEABLE = [
  'title',
  'description',
  'priority',
  'category',
  'status',
  'resolutionNotes',
  'assignedAgent',
  'updatedBy',
  'updatedAt',
  // A list sorted by last activity moves a ticket it does not hold by where it was.
  'lastActivityAt',
  'tags',
  'sla',
] as const satisfies readonly (keyof TicketPrevious)[];

/** The fields a write changed, with the values they had before it. */
export function previousOf(before: Ticket, after: Ticket): TicketPrevious {
  const previous: Record<string, unknown> = {};
  for (const field of CHANGEABLE) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) previous[field] = before[field];
  }
  return previous;
}
