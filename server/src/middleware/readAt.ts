import type { Middleware } from 'koa';
import { READ_AT_HEADER } from '@helpdesk/protocol';

/**
 * Stamps every API answer with when the server began it, before any read: whatever was announced
 * live before that time (an event's `at`) is in the answer, so a client can tell a late event from a
 * new one (docs/api.md#real-time-events).
 */
export function readAt(): Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/')) ctx.set(READ_AT_HEADER, String(Date.now()));
    await next();
  };
}
