/**
 * What a database error means for the caller. Drizzle wraps driver errors (and PGlite and
 * node-postgres raise different classes), so every question walks the whole `cause` chain.
 */
const causes = function* (error: unknown): Generator<Error & { code?: unknown }> {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) yield current;
};

/** The innermost error of the chain: for a failed query, what the driver said (`connect ECONNREFUSED …`). */
export function innermostCause(error: Error): Error {
  let last = error;
  for (const e of causes(error)) last = e;
  return last;
}

const sqlState = (error: unknown, test: (code: string) => boolean): boolean => {
  for (const e of causes(error)) if (typeof e.code === 'string' && test(e.code)) return true;
  return false;
};

export const isUniqueViolation = (error: unknown) => sqlState(error, (c) => c === '23505');
/** The row referred to vanished meanwhile (e.g. a ticket deleted while a comment was being added). */
export const isForeignKeyViolation = (error: unknown) => sqlState(error, (c) => c === '23503');

/**
 * The input could not be stored or compared (SQLSTATE class 22, data exception: a NUL byte, an
 * invalid byte sequence, a number out of range). Validation refuses these first; this is the
 * second line of defence, so such input is the caller's 400, never our 500.
 */
export const isInvalidData = (error: unknown) => sqlState(error, (c) => c.startsWith('22'));

/** The statement ran past the pool's statement timeout (or was cancelled): too costly a request, not a bug. */
export const isStatementCancelled = (error: unknown) => sqlState(error, (c) => c === '57014');

/**
 * True when an error means "the database cannot be reached right now" rather than "this query is
 * wrong": the pool could not connect, the connection was cut, or the server is shutting down or full.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_CODES.test(e.code))) return true;
    if (DRIVER_MESSAGES.test(e.message)) return true;
  }
  return false;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300 (too many connections). */
const SERVER_CODES = /^(08\w{3}|57P0[123]|53300)$/;
/** node-postgres raises these as plain Errors without a code. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout/i;
