import type { Readable } from 'node:stream';
import Router from '@koa/router';
import { MESSAGES } from '@helpdesk/protocol';
import { UnauthorizedError } from '../lib/errors.js';
import type { AppContext, AppState } from '../middleware/state.js';
import type { Actor } from '../lib/actor.js';

export const createRouter = () => new Router<AppState>();

/** A download answers with the file's bytes, streamed, not with JSON. */
export type FileResponse = Readable;

/** A page, a script or a document written out whole as text (the API reference's), not our JSON. */
export type TextResponse = string;

/** A downloaded file can run nothing and load nothing, even opened on its own (docs/api.md#attachments). */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'";

/** The caller of a route behind `auth.required`. */
export function actorOf(ctx: AppContext): Actor {
  if (!ctx.state.actor) throw new UnauthorizedError(MESSAGES.auth.authRequired);
  return ctx.state.actor;
}

/** The client address used for rate limits (honours X-Forwarded-For only when app.proxy is set). */
export const clientIp = (ctx: AppContext): string => ctx.ip || 'unknown';
