import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { ViewFilters } from '@helpdesk/protocol';
import { tickets } from './tickets.js';
import { users } from './users.js';

/** Saved ticket lists of the agent dashboard: private to their owner unless shared (by an admin). */
export const savedViews = pgTable(
  'saved_views',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    filters: jsonb('filters').$type<ViewFilters>().notNull(),
    sort: text('sort'),
    shared: boolean('shared').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('saved_views_owner_idx').on(t.ownerId), index('saved_views_shared_idx').on(t.shared)],
);

export const cannedResponses = pgTable(
  'canned_responses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull(),
    shared: boolean('shared').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('canned_responses_owner_idx').on(t.ownerId), index('canned_responses_shared_idx').on(t.shared)],
);

/** When each staff member last opened each ticket: what "unread" is measured against. */
export const ticketReads = pgTable(
  'ticket_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).defaultNow().notNull(),
  },
  // The key leads with the reader; a deleted ticket's marks are found by the ticket. Both columns in
  // both, so a reader's mark on a ticket is one entry whichever the planner picks: with the ticket
  // alone it took this index for the list's unread mark and read every reader's.
  (t) => [primaryKey({ columns: [t.userId, t.ticketId] }), index('ticket_reads_ticket_idx').on(t.ticketId, t.userId)],
);
