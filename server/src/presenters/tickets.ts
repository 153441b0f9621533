import type { Comment, HistoryEntry, Ticket, TicketDetail, TicketPrevious, UserRef } from '@helpdesk/protocol';
import type { AttachmentRow } from '../db/queries/attachments.js';
import type { TicketRow } from '../db/queries/tickets.js';
import type { CommentRow, HistoryRow } from '../db/queries/ticketThread.js';

import { presentAttachment } from './attachments.js';

type Ref = UserRef | null;

const ref = (id: number | null, name: string | null): Ref => (id === null ? null : { id, name: name ?? '' });

export const presentTicket = ({ ticket, ownerName, agentName, editorName, commentCount, answered, unread }: TicketRow): Ticket => ({
  id: ticket.id,
  title: ticket.title,
  description: ticket.description,
  priority: ticket.priority,
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
});

export const presentComment = ({ comment, author, attachments = [] }: CommentRow): Comment => ({
  id: comment.id,
  ticketId: comment.ticketId,
  content: comment.content,
  author: { id: author.id, name: author.name, role: author.role },
  internal: comment.internal,
  createdAt: comment.createdAt.toISOString(),
  attachments: attachments.map(presentAttachment),
});

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
  'status',
  'resolutionNotes',
  'assignedAgent',
  'updatedBy',
  'updatedAt',
] as const satisfies readonly (keyof TicketPrevious)[];

/** The fields a write changed, with the values they had before it. */
export function previousOf(before: Ticket, after: Ticket): TicketPrevious {
  const previous: Record<string, unknown> = {};
  for (const field of CHANGEABLE) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) previous[field] = before[field];
  }
  return previous;
}
