import type { AuthResponse } from '@helpdesk/protocol';
import { isApiError, statusOf } from '../../api/ApiError';
import type { Session } from '../../state/session';

/** Login screen messages (docs/product.md#login). */
export const LOGIN_TEXT = {
  invalidCredentials: 'Invalid credentials, please try again.',
  unexpected: 'An unexpected error occurred. Please try again later.',
  failed: 'Login failed. Please try again.',
  invalidResponse: 'Invalid login response',
} as const;

/** Sign-up screen messages (docs/product.md#sign-up). */
export const SIGNUP_TEXT = {
  failed: 'Signup failed. Please try again.',
  invalidResponse: 'Invalid signup response from server',
} as const;

/** Thrown when a 2xx answer lacks the token or user every sign-in must carry. */
export class InvalidAuthResponse extends Error {}

/** Reads the session out of a sign-in answer, refusing one that lacks either half. */
export function sessionFrom(answer: Partial<AuthResponse> | null | undefined, message: string): Session {
  const token = answer?.token;
  const user = answer?.user;
  if (typeof token !== 'string' || !token || !user || typeof user !== 'object') throw new InvalidAuthResponse(message);
  return { token, user };
}

/**
 * Wrong credentials, a server that is down or silent, and anything else (a rate limit says why
 * in the server's own words) each read differently on the login form.
 */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof InvalidAuthResponse) return error.message;
  const status = statusOf(error);
  if (status === 401) return LOGIN_TEXT.invalidCredentials;
  if (status === undefined || status >= 500) return LOGIN_TEXT.unexpected;
  return (isApiError(error) && error.serverMessage) || LOGIN_TEXT.failed;
}

/** Conflicts, invalid input and refused roles are explained by the server; the rest is generic. */
export function signupErrorMessage(error: unknown): string {
  if (error instanceof InvalidAuthResponse) return error.message;
  const status = statusOf(error);
  if (isApiError(error) && (status === 400 || status === 403 || status === 409)) return error.serverMessage || SIGNUP_TEXT.failed;
  return SIGNUP_TEXT.failed;
}
