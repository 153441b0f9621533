import type { Comment, HistoryEntry, Notification, PresenceViewer, Ticket, UserRef } from './entities.js';

/** The fields a change can touch, as they were before it. */
export type TicketPrevious = Partial<
  Pick<Ticket, 'title' | 'description' | 'priority' | 'status' | 'resolutionNotes' | 'assignedAgent' | 'updatedBy' | 'updatedAt'>
>;

/**
 * A ticket change, sent once it has committed. Everything a client needs to update its copies is in
 * the event, so a client that holds the ticket, a page of tickets or the counts asks the server for
 * nothing: `previous` says which counts and filters the ticket left, `history` is the timeline's new
 * entries. A deleted ticket keeps `ticket: {id}`; `previous` is the whole ticket as it was.
 */
export type TicketChangedEvent =
  | { action: 'created'; ticket: Ticket; by: UserRef }
  | { action: 'updated'; ticket: Ticket; by: UserRef; previous: TicketPrevious; history: HistoryEntry[] }
  | { action: 'deleted'; ticket: { id: number }; by: UserRef; previous: Ticket };

export interface CommentAddedEvent {
  ticketId: number;
  comment: Comment;
  /** The timeline entry the comment added. */
  history: HistoryEntry;
}

export interface HelpfulCountEvent {
  articleId: number;
  helpfulCount: number;
}

export interface NotificationEvent {
  notification: Notification;
}

/** Who is on a ticket's page right now; staff only. */
export interface PresenceEvent {
  ticketId: number;
  viewers: PresenceViewer[];
}

/**
 * The counts of saved views with a text search, after changes that can have moved them; keyed by view
 * id, only the views that may have moved. Filter-only views are moved by the client itself from
 * `ticket-changed` (api/ticketMatch.ts); whether a ticket matches a search is the server's to say.
 */
export interface ViewCountsEvent {
  counts: Record<string, number>;
}

export interface ServerToClientEvents {
  'ticket-changed': (event: TicketChangedEvent) => void;
  'comment-added': (event: CommentAddedEvent) => void;
  'helpful-count': (event: HelpfulCountEvent) => void;
  notification: (event: NotificationEvent) => void;
  presence: (event: PresenceEvent) => void;
  'view-counts': (event: ViewCountsEvent) => void;
}

export interface TicketViewSignal {
  ticketId: number;
}
export interface TicketTypingSignal {
  ticketId: number;
  typing: boolean;
}

/**
 * Every change goes through REST so it is validated and authorized once; sockets only say where a
 * person is and whether they type (presence), which the server checks against what they may read.
 */
export interface ClientToServerEvents {
  'ticket:view': (signal: TicketViewSignal) => void;
  'ticket:leave': (signal: TicketViewSignal) => void;
  'ticket:typing': (signal: TicketTypingSignal) => void;
}

export const ROOMS = {
  public: 'public',
  staff: 'staff',
  user: (id: number) => `user:${id}`,
} as const;
