import type { EmailStatus } from './enums.js';
import type { Comment, HistoryEntry, Notification, PresenceViewer, Ticket, UserRef } from './entities.js';
import type { TicketSla } from './api/sla.js';
import type { TicketCsat } from './api/csat.js';

/** The fields a change can touch, as they were before it. */
export type TicketPrevious = Partial<
  Pick<
    Ticket,
    | 'title'
    | 'description'
    | 'priority'
    | 'category'
    | 'status'
    | 'resolutionNotes'
    | 'assignedAgent'
    | 'updatedBy'
    | 'updatedAt'
    | 'lastActivityAt'
    | 'tags'
    | 'sla'
  >
>;

/**
 * When the server announced the change: milliseconds since the epoch, on its clock, taken after the
 * commit. The server always sends it (absent only in events made by hand). A read the server began
 * at or after that time (its answer's `X-Read-At` header) already holds the change. A process cut off
 * from the others replays what it announced meanwhile with the time it had, so a late event is known.
 */
export interface Stamped {
  at?: number;
  /**
   * When the server asked for the commit (its clock, before `at`): a read the server ended before
   * this time (its answer's `X-Read-End` header) cannot hold the change. Between the two, a read may
   * or may not hold it, and only a new read is sure.
   */
  committing?: number;
}

/** The answer header saying when the server began the request (milliseconds since the epoch, its clock). */
export const READ_AT_HEADER = 'X-Read-At';

/** The answer header saying when the server had read everything in the answer (its clock). */
export const READ_END_HEADER = 'X-Read-End';

/**
 * A ticket change, sent once it has committed. Everything a client needs to update its copies is in
 * the event, so a client that holds the ticket, a page of tickets or the counts asks the server for
 * nothing: `previous` says which counts and filters the ticket left, `history` is the timeline's new
 * entries. A deleted ticket keeps `ticket: {id}`; `previous` is the whole ticket as it was.
 */
export type TicketChangedEvent = Stamped &
  (
    | { action: 'created'; ticket: Ticket; by: UserRef }
    | { action: 'updated'; ticket: Ticket; by: UserRef; previous: TicketPrevious; history: HistoryEntry[] }
    | { action: 'deleted'; ticket: { id: number }; by: UserRef; previous: Ticket }
  );

export interface CommentAddedEvent extends Stamped {
  ticketId: number;
  comment: Comment;
  /** The timeline entry the comment added. */
  history: HistoryEntry;
  /**
   * The ticket's `commentCount` once this comment is in (notes never count). Comments are never
   * removed, so the higher count is the newer: a client keeps the highest it has seen.
   */
  commentCount: number;
}

export interface HelpfulCountEvent {
  articleId: number;
  helpfulCount: number;
}

export interface NotificationEvent extends Stamped {
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

/** A staff reply's mail to the ticket's owner changed state (queued, sent, bounced, failed); staff only. */
export interface EmailStatusEvent extends Stamped {
  ticketId: number;
  commentId: number;
  status: EmailStatus;
}

/**
 * The scanner marked a warning or a breach, or an edited policy re-targeted the ticket; staff only.
 * `version` is the ticket's (these marks do not bump it): the event's `sla` is newer than any copy of
 * that version or older. `history` is the timeline entry a mark added (none for a re-target).
 */
export interface SlaChangedEvent extends Stamped {
  ticketId: number;
  sla: TicketSla | null;
  version: number;
  history?: HistoryEntry[];
}

/** A ticket's owner answered its newest satisfaction survey (again: the last answer counts); staff only. */
export interface CsatReceivedEvent extends Stamped {
  ticketId: number;
  csat: TicketCsat;
}

/** A knowledge base article was created, changed or deleted; to every socket, like helpful counts. */
export interface ArticleChangedEvent extends Stamped {
  articleId: number;
  action: 'created' | 'updated' | 'deleted';
}

/**
 * Saved views or canned responses changed (one created, edited or deleted): lists of that kind read
 * again. To staff when the item is or was shared, else to its owner's own sockets.
 */
export interface ItemsChangedEvent extends Stamped {
  kind: 'views' | 'canned-responses';
}

/** A staff account was added, renamed, given another role or removed: staff lists and choices read again. */
export type StaffChangedEvent = Stamped;

/** This person opened a ticket that had something unread for them (another tab, another device); to them only. */
export interface TicketReadEvent extends Stamped {
  ticketId: number;
}

/**
 * This person marked notifications read: `ids`, a `ticketId`'s, or all of them when both are absent;
 * `unread` is how many were left unread then. To them only, so every tab's bell agrees.
 */
export interface NotificationsReadEvent extends Stamped {
  ids?: number[];
  ticketId?: number;
  unread: number;
}

export interface ServerToClientEvents {
  'ticket-changed': (event: TicketChangedEvent) => void;
  'comment-added': (event: CommentAddedEvent) => void;
  'helpful-count': (event: HelpfulCountEvent) => void;
  notification: (event: NotificationEvent) => void;
  presence: (event: PresenceEvent) => void;
  'view-counts': (event: ViewCountsEvent) => void;
  'email-status': (event: EmailStatusEvent) => void;
  'sla-changed': (event: SlaChangedEvent) => void;
  'last-change': (event: LastChangeEvent) => void;
  'csat-received': (event: CsatReceivedEvent) => void;
  'article-changed': (event: ArticleChangedEvent) => void;
  'items-changed': (event: ItemsChangedEvent) => void;
  'staff-changed': (event: StaffChangedEvent) => void;
  'ticket-read': (event: TicketReadEvent) => void;
  'notifications-read': (event: NotificationsReadEvent) => void;
}

/**
 * Sent once a socket has joined its rooms: when the latest change before that was sent to them (`at`,
 * the server's clock; null if none ever was). A read the server began after it holds every change the
 * socket could not hear of; an earlier read is read again.
 */
export interface LastChangeEvent {
  at: number | null;
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
