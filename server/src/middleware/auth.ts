import type { Middleware } from 'koa';
import { MESSAGES, scopeOfCall } from '@helpdesk/protocol';
import { ForbiddenError, UnauthorizedError } from '../lib/errors.js';
import type { Actor } from '../lib/actor.js';
import type { AccountService } from '../services/accounts.js';
import { isTokenSecret, type ApiTokenService } from '../services/apiTokens.js';
import type { Limiter } from './rateLimit.js';
import type { AppContext, AppState } from './state.js';

/** The token of an `Authorization: Bearer …` header. */
export const bearer = (header: string | undefined): string | undefined => {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
};

/**
 * The public account calls (sign-in, reset links) take no caller, and never an API token's
 * (docs/api.md#api-tokens): one sent is refused before the body is read, valid or not.
 */
export const noApiTokens: Middleware = async (ctx, next) => {
  const token = bearer(ctx.get('authorization') || undefined);
  if (token && isTokenSecret(token)) throw new ForbiddenError(MESSAGES.apiTokens.notForTokens);
  await next();
};

/**
 * `required`: no valid token → 401. `optional`: no token is fine, but a token that was sent must be
 * valid, so an expired session is reported rather than silently treated as anonymous.
 */
/** What a middleware of `authentication` asks of the caller; a role gate names the refusal it answers. */
export type Gate = { kind: 'required' } | { kind: 'optional' } | { kind: 'role'; refusal: string };

/** Every middleware `authentication` made, so tests and the API reference read access off the routers. */
const gates = new WeakMap<Middleware<AppState>, Gate>();
export const gateOf = (middleware: unknown): Gate | undefined =>
  typeof middleware === 'function' ? gates.get(middleware as Middleware<AppState>) : undefined;
export const isRoleGate = (middleware: unknown): boolean => gateOf(middleware)?.kind === 'role';

/**
 * Sessions (a JWT) and API tokens (`hd_pat_…`, docs/api.md#api-tokens) alike. A token is checked
 * for the scope its route needs (scopeOfCall, by the route's template) and counted against its own
 * budget before the route's role rule; it never reaches a call marked `never`.
 */
export function authentication(
  accounts: AccountService,
  apiTokens: ApiTokenService,
  limits: { tokenRequests: Limiter; invalidTokensPerAddress: Limiter },
) {
  /** The actor a sent Authorization header stands for; a missing or invalid one is a 401. */
  const authenticate = async (ctx: AppContext, header: string | undefined): Promise<Actor> => {
    const token = bearer(header);
    if (!token) throw new UnauthorizedError(MESSAGES.auth.authRequired);
    if (isTokenSecret(token)) {
      // Guessing costs the guesser a budget: every presented secret is a read of the database.
      const address = ctx.ip || 'unknown';
      await limits.invalidTokensPerAddress.check(address);
      const caller = await apiTokens.resolve(token);
      if (!caller) {
        await limits.invalidTokensPerAddress.consume(address);
        throw new UnauthorizedError(MESSAGES.apiTokens.invalid);
      }
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const needed = scopeOfCall(ctx.method, typeof route === 'string' ? route : ctx.path);
      if (needed === 'never') throw new ForbiddenError(MESSAGES.apiTokens.notForTokens);
      if (needed !== 'any' && !caller.scopes.includes(needed)) throw new ForbiddenError(MESSAGES.apiTokens.missingScope(needed));
      await limits.tokenRequests.consume(String(caller.tokenId));
      ctx.state.log = ctx.state.log.child({ tokenId: caller.tokenId });
      return caller.actor;
    }
    const session = await accounts.resolveSession(token);
    if (!session) throw new UnauthorizedError(MESSAGES.auth.sessionInvalid);
    return session.actor;
  };
  const resolve = (mode: 'required' | 'optional'): Middleware<AppState> => {
    const middleware: Middleware<AppState> = async (ctx, next) => {
      const header = ctx.get('authorization') || undefined;
      if (header || mode === 'required') ctx.state.actor = await authenticate(ctx, header);
      await next();
    };
    gates.set(middleware, { kind: mode });
    return middleware;
  };
  /** Signed in and allowed by the policy; checked before the body, so outsiders learn nothing from a 400. */
  const allow = (policy: (actor: Actor) => boolean, message: string): Middleware<AppState> => {
    const gate: Middleware<AppState> = async (ctx, next) => {
      const actor = await authenticate(ctx, ctx.get('authorization') || undefined);
      ctx.state.actor = actor;
      if (!policy(actor)) throw new ForbiddenError(message);
      await next();
    };
    gates.set(gate, { kind: 'role', refusal: message });
    return gate;
  };
  return { required: resolve('required'), optional: resolve('optional'), allow };
}
