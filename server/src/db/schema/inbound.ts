import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { INBOUND_STATUSES } from '@helpdesk/protocol';
import { ticketComments, tickets } from './tickets.js';

export const inboundStatusEnum = pgEnum('inbound_status', INBOUND_STATUSES);

/**
 * Every message the intake accepted (SMTP or IMAP), written before it is parsed: the raw bytes are
 * kept on disk by `sha256`, and filing is a separate, retried step (docs/api.md#email-intake).
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // The Message-ID header without its angle brackets; null when the mail has none.
    messageId: text('message_id'),
    envelopeFrom: text('envelope_from'),
    // Our recipients of this message, lower-cased, sorted, joined with ", ".
    envelopeTo: text('envelope_to').notNull(),
    fromAddress: text('from_address'),
    subject: text('subject'),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    source: text('source', { enum: ['smtp', 'imap'] }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).defaultNow().notNull(),
    status: inboundStatusEnum('status').notNull().default('queued'),
    reason: text('reason'),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'set null' }),
    attempts: integer('attempts').notNull().default(0),
    // A queued row is claimed once this has passed: at once, after a failure's back-off, or when a
    // claim's lease ran out (its process died mid-filing).
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow().notNull(),
    // `id:<Message-ID>\n<envelope_to>`, or `sha256:<sha256>` without a Message-ID: what makes a duplicate.
    dedupeKey: text('dedupe_key').notNull(),
    duplicateOf: integer('duplicate_of'),
  },
  (t) => [
    // One original per key; its duplicates are kept as rows of their own, `ignored`, pointing at it.
    uniqueIndex('inbound_messages_dedupe_key')
      .on(t.dedupeKey)
      .where(sql`${t.duplicateOf} is null`),
    index('inbound_messages_queue_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('inbound_messages_sender_idx').on(t.fromAddress, t.receivedAt),
    // A deleted ticket, and each of its comments, set the mails filed on them to null.
    index('inbound_messages_ticket_idx')
      .on(t.ticketId)
      .where(sql`${t.ticketId} is not null`),
    index('inbound_messages_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} is not null`),
  ],
);

/** Where the IMAP intake stopped in a mailbox: a restart neither skips nor fetches a message twice. */
export const imapState = pgTable('imap_state', {
  // The mailbox as user@host/folder (never the password).
  mailbox: text('mailbox').primaryKey(),
  uidValidity: bigint('uid_validity', { mode: 'number' }).notNull(),
  lastUid: bigint('last_uid', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});
