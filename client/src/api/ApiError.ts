import type { Ticket } from '@helpdesk/protocol';
import { catalogueMessage, type Failure } from './errorCatalogue';

/**
 * A failed call. `message` is the catalogue text of docs/product.md#error-messages; `serverMessage` and `fieldErrors` keep
 * what the server said, for screens that show it (validation, rate limits, conflicts).
 */
export class ApiError extends Error {
  readonly failure: Failure;
  readonly fieldErrors: Record<string, string>;
  /** The answer's whole body, for failures that carry data (a 409 carries the current ticket). */
  readonly payload: unknown;

  constructor(failure: Failure, fieldErrors: Record<string, string> = {}, payload?: unknown) {
    super(catalogueMessage(failure));
    this.name = 'ApiError';
    this.failure = failure;
    this.fieldErrors = fieldErrors;
    this.payload = payload;
  }

  get status(): number | undefined {
    return this.failure.kind === 'response' ? this.failure.status : undefined;
  }

  get url(): string {
    return this.failure.url;
  }

  get serverMessage(): string | undefined {
    return this.failure.kind === 'response' ? this.failure.serverMessage : undefined;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The status of a failed call, or undefined when no answer came back. */
export const statusOf = (error: unknown): number | undefined => (isApiError(error) ? error.status : undefined);

/**
 * A screen message for a failure: the server's own words for the 4xx answers it explains (400, 409,
 * 429), else the screen's fallback (docs/product.md#error-messages).
 */
export function screenMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.status !== undefined && error.status < 500 && ![401, 403, 404].includes(error.status)) {
    return error.serverMessage || fallback;
  }
  return fallback;
}

/** The current ticket of a 409 "changed by someone else" answer (docs/api.md#optimistic-concurrency). */
export function conflictTicketOf(error: unknown): Ticket | undefined {
  if (!isApiError(error) || error.status !== 409) return undefined;
  const payload = error.payload as { ticket?: Ticket } | undefined;
  return payload?.ticket && typeof payload.ticket.version === 'number' ? payload.ticket : undefined;
}
