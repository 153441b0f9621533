import { NOTIFICATION_PREFERENCES, ROLES, STORAGE_KEYS, type User } from '@helpdesk/protocol';
import { atom } from 'jotai';
import { store } from './store';

export interface Session {
  token: string;
  user: User;
}

/** The token and the user object are kept in localStorage under `token` and `user` (docs/product.md#sessions). */
function readStoredSession(): Session | null {
  try {
    const token = localStorage.getItem(STORAGE_KEYS.token);
    const raw = localStorage.getItem(STORAGE_KEYS.user);
    if (!token || !raw) return null;
    const user: unknown = JSON.parse(raw);
    return looksLikeUser(user) ? { token, user } : null;
  } catch {
    return null;
  }
}

/**
 * A shape check, not the protocol's zod schema: this runs on every first load and zod would put ~40 kB
 * of gzip on the login page. The stored user is replaced by the server's answer to /auth/verify at once.
 */
function looksLikeUser(value: unknown): value is User {
  if (!value || typeof value !== 'object') return false;
  const u = value as Record<string, unknown>;
  return (
    Number.isInteger(u.id) &&
    typeof u.name === 'string' &&
    typeof u.email === 'string' &&
    typeof u.createdAt === 'string' &&
    (ROLES as readonly unknown[]).includes(u.role) &&
    (NOTIFICATION_PREFERENCES as readonly unknown[]).includes(u.email_notifications)
  );
}

const storedSessionAtom = atom<Session | null>(readStoredSession());

/** The signed-in session; writing it keeps localStorage in step. */
export const sessionAtom = atom(
  (get) => get(storedSessionAtom),
  (_get, set, next: Session | null) => {
    if (next) {
      localStorage.setItem(STORAGE_KEYS.token, next.token);
      localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(next.user));
    } else {
      localStorage.removeItem(STORAGE_KEYS.token);
      localStorage.removeItem(STORAGE_KEYS.user);
    }
    set(storedSessionAtom, next);
  },
);

export const userAtom = atom((get) => get(sessionAtom)?.user ?? null);
export const tokenAtom = atom((get) => get(sessionAtom)?.token ?? null);

/**
 * 'checking' while a stored token is verified with the server on load (docs/product.md#sessions); protected routes
 * show 'Checking authentication...' until it settles.
 */
export type AuthStatus = 'checking' | 'settled';
export const authStatusAtom = atom<AuthStatus>(readStoredSession() ? 'checking' : 'settled');

/** Why the last session ended, so the login page can say so. */
export type SignOutReason = 'expired' | 'logout';
export const signOutReasonAtom = atom<SignOutReason | null>(null);

export const getToken = (): string | null => store.get(tokenAtom);
export const setSession = (session: Session): void => {
  store.set(sessionAtom, session);
  store.set(signOutReasonAtom, null);
};
export const updateSessionUser = (user: User): void => {
  const current = store.get(sessionAtom);
  if (current) store.set(sessionAtom, { ...current, user });
};
export const clearSession = (reason: SignOutReason | null = null): void => {
  store.set(sessionAtom, null);
  store.set(signOutReasonAtom, reason);
};

let rotating: Promise<unknown> | null = null;

/**
 * Runs a call that replaces this session's token (changing the password revokes every older token,
 * this tab's included, and answers with a new one). Meanwhile a 401 for the old token, or the server
 * closing the socket, is the expected end of the old token, not a sign-out.
 */
export async function rotateSession<T>(call: () => Promise<T>): Promise<T> {
  const pending = call();
  rotating = pending;
  try {
    return await pending;
  } finally {
    if (rotating === pending) rotating = null;
  }
}

/** The token change under way, if any. */
export const sessionRotation = (): Promise<unknown> | null => rotating;
