import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { MAX_BODY_BYTES, MESSAGES } from '@helpdesk/protocol';
import { AppError } from '../lib/errors.js';

// Every JSON type the gate below lets in is read (koa-body's own list leaves out most `+json` ones,
// whose bodies would pass unread as `{}`); a bare value is read too, so it is refused by name below.
const parse = koaBody({
  json: true,
  jsonTypes: ['json', '+json'],
  urlencoded: false,
  text: false,
  multipart: false,
  jsonLimit: MAX_BODY_BYTES,
  jsonStrict: false,
});

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

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
  // Set by the parser's call of next: past it, an error is the route's.
  const body = { read: false };
  try {
    await parse(ctx, () => {
      if (hasBody && !isObject(ctx.request.body)) throw new AppError(400, MESSAGES.http.notAnObject);
      body.read = true;
      return next();
    });
  } catch (error) {
    // A body that fails to inflate (a corrupt or cut-off gzip, deflate or br stream) raises zlib's own
    // error, which has no HTTP status: the sender's mistake, not our 500. The parser's other
    // refusals carry a status, and the route's own errors come after the body was read.
    if (body.read) throw error;
    const status = statusOf(error);
    // The type passed the gate above: a 415 from the parser is about the encoding (inflation's).
    if (status === 415) throw new AppError(415, MESSAGES.http.unsupportedEncoding);
    if (status !== undefined) throw error;
    throw new AppError(400, MESSAGES.http.undecodableBody);
  }
};

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const found = status ?? statusCode;
  return typeof found === 'number' ? found : undefined;
}
