import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { MAX_BODY_BYTES, MESSAGES } from '@helpdesk/protocol';
import { AppError } from '../lib/errors.js';

const parse = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: MAX_BODY_BYTES, jsonStrict: true });

/**
 * Reads a route's JSON body (at most MAX_BODY_BYTES). Listed in each route that takes a body, after
 * its gates (`auth.allow`, `auth.required`): a caller without the role gets 403 whatever they send,
 * never a 400, 413 or 415 about the body. A body sent as a form or plain text is 415, not read as an
 * empty object that would be answered with the first field's "is required".
 */
export const jsonBody: Middleware = async (ctx, next) => {
  // An empty body (a bodiless POST sends Content-Length: 0) is accepted by every route.
  const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
  if (hasBody && !ctx.request.is('json', '+json')) throw new AppError(415, MESSAGES.http.notJson);
  await parse(ctx, next);
};
