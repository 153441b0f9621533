import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { ticketComments, tickets } from './tickets.js';
import { users } from './users.js';

/**
 * A file someone uploaded or mailed in. The bytes live once per content under ATTACHMENT_DIR, named by
 * their SHA-256 (server/src/attachments/blobs.ts); a row is one use of them. An upload is unused until
 * a ticket or comment takes it (ticket_id set; comment_id too for a comment's file). Deleting the ticket
 * or comment deletes its rows; the bytes go with the last row naming their hash.
 */
export const attachments = pgTable(
  'attachments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    uploaderId: integer('uploader_id')
      .notNull()
      .references(() => users.id),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    size: integer('size').notNull(),
    /** Sniffed from the bytes (server/src/attachments/contentType.ts), never the sender's word alone. */
    contentType: text('content_type').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('attachments_ticket_idx').on(t.ticketId, t.id),
    index('attachments_comment_idx').on(t.commentId, t.id),
    index('attachments_sha256_idx').on(t.sha256),
    // The sweep of unused uploads reads only these.
    index('attachments_unused_idx')
      .on(t.createdAt)
      .where(sql`${t.ticketId} is null`),
  ],
);
