import { LIMITS, READ_AT_HEADER, READ_END_HEADER } from '@helpdesk/protocol';
import { navigate } from 'wouter/use-browser-location';
import { clearSession, getToken, sessionRotation } from '../state/session';
import { ApiError } from './ApiError';
import { takeEarlyRead } from './earlyReads';
import { queryString, type Query } from './queryString';
import { noteReadAt } from './readTimes';

/** Every call goes to the base API path, with the stored bearer token, as JSON (docs/api.md#conventions). */
export const API_BASE = '/api';

/** Pages where a 401 is an answer to the form, not a lost session (docs/product.md#sessions). */
const LOGIN_PAGES = ['/login', '/api-test'];
export const SESSION_EXPIRED_PATH = '/login?session_expired=true';

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Sends no bearer token, so a 401 answers this call only and never ends the stored session. */
  anonymous?: boolean;
}

export async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
  const token = options.anonymous ? null : getToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let init: RequestInit;
  try {
    init = {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: withTimeout(options.signal),
    };
  } catch (error) {
    throw new ApiError({ kind: 'setup', url, reason: reasonOf(error) });
  }

  const path = url + queryString(options.query);
  const early = method === 'GET' ? takeEarlyRead(path, token) : undefined;
  let response: Response;
  try {
    response = await (early ?? fetch(API_BASE + path, init));
  } catch (error) {
    if (options.signal?.aborted) throw error; // cancelled by the caller (TanStack Query), not a failure
    throw new ApiError({ kind: 'no-response', url });
  }

  const payload = await readJson(response);
  if (response.ok) {
    noteReadAt(payload, response.headers.get(READ_AT_HEADER), response.headers.get(READ_END_HEADER));
    return payload as T;
  }

  const body = (payload ?? {}) as { errors?: unknown };
  const error = new ApiError(
    { kind: 'response', status: response.status, url, serverMessage: messageOf(payload) },
    isStringRecord(body.errors) ? body.errors : {},
    payload,
  );
  // A token replaced meanwhile (a password change, a new sign-in) failing is no reason to sign out.
  if (response.status === 401 && token && token === getToken() && !sessionRotation()) endExpiredSession();
  throw error;
}

export const http = {
  get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, { ...options, body: body ?? {} }),
  put: <T>(url: string, body: unknown, options?: RequestOptions) => request<T>('PUT', url, { ...options, body }),
  delete: <T>(url: string, options?: RequestOptions) => request<T>('DELETE', url, options),
};

/**
 * A file the API serves (an attachment, a raw mail, a CSV export), read with the bearer token that
 * a plain link could not send, with the server's file name when it gives one.
 */
export async function fetchFile(url: string, signal?: AbortSignal): Promise<{ blob: Blob; filename: string | undefined }> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(API_BASE + url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ kind: 'no-response', url });
  }
  if (!response.ok) {
    throw new ApiError({ kind: 'response', status: response.status, url, serverMessage: messageOf(await readJson(response)) });
  }
  const filename = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  return { blob: await response.blob(), filename };
}

/** A 401 on a signed-in call clears the session and goes to the login page (docs/product.md#sessions). */
function endExpiredSession() {
  clearSession('expired');
  if (!LOGIN_PAGES.includes(window.location.pathname)) navigate(SESSION_EXPIRED_PATH, { replace: true });
}

function withTimeout(signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(LIMITS.requestTimeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The sentence of an error answer (docs/api.md#errors), when the body is one. */
function messageOf(payload: unknown): string | undefined {
  const message = (payload as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');
