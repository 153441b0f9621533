import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TokenScope } from '@helpdesk/protocol';
import { users } from './users.js';

/**
 * Personal API tokens (docs/api.md#api-tokens). The secret is never kept: only its SHA-256, which a
 * presented secret is looked up by (a random 256-bit secret needs no slow hash). A revoked token keeps
 * its row, so its owner's list and the admins' can say when it stopped. A token's row changes only
 * when it is made or revoked, so the server keeps it between calls like a session's account row.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes').array().$type<TokenScope[]>().notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_tokens_secret_hash_key').on(t.secretHash),
    // One live token per name and person; creating a token revokes that person's expired ones first.
    uniqueIndex('api_tokens_live_name_key')
      .on(t.userId, sql`lower(${t.name})`)
      .where(sql`${t.revokedAt} is null`),
    index('api_tokens_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * When each token was last used, apart from the token: written at most once a minute per token and
 * process, it must not make every process read every kept token again (services/readMemo.ts).
 */
export const apiTokenUses = pgTable('api_token_uses', {
  tokenId: integer('token_id')
    .primaryKey()
    .references(() => apiTokens.id, { onDelete: 'cascade' }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
});
