import type { Comment, HistoryEntry, Role, Ticket, TicketDetail, UserRef } from '@helpdesk/protocol';
import type { ticketComments, ticketHistory, tickets } from '../db/schema/index.js';

type Ref = UserRef | null;

export interface TicketRow {
  ticket: typeof tickets.$inferSelect;
  ownerName: string | null;
  agentName: string | null;
  editorName: string | null;
  commentCount: number;
}
export interface CommentRow {
  comment: typeof ticketComments.$inferSelect;
  author: UserRef & { role: Role };
}
export interface HistoryRow {
  entry: typeof ticketHistory.$inferSelect;
  actor: UserRef;
}

const ref = (id: number | null, name: string | null): Ref => (id === null ? null : { id, name: name ?? '' });

export const presentTicket = ({ ticket, ownerName, agentName, editorName, commentCount }: TicketRow): Ticket => ({
  id: ticket.id,
  title: ticket.title,
  description: ticket.description,
  priority: ticket.priority,
  status: ticket.status,
  resolutionNotes: ticket.resolutionNotes,
  user: { id: ticket.userId, name: ownerName ?? '' },
  assignedAgent: ref(ticket.assignedAgentId, agentName),
  updatedBy: ref(ticket.updatedById, editorName),
  commentCount: Number(commentCount),
  createdAt: ticket.createdAt.toISOString(),
  updatedAt: ticket.updatedAt.toISOString(),
});

export const presentComment = ({ comment, author }: CommentRow): Comment => ({
  id: comment.id,
  ticketId: comment.ticketId,
  content: comment.content,
  author: { id: author.id, name: author.name, role: author.role },
  createdAt: comment.createdAt.toISOString(),
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

export const presentTicketDetail = (row: TicketRow, comments: CommentRow[], history: HistoryRow[]): TicketDetail => ({
  ...presentTicket(row),
  comments: comments.map(presentComment),
  history: history.map(presentHistoryEntry),
});
