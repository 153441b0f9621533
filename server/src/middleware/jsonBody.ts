import type { Middleware } from 'koa';
import { MESSAGES } from '@helpdesk/protocol';
import { AppError } from '../lib/errors.js';

/**
 * The API reads JSON only. A body sent as a form or plain text would otherwise reach validation as
 * an empty object and be answered with the first field's "is required", which misleads the caller.
 */
export function requireJsonBody(): Middleware {
  return async (ctx, next) => {
    // An empty body (a bodiless POST sends Content-Length: 0) is accepted by every route.
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && ctx.path.startsWith('/api/') && !ctx.request.is('json', '+json')) {
      throw new AppError(415, MESSAGES.http.notJson);
    }
    await next();
  };
}
