import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { CATEGORIES } from '@helpdesk/protocol';
import { timestamps, users } from './users.js';

export const categoryEnum = pgEnum('article_category', CATEGORIES);

export const articles = pgTable(
  'articles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    category: categoryEnum('category').notNull().default('general'),
    keywords: text('keywords')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // Kept as a counter so lists don't count votes per row; votes below make it idempotent per user.
    helpfulCount: integer('helpful_count').notNull().default(0),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('articles_category_created_idx').on(t.category, t.createdAt),
    index('articles_created_idx').on(t.createdAt),
    // article_search_text() is defined IMMUTABLE in the first migration so it can be indexed.
    index('articles_search_trgm_idx').using('gin', sql`article_search_text(${t.title}, ${t.content}, ${t.keywords}) gin_trgm_ops`),
  ],
);

export const articleVotes = pgTable(
  'article_votes',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.userId] })],
);
