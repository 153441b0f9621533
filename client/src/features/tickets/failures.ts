import { isApiError, screenMessage } from '../../api/ApiError';

/**
 * The message for a failed save: the screen's own text (docs/product.md#screens), or the server's own words where they
 * explain the refusal (400 invalid input, and 403 naming what this user may not change).
 */
export function saveFailureMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.status === 403) return error.serverMessage || fallback;
  return screenMessage(error, fallback);
}
