import { index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CSAT_RATINGS } from '@helpdesk/protocol';
import { tickets } from './tickets.js';
import { users } from './users.js';

export const csatRatingEnum = pgEnum('csat_rating', CSAT_RATINGS);

/**
 * Satisfaction surveys (docs/api.md#satisfaction-surveys): one per resolution of a ticket, sent to its
 * owner. The link's token is never kept, only its SHA-256 (a random 256-bit token needs no slow hash).
 * A newer survey of the same ticket ends the older ones (expires_at set to its creation); rating,
 * comment and answered_at stay null until the owner sends an answer, and the last one sent counts.
 */
export const csatSurveys = pgTable(
  'csat_surveys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rating: csatRatingEnum('rating'),
    comment: text('comment'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('csat_surveys_token_hash_key').on(t.tokenHash),
    // A ticket's newest survey (what staff see and the owner's page answers), and the cascade from tickets.
    index('csat_surveys_ticket_idx').on(t.ticketId, t.id),
  ],
);
