import type { Middleware } from 'koa';
import { MESSAGES, type ErrorResponse, type VersionConflictResponse } from '@helpdesk/protocol';
import { isDatabaseUnavailable, isInvalidData, isStatementCancelled } from '../db/errors.js';
import { AppError, TooManyRequestsError, VersionConflictError } from '../lib/errors.js';
import { loggableUrl, type Logger } from '../lib/logger.js';
import type { AppState } from './state.js';

const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
}

/**
 * Errors raised by the body parser, the static file sender and Koa itself, mapped to our own texts.
 * Any other client error they raise keeps its 4xx status: a refused path or header is the caller's
 * mistake, never our 500.
 */
function fromHttpError(error: HttpLikeError): { status: number; message: string } | undefined {
  const status = error.status ?? error.statusCode;
  if (error.type === 'entity.too.large' || status === 413) return { status: 413, message: MESSAGES.http.bodyTooLarge };
  // co-body rethrows JSON.parse's own error (a SyntaxError, or a RangeError for absurd nesting) as a 400.
  if (status === 400 && (error instanceof SyntaxError || error instanceof RangeError))
    return { status: 400, message: MESSAGES.http.malformedJson };
  if (status === 415) return { status: 415, message: MESSAGES.http.notJson };
  if (status === 404 || status === 403) return { status: 404, message: MESSAGES.http.notFound };
  if (status !== undefined && status >= 400 && status < 500) return { status, message: MESSAGES.http.badRequest };
  return undefined;
}

/**
 * Outermost: every failure becomes the `{success:false, message}` envelope of docs/api.md#errors. Unknown errors are
 * logged with their stack and answered with a generic 500; no internals ever reach a response.
 * It does not rely on requestLog having run (tests mount it alone), hence the Partial state and the fallback logger.
 */
export function errorHandler(logger: Logger): Middleware<Partial<AppState>> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof VersionConflictError) {
        ctx.status = error.status;
        ctx.body = { success: false, message: error.message, ticket: error.ticket } satisfies VersionConflictResponse;
        return;
      }
      if (error instanceof AppError) {
        ctx.status = error.status;
        ctx.body = { success: false, message: error.message, ...(error.errors && { errors: error.errors }) } satisfies ErrorResponse;
        if (error instanceof TooManyRequestsError) ctx.set('Retry-After', String(error.retryAfterSeconds));
        return;
      }
      const known = fromHttpError(error as HttpLikeError);
      if (known) {
        ctx.status = known.status;
        ctx.body = { success: false, message: known.message } satisfies ErrorResponse;
        return;
      }
      if (isInvalidData(error)) {
        // Validation refuses such text first; reaching here means a schema missed a field.
        (ctx.state.log ?? logger).warn({ err: error, method: ctx.method, url: loggableUrl(ctx.originalUrl) }, 'database refused the input');
        ctx.status = 400;
        ctx.body = { success: false, message: MESSAGES.http.invalidData } satisfies ErrorResponse;
        return;
      }
      if (isStatementCancelled(error)) {
        // Bounded queries make this rare; what remains is a request costlier than the bound, which the
        // caller can narrow. A 400, since no input may earn a 5xx. A change is bounded by its ids, so
        // one cancelled waited (on a row a long batch held, on a stalled disk): it was rolled back,
        // and the person is told so rather than to narrow anything.
        (ctx.state.log ?? logger).warn({ err: error, method: ctx.method, url: loggableUrl(ctx.originalUrl) }, 'statement timed out');
        const reading = ctx.method === 'GET' || ctx.method === 'HEAD';
        ctx.status = 400;
        ctx.body = { success: false, message: reading ? MESSAGES.http.tooSlow : MESSAGES.http.changeTooSlow } satisfies ErrorResponse;
        return;
      }
      if (isDatabaseUnavailable(error)) {
        // An outage, not a bug: the pool reconnects by itself, so the client is told to retry.
        (ctx.state.log ?? logger).warn({ err: error, method: ctx.method, url: loggableUrl(ctx.originalUrl) }, 'database unavailable');
        ctx.status = 503;
        ctx.set('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
        ctx.body = { success: false, message: MESSAGES.http.unavailable } satisfies ErrorResponse;
        return;
      }
      (ctx.state.log ?? logger).error({ err: error, method: ctx.method, url: loggableUrl(ctx.originalUrl) }, 'request failed');
      ctx.status = 500;
      ctx.body = { success: false, message: MESSAGES.http.internal } satisfies ErrorResponse;
    }
  };
}
