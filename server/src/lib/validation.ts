import { MESSAGES } from '@helpdesk/protocol';
import type { z } from 'zod';
import { ValidationError } from './errors.js';

/**
 * Parses input with a protocol schema. The first problem becomes the message and every field keeps
 * its first problem, the same texts the client forms show.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    errors[field] ??= issue.message;
  }
  const first = result.error.issues[0]?.message ?? 'Invalid request';
  throw new ValidationError(first, errors);
}

/** Bodies must be JSON objects; an array or a bare value is a client mistake, not a 500. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new ValidationError(MESSAGES.http.notAnObject);
  }
  return parseInput(schema, body);
}
