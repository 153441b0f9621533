import { EventEmitter } from 'node:events';
import type {
  ArticleChangedEvent,
  ItemsChangedEvent,
  Comment,
  EmailStatus,
  HistoryEntry,
  Notification,
  Role,
  Ticket,
  TicketCsat,
  TicketPrevious,
  TicketSla,
  TicketStatus,
  UserRef,
} from '@helpdesk/protocol';
import type { Logger } from '../lib/logger.js';
import type { Actor } from '../lib/actor.js';

export type ActorRef = UserRef & { role: Role };

/** Who did it, as events carry it. */
export const actorRef = (actor: Actor): ActorRef => ({ id: actor.id, name: actor.name, role: actor.role });

/**
 * Domain events, emitted inside a unit of work (db/unitOfWork.ts) and published only after it has
 * committed. They carry what was written, presented as HTTP presents it, so no subscriber reads again.
 */
export interface DomainEvents {
  'ticket.created': { ticketId: number; ownerId: number; actor: ActorRef; ticket: Ticket };
  'ticket.updated': {
    ticketId: number;
    ownerId: number;
    actor: ActorRef;
    statusChange?: { from: TicketStatus; to: TicketStatus };
    ticket: Ticket;
    previous: TicketPrevious;
    history: HistoryEntry[];
  };
  'ticket.deleted': { ticketId: number; ownerId: number; actor: ActorRef; previous: Ticket };
  'comment.added': {
    ticketId: number;
    ownerId: number;
    commentId: number;
    actor: ActorRef;
    comment: Comment;
    history: HistoryEntry;
    /** The ticket's commentCount once this comment is in. */
    commentCount: number;
  };
  /**
   * An in-app notification for `userIds` only (mention, assigned, reply): one stored notice, so one
   * event even when it is every admin's (an SLA mark on an unassigned ticket).
   */
  'notification.created': { userIds: number[]; notification: Notification };
  'article.helpful': { articleId: number; helpfulCount: number };
  /** A saved view or canned response was written, changed or deleted; `shared`: it is or was shared. */
  'items.changed': { kind: ItemsChangedEvent['kind']; ownerId: number; shared: boolean };
  /** A staff account was added, renamed, given another role or removed (the lists of staff change). */
  'staff.changed': { userId: number };
  /** A knowledge base article was written, changed or deleted: readers' pages read it again. */
  'article.changed': { articleId: number; action: ArticleChangedEvent['action'] };
  /**
   * What this person has read, for their other tabs and devices: a staff member opened a ticket that
   * had something unread for them, or marked notifications read (`ids`, a `ticketId`'s, or all of
   * them when both are absent; `unread` what was left unread then).
   */
  'ticket.read': { userId: number; ticketId: number };
  'notifications.read': { userId: number; ids?: number[]; ticketId?: number; unread: number };
  /** Every token and socket of this user must stop working (deletion, password change or reset). */
  'user.revoked': { userId: number };
  /** A mail was written to the outbox (mail/outbox.ts): the sender starts on it once this commits. */
  'mail.queued': { outboxId: number };
  /** Webhook deliveries were queued (webhooks/queueWebhooks.ts): the sender starts on them once this commits. */
  'webhook.queued': { deliveries: number };
  /**
   * A ticket's service level changed without a change of the ticket (a first reply, a scanner's mark, a
   * re-applied policy); staff only. `history`: the timeline entries a mark added.
   */
  'sla.changed': { ticketId: number; ownerId: number; sla: TicketSla | null; version: number; history?: HistoryEntry[] };
  /** A staff reply's mail changed state; staff only. */
  'email.status': { ticketId: number; commentId: number; status: EmailStatus };
  /**
   * A ticket's owner answered its newest satisfaction survey (again, when they change their answer);
   * staff only. The name webhooks subscribe to (docs/api.md#satisfaction-surveys).
   */
  'csat.received': { ticketId: number; ownerId: number; surveyId: number; csat: TicketCsat };
}

/** The domain event of a survey answer, for subscribers outside the ticket code (webhooks). */
export const CSAT_RECEIVED = 'csat.received' satisfies EventName;

/** One emitted event, as a unit of work holds it until the commit. */
export type HeldEvent = { [K in EventName]: { name: K; payload: DomainEvents[K] } }[EventName];

export type EventName = keyof DomainEvents;
/** When the unit of work asked for its commit (ms since the epoch): no read ended before it holds the change. */
export interface Commit {
  committing: number;
}
export type Listener<K extends EventName> = (payload: DomainEvents[K], commit: Commit) => void | Promise<void>;

/** Only the unit of work publishes; everything else subscribes. */
export interface EventBus {
  publish<K extends EventName>(name: K, payload: DomainEvents[K], commit: Commit): void;
  subscribe<K extends EventName>(name: K, listener: Listener<K>): () => void;
}

/** In-process bus. A failing subscriber is logged and never reaches the request that published. */
export function createEventBus(logger: Logger): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(50);
  return {
    publish(name, payload, commit) {
      emitter.emit(name, payload, commit);
    },
    subscribe(name, listener) {
      const wrapped = (payload: DomainEvents[typeof name], commit: Commit) => {
        Promise.resolve()
          .then(() => listener(payload, commit))
          .catch((error: unknown) => logger.error({ err: error, event: name }, 'event subscriber failed'));
      };
      emitter.on(name, wrapped);
      return () => emitter.off(name, wrapped);
    },
  };
}
