/**
 * True when an error means "the database cannot be reached right now" rather than "this query is
 * wrong": the pool could not connect, the connection was cut, or the server is shutting down or full.
 * Drizzle wraps driver errors, so the whole `cause` chain is searched.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
    if (DRIVER_MESSAGES.test(current.message)) return true;
  }
  return false;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300 (too many connections). */
const SERVER_CODES = /^(08\w{3}|57P0[123]|53300)$/;
/** node-postgres raises these as plain Errors without a code. */
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout/i;
