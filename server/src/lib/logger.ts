import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { innermostCause, isDatabaseUnavailable } from '../db/errors.js';

export type { Logger };

/** `destination` defaults to stdout; tests pass their own to read what was logged. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'helpdesk' },
    serializers: { err: serializeError },
    // Credentials never reach the log, even when a request body is logged while debugging.
    redact: {
      paths: ['req.headers.authorization', '*.password', '*.newPassword', '*.currentPassword', '*.token', '*.secret', '*.passwordHash'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Errors as pino logs them, minus the values a failed query was run with: Drizzle puts them in the
 * error's message (`params: …`) and in `params`, and on sign-up they are an email and a password hash.
 * The SQL text itself (placeholders only) is kept, since it says which query failed.
 */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  // An outage (a connection refused or cut) is no bug: its stack only says where the connection was
  // tried, and every loop that retries would repeat it. What failed and why is enough.
  if (isDatabaseUnavailable(error))
    return { type: error.name, message: withoutParams(error.message), reason: withoutParams(innermostCause(error).message) };
  const { params: _params, ...serialized } = stdSerializers.err(error) as ReturnType<typeof stdSerializers.err> & { params?: unknown };
  serialized.message = withoutParams(error.message);
  serialized.stack = [withoutParams(error.stack ?? ''), ...causeStacks(error.cause)].join('\ncaused by: ');
  return serialized;
}

function causeStacks(cause: unknown, depth = 0): string[] {
  if (!(cause instanceof Error) || depth > 5) return [];
  return [withoutParams(cause.stack ?? cause.message), ...causeStacks(cause.cause, depth + 1)];
}

/**
 * How loudly a background loop's failed pass is logged: an outage is a warning (the next pass retries
 * once the database is back), anything else an error.
 */
export const failureLevel = (error: unknown): 'warn' | 'error' => (isDatabaseUnavailable(error) ? 'warn' : 'error');

/** Drops a `params: …` section up to the stack frames that follow it (or the end). */
const withoutParams = (text: string) => text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: [not logged]');

/**
 * A URL as logged: secrets that travel in it are not, in the query string (reset links) or in the path
 * (a survey link's token, on its page and on its API calls).
 */
export const loggableUrl = (url: string) =>
  url.replace(/([?&](?:token|access_token)=)[^&#]*/gi, '$1[redacted]').replace(/^(\/(?:api\/csat|rate)\/)[^/?#]+/i, '$1[redacted]');
