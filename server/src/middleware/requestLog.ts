import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { loggableUrl, type Logger } from '../lib/logger.js';
import { isServerPath } from './clientApp.js';
import type { AppState } from './state.js';

/**
 * A failed request is an error, but for a 503: the database is away (an outage the error handler
 * has logged as a warning, and clients retry), or the health check says so.
 */
export const requestLevel = (status: number, path: string): 'error' | 'warn' | 'info' | 'debug' =>
  status === 503 ? 'warn' : status >= 500 ? 'error' : isServerPath(path) ? 'info' : 'debug';

/**
 * One structured line per request, with an id that is also returned to the caller. Static files (the
 * client's pages and assets) are logged at debug: one page view fetches dozens of them, which at info
 * would bury the API calls and the start-up banner.
 */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    // A caller's id is kept only when it is harmless to log and echo back.
    const given = ctx.get('x-request-id');
    const id = /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', id);
    ctx.state.log = logger.child({ reqId: id });
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      ctx.state.log[requestLevel(ctx.status, ctx.path)](
        { method: ctx.method, url: loggableUrl(ctx.originalUrl), status: ctx.status, ms, userId: ctx.state.actor?.id },
        'request',
      );
    }
  };
}
