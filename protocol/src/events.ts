import type { Comment, Ticket, UserRef } from './entities.js';

/** CONTRACT §5. A deleted ticket travels as its id only. */
export type TicketChangedEvent =
  | { action: 'created' | 'updated'; ticket: Ticket; by: UserRef }
  | { action: 'deleted'; ticket: { id: number }; by: UserRef };

export interface CommentAddedEvent {
  ticketId: number;
  comment: Comment;
}

export interface HelpfulCountEvent {
  articleId: number;
  helpfulCount: number;
}

export interface ServerToClientEvents {
  'ticket-changed': (event: TicketChangedEvent) => void;
  'comment-added': (event: CommentAddedEvent) => void;
  'helpful-count': (event: HelpfulCountEvent) => void;
}

/** Clients only listen; every change goes through REST so it is validated and authorized once. */
export type ClientToServerEvents = Record<string, never>;

export const ROOMS = {
  public: 'public',
  staff: 'staff',
  user: (id: number) => `user:${id}`,
} as const;
