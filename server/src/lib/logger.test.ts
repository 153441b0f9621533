import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, failureLevel, serializeError } from './logger.js';

/** A failed query as Drizzle reports it: the SQL and its values in the message, the driver's error as the cause. */
function failedQuery(cause: Error): Error {
  const error = new Error(
    'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: ann@example.com,$argon2id$v=19$secret',
    {
      cause,
    },
  );
  error.name = 'DrizzleQueryError';
  Object.assign(error, { params: ['ann@example.com', '$argon2id$v=19$secret'] });
  return error;
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** What one line logged with `err` reads as. */
function logged(error: Error): Record<string, unknown> {
  let line = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      line += chunk.toString();
      done();
    },
  });
  createLogger('info', sink).warn({ err: error }, 'it failed');
  return JSON.parse(line) as Record<string, unknown>;
}

describe('errors as logged', () => {
  it('keeps a failed query’s SQL and stack but never the values it ran with', () => {
    const bug = failedQuery(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }));
    const line = JSON.stringify(logged(bug));
    expect(line).toContain('insert into \\"users\\"');
    expect(line).toContain('params: [not logged]');
    expect(line).not.toContain('ann@example.com');
    expect(line).not.toContain('argon2id');
    expect((serializeError(bug) as { stack?: string }).stack).toMatch(/logger\.test\.ts/);
  });

  it('logs an outage without a stack: what failed and the driver’s reason', () => {
    const outage = failedQuery(refused());
    const { err } = logged(outage) as { err: Record<string, unknown> };
    expect(err).toEqual({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: [not logged]',
      reason: 'connect ECONNREFUSED 127.0.0.1:5432',
    });
    expect(JSON.stringify(err)).not.toMatch(/\n\s+at /);
  });

  it('makes an outage a warning in a background loop and anything else an error', () => {
    expect(failureLevel(failedQuery(refused()))).toBe('warn');
    expect(failureLevel(new Error('Connection terminated unexpectedly'))).toBe('warn');
    expect(failureLevel(new TypeError('cannot read properties of undefined'))).toBe('error');
  });
});
