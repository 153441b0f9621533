import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tickets, ticketComments } from './tickets.js';

export const EMAIL_OUTBOX_STATUSES = ['queued', 'sent', 'failed', 'bounced'] as const;
export const EMAIL_KINDS = ['notification', 'password-reset', 'reply'] as const;
export const EMAIL_DIRECTIONS = ['in', 'out'] as const;

export const emailOutboxStatusEnum = pgEnum('email_outbox_status', EMAIL_OUTBOX_STATUSES);
export const emailKindEnum = pgEnum('email_kind', EMAIL_KINDS);
export const emailDirectionEnum = pgEnum('email_direction', EMAIL_DIRECTIONS);

/** What the sender hands to nodemailer, fixed when the mail is queued so every retry is the same mail. */
export interface OutboxMessage {
  from: string | { name: string; address: string };
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** Message-IDs in angle brackets. */
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  /** A reply's files, read from the attachment store by hash when the mail is sent. */
  attachments?: OutboxFile[];
}

export interface OutboxFile {
  sha256: string;
  filename: string;
  contentType: string;
}

/**
 * Every mail we send, written in the transaction of the change that causes it and sent after commit
 * by a sender that claims due rows with FOR UPDATE SKIP LOCKED (docs/api.md#email).
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: emailKindEnum('kind').notNull(),
    // Our Message-ID without angle brackets: stable across retries, matched by bounces and replies.
    messageId: text('message_id').notNull().unique(),
    recipient: text('recipient').notNull(),
    message: jsonb('message').$type<OutboxMessage>().notNull(),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'set null' }),
    status: emailOutboxStatusEnum('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow().notNull(),
    // A sender owns a claimed row until then; a crashed sender's rows come back when it passes.
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    // The sender reads only queued rows, oldest due first.
    index('email_outbox_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('email_outbox_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} is not null`),
    // A deleted ticket sets its mails' ticket to null: found here, not by reading the whole outbox.
    index('email_outbox_ticket_idx')
      .on(t.ticketId)
      .where(sql`${t.ticketId} is not null`),
  ],
);

/** Every Message-ID sent or received on a ticket's thread: what incoming replies are threaded by. */
export const emailMessages = pgTable(
  'email_messages',
  {
    // Without angle brackets.
    messageId: text('message_id').primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'set null' }),
    direction: emailDirectionEnum('direction').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('email_messages_ticket_idx').on(t.ticketId, t.createdAt),
    // Each comment of a deleted ticket sets its messages' comment to null.
    index('email_messages_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} is not null`),
  ],
);
