import { z } from '../zod.js';
import { boundedText } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';

const M = MESSAGES.apiTokens;

/** What a token may do, each call needing one (docs/api.md#api-tokens); the owner's role rules still apply. */
export const TOKEN_SCOPES = ['tickets:read', 'tickets:write', 'knowledge:write', 'reports:read', 'users:read', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Every token's secret starts so, which tells it from a session's JWT at a glance (and to secret scanners). */
export const TOKEN_SECRET_PREFIX = 'hd_pat_';

const name = boundedText({
  required: M.nameRequired,
  min: LIMITS.apiTokens.name.min,
  max: LIMITS.apiTokens.name.max,
  tooShort: M.nameRequired,
  tooLong: M.nameTooLong,
});
const scopes = z
  .array(z.string({ error: M.scopesInvalid(TOKEN_SCOPES) }), { error: M.scopesRequired })
  .min(1, M.scopesRequired)
  .refine((list) => list.every((scope) => (TOKEN_SCOPES as readonly string[]).includes(scope)), M.scopesInvalid(TOKEN_SCOPES))
  .transform((list) => TOKEN_SCOPES.filter((scope) => list.includes(scope)));
const { min, max } = LIMITS.apiTokens.expiresInDays;
const expiresInDays = z
  .number({ error: M.expiresInvalid })
  .int(M.expiresInvalid)
  .min(min, M.expiresInvalid)
  .max(max, M.expiresInvalid)
  .default(LIMITS.apiTokens.expiresInDays.default);

export const createApiTokenBody = z.object({ name, scopes, expiresInDays });
export type CreateApiTokenBody = z.infer<typeof createApiTokenBody>;

/**
 * The scope a call needs when it is made with a token: by the route's template, one rule for every
 * route, so a new route has a scope without anyone writing one. `never` for the calls a leaked token
 * must not reach (tokens, sign-in and sign-up, the account's password and preferences); admin areas
 * need `admin`, the user directory and profile `users:read`, the knowledge base's reads and survey links `any` scope, reports `reports:read`, article writes `knowledge:write`, and every other
 * read or write `tickets:read` or `tickets:write`.
 */
export function scopeOfCall(method: string, route: string): TokenScope | 'never' | 'any' {
  const read = method === 'GET' || method === 'HEAD';
  const under = (prefix: string) => route === prefix || route.startsWith(`${prefix}/`);
  if (under('/api/tokens') || under('/api/auth')) return read && route === '/api/auth/verify' ? 'tickets:read' : 'never';
  if (under('/api/reports')) return 'reports:read';
  if (under('/api/webhooks') || under('/api/email') || (under('/api/sla') && !read)) return 'admin';
  if (under('/api/users')) {
    if (route === '/api/users/password' || route === '/api/users/preferences') return 'never';
    return read && route !== '/api/users' ? 'users:read' : 'admin';
  }
  // What anyone may read signed out, any token may read.
  if (under('/api/knowledge')) return read ? 'any' : 'knowledge:write';
  // A survey link is its own key: whoever holds it may read and answer, with any token or none.
  if (under('/api/csat')) return 'any';
  return read ? 'tickets:read' : 'tickets:write';
}
