import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { TokenScope } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { apiTokens, apiTokenUses, users } from '../schema/index.js';

const tokenColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  scopes: apiTokens.scopes,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokenUses.lastUsedAt,
  revokedAt: apiTokens.revokedAt,
  ownerId: apiTokens.userId,
  ownerName: users.name,
};
export type ApiTokenRow = {
  id: number;
  name: string;
  scopes: TokenScope[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  ownerId: number;
  ownerName: string;
};

/** Live tokens (neither revoked nor expired), newest first: one person's, or everyone's (`ownerId` undefined). */
export const findLiveTokens = (db: Db, ownerId: number | undefined, now: Date): Promise<ApiTokenRow[]> =>
  db
    .select(tokenColumns)
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(apiTokenUses, eq(apiTokenUses.tokenId, apiTokens.id))
    .where(
      and(isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now), ownerId === undefined ? undefined : eq(apiTokens.userId, ownerId)),
    )
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));

export async function findToken(db: Db, id: number): Promise<ApiTokenRow | undefined> {
  const [row] = await db
    .select(tokenColumns)
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(apiTokenUses, eq(apiTokenUses.tokenId, apiTokens.id))
    .where(eq(apiTokens.id, id));
  return row;
}

/**
 * Inserts a token for its owner unless they hold `max` live ones, in one transaction that holds the
 * owner's row (so two at once cannot both pass the count); their expired tokens are revoked first,
 * which frees their names. Undefined when at the limit; a live name used twice fails the unique index.
 */
export async function insertToken(
  db: Db,
  values: { userId: number; name: string; scopes: TokenScope[]; secretHash: string; expiresAt: Date },
  max: number,
  now: Date,
): Promise<{ id: number; createdAt: Date } | undefined> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for('update');
    await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, values.userId), isNull(apiTokens.revokedAt), lte(apiTokens.expiresAt, now)));
    const [{ live } = { live: 0 }] = await tx
      .select({ live: sql<number>`count(*)::int` })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, values.userId), isNull(apiTokens.revokedAt)));
    if (live >= max) return undefined;
    const [row] = await tx.insert(apiTokens).values(values).returning({ id: apiTokens.id, createdAt: apiTokens.createdAt });
    return row;
  });
}

export const revokeToken = (db: Db, id: number, now: Date) =>
  db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));

/** Revokes every unrevoked token of one person; how many. */
export async function revokeTokensOf(db: Db, userId: number, now: Date): Promise<number> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length;
}

/**
 * The unrevoked token with this secret's hash, and its owner as they are now (a deleted owner is no
 * owner). Its expiry is the caller's to check: the answer is kept between calls (services/apiTokens.ts).
 */
export async function findTokenBySecret(db: Db, secretHash: string) {
  const [row] = await db
    .select({
      id: apiTokens.id,
      scopes: apiTokens.scopes,
      expiresAt: apiTokens.expiresAt,
      user: { id: users.id, name: users.name, email: users.email, role: users.role },
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.id, apiTokens.userId), isNull(users.deletedAt)))
    .where(and(eq(apiTokens.secretHash, secretHash), isNull(apiTokens.revokedAt)));
  return row;
}

/** Last use, kept to the minute: written only over a use older than `since`. */
export const markTokenUsed = (db: Db, tokenId: number, now: Date, since: Date) =>
  db
    .insert(apiTokenUses)
    .values({ tokenId, lastUsedAt: now })
    .onConflictDoUpdate({ target: apiTokenUses.tokenId, set: { lastUsedAt: now }, setWhere: lte(apiTokenUses.lastUsedAt, since) });
