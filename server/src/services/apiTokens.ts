import { createHash, randomBytes } from 'node:crypto';
import {
  LIMITS,
  MESSAGES,
  TOKEN_SECRET_PREFIX,
  isAdmin,
  isStaff,
  type ApiToken,
  type CreateApiTokenBody,
  type TokenScope,
} from '@helpdesk/protocol';
import { isUniqueViolation } from '../db/errors.js';
import {
  findLiveTokens,
  findToken,
  findTokenBySecret,
  insertToken,
  markTokenUsed,
  revokeToken,
  type ApiTokenRow,
} from '../db/queries/apiTokens.js';
import type { Actor } from '../lib/actor.js';
import { createRecentlyUsed } from '../lib/recentlyUsed.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';
import type { ServiceContext } from './context.js';
import { createReadMemo } from './readMemo.js';

const DAY_MS = 86_400_000;
/** Last use is written at most this often per token. */
const LAST_USE_PRECISION_MS = 60_000;
/** Tokens whose row is kept between calls; each entry is a few short fields. */
const KEPT_TOKENS = 10_000;

/** A presented secret's hash, what a token is found by. */
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
export const isTokenSecret = (bearer: string) => bearer.startsWith(TOKEN_SECRET_PREFIX);

const present = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  owner: { id: row.ownerId, name: row.ownerName },
});

/** A call made with a token: who it acts for, and what it may do. */
export interface TokenCaller {
  tokenId: number;
  actor: Actor;
  scopes: TokenScope[];
}

/**
 * Personal API tokens (docs/api.md#api-tokens): staff make their own; each lists and revokes its own,
 * admins anyone's. A token acts for its owner as the owner is now: deleted or no longer staff, it
 * stops working, as does a revoked or expired one; lowering the owner's role revokes it
 * (services/users.ts).
 */
export function createApiTokenService(
  { db, logger, sessionVersions }: Pick<ServiceContext, 'db' | 'logger' | 'sessionVersions'>,
  now: () => Date = () => new Date(),
) {
  /**
   * Runs on every call made with a token, so the token's row and its owner's are kept until the next
   * write to either table, on any process, like a session's account row (services/accounts.ts): a
   * revocation, a deletion or a change of role is such a write and takes effect on the next call.
   * Expiry is checked on the kept row; last use lives in a table of its own so that writing it
   * drops nothing.
   */
  const keptTokens = createReadMemo<Awaited<ReturnType<typeof findTokenBySecret>>>({ memoVersions: sessionVersions }, KEPT_TOKENS);
  /** When this process last wrote each token's use: at most once a minute per token. */
  const usesWritten = createRecentlyUsed<number, number>(KEPT_TOKENS);

  const visibleTo = async (actor: Actor, id: number): Promise<ApiTokenRow> => {
    const row = await findToken(db, id);
    // Another person's token is as unknown as a missing one, but to an admin.
    if (!row || row.revokedAt !== null || row.expiresAt <= now() || (row.ownerId !== actor.id && !isAdmin(actor)))
      throw new NotFoundError(MESSAGES.apiTokens.notFound);
    return row;
  };

  return {
    async list(actor: Actor): Promise<ApiToken[]> {
      if (!isStaff(actor)) return [];
      return (await findLiveTokens(db, isAdmin(actor) ? undefined : actor.id, now())).map(present);
    },

    async create(actor: Actor, input: CreateApiTokenBody): Promise<{ token: ApiToken; secret: string }> {
      if (!isStaff(actor)) throw new ForbiddenError(MESSAGES.apiTokens.staffOnly);
      const secret = `${TOKEN_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
      const at = now();
      const expiresAt = new Date(at.getTime() + input.expiresInDays * DAY_MS);
      const values = { userId: actor.id, name: input.name, scopes: input.scopes, secretHash: hashOf(secret), expiresAt };
      const row = await insertToken(db, values, LIMITS.apiTokens.perPerson, at).catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new ConflictError(MESSAGES.apiTokens.duplicateName);
        throw error;
      });
      if (!row) throw new ValidationError(MESSAGES.apiTokens.tooMany(LIMITS.apiTokens.perPerson));
      logger.info({ tokenId: row.id, userId: actor.id, scopes: input.scopes }, 'api token created');
      const token = present({ ...values, ...row, lastUsedAt: null, revokedAt: null, ownerId: actor.id, ownerName: actor.name });
      return { token, secret };
    },

    async revoke(actor: Actor, id: number): Promise<void> {
      await visibleTo(actor, id);
      await revokeToken(db, id, now());
      logger.info({ tokenId: id, userId: actor.id }, 'api token revoked');
    },

    /** The caller a presented secret stands for, or undefined (unknown, revoked, expired, owner gone or not staff). */
    async resolve(secret: string): Promise<TokenCaller | undefined> {
      const at = now();
      const hash = hashOf(secret);
      const row = await keptTokens(hash, () => findTokenBySecret(db, hash));
      if (!row || row.expiresAt <= at || !isStaff(row.user)) return undefined;
      const written = usesWritten.get(row.id);
      if (written === undefined || at.getTime() - written >= LAST_USE_PRECISION_MS) {
        usesWritten.set(row.id, at.getTime());
        await markTokenUsed(db, row.id, at, new Date(at.getTime() - LAST_USE_PRECISION_MS));
      }
      return { tokenId: row.id, actor: row.user, scopes: row.scopes };
    },
  };
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
