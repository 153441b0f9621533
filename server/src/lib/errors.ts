import type { Ticket } from '@helpdesk/protocol';

/** Typed failures; the error middleware turns each into the envelope and status of docs/api.md#errors. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, errors?: Record<string, string>) {
    super(400, message, errors);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super(401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
/** A stale `expectedVersion`: the answer carries the ticket as it is now, so the client can show both. */
export class VersionConflictError extends AppError {
  constructor(
    message: string,
    readonly ticket: Ticket,
  ) {
    super(409, message);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
export class UnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}
