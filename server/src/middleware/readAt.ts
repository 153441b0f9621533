import type { Middleware } from 'koa';
import { READ_AT_HEADER, READ_END_HEADER } from '@helpdesk/protocol';

/**
 * Stamps every API answer with when the server began it, before any read: whatever was announced
 * live before that time (an event's `at`) is in the answer, so a client can tell a late event from a
 * new one. And with when it had read all of it: a change whose commit was asked for later (an event's
 * `committing`) is not in it (docs/api.md#real-time-events). A streamed answer has sent its headers
 * by then and carries no end.
 */
export function readAt(): Middleware {
  return async (ctx, next) => {
    const api = ctx.path.startsWith('/api/');
    if (api) ctx.set(READ_AT_HEADER, String(Date.now()));
    await next();
    if (api && !ctx.headerSent) ctx.set(READ_END_HEADER, String(Date.now()));
  };
}
