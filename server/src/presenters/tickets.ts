import type { Comment, HistoryEntry, Role, Ticket, TicketDetail, UserRef } from '@helpdesk/protocol';
import type { ticketComments, ticketHistory, tickets } from '../db/schema/index.js';

type Ref = UserRef | null;

export interface TicketRow {
  ticket: typeof tickets.$inferSelect;
  owner: UserRef;
  agent: Ref;
  editor: Ref;
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

const ref = (r: Ref): Ref => (r ? { id: r.id, name: r.name } : null);

export const presentTicket = ({ ticket, owner, agent, editor, commentCount }: TicketRow): Ticket => ({
  id: ticket.id,
  title: ticket.title,
  description: ticket.description,
  priority: ticket.priority,
  status: ticket.status,
  resolutionNotes: ticket.resolutionNotes,
  user: { id: owner.id, name: owner.name },
  assignedAgent: ref(agent),
  updatedBy: ref(editor),
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
