/** The query parameter that carries where a signed-out visitor was going, through sign-in or sign-up. */
export const RETURN_PARAM = 'next';

/** Pages that make no sense to come back to after signing in. */
const SIGNED_OUT_PAGES = ['/login', '/signup', '/reset-password'];

/**
 * The page to open after signing in, or null. Only a path of this site is accepted: `//evil.test`,
 * `/\evil.test`, `https://…` or anything that resolves to another origin would turn the login page
 * into an open redirect, so they are refused rather than cleaned up.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are how browsers get tricked into other hosts
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  const base = 'http://return.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base || SIGNED_OUT_PAGES.includes(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The return path of a search string (`?next=…`), checked. */
export const returnPathOf = (search: string): string | null => safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));

/** `/login` (or `/signup`) remembering where to go afterwards; plain when there is nowhere to return to. */
export function withReturnPath(page: '/login' | '/signup', returnTo: string | null): string {
  const target = safeReturnPath(returnTo);
  return target ? `${page}?${RETURN_PARAM}=${encodeURIComponent(target)}` : page;
}
